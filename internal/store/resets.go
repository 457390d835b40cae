package store

import (
	"applicantportal/internal/portal"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// spendResetLinks ends the subject's outstanding reset links: once the
// password is set, changed or reset, an older link (perhaps in a mailbox
// someone else reads) must not set it again.
func spendResetLinks(ctx context.Context, tx *sql.Tx, subjectID, now int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE password_resets SET used_at = $1 WHERE subject_id = $2 AND used_at IS NULL`, now, subjectID); err != nil {
		return fmt.Errorf("store: spend reset links: %w", err)
	}
	return nil
}

// RequestPasswordReset implements portal.AuthService. It does nothing, and
// says nothing, for an unknown username. Over MaxResetsPerUser requests for the username, or MaxResetsPerIP from
// the IP, within ResetWindow it queues nothing and answers nil all the
// same, so mail cannot be used to flood an applicant and the answer still
// reveals nothing.
func (s *AuthService) RequestPasswordReset(ctx context.Context, username, ip, resetURLBase string) error {
	username = portal.NormalizeUsername(username)
	if !plausibleUsername(username) {
		return nil
	}
	now := s.now()
	throttled := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
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
		return s.queueResetLink(ctx, tx, sub, resetURLBase, now)
	})
	if throttled {
		s.cfg.Logger.Warn("password reset requests throttled; no e-mail queued")
	}
	return err
}

// queueResetLink creates a reset link for sub and queues the e-mail that
// carries it, in tx: a reset asked for on the login page, or a new link asked
// for with one that no longer works (SignInService.RenewLink).
func (s *conn) queueResetLink(ctx context.Context, tx *sql.Tx, sub *portal.Subject, baseURL string, now time.Time) error {
	token, hash, err := newSecret()
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO password_resets (subject_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		sub.ID, hash, ms(now), ms(now.Add(s.cfg.ResetTTL))); err != nil {
		return fmt.Errorf("store: create reset: %w", err)
	}
	subject, body := messagesIn(sub.Locale).resetMail(sub.FirstName, portalLink(baseURL, "/reset", token), s.cfg.ResetTTL)
	return s.enqueueMail(ctx, tx, now, sub.Email, subject, body, s.cfg.ResetTTL)
}

// invalidResetLink answers an unknown, used or expired reset link.
func invalidResetLink() error {
	var fe portal.FieldErrors
	fe.Add("token", "This reset link is invalid or has expired. Please ask for a new one.")
	return fe.Err()
}

// findResetLink returns the id and subject of a usable reset link.
func (s *conn) findResetLink(ctx context.Context, token string) (id, subjectID int64, err error) {
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
func (s *AuthService) VerifyPasswordReset(ctx context.Context, token string) (string, error) {
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
func (s *AuthService) ConfirmPasswordReset(ctx context.Context, token, pw string) error {
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
		if err := s.replacePassword(ctx, tx, subjectID, hash, 0); err != nil {
			return err
		}
		if err := s.queuePasswordNotice(ctx, tx, subjectID, true); err != nil {
			return err
		}
		return s.audit(asApplicant(ctx, subjectID), tx, subjectID, "password.reset", "with a reset link; every session ended")
	})
}
