package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
)

// errNoDataKey means the store was opened without a data key, as operator
// commands that never touch PII do.
var errNoDataKey = errors.New("store: no data key: personal information cannot be sealed or opened")

// SavePersonalInfo seals and stores the subject's personal information.
func (s *DB) SavePersonalInfo(ctx context.Context, subjectID int64, p *portal.PersonalInfo) error {
	if s.cfg.Sealer == nil {
		return errNoDataKey
	}
	plain, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("store: encode personal information: %w", err)
	}
	sealed, err := s.cfg.Sealer.SealFor(plain, personalInfoPlace(subjectID))
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO personal_info (subject_id, sealed, saved_at) VALUES ($1, $2, $3)
		ON CONFLICT (subject_id) DO UPDATE SET sealed = excluded.sealed, saved_at = excluded.saved_at`,
		subjectID, sealed, ms(s.now()))
	if err != nil {
		return fmt.Errorf("store: save personal information: %w", err)
	}
	return nil
}

// FindPersonalInfo returns the subject's personal information, or nil when
// none has been saved yet.
func (s *DB) FindPersonalInfo(ctx context.Context, subjectID int64) (*portal.PersonalInfo, error) {
	return findPersonalInfo(ctx, s.db, s.cfg.Sealer, subjectID)
}

func findPersonalInfo(ctx context.Context, q queryer, sealer *seal.Sealer, subjectID int64) (*portal.PersonalInfo, error) {
	var sealed []byte
	err := q.QueryRowContext(ctx, `SELECT sealed FROM personal_info WHERE subject_id = $1`, subjectID).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: find personal information: %w", err)
	}
	if sealer == nil {
		return nil, errNoDataKey
	}
	plain, err := sealer.OpenFor(sealed, personalInfoPlace(subjectID))
	if err != nil {
		// The value was altered, sealed with another key or copied from
		// another row: an internal error, logged, that names no value.
		return nil, fmt.Errorf("store: open personal information of subject %d: %w", subjectID, err)
	}
	var p portal.PersonalInfo
	if err := json.Unmarshal(plain, &p); err != nil {
		return nil, fmt.Errorf("store: decode personal information: %w", err)
	}
	return &p, nil
}
