package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"applicantportal/internal/seal"
)

const keyCheckName = "data_key_check"
const keyCheckText = "applicant portal data key check"

// checkDataKey proves the configured key opens what earlier runs sealed.
// The first run with a key records a sealed check value; a check value of
// the older unbound format is resealed bound to its row.
func (s *DB) checkDataKey(ctx context.Context, sealer *seal.Sealer) error {
	var sealed []byte
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE name = $1`, keyCheckName).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		v, err := sealer.SealFor([]byte(keyCheckText), keyCheckPlace)
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
	open := func(v []byte) ([]byte, error) { return sealer.OpenFor(v, keyCheckPlace) }
	if !seal.IsBound(sealed) {
		open = sealer.Open
	}
	if text, err := open(sealed); err != nil || string(text) != keyCheckText {
		if id := seal.KeyID(sealed); id != "" {
			return fmt.Errorf("store: the data key does not open this database's sealed data: it is sealed with the key %s, which PORTAL_DATA_KEY or data.key lacks (it holds %s): start with that key", id, strings.Join(sealer.Fingerprints(), ", "))
		}
		return errors.New("store: the data key does not open this database's sealed data: start with the key it was sealed with (PORTAL_DATA_KEY or data.key)")
	}
	if seal.IsBound(sealed) {
		return nil
	}
	v, err := sealer.SealFor([]byte(keyCheckText), keyCheckPlace)
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE meta SET value = $1 WHERE name = $2 AND value = $3`, v, keyCheckName, sealed); err != nil {
		return fmt.Errorf("store: reseal data key check: %w", err)
	}
	return nil
}
