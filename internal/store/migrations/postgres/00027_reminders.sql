-- +goose Up
-- Reminders (issue 25): one row per applicant with what the scheduler
-- needs beside the subject. invited_at starts the reminder window (the
-- operator's latest invitation); active_at is when the app was last opened
-- signed in; time_zone the browser's IANA zone (quiet hours before an
-- address exists); sent_count and last_sent_at the reminders since
-- invited_at; stopped_at set by a stop link. It replaces the one
-- invitation reminder's subjects.invite_reminded_at.
CREATE TABLE subject_reminders (
    subject_id BIGINT PRIMARY KEY REFERENCES subjects(id) ON DELETE CASCADE,
    invited_at BIGINT NOT NULL,
    active_at BIGINT,
    time_zone TEXT NOT NULL DEFAULT '',
    sent_count INTEGER NOT NULL DEFAULT 0,
    last_sent_at BIGINT,
    stopped_at BIGINT
);
INSERT INTO subject_reminders (subject_id, invited_at, sent_count, last_sent_at)
SELECT s.id, COALESCE((SELECT MAX(i.created_at) FROM invitations i WHERE i.subject_id = s.id), s.created_at),
    CASE WHEN s.invite_reminded_at IS NULL THEN 0 ELSE 1 END, s.invite_reminded_at
FROM subjects s;
ALTER TABLE subjects DROP COLUMN invite_reminded_at;

-- The stop links: each reminder carries a random token of its own, kept
-- here hashed, so the link in an older reminder still works.
CREATE TABLE reminder_stop_links (
    token_hash TEXT PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);
CREATE INDEX reminder_stop_links_subject ON reminder_stop_links(subject_id);

-- +goose Down
DROP TABLE reminder_stop_links;
ALTER TABLE subjects ADD COLUMN invite_reminded_at BIGINT;
UPDATE subjects SET invite_reminded_at = (SELECT r.last_sent_at FROM subject_reminders r WHERE r.subject_id = subjects.id);
DROP TABLE subject_reminders;
