-- +goose Up
-- Continue on another device: a one-time link that opens the same page of
-- the portal on another device, signed in. Only the token's SHA-256 is
-- kept; the link works once (used_at), until expires_at (10 minutes).
-- family_id and address say which login, from where, made it; the rows of
-- the last hour also count the subject's links for the throttle.
CREATE TABLE handoffs (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    family_id INTEGER NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    sent_by TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);
CREATE INDEX handoffs_subject ON handoffs(subject_id, created_at);
CREATE INDEX handoffs_expires ON handoffs(expires_at);

-- +goose Down
DROP TABLE handoffs;
