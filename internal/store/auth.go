package store

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"applicantportal/internal/password"
	"applicantportal/internal/portal"
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
	MaxFailuresPerUsername  = 50
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
func (s *DB) waitFor(ctx context.Context, q queryer, table string, window time.Duration, limit int, cond string, args ...any) (time.Duration, error) {
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
func (s *DB) admit(ctx context.Context, tx *sql.Tx, th throttle, username, ip string) (time.Duration, error) {
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
func (s *DB) loginThrottled(ctx context.Context, q queryer, username, ip string) error {
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
	return &portal.Error{
		Code:       portal.ETHROTTLED,
		Message:    fmt.Sprintf(text, humanMinutes(secs)),
		RetryAfter: secs,
	}
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
func (s *DB) checkPassword(ctx context.Context, username, ip, pw, hash string, exists bool) (bool, error) {
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
	err = s.gate.Run(ctx, func() error {
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
			return nil
		})
	})
	return ok, err
}

// serialized runs fn so that calls with the same class and key run one
// after another across instances: on PostgreSQL in a transaction holding
// an advisory lock; on SQLite, whose only lock is the database's write
// lock, outside any transaction (the caller holds an in-process lock).
func (s *DB) serialized(ctx context.Context, class int32, key string, fn func(q queryer) error) error {
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

// passwordGateBusy is what a login turned away by the password gate is
// told: each argon2id run takes 19 MiB and a core, so a flood of logins
// queues rather than exhausting memory.
const passwordGateBusy = "The server is busy checking passwords. Please try again in a moment."

// hashPassword hashes the NFKC form of pw, within the password gate.
func (s *DB) hashPassword(ctx context.Context, pw string) (string, error) {
	var hash string
	err := s.gate.Run(ctx, func() error {
		var err error
		hash, err = s.cfg.HashPassword(password.Normalize(pw))
		return err
	})
	return hash, err
}

// verify compares the NFKC form of pw with hash; the caller holds a slot of
// the password gate. A password whose NFKC form differs is also tried as
// typed, as hashes stored before normalization was introduced hold it so.
func (s *DB) verify(pw, hash string) (bool, error) {
	norm := password.Normalize(pw)
	ok, err := s.cfg.VerifyPassword(norm, hash)
	if err != nil || ok || norm == pw {
		return ok, err
	}
	return s.cfg.VerifyPassword(pw, hash)
}

func defaultHash(pw string) (string, error) { return password.Hash(pw) }

func defaultVerify(pw, hash string) (bool, error) { return password.Verify(pw, hash) }

// dummyHash is verified against when the user does not exist, so a login
// for an unknown username costs as much time as a wrong password.
var dummyHash, _ = password.Hash("dummy password for timing equality")

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
	_, err := s.db.ExecContext(ctx, `INSERT INTO oauth_clients (id, secret_hash, name, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET secret_hash = excluded.secret_hash, name = excluded.name`, id, digest, name, ms(s.now()))
	if err != nil {
		return fmt.Errorf("store: save client: %w", err)
	}
	return nil
}

func (s *DB) checkClient(ctx context.Context, id, secret string) error {
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

// Login implements portal.AuthService.
func (s *DB) Login(ctx context.Context, c portal.Credentials) (*portal.TokenPair, error) {
	if err := s.checkClient(ctx, c.ClientID, c.ClientSecret); err != nil {
		return nil, err
	}
	username := portal.NormalizeUsername(c.Username)
	if !plausibleUsername(username) {
		// No account has it, and PostgreSQL would refuse it with an error.
		return nil, portal.ErrBadCredentials
	}
	var subjectID int64
	var hash sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT id, password_hash FROM subjects WHERE username = $1`, username).Scan(&subjectID, &hash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: find user: %w", err)
	}
	stored := dummyHash
	if hash.Valid {
		stored = hash.String
	}
	ok, err := s.checkPassword(ctx, username, c.IP, c.Password, stored, hash.Valid)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, portal.ErrBadCredentials
	}
	return s.issue(ctx, subjectID, c.ClientID, portal.ScopeDefault)
}

// plausibleUsername reports whether u could be an account's username (an
// e-mail address): no control characters, at most 254 characters. Others
// never reach the database, where a NUL byte or a huge value fails on
// PostgreSQL instead of finding nothing.
func plausibleUsername(u string) bool {
	return utf8.RuneCountInString(u) <= portal.MaxUsernameLength && !strings.ContainsFunc(u, unicode.IsControl)
}

func humanMinutes(secs int) string {
	m := (secs + 59) / 60
	if m <= 1 {
		return "a minute"
	}
	return fmt.Sprintf("%d minutes", m)
}

// issue starts a new token family and gives its first tokens.
func (s *DB) issue(ctx context.Context, subjectID int64, clientID, scope string) (*portal.TokenPair, error) {
	var pair *portal.TokenPair
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var familyID int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO token_families (subject_id, client_id, scope, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
			subjectID, clientID, scope, ms(s.now())).Scan(&familyID); err != nil {
			return fmt.Errorf("store: create token family: %w", err)
		}
		var err error
		pair, err = s.issueInFamily(ctx, tx, familyID, scope)
		if pair != nil {
			pair.SubjectID = subjectID
		}
		return err
	})
	return pair, err
}

// issueInFamily adds an access token, and a refresh token unless the scope
// is setup (a setup credential cannot be renewed).
func (s *DB) issueInFamily(ctx context.Context, tx *sql.Tx, familyID int64, scope string) (*portal.TokenPair, error) {
	now := s.now()
	ttl := s.cfg.AccessTokenTTL
	if scope == portal.ScopeSetup {
		ttl = s.cfg.SetupTokenTTL
	}
	pair := &portal.TokenPair{Scope: scope, ExpiresIn: ttl}
	add := func(kind string, ttl time.Duration) (string, error) {
		token, hash, err := newSecret()
		if err != nil {
			return "", err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (family_id, kind, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
			familyID, kind, hash, ms(now), ms(now.Add(ttl))); err != nil {
			return "", fmt.Errorf("store: save %s token: %w", kind, err)
		}
		return token, nil
	}
	var err error
	if pair.AccessToken, err = add("access", ttl); err != nil {
		return nil, err
	}
	if scope != portal.ScopeSetup {
		if pair.RefreshToken, err = add("refresh", s.cfg.RefreshTokenTTL); err != nil {
			return nil, err
		}
	}
	return pair, nil
}

// Refresh implements portal.AuthService. A refresh token works once; a
// second use means it was stolen or replayed, so the whole family (every
// token of that login) is revoked.
func (s *DB) Refresh(ctx context.Context, clientID, clientSecret, refreshToken string) (*portal.TokenPair, error) {
	if err := s.checkClient(ctx, clientID, clientSecret); err != nil {
		return nil, err
	}
	if refreshToken == "" {
		return nil, portal.ErrInvalidRefresh
	}
	var pair *portal.TokenPair
	reused := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var tokenID, familyID, subjectID, expires int64
		var used, revoked sql.NullInt64
		var famClient, scope string
		err := tx.QueryRowContext(ctx, `SELECT t.id, t.family_id, t.expires_at, t.used_at, f.revoked_at, f.subject_id, f.client_id, f.scope
			FROM tokens t JOIN token_families f ON f.id = t.family_id
			WHERE t.token_hash = $1 AND t.kind = 'refresh'`, hashSecret(refreshToken)).
			Scan(&tokenID, &familyID, &expires, &used, &revoked, &subjectID, &famClient, &scope)
		if errors.Is(err, sql.ErrNoRows) {
			return portal.ErrInvalidRefresh
		} else if err != nil {
			return fmt.Errorf("store: find refresh token: %w", err)
		}
		if famClient != clientID || revoked.Valid || ms(s.now()) >= expires {
			return portal.ErrInvalidRefresh
		}
		// The conditional update is what makes a concurrent second use lose.
		res, err := tx.ExecContext(ctx, `UPDATE tokens SET used_at = $1 WHERE id = $2 AND used_at IS NULL`, ms(s.now()), tokenID)
		if err != nil {
			return fmt.Errorf("store: spend refresh token: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 || used.Valid {
			reused = true
			if _, err := tx.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE id = $2`, ms(s.now()), familyID); err != nil {
				return fmt.Errorf("store: revoke token family: %w", err)
			}
			return nil
		}
		pair, err = s.issueInFamily(ctx, tx, familyID, scope)
		if pair != nil {
			pair.SubjectID = subjectID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if reused {
		s.cfg.Logger.Warn("refresh token reused; token family revoked")
		return nil, portal.ErrInvalidRefresh
	}
	return pair, nil
}

// Authenticate implements portal.AuthService.
func (s *DB) Authenticate(ctx context.Context, accessToken string) (*portal.Session, error) {
	if accessToken == "" {
		return nil, portal.ErrInvalidToken
	}
	var sess portal.Session
	var expires int64
	var revoked sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT f.id, f.subject_id, f.scope, f.client_id, t.expires_at, f.revoked_at
		FROM tokens t JOIN token_families f ON f.id = t.family_id
		WHERE t.token_hash = $1 AND t.kind = 'access'`, hashSecret(accessToken)).
		Scan(&sess.FamilyID, &sess.SubjectID, &sess.Scope, &sess.ClientID, &expires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, portal.ErrInvalidToken
	} else if err != nil {
		return nil, fmt.Errorf("store: find access token: %w", err)
	}
	if revoked.Valid || ms(s.now()) >= expires {
		return nil, portal.ErrInvalidToken
	}
	return &sess, nil
}

// Revoke implements portal.AuthService: logging out ends the access token
// and the refresh token of that login at once.
func (s *DB) Revoke(ctx context.Context, accessToken string) error {
	sess, err := s.Authenticate(ctx, accessToken)
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE id = $2`, ms(s.now()), sess.FamilyID); err != nil {
		return fmt.Errorf("store: revoke: %w", err)
	}
	return nil
}

