package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"applicantportal/internal/seal"
)

// subject_records holds what the applicant entered on the data pages, one
// sealed JSON document per kind (migration 00009): "aliases", "addresses"
// and "service:<alias>". A row exists once the applicant saved that kind.

// recordPlace binds a record's sealed value to its row.
func recordPlace(subjectID int64, kind string) string {
	return fmt.Sprintf("subject_records.sealed/%d/%s", subjectID, kind)
}

// saveRecord seals v as JSON and stores it as the subject's record of kind.
func (s *conn) saveRecord(ctx context.Context, q queryer, subjectID int64, kind string, v any) error {
	if s.cfg.Sealer == nil {
		return errNoDataKey
	}
	plain, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("store: encode %s: %w", kind, err)
	}
	sealed, err := s.cfg.Sealer.SealFor(plain, recordPlace(subjectID, kind))
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO subject_records (subject_id, kind, sealed, saved_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (subject_id, kind) DO UPDATE SET sealed = excluded.sealed, saved_at = excluded.saved_at`,
		subjectID, kind, sealed, ms(s.now()))
	if err != nil {
		return fmt.Errorf("store: save %s: %w", kind, err)
	}
	return nil
}

// findRecord opens the subject's record of kind into v; saved is false (and
// v untouched) when the applicant never saved that kind.
func findRecord(ctx context.Context, q queryer, sealer *seal.Sealer, subjectID int64, kind string, v any) (saved bool, err error) {
	sealed, err := findSealedRecord(ctx, q, subjectID, kind)
	if err != nil || sealed == nil {
		return false, err
	}
	return true, openRecord(sealer, subjectID, kind, sealed, v)
}

// findSealedRecord reads the subject's sealed record of kind, nil when the
// applicant never saved that kind.
func findSealedRecord(ctx context.Context, q queryer, subjectID int64, kind string) ([]byte, error) {
	var sealed []byte
	err := q.QueryRowContext(ctx, `SELECT sealed FROM subject_records WHERE subject_id = $1 AND kind = $2`, subjectID, kind).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: find %s: %w", kind, err)
	}
	return sealed, nil
}

// openRecord opens a record of kind as read from subject_records.sealed
// into v.
func openRecord(sealer *seal.Sealer, subjectID int64, kind string, sealed []byte, v any) error {
	if sealer == nil {
		return errNoDataKey
	}
	plain, err := sealer.OpenFor(sealed, recordPlace(subjectID, kind))
	if err != nil {
		// Altered, sealed with another key or copied from another row: an
		// internal error that names no value.
		return fmt.Errorf("store: open %s of subject %d: %w", kind, subjectID, err)
	}
	if err := json.Unmarshal(plain, v); err != nil {
		return fmt.Errorf("store: decode %s: %w", kind, err)
	}
	return nil
}
