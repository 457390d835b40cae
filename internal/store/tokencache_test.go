package store_test

import (
	"context"
	"errors"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// logJaneIn logs jane in once more, answering the pair.
func (w *sessionWorld) logJaneIn(t *testing.T) *portal.TokenPair {
	t.Helper()
	pair, err := w.login(w.jane.Username, goodPass, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	return pair
}

// wantSession fails unless the access token checks out on db (want true)
// or is refused as invalid (want false).
func wantSession(t *testing.T, db *store.DB, token string, want bool) *portal.Session {
	t.Helper()
	sess, err := db.Auth().Authenticate(context.Background(), token)
	switch {
	case want && err != nil:
		t.Fatalf("token refused: %v", err)
	case !want && !errors.Is(err, portal.ErrInvalidToken):
		t.Fatalf("token accepted (err %v), want ErrInvalidToken", err)
	}
	return sess
}

// Token checks are remembered for a few seconds, but whatever this process
// revokes is refused at once: the cache never outlives a logout, a
// password change or a refresh token's reuse on the instance that made it.
func TestTokenChecksCachedButRevokedAtOnce(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		t.Run("Logout", func(t *testing.T) {
			w := newSessionWorld(t, db)
			pair := w.logJaneIn(t)
			wantSession(t, db, pair.AccessToken, true)
			wantSession(t, db, pair.AccessToken, true) // from the cache
			if err := db.Auth().Revoke(ctx, pair.AccessToken); err != nil {
				t.Fatal(err)
			}
			wantSession(t, db, pair.AccessToken, false)
		})
	})
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		t.Run("PasswordChange", func(t *testing.T) {
			w := newSessionWorld(t, db)
			mine, other := w.logJaneIn(t), w.logJaneIn(t)
			sess := wantSession(t, db, mine.AccessToken, true)
			wantSession(t, db, other.AccessToken, true)
			next := "another long enough passphrase"
			if err := db.Auth().UpdateAccount(ctx, *sess, portal.AccountChange{Password: &next, CurrentPassword: goodPass, IP: "192.0.2.1"}); err != nil {
				t.Fatal(err)
			}
			wantSession(t, db, other.AccessToken, false)
			wantSession(t, db, mine.AccessToken, true)
		})
	})
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		t.Run("RefreshReuse", func(t *testing.T) {
			w := newSessionWorld(t, db)
			first := w.logJaneIn(t)
			next, err := db.Auth().Refresh(ctx, spaID, spaSecret, first.RefreshToken)
			if err != nil {
				t.Fatal(err)
			}
			wantSession(t, db, next.AccessToken, true)
			if _, err := db.Auth().Refresh(ctx, spaID, spaSecret, first.RefreshToken); !errors.Is(err, portal.ErrInvalidRefresh) {
				t.Fatalf("reuse: %v", err)
			}
			wantSession(t, db, next.AccessToken, false)
		})
	})
}

// A logout on another instance applies here once the cache's few seconds
// have passed (docs/security.md says how long).
func TestTokenRevokedElsewhereAppliesWithinTheCacheTTL(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(cfg store.Config) *store.DB) {
		c := newClock()
		cfg := sessionConfig(t, c)
		here, there := open(cfg), open(cfg)
		w := newSessionWorld(t, here)
		pair := w.logJaneIn(t)
		wantSession(t, here, pair.AccessToken, true)
		if err := there.Auth().Revoke(context.Background(), pair.AccessToken); err != nil {
			t.Fatal(err)
		}
		wantSession(t, there, pair.AccessToken, false)
		wantSession(t, here, pair.AccessToken, true) // still believed, for a few seconds
		c.advance(store.DefaultTokenCacheTTL)
		wantSession(t, here, pair.AccessToken, false)
	})
}
