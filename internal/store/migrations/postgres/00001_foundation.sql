-- +goose Up
-- Times are Unix milliseconds in both dialects, so comparisons and ordering
-- behave the same on SQLite and PostgreSQL.
CREATE TABLE companies (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    logo_url TEXT NOT NULL DEFAULT '',
    accounting_code TEXT NOT NULL DEFAULT '',
    subject_chat BOOLEAN NOT NULL DEFAULT FALSE,
    subject_password_length INTEGER NOT NULL DEFAULT 15,
    require_ssn BOOLEAN NOT NULL DEFAULT FALSE,
    applicant_collection_site_selection BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL
);

CREATE TABLE packages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    self_pay_enabled BOOLEAN NOT NULL DEFAULT FALSE,
    self_pay_initial_hold_amount TEXT NOT NULL DEFAULT '0.00',
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL
);
CREATE INDEX packages_company ON packages(company_id);

CREATE TABLE package_services (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    package_id BIGINT NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (package_id, code)
);

CREATE TABLE subjects (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id),
    username TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    phone TEXT NOT NULL DEFAULT '',
    password_hash TEXT,
    status_id INTEGER NOT NULL DEFAULT 0,
    full_profile BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX subjects_company ON subjects(company_id);

CREATE TABLE profiles (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL UNIQUE REFERENCES subjects(id) ON DELETE CASCADE,
    number TEXT NOT NULL UNIQUE,
    status_id INTEGER NOT NULL DEFAULT 32,
    created_at BIGINT NOT NULL
);

CREATE TABLE orders (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    profile_id BIGINT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    package_id BIGINT REFERENCES packages(id),
    status_id INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX orders_profile ON orders(profile_id);

CREATE TABLE invitations (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX invitations_subject ON invitations(subject_id);

CREATE TABLE oauth_clients (
    id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A family is one login: the refresh tokens it rotates through and the
-- access tokens they issue. Revoking the family ends them all.
CREATE TABLE token_families (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    scope TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX token_families_subject ON token_families(subject_id);

CREATE TABLE tokens (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    family_id BIGINT NOT NULL REFERENCES token_families(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX tokens_family ON tokens(family_id);

CREATE TABLE login_failures (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username TEXT NOT NULL,
    ip TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX login_failures_username ON login_failures(username, at);
CREATE INDEX login_failures_ip ON login_failures(ip, at);

CREATE TABLE password_resets (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);

CREATE TABLE outbox (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    sent_at BIGINT
);

CREATE TABLE banners (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL
);

CREATE TABLE banner_dismissals (
    banner_id BIGINT NOT NULL REFERENCES banners(id) ON DELETE CASCADE,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    dismissed_at BIGINT NOT NULL,
    PRIMARY KEY (banner_id, subject_id)
);

-- +goose Down
DROP TABLE banner_dismissals;
DROP TABLE banners;
DROP TABLE outbox;
DROP TABLE password_resets;
DROP TABLE login_failures;
DROP TABLE tokens;
DROP TABLE token_families;
DROP TABLE oauth_clients;
DROP TABLE invitations;
DROP TABLE orders;
DROP TABLE profiles;
DROP TABLE subjects;
DROP TABLE package_services;
DROP TABLE packages;
DROP TABLE companies;
