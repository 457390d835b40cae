-- +goose Up
-- Each applicant's version (issue 27): moved on by triggers, in the same
-- transaction, at every write to the rows the subject view
-- (GET /api/v2/user/subject) is built from, so an answer kept in memory is
-- answered again only while its version is the current one, on every
-- instance (docs/architecture.md, "The subject view's cache"). No foreign
-- key: a deleted subject's version stays, and moves on at the deletion, so
-- a reused id never meets an answer kept for the old one.
CREATE TABLE subject_versions (
    subject_id INTEGER PRIMARY KEY,
    version INTEGER NOT NULL
);


-- +goose StatementBegin
CREATE TRIGGER subject_version_subjects_insert AFTER INSERT ON subjects BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subjects_update AFTER UPDATE ON subjects BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subjects_delete AFTER DELETE ON subjects BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (OLD.id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_personal_info_insert AFTER INSERT ON personal_info BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_personal_info_update AFTER UPDATE ON personal_info BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_personal_info_delete AFTER DELETE ON personal_info BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (OLD.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_locations_insert AFTER INSERT ON subject_locations BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_locations_update AFTER UPDATE ON subject_locations BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_locations_delete AFTER DELETE ON subject_locations BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (OLD.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_records_insert AFTER INSERT ON subject_records BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_records_update AFTER UPDATE ON subject_records BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_records_delete AFTER DELETE ON subject_records BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (OLD.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_legal_signatures_insert AFTER INSERT ON legal_signatures BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_legal_signatures_update AFTER UPDATE ON legal_signatures BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_legal_signatures_delete AFTER DELETE ON legal_signatures BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (OLD.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_documents_insert AFTER INSERT ON subject_documents BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_documents_update AFTER UPDATE ON subject_documents BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_documents_delete AFTER DELETE ON subject_documents BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (OLD.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_pdf_forms_insert AFTER INSERT ON subject_pdf_forms BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_pdf_forms_update AFTER UPDATE ON subject_pdf_forms BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (NEW.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subject_version_subject_pdf_forms_delete AFTER DELETE ON subject_pdf_forms BEGIN
    INSERT INTO subject_versions (subject_id, version) VALUES (OLD.subject_id, 1) ON CONFLICT (subject_id) DO UPDATE SET version = subject_versions.version + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER subject_version_subjects_insert;
DROP TRIGGER subject_version_subjects_update;
DROP TRIGGER subject_version_subjects_delete;
DROP TRIGGER subject_version_personal_info_insert;
DROP TRIGGER subject_version_personal_info_update;
DROP TRIGGER subject_version_personal_info_delete;
DROP TRIGGER subject_version_subject_locations_insert;
DROP TRIGGER subject_version_subject_locations_update;
DROP TRIGGER subject_version_subject_locations_delete;
DROP TRIGGER subject_version_subject_records_insert;
DROP TRIGGER subject_version_subject_records_update;
DROP TRIGGER subject_version_subject_records_delete;
DROP TRIGGER subject_version_legal_signatures_insert;
DROP TRIGGER subject_version_legal_signatures_update;
DROP TRIGGER subject_version_legal_signatures_delete;
DROP TRIGGER subject_version_subject_documents_insert;
DROP TRIGGER subject_version_subject_documents_update;
DROP TRIGGER subject_version_subject_documents_delete;
DROP TRIGGER subject_version_subject_pdf_forms_insert;
DROP TRIGGER subject_version_subject_pdf_forms_update;
DROP TRIGGER subject_version_subject_pdf_forms_delete;
DROP TABLE subject_versions;
