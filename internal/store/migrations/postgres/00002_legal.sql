-- +goose Up
-- A company's legal documents. The text is versioned: every change adds a
-- version, the current one is the highest, and a signature names the version
-- it signed, so an old signature keeps proving what was shown.
CREATE TABLE legal_documents (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    document_type TEXT NOT NULL,
    visibility TEXT NOT NULL,
    code TEXT NOT NULL,
    editable BOOLEAN NOT NULL DEFAULT TRUE,
    title TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (company_id, code)
);

-- Where a regional document applies: a state code ('US-CA'), a county id
-- (FIPS, 6075), or both.
CREATE TABLE legal_document_regions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id BIGINT NOT NULL REFERENCES legal_documents(id) ON DELETE CASCADE,
    state_code TEXT NOT NULL DEFAULT '',
    county_id BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX legal_document_regions_document ON legal_document_regions(document_id);

-- content is sanitized HTML with the text tokens not yet replaced.
CREATE TABLE legal_document_versions (
    document_id BIGINT NOT NULL REFERENCES legal_documents(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    content TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (document_id, version)
);

-- The audit record of a signature. content is exactly what the applicant was
-- shown (tokens replaced) and content_sha256 its hash; signature_png is NULL
-- for acknowledgement-only steps; fields is the JSON of what was typed and
-- ticked; outcome 'paper_forms' records a declined e-sign consent.
CREATE TABLE legal_signatures (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id BIGINT NOT NULL REFERENCES legal_documents(id) ON DELETE CASCADE,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    document_version INTEGER NOT NULL,
    content TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    signature_png BYTEA,
    signer_name TEXT NOT NULL,
    user_ip TEXT NOT NULL,
    fields TEXT NOT NULL DEFAULT '{}',
    outcome TEXT NOT NULL CHECK (outcome IN ('signed', 'paper_forms')),
    created_at BIGINT NOT NULL,
    UNIQUE (document_id, subject_id)
);
CREATE INDEX legal_signatures_subject ON legal_signatures(subject_id);

-- Where the applicant lives (set by the applicant) and will work (set by the
-- operator); it decides which regional documents apply.
CREATE TABLE subject_locations (
    subject_id BIGINT PRIMARY KEY REFERENCES subjects(id) ON DELETE CASCADE,
    residency_non_us BOOLEAN NOT NULL DEFAULT FALSE,
    residency_state TEXT NOT NULL DEFAULT '',
    residency_county BIGINT NOT NULL DEFAULT 0,
    employment_non_us BOOLEAN NOT NULL DEFAULT FALSE,
    employment_state TEXT NOT NULL DEFAULT '',
    employment_county BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

-- Why an order waits for someone outside the portal, e.g. 'paper_forms'
-- when the applicant declined electronic signing.
ALTER TABLE orders ADD COLUMN hold_reason TEXT;

-- +goose Down
ALTER TABLE orders DROP COLUMN hold_reason;
DROP TABLE subject_locations;
DROP TABLE legal_signatures;
DROP TABLE legal_document_versions;
DROP TABLE legal_document_regions;
DROP TABLE legal_documents;
