-- +goose Up
-- The applicant's language (issue 26): the portal's e-mails and texts to
-- them are in it. Set by the app's language switch, at login from the
-- request's language, or by the operator's invitation.
ALTER TABLE subjects ADD COLUMN locale TEXT NOT NULL DEFAULT 'en-US';

-- +goose Down
ALTER TABLE subjects DROP COLUMN locale;
