-- +goose Up
-- The names an applicant was invited with. A signature's typed name is
-- checked against these, which the applicant cannot change. Subjects from
-- before this migration get their current names, the best record there is.
ALTER TABLE subjects ADD COLUMN invited_first_name TEXT NOT NULL DEFAULT '';
ALTER TABLE subjects ADD COLUMN invited_last_name TEXT NOT NULL DEFAULT '';
UPDATE subjects SET invited_first_name = first_name, invited_last_name = last_name;

-- A requested change of a subject's e-mail address (and so of its
-- username): it takes effect only when the link mailed to the new address
-- is opened. Only the link token's hash is stored. password_fingerprint is
-- a hash of the password hash at request time: a password change or reset
-- in between voids the request. A newer request replaces the pending one.
CREATE TABLE email_changes (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    new_email TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    password_fingerprint TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    replaced_at BIGINT
);
CREATE INDEX email_changes_subject ON email_changes(subject_id);

-- +goose Down
DROP TABLE email_changes;
ALTER TABLE subjects DROP COLUMN invited_last_name;
ALTER TABLE subjects DROP COLUMN invited_first_name;
