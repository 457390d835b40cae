-- +goose Up
-- Times are Unix milliseconds in both dialects, so comparisons and ordering
-- behave the same on SQLite and PostgreSQL.
CREATE TABLE companies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    logo_url TEXT NOT NULL DEFAULT '',
    accounting_code TEXT NOT NULL DEFAULT '',
    subject_chat INTEGER NOT NULL DEFAULT 0,
    subject_password_length INTEGER NOT NULL DEFAULT 15,
    require_ssn INTEGER NOT NULL DEFAULT 0,
    applicant_collection_site_selection INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);

CREATE TABLE packages (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    self_pay_enabled INTEGER NOT NULL DEFAULT 0,
    self_pay_initial_hold_amount TEXT NOT NULL DEFAULT '0.00',
    is_default INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX packages_company ON packages(company_id);

CREATE TABLE package_services (
    id INTEGER PRIMARY KEY,
    package_id INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (package_id, code)
);

CREATE TABLE subjects (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    username TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    phone TEXT NOT NULL DEFAULT '',
    password_hash TEXT,
    status_id INTEGER NOT NULL DEFAULT 0,
    full_profile INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX subjects_company ON subjects(company_id);

CREATE TABLE profiles (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER NOT NULL UNIQUE REFERENCES subjects(id) ON DELETE CASCADE,
    number TEXT NOT NULL UNIQUE,
    status_id INTEGER NOT NULL DEFAULT 32,
    created_at INTEGER NOT NULL
);

CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    package_id INTEGER REFERENCES packages(id),
    status_id INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX orders_profile ON orders(profile_id);

CREATE TABLE invitations (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);
CREATE INDEX invitations_subject ON invitations(subject_id);

CREATE TABLE oauth_clients (
    id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- A family is one login: the refresh tokens it rotates through and the
-- access tokens they issue. Revoking the family ends them all.
CREATE TABLE token_families (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    scope TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX token_families_subject ON token_families(subject_id);

CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    family_id INTEGER NOT NULL REFERENCES token_families(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);
CREATE INDEX tokens_family ON tokens(family_id);

CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL,
    ip TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX login_failures_username ON login_failures(username, at);
CREATE INDEX login_failures_ip ON login_failures(ip, at);

CREATE TABLE password_resets (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    sent_at INTEGER
);

CREATE TABLE banners (
    id INTEGER PRIMARY KEY,
    message TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);

CREATE TABLE banner_dismissals (
    banner_id INTEGER NOT NULL REFERENCES banners(id) ON DELETE CASCADE,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    dismissed_at INTEGER NOT NULL,
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
