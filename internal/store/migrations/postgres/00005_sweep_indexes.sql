-- +goose Up
-- Store.Sweep deletes by age; without these it reads the whole of the
-- tables that grow with every login.
CREATE INDEX tokens_expires ON tokens(expires_at);
CREATE INDEX login_failures_at ON login_failures(at);
CREATE INDEX password_reset_requests_at ON password_reset_requests(at);

-- +goose Down
DROP INDEX tokens_expires;
DROP INDEX login_failures_at;
DROP INDEX password_reset_requests_at;
