-- +goose Up
-- The Welcome step's "I'll find this later" marks: one row per subject and
-- item of their preparation list (portal.PreparationItemIDs) they marked.
-- A mark never blocks anything; clearing it deletes the row.
CREATE TABLE preparation_marks (
    subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    marked_at BIGINT NOT NULL,
    PRIMARY KEY (subject_id, item_id)
);

-- +goose Down
DROP TABLE preparation_marks;
