package store

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"applicantportal/internal/portal"
)

// SignInService implements portal.SignInService: new links on request and
// one-time sign-in codes. Both answer the same whatever the address, and
// both are throttled per address and per IP like password resets.
type SignInService struct{ *conn }

var _ portal.SignInService = (*SignInService)(nil)

// SignIn hands out the sign-in service.
func (db *DB) SignIn() *SignInService { return &SignInService{db.conn} }

// Over these limits a request answers as usual and sends nothing (the
// reset's limits: a sign-in code or a new link is as good a way to flood a
// mailbox as a reset link).
var (
	codeThrottle    = throttle{table: "login_code_requests", window: ResetWindow, perUser: MaxResetsPerUser, perIP: MaxResetsPerIP, lockClass: lockCodeUsername}
	renewalThrottle = throttle{table: "link_renewal_requests", window: ResetWindow, perUser: MaxResetsPerUser, perIP: MaxResetsPerIP, lockClass: lockRenewalUsername}
)

// LinkState implements portal.SignInService. A token is 256 random bits,
// so asking about one needs no throttle: nobody guesses one.
func (s *SignInService) LinkState(ctx context.Context, kind, token string) (string, error) {
	if !portal.PlausibleToken(token) {
		return portal.LinkUnknown, nil
	}
	var expires int64
	var used sql.NullInt64
	var hasPassword bool
	var err error
	switch kind {
	case portal.LinkInvitation:
		// An invitation whose applicant has set a password was used, even
		// when the password came another way (a reset).
		err = s.db.QueryRowContext(ctx, `SELECT i.expires_at, i.used_at, s.password_hash IS NOT NULL
			FROM invitations i JOIN subjects s ON s.id = i.subject_id WHERE i.token_hash = $1`, hashSecret(token)).
			Scan(&expires, &used, &hasPassword)
	case portal.LinkReset:
		err = s.db.QueryRowContext(ctx, `SELECT expires_at, used_at FROM password_resets WHERE token_hash = $1`, hashSecret(token)).
			Scan(&expires, &used)
	default:
		var fe portal.FieldErrors
		fe.Add("kind", "Choose invitation or reset")
		return "", fe.Err()
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return portal.LinkUnknown, nil
	case err != nil:
		return "", fmt.Errorf("store: find %s link: %w", kind, err)
	case used.Valid || hasPassword:
		return portal.LinkUsed, nil
	case ms(s.now()) >= expires:
		return portal.LinkExpired, nil
	}
	return portal.LinkValid, nil
}

// linkOwner is the username of the account a link's token belongs to, or
// "" when no link has the token.
func (s *conn) linkOwner(ctx context.Context, q queryer, kind, token string) (string, error) {
	if !portal.PlausibleToken(token) {
		return "", nil
	}
	table := "invitations"
	if kind == portal.LinkReset {
		table = "password_resets"
	}
	var username string
	err := q.QueryRowContext(ctx, `SELECT s.username FROM `+table+` l JOIN subjects s ON s.id = l.subject_id WHERE l.token_hash = $1`,
		hashSecret(token)).Scan(&username)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("store: find %s link: %w", kind, err)
	}
	return username, nil
}

// RenewLink implements portal.SignInService. The mail goes to the address
// on file, never to one in the request: the e-mail given only finds the
// account (its username). An account with no password gets a fresh
// invitation, which ends the older ones; one with a password (its
// invitation used) a reset link, whatever kind was asked for.
func (s *SignInService) RenewLink(ctx context.Context, r portal.LinkRenewal) error {
	if err := r.Validate(); err != nil {
		return err
	}
	username := portal.NormalizeUsername(r.Email)
	if token := strings.TrimSpace(r.Token); token != "" {
		owner, err := s.linkOwner(ctx, s.db, r.Kind, token)
		if err != nil {
			return err
		}
		if owner == "" && username == "" {
			return nil // a token nobody holds: nothing to send, nobody to tell
		}
		if owner != "" {
			username = owner
		}
	}
	if !plausibleUsername(username) {
		return nil
	}
	throttled := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		wait, err := s.admit(ctx, tx, renewalThrottle, username, r.IP)
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
		now := s.now()
		if sub.HasPassword {
			if err := s.queueResetLink(ctx, tx, sub, r.BaseURL, now); err != nil {
				return err
			}
			return s.audit(ctx, tx, sub.ID, "signin.link-renewed", "a new reset link, asked for with a "+r.Kind+" link")
		}
		token, err := s.createInvitation(ctx, tx, sub.ID)
		if err != nil {
			return err
		}
		var company string
		if err := tx.QueryRowContext(ctx, `SELECT name FROM companies WHERE id = $1`, sub.CompanyID).Scan(&company); err != nil {
			return notFound(err, "Company")
		}
		subject, body := messagesIn(sub.Locale).invitationMail(company, sub.FirstName, portalLink(r.BaseURL, "/setup", token), s.cfg.InvitationTTL)
		if err := s.enqueueMail(ctx, tx, now, sub.Email, subject, body, s.cfg.InvitationTTL); err != nil {
			return err
		}
		return s.audit(ctx, tx, sub.ID, "signin.link-renewed", "a new invitation link")
	})
	if throttled {
		s.cfg.Logger.Warn("new-link requests throttled; no e-mail queued")
	}
	return err
}

