-- +goose Up
-- The kinds of documents a package asks applicants to upload (the
-- profile's documentTypes), in rank order.
CREATE TABLE package_document_types (
    package_id BIGINT NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    required BOOLEAN NOT NULL DEFAULT FALSE,
    rank INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (package_id, type)
);

-- What applicants uploaded: one row per file, its content in files.
CREATE TABLE subject_documents (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    document_type TEXT NOT NULL,
    file_id BIGINT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);
CREATE INDEX subject_documents_subject ON subject_documents(subject_id);

-- Fillable PDF forms of a package: the blank template (a file of nobody's
-- in particular) and its field names (a sorted JSON array) that every
-- submission must have. states is a JSON array of state codes ('US-ID')
-- limiting the form to applicants who live, work or lived there; '[]' is
-- everyone.
CREATE TABLE pdf_forms (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    package_id BIGINT NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    file_id BIGINT NOT NULL REFERENCES files(id),
    field_names TEXT NOT NULL,
    states TEXT NOT NULL DEFAULT '[]',
    required BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL,
    UNIQUE (package_id, code)
);

-- An applicant's latest filled copy of each form.
CREATE TABLE subject_pdf_forms (
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    form_id BIGINT NOT NULL REFERENCES pdf_forms(id) ON DELETE CASCADE,
    file_id BIGINT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    submitted_at BIGINT NOT NULL,
    PRIMARY KEY (subject_id, form_id)
);

-- Reports an operator attached for the applicant to download: the latest
-- of each kind.
CREATE TABLE subject_reports (
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('report', 'drug-report', 'ecoc-form')),
    file_id BIGINT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (subject_id, kind)
);

-- +goose Down
DROP TABLE subject_reports;
DROP TABLE subject_pdf_forms;
DROP TABLE pdf_forms;
DROP TABLE subject_documents;
DROP TABLE package_document_types;