// CreateInvitation implements portal.AuthService.
func (s *DB) CreateInvitation(ctx context.Context, subjectID int64) (string, error) {
	token, hash, err := newSecret()
	if err != nil {
		return "", err
	}
	now := s.now()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO invitations (subject_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		subjectID, hash, ms(now), ms(now.Add(s.cfg.InvitationTTL))); err != nil {
		return "", fmt.Errorf("store: create invitation: %w", err)
	}
	return token, nil
}

// TokenLogin implements portal.AuthService. The same 403 answers an
// unknown, expired or used token, so the answer reveals nothing.
func (s *DB) TokenLogin(ctx context.Context, invitationToken string) (*portal.TokenPair, error) {
	if !portal.PlausibleToken(invitationToken) {
		return nil, portal.ErrInvitation
	}
	var subjectID, expires int64
	var used sql.NullInt64
	var hasPassword bool
	err := s.db.QueryRowContext(ctx, `SELECT i.subject_id, i.expires_at, i.used_at, s.password_hash IS NOT NULL
		FROM invitations i JOIN subjects s ON s.id = i.subject_id WHERE i.token_hash = $1`, hashSecret(invitationToken)).
		Scan(&subjectID, &expires, &used, &hasPassword)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, portal.ErrInvitation
	} else if err != nil {
		return nil, fmt.Errorf("store: find invitation: %w", err)
	}
	if used.Valid || hasPassword || ms(s.now()) >= expires {
		return nil, portal.ErrInvitation
	}
	return s.issue(ctx, subjectID, "invitation", portal.ScopeSetup)
}

