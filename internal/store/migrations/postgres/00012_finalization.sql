-- +goose Up
-- Identity-verification sessions: one row per session the provider opened
-- for an applicant. token is sealed (it opens the provider's page).
-- decision is '' until the provider has checked, then approved or declined.
CREATE TABLE idv_sessions (
    id TEXT PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    token TEXT NOT NULL,
    env TEXT NOT NULL,
    status BIGINT NOT NULL DEFAULT 0,
    decision TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX idv_sessions_subject ON idv_sessions(subject_id, created_at);

-- Self-pay attempts: one row per idempotency key. status is pending (sent
-- to the processor, answer not known yet), authorized, declined or failed.
-- Only the processor's authorization id, the card's last four digits and
-- brand are kept: never the number or the CVC.
CREATE TABLE payments (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    idempotency_key TEXT NOT NULL,
    status TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    currency TEXT NOT NULL,
    authorization_id TEXT NOT NULL DEFAULT '',
    last4 TEXT NOT NULL DEFAULT '',
    brand TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (subject_id, idempotency_key)
);
-- An applicant pays at most once.
CREATE UNIQUE INDEX payments_one_authorized ON payments(subject_id) WHERE status = 'authorized';

-- The collection site an applicant chose; site is the site as it was then
-- (JSON), so a later change in the network does not change what they saw.
CREATE TABLE subject_collection_sites (
    subject_id BIGINT PRIMARY KEY REFERENCES subjects(id) ON DELETE CASCADE,
    site_id BIGINT NOT NULL,
    site TEXT NOT NULL,
    chosen_at BIGINT NOT NULL,
    collected_at BIGINT
);

-- The built-in sandboxes' state (identity-verification sessions, payment
-- authorizations), kept here so every instance sees it.
CREATE TABLE sandbox_records (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (kind, key)
);
CREATE INDEX sandbox_records_expiry ON sandbox_records(expires_at);

-- +goose Down
DROP TABLE sandbox_records;
DROP TABLE subject_collection_sites;
DROP TABLE payments;
DROP TABLE idv_sessions;
