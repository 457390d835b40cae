-- +goose Up
-- The whole personal information of a subject is one sealed (AES-256-GCM)
-- JSON value: SSN, date of birth, licence and identification numbers and
-- the rest never sit in the database as plaintext.
CREATE TABLE personal_info (
    subject_id INTEGER PRIMARY KEY REFERENCES subjects(id) ON DELETE CASCADE,
    sealed BLOB NOT NULL,
    saved_at INTEGER NOT NULL
);

-- meta holds facts about the database itself, such as a value sealed with
-- the data key, so a server started with the wrong key refuses to run
-- instead of failing on every applicant later.
CREATE TABLE meta (
    name TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

-- +goose Down
DROP TABLE meta;
DROP TABLE personal_info;
