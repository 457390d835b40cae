-- +goose Up
-- A document may be signed more than once by the same applicant, once per
-- instance: a DOT release is signed once per DOT-regulated previous employer
-- (49 CFR 40.25 wants an employer-specific release, never a blanket one), and
-- its instance is the employment entry's id. The documents of the setup
-- wizard keep the instance ''.
ALTER TABLE legal_signatures ADD COLUMN instance TEXT NOT NULL DEFAULT '';
ALTER TABLE legal_signatures DROP CONSTRAINT legal_signatures_document_id_subject_id_key;
ALTER TABLE legal_signatures ADD CONSTRAINT legal_signatures_document_subject_instance_key
    UNIQUE (document_id, subject_id, instance);

-- +goose Down
-- Going back keeps only the wizard's signatures: the old table holds one
-- signature per document and subject.
DELETE FROM legal_signatures WHERE instance <> '';
ALTER TABLE legal_signatures DROP CONSTRAINT legal_signatures_document_subject_instance_key;
ALTER TABLE legal_signatures DROP COLUMN instance;
ALTER TABLE legal_signatures ADD CONSTRAINT legal_signatures_document_id_subject_id_key UNIQUE (document_id, subject_id);
