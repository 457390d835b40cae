-- +goose Up
-- Files (uploads, filled-in forms) live in the database, so every instance
-- sharing it sees every file. The content is split into chunks of at most
-- 256 KiB (store.FileChunkSize), so neither the database nor the portal
-- ever holds a 20 MB value at once. A file is complete once its size and
-- SHA-256 are set; an incomplete one is an upload in progress or one that
-- was cut off.
CREATE TABLE files (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT REFERENCES subjects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size BIGINT NOT NULL DEFAULT 0,
    sha256 TEXT NOT NULL DEFAULT '',
    complete BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL
);
CREATE INDEX files_subject ON files(subject_id);
CREATE INDEX files_complete_created ON files(complete, created_at);

-- The chunks are already compressed or random-looking (images, PDFs) more
-- often than not: EXTERNAL keeps them out of line without trying to
-- compress them again.
CREATE TABLE file_chunks (
    file_id BIGINT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (file_id, seq)
);
ALTER TABLE file_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

-- +goose Down
DROP TABLE file_chunks;
DROP TABLE files;
