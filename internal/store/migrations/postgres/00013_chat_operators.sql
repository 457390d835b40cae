-- +goose Up
-- Chat between an applicant and their employer. sender is 'subject' (the
-- applicant) or 'employer' (an operator, through `portal chat reply` or
-- the operator API); sender_name is what the applicant sees beside an
-- employer's message. body is sealed (applicants type PII into chat).
-- read_at is when the other side read it: the applicant reads employer
-- messages (POST .../read), an operator reads the applicant's (chat show).
CREATE TABLE chat_messages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    sender TEXT NOT NULL,
    sender_name TEXT NOT NULL DEFAULT '',
    body BYTEA NOT NULL,
    file_id BIGINT REFERENCES files(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    read_at BIGINT
);
CREATE INDEX chat_messages_subject ON chat_messages(subject_id, id);
CREATE INDEX chat_messages_unread ON chat_messages(subject_id, sender) WHERE read_at IS NULL;

-- When an applicant last had the chat open (an event stream or a read of
-- the messages): an employer's message to an applicant who is away is
-- also e-mailed.
CREATE TABLE chat_presence (
    subject_id BIGINT PRIMARY KEY REFERENCES subjects(id) ON DELETE CASCADE,
    seen_at BIGINT NOT NULL
);

-- Events published on SQLite: every process on the database reads the
-- rows after the last it saw, so a reply through `portal chat reply`
-- reaches the server's event streams. PostgreSQL carries events with
-- LISTEN/NOTIFY and leaves this table empty.
CREATE TABLE events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A banner may end by itself (ends_at) and may be one company's only
-- (company_id; NULL is every applicant's).
ALTER TABLE banners ADD COLUMN ends_at BIGINT;
ALTER TABLE banners ADD COLUMN company_id BIGINT REFERENCES companies(id) ON DELETE CASCADE;

-- Operator API keys: one company each, stored as a SHA-256 hash of the
-- secret (the secret is shown once); prefix identifies a key in lists.
CREATE TABLE api_keys (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at BIGINT
);
CREATE INDEX api_keys_company ON api_keys(company_id);

-- Delivery of the outbox over SMTP: a sender claims a row until
-- claimed_until, sends it, then sets sent_at; a failure counts an attempt
-- and keeps its error for `portal outbox`.
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN claimed_until BIGINT;
ALTER TABLE outbox ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
CREATE INDEX outbox_unsent ON outbox(id) WHERE sent_at IS NULL;

-- The reminder of an invitation not started after three days is sent once.
ALTER TABLE subjects ADD COLUMN invite_reminded_at BIGINT;

-- +goose Down
ALTER TABLE subjects DROP COLUMN invite_reminded_at;
DROP INDEX outbox_unsent;
ALTER TABLE outbox DROP COLUMN last_error;
ALTER TABLE outbox DROP COLUMN claimed_until;
ALTER TABLE outbox DROP COLUMN attempts;
DROP TABLE api_keys;
ALTER TABLE banners DROP COLUMN company_id;
ALTER TABLE banners DROP COLUMN ends_at;
DROP TABLE events;
DROP TABLE chat_presence;
DROP TABLE chat_messages;
