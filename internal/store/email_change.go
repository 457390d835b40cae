package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"applicantportal/internal/portal"
)

// RequestEmailChange implements portal.AuthService. The address is a way
// back into the account (reset links go there), so a stolen session alone
// must not be able to change it: the current password is checked, the
// change waits for the new address to confirm a link, and the current
// address hears of it at once.
func (s *AuthService) RequestEmailChange(ctx context.Context, sess portal.Session, ip, currentPassword, newEmail, confirmURLBase string) error {
	newEmail = strings.TrimSpace(newEmail)
	if err := (portal.SubjectUpdate{Email: &newEmail}).Validate(subjectRules); err != nil {
		return err
	}
	var username, email, firstName string
	var locale portal.Locale
	var hash sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT username, email, first_name, password_hash, locale FROM subjects WHERE id = $1`, sess.SubjectID).
		Scan(&username, &email, &firstName, &hash, &locale)
	if err != nil {
		return notFound(err, "Subject")
	}
	if !hash.Valid {
		return portal.Errorf(portal.EFORBIDDEN, "Please create your password and log in first.")
	}
	var fe portal.FieldErrors
	if currentPassword == "" {
		fe.Add("currentPassword", "Enter your current password to change your e-mail address.")
		return fe.Err()
	}
	if err := s.checkCurrentPassword(ctx, username, hash.String, ip, currentPassword); err != nil {
		return err
	}
	if portal.NormalizeUsername(newEmail) == username {
		fe.Add("email", "This is already your e-mail address.")
		return fe.Err()
	}
	// Whether another account holds the new address is not said here (that
	// would tell a signed-in applicant which addresses have accounts); the
	// confirmation answers 409 then.
	token, tokenHash, err := newSecret()
	if err != nil {
		return err
	}
	now := s.now()
	ttl := s.cfg.EmailChangeTTL
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE email_changes SET replaced_at = $1
			WHERE subject_id = $2 AND used_at IS NULL AND replaced_at IS NULL`, ms(now), sess.SubjectID); err != nil {
			return fmt.Errorf("store: replace e-mail change: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO email_changes (subject_id, new_email, token_hash, password_fingerprint, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, sess.SubjectID, newEmail, tokenHash, hashSecret(hash.String), ms(now), ms(now.Add(ttl))); err != nil {
			return fmt.Errorf("store: create e-mail change: %w", err)
		}
		link := strings.TrimRight(confirmURLBase, "/") + "/confirm-email?token=" + url.QueryEscape(token)
		msg := messagesIn(locale)
		subject, body := msg.emailConfirmMail(firstName, newEmail, link, ttl)
		if err := s.enqueueMail(ctx, tx, now, newEmail, subject, body, ttl); err != nil {
			return err
		}
		subject, body = msg.emailChangingMail(firstName, email, newEmail, ttl, strings.TrimRight(confirmURLBase, "/")+"/login")
		if err := s.enqueueMail(ctx, tx, now, email, subject, body, 0); err != nil {
			return err
		}
		// Neither address is written: the trail holds no personal data.
		return s.audit(ctx, tx, sess.SubjectID, "email.change-requested", "a confirmation link sent to the new address")
	})
}

// ConfirmEmailChange implements portal.AuthService. The token alone proves
// the request (the link may be opened on another device). A request is
// void once used, replaced, expired, or when the password changed since it
// was made. Confirming ends every session of the subject (the username
// they logged in with is gone), spends the outstanding password-reset
// links, which were mailed to the old address, and tells the old address.
func (s *AuthService) ConfirmEmailChange(ctx context.Context, token string) error {
	invalid := func() error {
		var fe portal.FieldErrors
		fe.Add("token", portal.EmailChangeTokenInvalid)
		return fe.Err()
	}
	if !portal.PlausibleToken(token) {
		return invalid()
	}
	now := s.now()
	return s.tx(ctx, func(tx *sql.Tx) error {
		var id, subjectID, expires int64
		var newEmail, fingerprint, oldEmail, firstName string
		var locale portal.Locale
		var used, replaced sql.NullInt64
		var hash sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT e.id, e.subject_id, e.new_email, e.password_fingerprint, e.expires_at, e.used_at, e.replaced_at,
				s.email, s.first_name, s.password_hash, s.locale
			FROM email_changes e JOIN subjects s ON s.id = e.subject_id WHERE e.token_hash = $1`, hashSecret(token)).
			Scan(&id, &subjectID, &newEmail, &fingerprint, &expires, &used, &replaced, &oldEmail, &firstName, &hash, &locale)
		if errors.Is(err, sql.ErrNoRows) {
			return invalid()
		} else if err != nil {
			return fmt.Errorf("store: find e-mail change: %w", err)
		}
		if used.Valid || replaced.Valid || ms(now) >= expires || !hash.Valid || hashSecret(hash.String) != fingerprint {
			return invalid()
		}
		// The conditional update is what makes a concurrent second use lose.
		res, err := tx.ExecContext(ctx, `UPDATE email_changes SET used_at = $1 WHERE id = $2 AND used_at IS NULL AND replaced_at IS NULL`, ms(now), id)
		if err != nil {
			return fmt.Errorf("store: spend e-mail change: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return invalid()
		}
		// Only under the password hash that was checked: a password change
		// committing in between voids the request as it would before.
		res, err = tx.ExecContext(ctx, `UPDATE subjects SET username = $1, email = $2, updated_at = $3 WHERE id = $4 AND password_hash = $5`,
			portal.NormalizeUsername(newEmail), newEmail, ms(now), subjectID, hash.String)
		if s.dialect.isUnique(err) {
			return portal.Errorf(portal.ECONFLICT, "Another account uses %s now, so it cannot become your address. Please ask for a change to another address.", newEmail)
		} else if err != nil {
			return fmt.Errorf("store: change e-mail: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return invalid()
		}
		s.tokens.forgetAfter(tx)
		if _, err := tx.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE subject_id = $2 AND revoked_at IS NULL`,
			ms(now), subjectID); err != nil {
			return fmt.Errorf("store: revoke sessions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE password_resets SET used_at = $1 WHERE subject_id = $2 AND used_at IS NULL`,
			ms(now), subjectID); err != nil {
			return fmt.Errorf("store: spend reset links: %w", err)
		}
		subject, body := messagesIn(locale).emailChangedMail(firstName, oldEmail, newEmail)
		if err := s.enqueueMail(ctx, tx, now, oldEmail, subject, body, 0); err != nil {
			return err
		}
		return s.audit(asApplicant(ctx, subjectID), tx, subjectID, "email.changed", "confirmed with the link; every session ended")
	})
}

// pendingEmailOf is the pending change's new address, or "" when the
// password changed since it was asked for (its fingerprint no longer
// matches the password's hash), or when there is none (newEmail "").
func pendingEmailOf(newEmail, fingerprint string, passwordHash sql.NullString) string {
	if newEmail == "" || !passwordHash.Valid || hashSecret(passwordHash.String) != fingerprint {
		return ""
	}
	return newEmail
}
