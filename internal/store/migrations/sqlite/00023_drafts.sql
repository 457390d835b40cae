-- +goose Up
-- What an applicant typed into a form and has not submitted yet: one draft
-- per subject and form (personal, aliases, addresses, account,
-- service:CODE). Only the changed fields are kept, as one JSON object
-- sealed with the data key for this row's place (drafts hold SSNs, dates of
-- birth and licence numbers). Kept apart from the submitted data, which a
-- draft never changes. expires_at moves with every save; an expired draft
-- is never answered and the sweep deletes it.
CREATE TABLE drafts (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    form_key TEXT NOT NULL,
    sealed BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    UNIQUE (subject_id, form_key)
);
CREATE INDEX drafts_expires ON drafts(expires_at);

-- +goose Down
DROP TABLE drafts;