// SetInitialPassword implements portal.AuthService. It also ends the
// subject's setup credentials: from now on the password logs in.
func (s *DB) SetInitialPassword(ctx context.Context, subjectID int64, pw string) error {
	if err := s.validateNewPassword(ctx, subjectID, "password", pw); err != nil {
		return err
	}
	hash, err := s.hashPassword(ctx, pw)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		now := ms(s.now())
		res, err := tx.ExecContext(ctx, `UPDATE subjects SET password_hash = $1, updated_at = $2 WHERE id = $3 AND password_hash IS NULL`, hash, now, subjectID)
		if err != nil {
			return fmt.Errorf("store: set password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return portal.Errorf(portal.ECONFLICT, "A password already exists for this account. Log in with it, or reset it.")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE subject_id = $2 AND scope = $3 AND revoked_at IS NULL`,
			now, subjectID, portal.ScopeSetup); err != nil {
			return fmt.Errorf("store: end setup credentials: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE invitations SET used_at = $1 WHERE subject_id = $2 AND used_at IS NULL`, now, subjectID); err != nil {
			return fmt.Errorf("store: consume invitation: %w", err)
		}
		return spendResetLinks(ctx, tx, subjectID, now)
	})
}

// spendResetLinks ends the subject's outstanding reset links: once the
// password is set, changed or reset, an older link (perhaps in a mailbox
// someone else reads) must not set it again.
func spendResetLinks(ctx context.Context, tx *sql.Tx, subjectID, now int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE password_resets SET used_at = $1 WHERE subject_id = $2 AND used_at IS NULL`, now, subjectID); err != nil {
		return fmt.Errorf("store: spend reset links: %w", err)
	}
	return nil
}

// ChangePassword implements portal.AuthService. A session without a family
// (FamilyID 0) keeps none of the subject's sessions.
func (s *DB) ChangePassword(ctx context.Context, sess portal.Session, ip, current, next string) error {
	subjectID, keepFamilyID := sess.SubjectID, sess.FamilyID
	var username string
	var hash sql.NullString
	if err := s.db.QueryRowContext(ctx, `SELECT username, password_hash FROM subjects WHERE id = $1`, subjectID).Scan(&username, &hash); err != nil {
		return notFound(err, "Subject")
	}
	if !hash.Valid {
		return s.SetInitialPassword(ctx, subjectID, next)
	}
	if err := s.checkCurrentPassword(ctx, username, hash.String, ip, current); err != nil {
		return err
	}
	if err := s.validateNewPassword(ctx, subjectID, "password", next); err != nil {
		return err
	}
	newHash, err := s.hashPassword(ctx, next)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		// The password was checked, and the new one hashed, outside this
		// transaction. A reset or an e-mail change that committed meanwhile
		// wins: under the subject's lock, the checked password and the
		// asking session must still stand, or a stolen session could undo
		// the reset an applicant used to take the account back.
		if _, err := s.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		var stored sql.NullString
		var live bool
		if err := tx.QueryRowContext(ctx, `SELECT s.password_hash, EXISTS (SELECT 1 FROM token_families f
				WHERE f.id = $2 AND f.subject_id = s.id AND f.revoked_at IS NULL)
			FROM subjects s WHERE s.id = $1`, subjectID, keepFamilyID).Scan(&stored, &live); err != nil {
			return notFound(err, "Subject")
		}
		if stored.String != hash.String || (keepFamilyID != 0 && !live) {
			return portal.Errorf(portal.ECONFLICT, "Your password or your session changed while this request was under way. Please log in again.")
		}
		return s.replacePassword(ctx, tx, subjectID, newHash, keepFamilyID)
	})
}

// checkCurrentPassword checks the password a signed-in subject types again
// to confirm a sensitive change (a new password, a new e-mail address)
// against its stored hash. A wrong one counts as a failed login of
// username from ip and answers a validation error on currentPassword.
func (s *DB) checkCurrentPassword(ctx context.Context, username, hash, ip, current string) error {
	ok, err := s.checkPassword(ctx, username, ip, current, hash, true)
	if err != nil {
		return err
	}
	if !ok {
		var fe portal.FieldErrors
		fe.Add("currentPassword", "The current password is not correct.")
		return fe.Err()
	}
	return nil
}

// replacePassword stores a new password hash and ends every session of the
// subject but keepFamilyID (0 keeps none), so a stolen session does not
// survive a password change, and every outstanding reset link.
func (s *DB) replacePassword(ctx context.Context, tx *sql.Tx, subjectID int64, hash string, keepFamilyID int64) error {
	now := ms(s.now())
	if _, err := tx.ExecContext(ctx, `UPDATE subjects SET password_hash = $1, updated_at = $2 WHERE id = $3`, hash, now, subjectID); err != nil {
		return fmt.Errorf("store: set password: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE subject_id = $2 AND id <> $3 AND revoked_at IS NULL`,
		now, subjectID, keepFamilyID); err != nil {
		return fmt.Errorf("store: revoke sessions: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE invitations SET used_at = $1 WHERE subject_id = $2 AND used_at IS NULL`, now, subjectID); err != nil {
		return fmt.Errorf("store: consume invitation: %w", err)
	}
	return spendResetLinks(ctx, tx, subjectID, now)
}

