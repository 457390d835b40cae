-- +goose Up
-- Each applicant's version (issue 27): moved on by triggers, in the same
-- transaction, at every write to the rows the subject view
-- (GET /api/v2/user/subject) is built from, so an answer kept in memory is
-- answered again only while its version is the current one, on every
-- instance (docs/architecture.md, "The subject view's cache"). No foreign
-- key: a deleted subject's version stays, and moves on at the deletion, so
-- a reused id never meets an answer kept for the old one.
CREATE TABLE subject_versions (
    subject_id BIGINT PRIMARY KEY,
    version BIGINT NOT NULL
);


-- +goose StatementBegin
CREATE FUNCTION subject_version_bump() RETURNS trigger AS $$
BEGIN
    INSERT INTO subject_versions (subject_id, version)
        VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.subject_id ELSE NEW.subject_id END, 1)
        ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION subject_version_bump_subject() RETURNS trigger AS $$
BEGIN
    INSERT INTO subject_versions (subject_id, version)
        VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END, 1)
        ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER subject_version AFTER INSERT OR UPDATE OR DELETE ON subjects FOR EACH ROW EXECUTE FUNCTION subject_version_bump_subject();
CREATE TRIGGER subject_version AFTER INSERT OR UPDATE OR DELETE ON personal_info FOR EACH ROW EXECUTE FUNCTION subject_version_bump();
CREATE TRIGGER subject_version AFTER INSERT OR UPDATE OR DELETE ON subject_locations FOR EACH ROW EXECUTE FUNCTION subject_version_bump();
CREATE TRIGGER subject_version AFTER INSERT OR UPDATE OR DELETE ON subject_records FOR EACH ROW EXECUTE FUNCTION subject_version_bump();
CREATE TRIGGER subject_version AFTER INSERT OR UPDATE OR DELETE ON legal_signatures FOR EACH ROW EXECUTE FUNCTION subject_version_bump();
CREATE TRIGGER subject_version AFTER INSERT OR UPDATE OR DELETE ON subject_documents FOR EACH ROW EXECUTE FUNCTION subject_version_bump();
CREATE TRIGGER subject_version AFTER INSERT OR UPDATE OR DELETE ON subject_pdf_forms FOR EACH ROW EXECUTE FUNCTION subject_version_bump();

-- +goose Down
DROP TRIGGER subject_version ON subjects;
DROP TRIGGER subject_version ON personal_info;
DROP TRIGGER subject_version ON subject_locations;
DROP TRIGGER subject_version ON subject_records;
DROP TRIGGER subject_version ON legal_signatures;
DROP TRIGGER subject_version ON subject_documents;
DROP TRIGGER subject_version ON subject_pdf_forms;
DROP FUNCTION subject_version_bump();
DROP FUNCTION subject_version_bump_subject();
DROP TABLE subject_versions;
