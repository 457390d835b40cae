-- +goose Up
-- When the applicant declared that what they gave is true and complete:
-- the submission (the move to idv-started) carries the declaration and
-- records its time, in milliseconds; NULL before it.
ALTER TABLE subjects ADD COLUMN declared_at INTEGER;

-- +goose Down
ALTER TABLE subjects DROP COLUMN declared_at;
