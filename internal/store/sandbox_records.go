package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/sandbox"
)

// SandboxRecords keeps the built-in outside parties' state
// (sandbox.Records) in the sandbox_records table.
type SandboxRecords struct{ *conn }

var _ sandbox.Records = (*SandboxRecords)(nil)

// SandboxRecords returns the sandboxes' key-value store.
func (db *DB) SandboxRecords() *SandboxRecords { return &SandboxRecords{db.conn} }

// Insert stores value under kind and key unless the key exists.
func (s *SandboxRecords) Insert(ctx context.Context, kind, key string, value []byte, expires time.Time) ([]byte, bool, error) {
	var inserted bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO sandbox_records (kind, key, value, version, created_at, expires_at)
			VALUES ($1, $2, $3, 1, $4, $5) ON CONFLICT (kind, key) DO NOTHING`, kind, key, string(value), ms(s.now()), ms(expires))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			inserted = true
			return s.auditCompany(ctx, tx, 0, "sandbox.record-created", "a "+kind+" record")
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("store: insert sandbox record: %w", err)
	}
	if inserted {
		return value, true, nil
	}
	stored, _, err := s.Get(ctx, kind, key)
	return stored, false, err
}

// Get answers a record's value and version; a missing or expired one is
// ENOTFOUND.
func (s *SandboxRecords) Get(ctx context.Context, kind, key string) ([]byte, int64, error) {
	var value string
	var version int64
	err := s.db.QueryRowContext(ctx, `SELECT value, version FROM sandbox_records
		WHERE kind = $1 AND key = $2 AND expires_at > $3`, kind, key, ms(s.now())).Scan(&value, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, portal.Errorf(portal.ENOTFOUND, "No such %s.", kind)
	} else if err != nil {
		return nil, 0, fmt.Errorf("store: get sandbox record: %w", err)
	}
	return []byte(value), version, nil
}

// Replace stores value if the record is still at version.
func (s *SandboxRecords) Replace(ctx context.Context, kind, key string, version int64, value []byte) (bool, error) {
	var replaced bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sandbox_records SET value = $1, version = version + 1
			WHERE kind = $2 AND key = $3 AND version = $4`, string(value), kind, key, version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		replaced = true
		return s.auditCompany(ctx, tx, 0, "sandbox.record-changed", fmt.Sprintf("a %s record, now version %d", kind, version+1))
	})
	if err != nil {
		return false, fmt.Errorf("store: replace sandbox record: %w", err)
	}
	return replaced, nil
}
