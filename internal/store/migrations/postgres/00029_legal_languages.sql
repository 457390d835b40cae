-- +goose Up
-- A legal document has a text per language (issue 26): the English one in
-- legal_document_versions, always, and a translation per other language
-- here, each versioned on its own (the current one is the highest), with
-- its own title. A request in a language the document has no text in is
-- shown the English.
CREATE TABLE legal_document_translations (
    document_id BIGINT NOT NULL REFERENCES legal_documents(id) ON DELETE CASCADE,
    language TEXT NOT NULL,
    version INTEGER NOT NULL,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (document_id, language, version)
);

-- The language of the text a signature signed: document_version is a
-- version of that language's text, and content is in it.
ALTER TABLE legal_signatures ADD COLUMN language TEXT NOT NULL DEFAULT 'en-US';

-- +goose Down
ALTER TABLE legal_signatures DROP COLUMN language;
DROP TABLE legal_document_translations;
