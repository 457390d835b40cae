-- +goose Up
-- One-time sign-in codes: six digits, stored only as the SHA-256 of the
-- subject id and the code (equal codes of two applicants do not collide),
-- valid for ten minutes, spent by one use, by five wrong tries or by a
-- newer code.
CREATE TABLE login_codes (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    channel TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX login_codes_subject ON login_codes(subject_id, used_at, expires_at);

-- One row per sign-in code request let through, for known and unknown
-- usernames alike (as password_reset_requests), to limit them per username
-- and per IP without saying whether the username exists.
CREATE TABLE login_code_requests (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username TEXT NOT NULL,
    ip TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX login_code_requests_username ON login_code_requests(username, at);
CREATE INDEX login_code_requests_ip ON login_code_requests(ip, at);

-- The same for "Send me a new link" requests.
CREATE TABLE link_renewal_requests (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username TEXT NOT NULL,
    ip TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX link_renewal_requests_username ON link_renewal_requests(username, at);
CREATE INDEX link_renewal_requests_ip ON link_renewal_requests(ip, at);

-- +goose Down
DROP TABLE link_renewal_requests;
DROP TABLE login_code_requests;
DROP TABLE login_codes;
