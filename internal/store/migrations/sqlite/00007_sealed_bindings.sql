-- +goose Up
-- The values of a signature that identify the applicant (the last four
-- digits of the SSN, the identification number of a DOT release) are kept
-- sealed here, bound to their row, instead of in the plain JSON of fields.
-- Store.Open moves values stored before into it (sealRows).
ALTER TABLE legal_signatures ADD COLUMN sealed_fields BLOB;

-- +goose Down
ALTER TABLE legal_signatures DROP COLUMN sealed_fields;
