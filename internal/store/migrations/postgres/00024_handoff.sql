-- +goose Up
-- Continue on another device: a one-time link that opens the same page of
-- the portal on another device, signed in. Only the token's SHA-256 is
-- kept; the link works once (used_at), until expires_at (10 minutes).
-- family_id and address say which login, from where, made it; the rows of
-- the last hour also count the subject's links for the throttle.
CREATE TABLE handoffs (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    family_id BIGINT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    sent_by TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX handoffs_subject ON handoffs(subject_id, created_at);
CREATE INDEX handoffs_expires ON handoffs(expires_at);

-- +goose Down
DROP TABLE handoffs;
