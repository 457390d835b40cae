-- +goose Up
-- Reading the report: the sessions that confirmed the applicant's
-- identity, the wrong answers that lock the confirmation, every view and
-- download, and the free copy's delivery.

-- A session (token family) that confirmed who the applicant is may open
-- the reports until expires_at. A grant goes with its family (Sweep).
CREATE TABLE report_grants (
    family_id BIGINT PRIMARY KEY REFERENCES token_families(id) ON DELETE CASCADE,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);

-- Wrong answers in a row, across sessions; a right one clears them, the
-- last allowed one locks the confirmation until locked_until.
CREATE TABLE report_identity_checks (
    subject_id BIGINT PRIMARY KEY REFERENCES subjects(id) ON DELETE CASCADE,
    failures BIGINT NOT NULL DEFAULT 0,
    locked_until BIGINT
);

-- Every view (inline) and download (attachment) of a report, by the
-- applicant of the session, from address.
CREATE TABLE report_views (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    family_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    disposition TEXT NOT NULL CHECK (disposition IN ('inline', 'attachment')),
    address TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX report_views_subject ON report_views(subject_id, id);

-- The free copy of the background report, sent once: when, and by which
-- channels (comma separated: email, text).
CREATE TABLE report_copies (
    subject_id BIGINT PRIMARY KEY REFERENCES subjects(id) ON DELETE CASCADE,
    channels TEXT NOT NULL,
    sent_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE report_copies;
DROP TABLE report_views;
DROP TABLE report_identity_checks;
DROP TABLE report_grants;
