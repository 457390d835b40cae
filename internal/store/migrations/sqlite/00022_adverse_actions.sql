-- +goose Up
-- Adverse action (issue 24): the pre-adverse notice an employer sends
-- before deciding against an applicant because of the report, and the
-- final notice after the waiting period. One per applicant.

-- The waiting period in business days a company gives (company set-pref
-- adverse_action_waiting_days).
ALTER TABLE companies ADD COLUMN adverse_action_waiting_days INTEGER NOT NULL DEFAULT 5;

-- ends_on is the waiting period's last business day (YYYY-MM-DD, UTC);
-- based_on the service codes the decision would rest on, comma-separated;
-- the notes are the operator's words to the applicant.
CREATE TABLE adverse_actions (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER NOT NULL UNIQUE REFERENCES subjects(id) ON DELETE CASCADE,
    sent_at INTEGER NOT NULL,
    waiting_days INTEGER NOT NULL,
    ends_on TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    based_on TEXT NOT NULL DEFAULT '',
    final_at INTEGER,
    final_note TEXT NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE adverse_actions;
ALTER TABLE companies DROP COLUMN adverse_action_waiting_days;
