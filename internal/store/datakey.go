package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"applicantportal/internal/seal"
)

const keyCheckName = "data_key_check"
const keyCheckText = "applicant portal data key check"

// checkDataKey proves the configured key opens what earlier runs sealed.
// The first run with a key records a sealed check value.
func (s *DB) checkDataKey(ctx context.Context, sealer *seal.Sealer) error {
	var sealed []byte
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE name = $1`, keyCheckName).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		v, err := sealer.SealString(keyCheckText)
		if err != nil {
			return err
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, keyCheckName, v); err != nil {
			return fmt.Errorf("store: record data key check: %w", err)
		}
		return nil
	} else if err != nil {
		return fmt.Errorf("store: read data key check: %w", err)
	}
	if text, err := sealer.OpenString(sealed); err != nil || text != keyCheckText {
		return errors.New("store: the data key does not open this database's sealed data: start with the key it was sealed with (PORTAL_DATA_KEY or data.key)")
	}
	return nil
}
