-- +goose Up
-- A mail's body is sealed (sealed_body; body stays '' for new rows) and
-- dropped once delivered or once the link in it expired
-- (body_expires_at, NULL when it holds no link): a backup must not hold
-- working reset or invitation links. Rows of earlier versions are sealed
-- by the first start with the data key, which also seals signature images
-- in place (legal_signatures.signature_png).
ALTER TABLE outbox ADD COLUMN sealed_body BYTEA;
ALTER TABLE outbox ADD COLUMN body_expires_at BIGINT;
CREATE INDEX outbox_body_expires ON outbox(body_expires_at) WHERE sealed_body IS NOT NULL;

-- +goose Down
DROP INDEX outbox_body_expires;
ALTER TABLE outbox DROP COLUMN body_expires_at;
ALTER TABLE outbox DROP COLUMN sealed_body;
