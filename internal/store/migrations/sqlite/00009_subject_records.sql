-- +goose Up
-- The package decides how many years of address history it needs (gap
-- detection on /addresses).
ALTER TABLE packages ADD COLUMN address_history_years INTEGER NOT NULL DEFAULT 7;

-- The field definitions of a package's service (spec section 3, "service
-- definitions"): a JSON array, sorted by rank when read.
ALTER TABLE package_services ADD COLUMN fields TEXT NOT NULL DEFAULT '[]';

-- What the applicant entered on the data pages, one sealed (AES-256-GCM)
-- JSON document per kind: 'aliases', 'addresses', and 'service:<alias>'
-- (the entries and the noDataAvailable flag of education, employment,
-- credential, professional). Histories are personal data: never plaintext.
CREATE TABLE subject_records (
    subject_id INTEGER NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    sealed BLOB NOT NULL,
    saved_at INTEGER NOT NULL,
    PRIMARY KEY (subject_id, kind)
);

-- +goose Down
DROP TABLE subject_records;
ALTER TABLE package_services DROP COLUMN fields;
ALTER TABLE packages DROP COLUMN address_history_years;
