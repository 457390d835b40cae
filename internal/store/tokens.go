package store

import (
	"applicantportal/internal/portal"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Login implements portal.AuthService.
func (s *AuthService) Login(ctx context.Context, c portal.Credentials) (*portal.TokenPair, error) {
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
	// Who tries: the account's applicant, or nobody known (subject 0;
	// the username tried is not kept, being an e-mail address).
	actx := asApplicant(portal.WithActor(ctx, portal.Actor{Kind: portal.ActorApplicant, Address: c.IP}), subjectID)
	ok, err := s.checkPassword(ctx, username, c.IP, c.Password, stored, hash.Valid, func(q queryer) error {
		detail := "wrong password"
		if subjectID == 0 {
			detail = "unknown username"
		} else if !hash.Valid {
			detail = "no password set yet"
		}
		return s.audit(actx, q, subjectID, "login.failed", detail)
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, portal.ErrBadCredentials
	}
	var pair *portal.TokenPair
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if pair, err = s.issueInTx(ctx, tx, subjectID, c.ClientID, portal.ScopeDefault); err != nil {
			return err
		}
		return s.audit(actx, tx, subjectID, "login.succeeded", "with a password")
	})
	return pair, err
}

// plausibleUsername reports whether u could be an account's username (an
// e-mail address): no control characters, at most 254 characters. Others
// never reach the database, where a NUL byte or a huge value fails on
// PostgreSQL instead of finding nothing.
func plausibleUsername(u string) bool {
	return utf8.RuneCountInString(u) <= portal.MaxUsernameLength && !strings.ContainsFunc(u, unicode.IsControl)
}

// humanMinutes is a wait in words, for a message: translated with it.
func humanMinutes(secs int) portal.Phrase {
	m := (secs + 59) / 60
	if m <= 1 {
		return portal.Phrasef("a minute")
	}
	return portal.Phrasef("%d minutes", m)
}

// issue starts a new token family and gives its first tokens.
func (s *conn) issue(ctx context.Context, subjectID int64, clientID, scope string) (*portal.TokenPair, error) {
	var pair *portal.TokenPair
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		pair, err = s.issueInTx(ctx, tx, subjectID, clientID, scope)
		return err
	})
	return pair, err
}

// issueInTx is issue within tx, for a grant that spends something in the
// same transaction (a handoff link).
func (s *conn) issueInTx(ctx context.Context, tx *sql.Tx, subjectID int64, clientID, scope string) (*portal.TokenPair, error) {
	var familyID int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO token_families (subject_id, client_id, scope, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
		subjectID, clientID, scope, ms(s.now())).Scan(&familyID); err != nil {
		return nil, fmt.Errorf("store: create token family: %w", err)
	}
	pair, err := s.issueInFamily(ctx, tx, familyID, scope)
	if pair != nil {
		pair.SubjectID = subjectID
	}
	return pair, err
}

// issueInFamily adds an access token, and a refresh token unless the scope
// is setup (a setup credential cannot be renewed).
func (s *conn) issueInFamily(ctx context.Context, tx *sql.Tx, familyID int64, scope string) (*portal.TokenPair, error) {
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
func (s *AuthService) Refresh(ctx context.Context, clientID, clientSecret, refreshToken string) (*portal.TokenPair, error) {
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
			s.tokens.forgetAfter(tx)
			if _, err := tx.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE id = $2`, ms(s.now()), familyID); err != nil {
				return fmt.Errorf("store: revoke token family: %w", err)
			}
			return s.audit(asApplicant(ctx, subjectID), tx, subjectID, "login.refresh-reused",
				fmt.Sprintf("a refresh token was used twice: every token of its sign-in (family %d) revoked", familyID))
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
func (s *AuthService) Authenticate(ctx context.Context, accessToken string) (*portal.Session, error) {
	if accessToken == "" {
		return nil, portal.ErrInvalidToken
	}
	hash := hashSecret(accessToken)
	if sess, ok := s.tokens.get(hash, s.now()); ok {
		return sess, nil
	}
	gen := s.tokens.generation()
	var sess portal.Session
	var expires int64
	var revoked sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT f.id, f.subject_id, f.scope, f.client_id, t.expires_at, f.revoked_at
		FROM tokens t JOIN token_families f ON f.id = t.family_id
		WHERE t.token_hash = $1 AND t.kind = 'access'`, hash).
		Scan(&sess.FamilyID, &sess.SubjectID, &sess.Scope, &sess.ClientID, &expires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, portal.ErrInvalidToken
	} else if err != nil {
		return nil, fmt.Errorf("store: find access token: %w", err)
	}
	if revoked.Valid || ms(s.now()) >= expires {
		return nil, portal.ErrInvalidToken
	}
	sess.ExpiresAt = fromMS(expires)
	s.tokens.put(hash, sess, gen, s.now())
	return &sess, nil
}

// Revoke implements portal.AuthService: logging out ends the access token
// and the refresh token of that login at once.
func (s *AuthService) Revoke(ctx context.Context, accessToken string) error {
	sess, err := s.Authenticate(ctx, accessToken)
	if err != nil {
		return err
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE id = $2`, ms(s.now()), sess.FamilyID); err != nil {
			return err
		}
		return s.audit(asApplicant(ctx, sess.SubjectID), tx, sess.SubjectID, "logout", "")
	})
	s.tokens.forget()
	if s.inTx != nil {
		s.tokens.forgetAfter(s.inTx)
	}
	if err != nil {
		return fmt.Errorf("store: revoke: %w", err)
	}
	return nil
}
