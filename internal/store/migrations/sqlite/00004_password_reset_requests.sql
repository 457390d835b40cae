-- +goose Up
-- One row per password-reset request that was let through, for known and
-- unknown usernames alike, so requests can be limited per username and per
-- IP without the answer saying whether the username exists.
CREATE TABLE password_reset_requests (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL,
    ip TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX password_reset_requests_username ON password_reset_requests(username, at);
CREATE INDEX password_reset_requests_ip ON password_reset_requests(ip, at);

-- +goose Down
DROP TABLE password_reset_requests;
