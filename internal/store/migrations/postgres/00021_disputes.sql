-- +goose Up
-- Disputes (FCRA section 611): the applicant's challenge of the report or
-- one service in it, its messages, and its evidence. The explanation, the
-- resolution and every message are sealed, each bound to its row.
-- service_code is empty for the report as a whole; due_at is 30 days from
-- received_at, 45 once extended.
CREATE TABLE disputes (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    service_code TEXT NOT NULL DEFAULT '',
    service_name TEXT NOT NULL DEFAULT '',
    explanation BYTEA NOT NULL,
    state TEXT NOT NULL,
    outcome TEXT NOT NULL DEFAULT '',
    resolution BYTEA,
    received_at BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    extended BOOLEAN NOT NULL DEFAULT FALSE,
    resolved_at BIGINT
);
CREATE INDEX disputes_subject ON disputes(subject_id, id);
CREATE INDEX disputes_due ON disputes(state, due_at);

-- An operator's answer or information the applicant added.
CREATE TABLE dispute_messages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dispute_id BIGINT NOT NULL REFERENCES disputes(id) ON DELETE CASCADE,
    author TEXT NOT NULL,
    body BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX dispute_messages_dispute ON dispute_messages(dispute_id, id);

-- Evidence: files of the dispute (message_id NULL: sent when it was
-- opened) or of one message.
CREATE TABLE dispute_files (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dispute_id BIGINT NOT NULL REFERENCES disputes(id) ON DELETE CASCADE,
    message_id BIGINT REFERENCES dispute_messages(id) ON DELETE CASCADE,
    file_id BIGINT NOT NULL REFERENCES files(id) ON DELETE CASCADE
);
CREATE INDEX dispute_files_dispute ON dispute_files(dispute_id, id);
CREATE INDEX dispute_files_file ON dispute_files(file_id);

-- +goose Down
DROP TABLE dispute_files;
DROP TABLE dispute_messages;
DROP TABLE disputes;
