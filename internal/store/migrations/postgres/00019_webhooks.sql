-- +goose Up
-- Webhooks: the endpoints employers' systems receive events at, one
-- delivery per event and active endpoint (created with the event, in the
-- transaction of what it tells), and every attempt of each delivery.

-- sealed_secret is the signing secret sealed with the data key, bound to
-- the row's id: the server must sign with it, so it cannot be a hash.
-- A removed endpoint stays, with its deliveries, as their record.
CREATE TABLE webhook_endpoints (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    sealed_secret BYTEA,
    created_at BIGINT NOT NULL,
    removed_at BIGINT
);
CREATE INDEX webhook_endpoints_company ON webhook_endpoints(company_id, id);

-- state is pending, delivered, failed or cancelled. A worker claims a due
-- pending delivery until claimed_until, so that servers delivering at
-- once never send one twice at the same time.
CREATE TABLE webhook_deliveries (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
    endpoint_id BIGINT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_until BIGINT,
    last_status BIGINT NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    delivered_at BIGINT,
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);

-- status is the HTTP status answered (0: none came), duration_ms how long
-- the attempt took.
CREATE TABLE webhook_attempts (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id BIGINT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempted_at BIGINT NOT NULL,
    status BIGINT NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    duration_ms BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);

-- A text the provider refused for good (an invalid or landline number),
-- or that failed too often, is given up at failed_at.
ALTER TABLE sms_outbox ADD COLUMN failed_at BIGINT;

-- +goose Down
ALTER TABLE sms_outbox DROP COLUMN failed_at;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
