// Package sandbox holds what the built-in outside parties share: their
// state lives in the portal's database, so that every instance on one
// PostgreSQL sees the same sessions and authorizations, as it would when
// talking to the real party.
package sandbox

import (
	"context"
	"time"
)

// Records is a small key-value store for the sandboxes, one namespace
// (kind) per sandbox. Values are the sandbox's own JSON.
type Records interface {
	// Insert stores value under kind and key unless the key exists; it
	// answers the stored value either way and whether it inserted.
	Insert(ctx context.Context, kind, key string, value []byte, expires time.Time) (stored []byte, inserted bool, err error)
	// Get answers the value and its version; a missing or expired key is
	// portal.ENOTFOUND.
	Get(ctx context.Context, kind, key string) (value []byte, version int64, err error)
	// Replace stores value only if the record is still at version (an
	// optimistic lock); false when another writer came first.
	Replace(ctx context.Context, kind, key string, version int64, value []byte) (bool, error)
}
