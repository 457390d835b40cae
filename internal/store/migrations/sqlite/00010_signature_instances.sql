-- +goose Up
-- A document may be signed more than once by the same applicant, once per
-- instance: a DOT release is signed once per DOT-regulated previous employer
-- (49 CFR 40.25 wants an employer-specific release, never a blanket one), and
-- its instance is the employment entry's id. The documents of the setup
-- wizard keep the instance ''. SQLite cannot change a UNIQUE constraint in
-- place, so the table is rebuilt with the same columns plus instance.
CREATE TABLE legal_signatures_new (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES legal_documents(id) ON DELETE CASCADE,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    document_version INTEGER NOT NULL,
    content TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    signature_png BLOB,
    signer_name TEXT NOT NULL,
    user_ip TEXT NOT NULL,
    fields TEXT NOT NULL DEFAULT '{}',
    outcome TEXT NOT NULL CHECK (outcome IN ('signed', 'paper_forms')),
    created_at INTEGER NOT NULL,
    sealed_fields BLOB,
    instance TEXT NOT NULL DEFAULT '',
    UNIQUE (document_id, subject_id, instance)
);
INSERT INTO legal_signatures_new (id, document_id, subject_id, document_version, content, content_sha256,
    signature_png, signer_name, user_ip, fields, outcome, created_at, sealed_fields, instance)
SELECT id, document_id, subject_id, document_version, content, content_sha256,
    signature_png, signer_name, user_ip, fields, outcome, created_at, sealed_fields, ''
FROM legal_signatures;
DROP TABLE legal_signatures;
ALTER TABLE legal_signatures_new RENAME TO legal_signatures;
CREATE INDEX legal_signatures_subject ON legal_signatures(subject_id);

-- +goose Down
-- Going back keeps only the wizard's signatures: the old table holds one
-- signature per document and subject.
CREATE TABLE legal_signatures_old (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES legal_documents(id) ON DELETE CASCADE,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    document_version INTEGER NOT NULL,
    content TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    signature_png BLOB,
    signer_name TEXT NOT NULL,
    user_ip TEXT NOT NULL,
    fields TEXT NOT NULL DEFAULT '{}',
    outcome TEXT NOT NULL CHECK (outcome IN ('signed', 'paper_forms')),
    created_at INTEGER NOT NULL,
    sealed_fields BLOB,
    UNIQUE (document_id, subject_id)
);
INSERT INTO legal_signatures_old (id, document_id, subject_id, document_version, content, content_sha256,
    signature_png, signer_name, user_ip, fields, outcome, created_at, sealed_fields)
SELECT id, document_id, subject_id, document_version, content, content_sha256,
    signature_png, signer_name, user_ip, fields, outcome, created_at, sealed_fields
FROM legal_signatures WHERE instance = '';
DROP TABLE legal_signatures;
ALTER TABLE legal_signatures_old RENAME TO legal_signatures;
CREATE INDEX legal_signatures_subject ON legal_signatures(subject_id);