// newLoginCode is six random digits, leading zeros kept.
func newLoginCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("store: random code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// loginCodeHash is how a code is stored: with its subject's id, so that
// two applicants' equal codes differ, and a row found by hash is that
// applicant's.
func loginCodeHash(subjectID int64, code string) string {
	return hashSecret(strconv.FormatInt(subjectID, 10) + ":" + code)
}

// textNumberOf is the mobile number to text the applicant at: the one
// they chose for notices in their personal information, else the daytime
// number there, else the account's phone; "" when none.
func (s *conn) textNumberOf(ctx context.Context, q queryer, sub *portal.Subject) (string, error) {
	p, err := findPersonalInfo(ctx, q, s.cfg.Sealer, sub.ID)
	if err != nil {
		return "", err
	}
	if p != nil {
		dial := cmp.Or(p.DaytimeDialCode, portal.DefaultDialCode)
		if p.PrimaryNotificationMethod.Text != "" {
			return textNumber(dial, p.PrimaryNotificationMethod.Text), nil
		}
		if p.DaytimePhoneNumber != "" {
			return textNumber(dial, p.DaytimePhoneNumber), nil
		}
	}
	phone := strings.TrimSpace(sub.Phone)
	if strings.IndexFunc(phone, func(r rune) bool { return r >= '0' && r <= '9' }) < 0 {
		return "", nil
	}
	if strings.HasPrefix(phone, "+") {
		return textNumber("", phone), nil
	}
	return textNumber(portal.DefaultDialCode, phone), nil
}

// RequestLoginCode implements portal.SignInService. Only an account with
// a password gets a code (before that, the invitation is the way in). A
// text goes to the number on file; without one the code goes by e-mail,
// so that asking for a text says nothing about the account either.
func (s *SignInService) RequestLoginCode(ctx context.Context, r portal.LoginCodeRequest) error {
	if err := r.Validate(); err != nil {
		return err
	}
	username := portal.NormalizeUsername(r.Username)
	if !plausibleUsername(username) {
		return nil
	}
	code, err := newLoginCode()
	if err != nil {
		return err
	}
	throttled := false
	err = s.tx(ctx, func(tx *sql.Tx) error {
		wait, err := s.admit(ctx, tx, codeThrottle, username, r.IP)
		if err != nil || wait > 0 {
			throttled = wait > 0
			return err
		}
		sub, err := scanSubject(tx.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE username = $1`, username))
		if errors.Is(err, sql.ErrNoRows) || (err == nil && !sub.HasPassword) {
			return nil
		} else if err != nil {
			return fmt.Errorf("store: find subject: %w", err)
		}
		now := s.now()
		channel, number := portal.SendByEmail, ""
		if r.Channel == portal.SendByText {
			if number, err = s.textNumberOf(ctx, tx, sub); err != nil {
				return err
			}
			if number != "" {
				channel = portal.SendByText
			}
		}
		// A new code ends the older ones: only the latest message counts.
		if _, err := tx.ExecContext(ctx, `UPDATE login_codes SET used_at = $1 WHERE subject_id = $2 AND used_at IS NULL`, ms(now), sub.ID); err != nil {
			return fmt.Errorf("store: end older sign-in codes: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO login_codes (subject_id, code_hash, channel, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
			sub.ID, loginCodeHash(sub.ID, code), channel, ms(now), ms(now.Add(portal.LoginCodeTTL))); err != nil {
			return fmt.Errorf("store: save sign-in code: %w", err)
		}
		if channel == portal.SendByText {
			if err := s.queueText(ctx, tx, sub.ID, number, messagesIn(sub.Locale).loginCodeText(code)); err != nil {
				return err
			}
		} else {
			subject, body := messagesIn(sub.Locale).loginCodeMail(sub.FirstName, code, portal.LoginCodeTTL)
			if err := s.enqueueMail(ctx, tx, now, sub.Email, subject, body, portal.LoginCodeTTL); err != nil {
				return err
			}
		}
		return s.audit(ctx, tx, sub.ID, "signin.code-sent", "by "+channel)
	})
	if throttled {
		s.cfg.Logger.Warn("sign-in code requests throttled; nothing sent")
	}
	return err
}

// LoginWithCode implements portal.SignInService. A wrong code counts as a
// failed login in the password throttle (so guessing a code meets the
// same limits as guessing a password) and as a wrong try of the live
// code, which MaxCodeAttempts of them spend. Checks of one username run
// one at a time, as checkPassword's do; the conditional update that spends
// the code is what lets only one of two parallel uses win even so.
func (s *SignInService) LoginWithCode(ctx context.Context, c portal.CodeCredentials) (*portal.TokenPair, error) {
	if err := s.checkClient(ctx, c.ClientID, c.ClientSecret); err != nil {
		return nil, err
	}
	username := portal.NormalizeUsername(c.Username)
	if !plausibleUsername(username) {
		return nil, portal.ErrBadCode
	}
	code := portal.NormalizeCode(c.Code)
	unlock, err := s.userLocks.lock(ctx, username)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var subjectID int64
	ok := false
	err = s.serialized(ctx, lockLoginUsername, username, func(q queryer) error {
		if err := s.loginThrottled(ctx, q, username, c.IP); err != nil {
			return err
		}
		now := ms(s.now())
		var codeID int64
		var hash string
		err := q.QueryRowContext(ctx, `SELECT s.id, c.id, c.code_hash FROM subjects s
			JOIN login_codes c ON c.subject_id = s.id AND c.used_at IS NULL AND c.expires_at > $2
			WHERE s.username = $1 AND s.password_hash IS NOT NULL ORDER BY c.id DESC LIMIT 1`, username, now).Scan(&subjectID, &codeID, &hash)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: find sign-in code: %w", err)
		}
		if codeID != 0 && len(code) == portal.LoginCodeDigits &&
			subtle.ConstantTimeCompare([]byte(loginCodeHash(subjectID, code)), []byte(hash)) == 1 {
			res, err := q.ExecContext(ctx, `UPDATE login_codes SET used_at = $1 WHERE id = $2 AND used_at IS NULL`, now, codeID)
			if err != nil {
				return fmt.Errorf("store: spend sign-in code: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 1 {
				ok = true
				if _, err := q.ExecContext(ctx, `DELETE FROM login_failures WHERE username = $1 AND ip = $2`, username, c.IP); err != nil {
					return fmt.Errorf("store: clear login failures: %w", err)
				}
				return s.audit(asApplicant(ctx, subjectID), q, subjectID, "signin.code-accepted", "")
			}
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO login_failures (username, ip, at) VALUES ($1, $2, $3)`, username, c.IP, now); err != nil {
			return fmt.Errorf("store: record login failure: %w", err)
		}
		if codeID == 0 {
			return nil
		}
		if _, err := q.ExecContext(ctx, `UPDATE login_codes SET attempts = attempts + 1,
			used_at = CASE WHEN attempts + 1 >= $1 THEN $2 ELSE used_at END WHERE id = $3`, portal.MaxCodeAttempts, now, codeID); err != nil {
			return fmt.Errorf("store: count a wrong sign-in code: %w", err)
		}
		return s.audit(asApplicant(ctx, subjectID), q, subjectID, "signin.code-refused", "")
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, portal.ErrBadCode
	}
	return s.issue(ctx, subjectID, c.ClientID, portal.ScopeDefault)
}
