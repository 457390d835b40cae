-- +goose Up
-- Disputes (FCRA section 611): the applicant's challenge of the report or
-- one service in it, its messages, and its evidence. The explanation, the
-- resolution and every message are sealed, each bound to its row.
-- service_code is empty for the report as a whole; due_at is 30 days from
-- received_at, 45 once extended.
CREATE TABLE disputes (
    id INTEGER PRIMARY KEY,
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    service_code TEXT NOT NULL DEFAULT '',
    service_name TEXT NOT NULL DEFAULT '',
    explanation BLOB NOT NULL,
    state TEXT NOT NULL,
    outcome TEXT NOT NULL DEFAULT '',
    resolution BLOB,
    received_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    extended INTEGER NOT NULL DEFAULT 0,
    resolved_at INTEGER
);
CREATE INDEX disputes_subject ON disputes(subject_id, id);
CREATE INDEX disputes_due ON disputes(state, due_at);

-- An operator's answer or information the applicant added.
CREATE TABLE dispute_messages (
    id INTEGER PRIMARY KEY,
    dispute_id INTEGER NOT NULL REFERENCES disputes(id) ON DELETE CASCADE,
    author TEXT NOT NULL,
    body BLOB NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX dispute_messages_dispute ON dispute_messages(dispute_id, id);

-- Evidence: files of the dispute (message_id NULL: sent when it was
-- opened) or of one message.
CREATE TABLE dispute_files (
    id INTEGER PRIMARY KEY,
    dispute_id INTEGER NOT NULL REFERENCES disputes(id) ON DELETE CASCADE,
    message_id INTEGER REFERENCES dispute_messages(id) ON DELETE CASCADE,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE
);
CREATE INDEX dispute_files_dispute ON dispute_files(dispute_id, id);
CREATE INDEX dispute_files_file ON dispute_files(file_id);

-- +goose Down
DROP TABLE dispute_files;
DROP TABLE dispute_messages;
DROP TABLE disputes;
