package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestAPIKeys(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		c.t = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		ctx := context.Background()
		ops := db.Operator()
		acme, other := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Other"}
		for _, co := range []*portal.Company{acme, other} {
			if err := db.CreateCompany(ctx, co); err != nil {
				t.Fatal(err)
			}
		}
		key, secret, err := ops.APIKeys.CreateAPIKey(ctx, acme.ID, "  HR system  ")
		if err != nil {
			t.Fatal(err)
		}
		otherKey, _, err := ops.APIKeys.CreateAPIKey(ctx, other.ID, "Other's")
		if err != nil {
			t.Fatal(err)
		}

		t.Run("SecretIsShownOnceAndStoredHashed", func(t *testing.T) {
			if !strings.HasPrefix(secret, "pk_") || len(secret) != 3+43 || key.Prefix != secret[:10] || key.Name != "HR system" ||
				key.CompanyID != acme.ID || !key.CreatedAt.Equal(c.t) || key.LastUsedAt != nil || key.RevokedAt != nil {
				t.Errorf("key %+v, secret %q", key, secret)
			}
			var n int
			db.SQL().QueryRow(`SELECT COUNT(*) FROM api_keys WHERE key_hash = $1 OR prefix = $1 OR name = $1`, secret).Scan(&n)
			if n != 0 {
				t.Error("the secret is stored as is")
			}
			sum := sha256.Sum256([]byte(secret))
			db.SQL().QueryRow(`SELECT COUNT(*) FROM api_keys WHERE id = $1 AND key_hash = $2`, key.ID, hex.EncodeToString(sum[:])).Scan(&n)
			if n != 1 {
				t.Error("key_hash is not the secret's SHA-256")
			}
		})
		t.Run("BadNameOrUnknownCompany", func(t *testing.T) {
			for name, tc := range map[string]struct {
				company int64
				name    string
				code    string
			}{
				"EmptyName":      {acme.ID, "   ", portal.EINVALID},
				"LongName":       {acme.ID, strings.Repeat("é", 101), portal.EINVALID},
				"UnknownCompany": {999, "HR", portal.ENOTFOUND},
			} {
				t.Run(name, func(t *testing.T) {
					_, _, err := ops.APIKeys.CreateAPIKey(ctx, tc.company, tc.name)
					if pe := wantCode(t, err, tc.code); tc.code == portal.EINVALID && !portal.FieldErrors(pe.Fields).Has("name") {
						t.Errorf("fields = %+v", pe.Fields)
					}
				})
			}
			if _, _, err := ops.APIKeys.CreateAPIKey(ctx, acme.ID, strings.Repeat("é", 100)); err != nil {
				t.Errorf("100 characters: %v", err)
			}
		})
		t.Run("ListsAreScopedToTheCompany", func(t *testing.T) {
			mine, err := ops.APIKeys.FindAPIKeys(ctx, acme.ID)
			if err != nil || len(mine) != 2 || mine[0].ID != key.ID {
				t.Errorf("acme's keys = %+v, %v", mine, err)
			}
			all, err := ops.APIKeys.FindAPIKeys(ctx, 0)
			if err != nil || len(all) != 3 || all[1].ID != otherKey.ID {
				t.Errorf("every key = %+v, %v", all, err)
			}
		})
		t.Run("AuthenticationRecordsUseOnceAMinute", func(t *testing.T) {
			lastUsed := func() time.Time {
				keys, _ := ops.APIKeys.FindAPIKeys(ctx, acme.ID)
				if keys[0].LastUsedAt == nil {
					return time.Time{}
				}
				return *keys[0].LastUsedAt
			}
			got, err := ops.APIKeys.AuthenticateAPIKey(ctx, secret)
			if err != nil || got.ID != key.ID || got.CompanyID != acme.ID {
				t.Fatalf("authenticate = %+v, %v", got, err)
			}
			first := c.t
			if !lastUsed().Equal(first) {
				t.Errorf("last used %v; want %v", lastUsed(), first)
			}
			c.advance(30 * time.Second)
			if _, err := ops.APIKeys.AuthenticateAPIKey(ctx, secret); err != nil {
				t.Fatal(err)
			}
			if !lastUsed().Equal(first) {
				t.Errorf("used again within a minute: last used %v; want %v kept", lastUsed(), first)
			}
			c.advance(31 * time.Second)
			if _, err := ops.APIKeys.AuthenticateAPIKey(ctx, secret); err != nil {
				t.Fatal(err)
			}
			if !lastUsed().Equal(c.t) {
				t.Errorf("used a minute later: last used %v; want %v", lastUsed(), c.t)
			}
		})
		t.Run("UnknownKey", func(t *testing.T) {
			for _, s := range []string{"", "pk_", "pk_" + strings.Repeat("A", 43), secret[3:], secret + "x"} {
				_, err := ops.APIKeys.AuthenticateAPIKey(ctx, s)
				if pe := wantCode(t, err, portal.EUNAUTHORIZED); pe.Message != "Unknown API key." {
					t.Errorf("%q: message %q", s, pe.Message)
				}
			}
		})
		t.Run("RevokedKeyIsRefusedAndKeepsItsFirstRevocation", func(t *testing.T) {
			if err := ops.APIKeys.RevokeAPIKey(ctx, key.ID); err != nil {
				t.Fatal(err)
			}
			revoked := c.t
			_, err := ops.APIKeys.AuthenticateAPIKey(ctx, secret)
			if pe := wantCode(t, err, portal.EUNAUTHORIZED); pe.Message != "This API key was revoked." {
				t.Errorf("message %q", pe.Message)
			}
			c.advance(time.Hour)
			if err := ops.APIKeys.RevokeAPIKey(ctx, key.ID); err != nil {
				t.Fatal(err)
			}
			keys, _ := ops.APIKeys.FindAPIKeys(ctx, acme.ID)
			if keys[0].RevokedAt == nil || !keys[0].RevokedAt.Equal(revoked) {
				t.Errorf("revoked at %v; want %v", keys[0].RevokedAt, revoked)
			}
			wantCode(t, ops.APIKeys.RevokeAPIKey(ctx, 999), portal.ENOTFOUND)
		})
	})
}
