package store

import (
	"applicantportal/internal/portal"
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// clientSecretDigest is how a client secret is stored. The secret is handed
// to the browser app and so is no password: a fast hash compared in
// constant time is enough, and spares every login and refresh an argon2id
// run. The prefix tells it from the argon2id hashes stored before.
func clientSecretDigest(secret string) string {
	return clientSecretPrefix + hashSecret(secret)
}

// UpsertClient registers an OAuth client, replacing the secret of an
// existing one, as configuration is applied at every start.
func (s *DB) UpsertClient(ctx context.Context, id, secret, name string) error {
	if id == "" || secret == "" {
		return errors.New("store: client id and secret are required")
	}
	digest := clientSecretDigest(secret)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var known bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM oauth_clients WHERE id = $1)`, id).Scan(&known); err != nil {
			return err
		}
		// Only a change is written, and recorded: every start applies the
		// configuration, and a start that changes nothing is no act.
		res, err := tx.ExecContext(ctx, `INSERT INTO oauth_clients (id, secret_hash, name, created_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (id) DO UPDATE SET secret_hash = excluded.secret_hash, name = excluded.name
			WHERE oauth_clients.secret_hash <> excluded.secret_hash OR oauth_clients.name <> excluded.name`, id, digest, name, ms(s.now()))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		action := "client.registered"
		if known {
			action = "client.changed"
		}
		return s.auditCompany(ctx, tx, 0, action, fmt.Sprintf("client %q", id))
	})
	if err != nil {
		return fmt.Errorf("store: save client: %w", err)
	}
	return nil
}

func (s *conn) checkClient(ctx context.Context, id, secret string) error {
	if id == "" || secret == "" || len(id) > 128 || strings.ContainsFunc(id, unicode.IsControl) {
		// No client has such an id, and PostgreSQL would fail on a NUL.
		return portal.ErrInvalidClient
	}
	var stored string
	err := s.db.QueryRowContext(ctx, `SELECT secret_hash FROM oauth_clients WHERE id = $1`, id).Scan(&stored)
	if errors.Is(err, sql.ErrNoRows) {
		return portal.ErrInvalidClient
	} else if err != nil {
		return fmt.Errorf("store: find client: %w", err)
	}
	// A secret stored in an older format never matches; UpsertClient
	// rewrites it at the next start.
	if subtle.ConstantTimeCompare([]byte(clientSecretDigest(secret)), []byte(stored)) != 1 {
		return portal.ErrInvalidClient
	}
	return nil
}
