-- +goose Up
-- Files (uploads, filled-in forms) live in the database, so every instance
-- sharing it sees every file. The content is split into chunks of at most
-- 256 KiB (store.FileChunkSize), so neither the database nor the portal
-- ever holds a 20 MB value at once. A file is complete once its size and
-- SHA-256 are set; an incomplete one is an upload in progress or one that
-- was cut off.
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER REFERENCES subjects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL DEFAULT 0,
    sha256 TEXT NOT NULL DEFAULT '',
    complete INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX files_subject ON files(subject_id);
CREATE INDEX files_complete_created ON files(complete, created_at);

CREATE TABLE file_chunks (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (file_id, seq)
);

-- +goose Down
DROP TABLE file_chunks;
DROP TABLE files;
