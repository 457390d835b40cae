package portal

import (
	"context"
	"time"
)

// APIKeyService keeps the operator API's keys.
type APIKeyService interface {
	// CreateAPIKey creates an operator API key for one company and answers
	// it with its secret, which is shown once: only its hash is kept.
	CreateAPIKey(ctx context.Context, companyID int64, name string) (*APIKey, string, error)
	// FindAPIKeys lists the keys (of companyID, or every company's when
	// 0), revoked ones too.
	FindAPIKeys(ctx context.Context, companyID int64) ([]APIKey, error)
	// RevokeAPIKey revokes a key at once; an unknown key is ENOTFOUND.
	RevokeAPIKey(ctx context.Context, keyID int64) error
	// AuthenticateAPIKey answers the key whose secret this is, recording
	// its use; an unknown or revoked key is EUNAUTHORIZED.
	AuthenticateAPIKey(ctx context.Context, secret string) (*APIKey, error)
}

// APIKey is an operator API key of one company. Its secret is never
// stored; Prefix (the secret's first characters) tells keys apart.
type APIKey struct {
	ID         int64
	CompanyID  int64
	Name       string
	Prefix     string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}
