package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"applicantportal/internal/portal"
)

// apiKeyPrefix starts every operator API key, so a leaked one is easy to
// recognise (by people and by secret scanners).
const apiKeyPrefix = "pk_"

// apiKeyPrefixLength is how much of a secret lists show to tell keys apart.
const apiKeyPrefixLength = 10

// maxAPIKeyName is the longest name of a key, in characters.
const maxAPIKeyName = 100

// apiKeyUseInterval is how often a key's last use is written at most: a
// busy integration would otherwise write on every call.
const apiKeyUseInterval = time.Minute

// APIKeyService is portal.APIKeyService on the store: the operator API's
// keys.
type APIKeyService struct{ db *DB }

var _ portal.APIKeyService = (*APIKeyService)(nil)

const apiKeyColumns = `id, company_id, name, prefix, created_at, last_used_at, revoked_at` // #nosec G101 -- column names, not a credential

func scanAPIKey(row interface{ Scan(...any) error }) (*portal.APIKey, error) {
	var k portal.APIKey
	var created int64
	var used, revoked sql.NullInt64
	if err := row.Scan(&k.ID, &k.CompanyID, &k.Name, &k.Prefix, &created, &used, &revoked); err != nil {
		return nil, err
	}
	k.CreatedAt, k.LastUsedAt, k.RevokedAt = fromMS(created), nullTime(used), nullTime(revoked)
	return &k, nil
}

// CreateAPIKey creates a key of the company named name; only the secret's
// SHA-256 is kept, so the answer is the one time the secret is seen.
func (s *APIKeyService) CreateAPIKey(ctx context.Context, companyID int64, name string) (*portal.APIKey, string, error) {
	name = strings.TrimSpace(name)
	var fe portal.FieldErrors
	switch {
	case name == "":
		fe.Add("name", "Name the key, e.g. after the system that will use it.")
	case utf8.RuneCountInString(name) > maxAPIKeyName:
		fe.Addf("name", "A key's name is at most %d characters.", maxAPIKeyName)
	}
	if err := fe.Err(); err != nil {
		return nil, "", err
	}
	token, _, err := newSecret()
	if err != nil {
		return nil, "", err
	}
	secret := apiKeyPrefix + token
	k := &portal.APIKey{CompanyID: companyID, Name: name, Prefix: secret[:apiKeyPrefixLength], CreatedAt: fromMS(ms(s.db.now()))}
	err = s.db.tx(ctx, func(tx *sql.Tx) error {
		var one int
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM companies WHERE id = $1`, companyID).Scan(&one); err != nil {
			return notFound(err, "Company")
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO api_keys (company_id, name, prefix, key_hash, created_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, companyID, name, k.Prefix, hashSecret(secret), ms(k.CreatedAt)).Scan(&k.ID); err != nil {
			return err
		}
		// The prefix only: it names the key in listings and opens nothing.
		return s.db.auditCompany(ctx, tx, companyID, "apikey.created", fmt.Sprintf("key %d %q (%s...)", k.ID, name, k.Prefix))
	})
	if err != nil {
		return nil, "", err
	}
	return k, secret, nil
}

// FindAPIKeys lists the keys of companyID (every company's when 0),
// oldest first, revoked ones too.
func (s *APIKeyService) FindAPIKeys(ctx context.Context, companyID int64) ([]portal.APIKey, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+apiKeyColumns+` FROM api_keys
		WHERE CAST($1 AS BIGINT) = 0 OR company_id = $1 ORDER BY id`, companyID)
	if err != nil {
		return nil, fmt.Errorf("store: list api keys: %w", err)
	}
	defer rows.Close()
	var out []portal.APIKey
	for rows.Next() {
		k, err := scanAPIKey(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list api keys: %w", err)
		}
		out = append(out, *k)
	}
	return out, rows.Err()
}

// RevokeAPIKey revokes a key; revoking it again keeps the first time.
func (s *APIKeyService) RevokeAPIKey(ctx context.Context, keyID int64) error {
	return s.db.tx(ctx, func(tx *sql.Tx) error {
		var companyID int64
		err := tx.QueryRowContext(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING company_id`,
			ms(s.db.now()), keyID).Scan(&companyID)
		if errors.Is(err, sql.ErrNoRows) {
			return portal.Errorf(portal.ENOTFOUND, "API key not found.")
		} else if err != nil {
			return fmt.Errorf("store: revoke api key: %w", err)
		}
		return s.db.auditCompany(ctx, tx, companyID, "apikey.revoked", fmt.Sprintf("key %d", keyID))
	})
}

// AuthenticateAPIKey finds the key by the hash of secret, so no secret is
// compared byte by byte, and records its use at most once a minute.
func (s *APIKeyService) AuthenticateAPIKey(ctx context.Context, secret string) (*portal.APIKey, error) {
	unknown := portal.Errorf(portal.EUNAUTHORIZED, "Unknown API key.")
	if !strings.HasPrefix(secret, apiKeyPrefix) {
		return nil, unknown
	}
	k, err := scanAPIKey(s.db.db.QueryRowContext(ctx, `SELECT `+apiKeyColumns+` FROM api_keys WHERE key_hash = $1`, hashSecret(secret)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, unknown
	} else if err != nil {
		return nil, fmt.Errorf("store: find api key: %w", err)
	}
	if k.RevokedAt != nil {
		return nil, portal.Errorf(portal.EUNAUTHORIZED, "This API key was revoked.")
	}
	now := s.db.now()
	if k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= apiKeyUseInterval {
		if _, err := s.db.db.ExecContext(ctx, `UPDATE api_keys SET last_used_at = $1
			WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $3)`, ms(now), k.ID, ms(now.Add(-apiKeyUseInterval))); err != nil {
			return nil, fmt.Errorf("store: record api key use: %w", err)
		}
		t := fromMS(ms(now))
		k.LastUsedAt = &t
	}
	return k, nil
}
