-- +goose Up
-- Webhooks: the endpoints employers' systems receive events at, one
-- delivery per event and active endpoint (created with the event, in the
-- transaction of what it tells), and every attempt of each delivery.

-- sealed_secret is the signing secret sealed with the data key, bound to
-- the row's id: the server must sign with it, so it cannot be a hash.
-- A removed endpoint stays, with its deliveries, as their record.
CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    sealed_secret BLOB,
    created_at INTEGER NOT NULL,
    removed_at INTEGER
);
CREATE INDEX webhook_endpoints_company ON webhook_endpoints(company_id, id);

-- state is pending, delivered, failed or cancelled. A worker claims a due
-- pending delivery until claimed_until, so that servers delivering at
-- once never send one twice at the same time.
CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
    endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claimed_until INTEGER,
    last_status INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    delivered_at INTEGER,
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);

-- status is the HTTP status answered (0: none came), duration_ms how long
-- the attempt took.
CREATE TABLE webhook_attempts (
    id INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempted_at INTEGER NOT NULL,
    status INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);

-- A text the provider refused for good (an invalid or landline number),
-- or that failed too often, is given up at failed_at.
ALTER TABLE sms_outbox ADD COLUMN failed_at INTEGER;

-- +goose Down
ALTER TABLE sms_outbox DROP COLUMN failed_at;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
