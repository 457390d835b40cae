package store

import (
	"applicantportal/internal/password"
	"applicantportal/internal/portal"
	"context"
	"database/sql"
	"fmt"
)

// passwordGateBusy is what a login turned away by the password gate is
// told: each argon2id run takes 19 MiB and a core, so a flood of logins
// queues rather than exhausting memory.
const passwordGateBusy = "The server is busy checking passwords. Please try again in a moment." // #nosec G101 -- a message text, not a credential

// hashPassword hashes the NFKC form of pw, within the password gate.
func (s *conn) hashPassword(ctx context.Context, pw string) (string, error) {
	var hash string
	err := s.passwordWork(ctx, func() error {
		var err error
		hash, err = s.cfg.HashPassword(password.Normalize(pw))
		return err
	})
	return hash, err
}

// passwordWork runs fn, a password hash or check, in a slot of the
// password gate, and gives the memory back after a burst (hashMemory).
func (s *conn) passwordWork(ctx context.Context, fn func() error) error {
	return s.gate.Run(ctx, func() error { return s.hashMemory.run(fn) })
}

// verify compares the NFKC form of pw with hash; the caller holds a slot of
// the password gate. A password whose NFKC form differs is also tried as
// typed, as hashes stored before normalization was introduced hold it so.
func (s *conn) verify(pw, hash string) (bool, error) {
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

// ChangePassword implements portal.AuthService. A session without a family
// (FamilyID 0) keeps none of the subject's sessions.
func (s *AuthService) ChangePassword(ctx context.Context, sess portal.Session, ip, current, next string) error {
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
		if err := s.replacePassword(ctx, tx, subjectID, newHash, keepFamilyID); err != nil {
			return err
		}
		if err := s.queuePasswordNotice(ctx, tx, subjectID, false); err != nil {
			return err
		}
		return s.audit(asApplicant(ctx, subjectID), tx, subjectID, "password.changed", "every other session ended")
	})
}

// checkCurrentPassword checks the password a signed-in subject types again
// to confirm a sensitive change (a new password, a new e-mail address)
// against its stored hash. A wrong one counts as a failed login of
// username from ip and answers a validation error on currentPassword.
func (s *conn) checkCurrentPassword(ctx context.Context, username, hash, ip, current string) error {
	ok, err := s.checkPassword(ctx, username, ip, current, hash, true, nil)
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
func (s *conn) replacePassword(ctx context.Context, tx *sql.Tx, subjectID int64, hash string, keepFamilyID int64) error {
	now := ms(s.now())
	if _, err := tx.ExecContext(ctx, `UPDATE subjects SET password_hash = $1, updated_at = $2 WHERE id = $3`, hash, now, subjectID); err != nil {
		return fmt.Errorf("store: set password: %w", err)
	}
	s.tokens.forgetAfter(tx)
	if _, err := tx.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE subject_id = $2 AND id <> $3 AND revoked_at IS NULL`,
		now, subjectID, keepFamilyID); err != nil {
		return fmt.Errorf("store: revoke sessions: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE invitations SET used_at = $1 WHERE subject_id = $2 AND used_at IS NULL`, now, subjectID); err != nil {
		return fmt.Errorf("store: consume invitation: %w", err)
	}
	if err := spendHandoffs(ctx, tx, subjectID, now); err != nil {
		return err
	}
	return spendResetLinks(ctx, tx, subjectID, now)
}

// queuePasswordNotice queues, in tx, the e-mail telling the account's
// address that its password was just changed, or reset with a link when
// reset (ASVS 2.2.3, 2.5.5): in the applicant's language, with the time and
// the company, and what to do if it was not them. It carries no link and
// no token. The first password, created with an invitation
// (SetInitialPassword), is no change and is not told.
func (s *conn) queuePasswordNotice(ctx context.Context, tx *sql.Tx, subjectID int64, reset bool) error {
	var email, firstName, company string
	var locale portal.Locale
	if err := tx.QueryRowContext(ctx, `SELECT s.email, s.first_name, s.locale, c.name FROM subjects s JOIN companies c ON c.id = s.company_id WHERE s.id = $1`,
		subjectID).Scan(&email, &firstName, &locale, &company); err != nil {
		return notFound(err, "Subject")
	}
	now := s.now()
	subject, body := messagesIn(locale).passwordChangedMail(firstName, company, now, reset)
	return s.enqueueMail(ctx, tx, now, email, subject, body, 0)
}

// validateNewPassword applies the password policy with the company's
// minimum length and the subject's username and e-mail address.
func (s *conn) validateNewPassword(ctx context.Context, subjectID int64, field, pw string) error {
	var minLen int
	var username, email string
	if err := s.db.QueryRowContext(ctx, `SELECT c.subject_password_length, s.username, s.email FROM subjects s JOIN companies c ON c.id = s.company_id WHERE s.id = $1`,
		subjectID).Scan(&minLen, &username, &email); err != nil {
		return notFound(err, "Subject")
	}
	// A company minimum stored when the floor was lower (8) counts as the
	// floor: no password shorter than portal.MinSubjectPasswordLength.
	minLen = max(minLen, portal.MinSubjectPasswordLength)
	var fe portal.FieldErrors
	if msg := password.Problem(pw, minLen, username, email); msg != "" {
		fe.Add(field, msg)
	}
	return fe.Err()
}
