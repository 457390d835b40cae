package store

import (
	"applicantportal/internal/portal"
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// Login throttling. A failed password check is recorded with its username
// and IP; over any of these limits within ThrottleWindow further checks
// answer 429 until the oldest counted failure leaves the window:
//
//   - MaxFailuresPerUserAndIP for one username from one IP: the limit a
//     guesser meets, and only where the guesser is, so nobody can lock an
//     applicant out from everywhere by knowing the e-mail address;
//   - MaxFailuresPerUsername for one username from anywhere: a ceiling
//     against guessing spread over many addresses;
//   - MaxFailuresPerIP for one IP over every username: loose, because many
//     applicants may share one address (an office NAT, a mobile carrier, a
//     proxy not listed in --trusted-proxies).
//
// A successful check clears the failures of its username and IP; a
// completed password reset clears every failure of the username.
const (
	ThrottleWindow          = 15 * time.Minute
	MaxFailuresPerUserAndIP = 5
	MaxFailuresPerUsername  = 25
	MaxFailuresPerIP        = 100
	throttleMessageText     = "Too many failed login attempts. Please wait %s and try again, or reset your password."
	throttleIPMessageText   = "Too many failed login attempts from your network. Please wait %s and try again."
)

// Password-reset throttling: over these limits a request still answers as
// usual but queues no e-mail, so the answer reveals nothing.
const (
	ResetWindow        = time.Hour
	MaxResetsPerUser   = 5
	MaxResetsPerIP     = 20
	clientSecretPrefix = "sha256:"
)

// throttle counts events (rows of username, ip, at) per username and per
// IP within a window.
type throttle struct {
	table          string
	window         time.Duration
	perUser, perIP int
	lockClass      int32 // the username's class; the IP's is the next one
}

var resetThrottle = throttle{table: "password_reset_requests", window: ResetWindow, perUser: MaxResetsPerUser, perIP: MaxResetsPerIP, lockClass: lockResetUsername}

// waitFor answers how long until fewer than limit events of table match
// cond (with args) within window: the limit-th newest must leave the window
// first. Zero means an event is allowed now.
func (s *conn) waitFor(ctx context.Context, q queryer, table string, window time.Duration, limit int, cond string, args ...any) (time.Duration, error) {
	now := s.now()
	n := len(args)
	args = append(args, ms(now.Add(-window)), limit)
	var count int
	var oldest sql.NullInt64
	err := q.QueryRowContext(ctx, fmt.Sprintf(`SELECT COUNT(*), MIN(at) FROM (
		SELECT at FROM %s WHERE %s AND at > $%d ORDER BY at DESC LIMIT $%d) recent`, table, cond, n+1, n+2), args...).Scan(&count, &oldest)
	if err != nil {
		return 0, fmt.Errorf("store: count %s: %w", table, err)
	}
	if count < limit {
		return 0, nil
	}
	return fromMS(oldest.Int64).Add(window).Sub(now), nil
}

// admit counts one event for username and ip unless either is over its
// limit, in which case it answers how long until the next event is allowed.
// It runs in tx after locking the username and the IP, so parallel callers
// are counted one after another and none slips past the limit.
func (s *conn) admit(ctx context.Context, tx *sql.Tx, th throttle, username, ip string) (time.Duration, error) {
	if err := s.dialect.lock(ctx, tx, th.lockClass, username); err != nil {
		return 0, err
	}
	if err := s.dialect.lock(ctx, tx, th.lockClass+1, ip); err != nil {
		return 0, err
	}
	wait, err := s.waitFor(ctx, tx, th.table, th.window, th.perUser, "username = $1", username)
	if err != nil {
		return 0, err
	}
	if ipWait, err := s.waitFor(ctx, tx, th.table, th.window, th.perIP, "ip = $1", ip); err != nil {
		return 0, err
	} else if ipWait > wait {
		wait = ipWait
	}
	if wait > 0 {
		return wait, nil
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %s (username, ip, at) VALUES ($1, $2, $3)`, th.table),
		username, ip, ms(s.now())); err != nil {
		return 0, fmt.Errorf("store: record %s: %w", th.table, err)
	}
	return 0, nil
}

// loginThrottled answers ETHROTTLED, the same for known and unknown
// usernames, when a failure limit of username or ip is reached.
func (s *conn) loginThrottled(ctx context.Context, q queryer, username, ip string) error {
	wait, err := s.waitFor(ctx, q, "login_failures", ThrottleWindow, MaxFailuresPerUserAndIP, "username = $1 AND ip = $2", username, ip)
	if err != nil {
		return err
	}
	if w, err := s.waitFor(ctx, q, "login_failures", ThrottleWindow, MaxFailuresPerUsername, "username = $1", username); err != nil {
		return err
	} else if w > wait {
		wait = w
	}
	text := throttleMessageText
	// A reset clears the username's failures, not the other usernames'
	// failures from the same address: the message says only what helps.
	if w, err := s.waitFor(ctx, q, "login_failures", ThrottleWindow, MaxFailuresPerIP, "ip = $1", ip); err != nil {
		return err
	} else if w > 0 {
		text = throttleIPMessageText
		wait = max(wait, w)
	}
	if wait <= 0 {
		return nil
	}
	secs := int((wait + time.Second - 1) / time.Second)
	e := portal.Errorf(portal.ETHROTTLED, text, humanMinutes(secs))
	e.RetryAfter = secs
	return e
}

// checkPassword verifies pw against hash (the stored hash, or dummyHash
// when the username has none: exists is false) under the login throttle,
// and records the outcome: a failure, or clearing the failures of username
// and ip.
//
// An attempt counts as a failure only once it has failed, so correct
// logins in parallel never throttle each other. To keep the count exact
// under concurrency, checks of one username run one at a time: an
// in-process lock per username, and on PostgreSQL a transaction-scoped
// advisory lock held across count, check and record, so several instances
// sharing the database serialise too. On SQLite (one process per file) the
// in-process lock is enough and no write transaction is held across the
// slow hash, which would stop every other writer. Checks of different
// usernames from one IP are not serialised (that would queue a whole NAT
// behind one login): the per-IP limit may be passed by at most the checks
// in flight, which the password-check gate bounds.
//
// failed, when not nil, records a failure in the same transaction (the
// audit trail's login.failed).
func (s *conn) checkPassword(ctx context.Context, username, ip, pw, hash string, exists bool, failed func(q queryer) error) (bool, error) {
	// Waiting for the username is bounded like waiting for the gate, so a
	// flood of attempts on one account cannot pile up without end.
	lockCtx, cancel := context.WithTimeout(ctx, s.gate.Wait())
	unlock, err := s.userLocks.lock(lockCtx, username)
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			return false, s.gate.Busy()
		}
		return false, err
	}
	defer unlock()
	var ok bool
	err = s.passwordWork(ctx, func() error {
		return s.serialized(ctx, lockLoginUsername, username, func(q queryer) error {
			if err := s.loginThrottled(ctx, q, username, ip); err != nil {
				return err
			}
			var err error
			if ok, err = s.verify(pw, hash); err != nil {
				return fmt.Errorf("store: verify password: %w", err)
			}
			ok = ok && exists // the dummy hash's password opens nothing
			if ok {
				if _, err := q.ExecContext(ctx, `DELETE FROM login_failures WHERE username = $1 AND ip = $2`, username, ip); err != nil {
					return fmt.Errorf("store: clear login failures: %w", err)
				}
				return nil
			}
			if _, err := q.ExecContext(ctx, `INSERT INTO login_failures (username, ip, at) VALUES ($1, $2, $3)`, username, ip, ms(s.now())); err != nil {
				return fmt.Errorf("store: record login failure: %w", err)
			}
			if failed != nil {
				return failed(q)
			}
			return nil
		})
	})
	return ok, err
}

// serialized runs fn so that calls with the same class and key run one
// after another across instances: on PostgreSQL in a transaction holding
// an advisory lock; on SQLite, whose only lock is the database's write
// lock, outside any transaction (the caller holds an in-process lock).
func (s *conn) serialized(ctx context.Context, class int32, key string, fn func(q queryer) error) error {
	if s.inTx != nil {
		if err := s.dialect.lock(ctx, s.inTx, class, key); err != nil {
			return err
		}
		return fn(s.inTx)
	}
	if !s.dialect.advisoryLocks {
		return fn(s.pool)
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.dialect.lock(ctx, tx, class, key); err != nil {
			return err
		}
		return fn(tx)
	})
}

// keyedMutex lets one caller per key in at a time, within this process.
type keyedMutex struct {
	mu   sync.Mutex
	keys map[string]*keyLock
}

type keyLock struct {
	ch   chan struct{} // holds a value while the key is locked
	refs int           // callers holding or waiting
}

func newKeyedMutex() *keyedMutex { return &keyedMutex{keys: map[string]*keyLock{}} }

// lock waits for key (or for ctx to end) and returns its unlock.
func (k *keyedMutex) lock(ctx context.Context, key string) (func(), error) {
	k.mu.Lock()
	l := k.keys[key]
	if l == nil {
		l = &keyLock{ch: make(chan struct{}, 1)}
		k.keys[key] = l
	}
	l.refs++
	k.mu.Unlock()
	release := func() {
		k.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(k.keys, key)
		}
		k.mu.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
		return func() { <-l.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}
