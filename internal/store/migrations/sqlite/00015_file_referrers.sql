-- +goose Up
-- The sweep looks for finished files that nothing refers to (an upload
-- stored, then a crash before the row linking it was written), and
-- deleting a file looks for the rows that refer to it (ON DELETE): both
-- find them by file_id.
CREATE INDEX subject_documents_file ON subject_documents(file_id);
CREATE INDEX pdf_forms_file ON pdf_forms(file_id);
CREATE INDEX subject_pdf_forms_file ON subject_pdf_forms(file_id);
CREATE INDEX subject_reports_file ON subject_reports(file_id);
CREATE INDEX chat_messages_file ON chat_messages(file_id) WHERE file_id IS NOT NULL;

-- +goose Down
DROP INDEX chat_messages_file;
DROP INDEX subject_reports_file;
DROP INDEX subject_pdf_forms_file;
DROP INDEX pdf_forms_file;
DROP INDEX subject_documents_file;