// validateNewPassword applies the password policy with the company's
// minimum length and the subject's username and e-mail address.
func (s *DB) validateNewPassword(ctx context.Context, subjectID int64, field, pw string) error {
	var minLen int
	var username, email string
	if err := s.db.QueryRowContext(ctx, `SELECT c.subject_password_length, s.username, s.email FROM subjects s JOIN companies c ON c.id = s.company_id WHERE s.id = $1`,
		subjectID).Scan(&minLen, &username, &email); err != nil {
		return notFound(err, "Subject")
	}
	var fe portal.FieldErrors
	if msg := password.Problem(pw, minLen, username, email); msg != "" {
		fe.Add(field, msg)
	}
	return fe.Err()
}

// RequestPasswordReset implements portal.AuthService. It does nothing, and
// says nothing, for an unknown username. Over MaxResetsPerUser requests for the username, or MaxResetsPerIP from
// the IP, within ResetWindow it queues nothing and answers nil all the
// same, so mail cannot be used to flood an applicant and the answer still
// reveals nothing.
func (s *DB) RequestPasswordReset(ctx context.Context, username, ip, resetURLBase string) error {
	username = portal.NormalizeUsername(username)
	if !plausibleUsername(username) {
		return nil
	}
	token, hash, err := newSecret()
	if err != nil {
		return err
	}
	now := s.now()
	throttled := false
	err = s.tx(ctx, func(tx *sql.Tx) error {
		wait, err := s.admit(ctx, tx, resetThrottle, username, ip)
		if err != nil || wait > 0 {
			throttled = wait > 0
			return err
		}
		sub, err := scanSubject(tx.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE username = $1`, username))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return fmt.Errorf("store: find subject: %w", err)
		}
		link := strings.TrimRight(resetURLBase, "/") + "/reset?token=" + url.QueryEscape(token)
		body := fmt.Sprintf("Hello %s,\n\nSomeone asked to reset the password of your applicant portal account (%s).\n"+
			"To choose a new password, open this link within %s:\n\n%s\n\n"+
			"If you did not ask for this, ignore this message: your password stays as it is.\n",
			sub.FirstName, sub.Username, humanDuration(s.cfg.ResetTTL), link)
		if _, err := tx.ExecContext(ctx, `INSERT INTO password_resets (subject_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			sub.ID, hash, ms(now), ms(now.Add(s.cfg.ResetTTL))); err != nil {
			return fmt.Errorf("store: create reset: %w", err)
		}
		return enqueueMail(ctx, tx, now, sub.Email, "Reset your applicant portal password", body)
	})
	if throttled {
		s.cfg.Logger.Warn("password reset requests throttled; no e-mail queued")
	}
	return err
}

func humanDuration(d time.Duration) string {
	if d%time.Hour == 0 {
		if h := int(d / time.Hour); h == 1 {
			return "1 hour"
		} else {
			return fmt.Sprintf("%d hours", h)
		}
	}
	return fmt.Sprintf("%d minutes", int(d/time.Minute))
}

// invalidResetLink answers an unknown, used or expired reset link.
func invalidResetLink() error {
	var fe portal.FieldErrors
	fe.Add("token", "This reset link is invalid or has expired. Please ask for a new one.")
	return fe.Err()
}

// findResetLink returns the id and subject of a usable reset link.
func (s *DB) findResetLink(ctx context.Context, token string) (id, subjectID int64, err error) {
	if !portal.PlausibleToken(token) {
		return 0, 0, invalidResetLink()
	}
	var expires int64
	var used sql.NullInt64
	err = s.db.QueryRowContext(ctx, `SELECT id, subject_id, expires_at, used_at FROM password_resets WHERE token_hash = $1`, hashSecret(token)).
		Scan(&id, &subjectID, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, invalidResetLink()
	} else if err != nil {
		return 0, 0, fmt.Errorf("store: find reset: %w", err)
	}
	if used.Valid || ms(s.now()) >= expires {
		return 0, 0, invalidResetLink()
	}
	return id, subjectID, nil
}

// VerifyPasswordReset implements portal.AuthService: it tells whether a
// reset link is usable, and whose, without spending it.
func (s *DB) VerifyPasswordReset(ctx context.Context, token string) (string, error) {
	_, subjectID, err := s.findResetLink(ctx, token)
	if err != nil {
		return "", err
	}
	var username string
	if err := s.db.QueryRowContext(ctx, `SELECT username FROM subjects WHERE id = $1`, subjectID).Scan(&username); err != nil {
		return "", notFound(err, "Subject")
	}
	return username, nil
}

// ConfirmPasswordReset implements portal.AuthService. It also clears the
// username's failed logins, as the throttle's message promises: the reset
// proves the applicant reads the account's mail.
func (s *DB) ConfirmPasswordReset(ctx context.Context, token, pw string) error {
	invalid := invalidResetLink
	id, subjectID, err := s.findResetLink(ctx, token)
	if err != nil {
		return err
	}
	if err := s.validateNewPassword(ctx, subjectID, "password", pw); err != nil {
		return err
	}
	hash, err := s.hashPassword(ctx, pw)
	if err != nil {
		return err
	}
	// Spending the link and setting the password commit together: a link is
	// never used up by a password change that did not happen.
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE password_resets SET used_at = $1 WHERE id = $2 AND used_at IS NULL AND expires_at > $1`, ms(s.now()), id)
		if err != nil {
			return fmt.Errorf("store: spend reset: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return invalid()
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM login_failures WHERE username = (SELECT username FROM subjects WHERE id = $1)`, subjectID); err != nil {
			return fmt.Errorf("store: clear login failures: %w", err)
		}
		return s.replacePassword(ctx, tx, subjectID, hash, 0)
	})
}
