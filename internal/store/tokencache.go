package store

import (
	"sync"
	"time"

	"applicantportal/internal/portal"
)

// DefaultTokenCacheTTL is how long a checked access token is believed
// without asking the database again, unless Config says otherwise. A
// revocation made by this process applies at once; one made by another
// instance (or an operator command) may take this long to apply here.
const DefaultTokenCacheTTL = 5 * time.Second

// maxCachedTokens bounds the cache; when it is full it starts again empty.
const maxCachedTokens = 10000

// tokenCache remembers access tokens that were valid, for a few seconds,
// keyed by the token's hash (the token itself is never kept). Every
// revocation this process makes (logout, password change or reset, e-mail
// change, refresh token reuse, the end of setup credentials) moves the
// generation on, which voids every entry at once: revocations are rare, and
// a cache that forgets too much only asks the database again.
type tokenCache struct {
	ttl time.Duration // 0: no cache
	mu  sync.Mutex
	gen uint64
	// entries by token hash.
	entries map[string]cachedToken
	// The transactions that revoke tokens: the generation moves on again
	// when they end, so a check that read the rows before the commit does
	// not outlive it.
	voidAtEnd
}

type cachedToken struct {
	sess  portal.Session
	gen   uint64
	until time.Time // the entry's end: the token's expiry or the TTL, whichever comes first
}

func newTokenCache(ttl time.Duration) *tokenCache {
	c := &tokenCache{ttl: ttl, entries: map[string]cachedToken{}}
	c.voidAtEnd = newVoidAtEnd(c.forget)
	return c
}

// get answers the session of a token hash checked less than ttl ago and not
// voided since.
func (c *tokenCache) get(hash string, now time.Time) (*portal.Session, bool) {
	if c.ttl <= 0 {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	if !ok || e.gen != c.gen || !now.Before(e.until) {
		return nil, false
	}
	sess := e.sess
	return &sess, true
}

// generation is read before the database is asked: put keeps the answer
// only if no revocation happened in between.
func (c *tokenCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

func (c *tokenCache) put(hash string, sess portal.Session, gen uint64, now time.Time) {
	if c.ttl <= 0 {
		return
	}
	until := now.Add(c.ttl)
	if sess.ExpiresAt.Before(until) {
		until = sess.ExpiresAt
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.entries) >= maxCachedTokens {
		clear(c.entries)
	}
	c.entries[hash] = cachedToken{sess: sess, gen: gen, until: until}
}

// forget voids every entry: a revocation was made (and committed).
func (c *tokenCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
}
