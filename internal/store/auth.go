package store

import (
	"applicantportal/internal/portal"
	"context"
)

// AuthService implements portal.AuthService: logins and their throttling
// (throttle.go), OAuth clients (clients.go), access and refresh tokens
// (tokens.go), invitations (invitations.go), passwords (passwords.go),
// password resets (resets.go) and e-mail changes (email_change.go).
type AuthService struct{ *conn }

var _ portal.AuthService = (*AuthService)(nil)

// Auth hands out the authentication service.
func (db *DB) Auth() *AuthService { return &AuthService{db.conn} }

// UpdateAccount implements portal.AuthService. Each part keeps its own
// transaction: a password is hashed outside any, and the parts are checked
// (the subject's fields, one credential change at a time) before the first
// writes.
func (s *AuthService) UpdateAccount(ctx context.Context, sess portal.Session, ch portal.AccountChange) error {
	upd := ch.Subject
	if sess.Scope == portal.ScopeSetup {
		// An invitation credential may only create the password.
		if ch.Password == nil || upd != (portal.SubjectUpdate{}) {
			return errSetupOnly
		}
		return s.SetInitialPassword(ctx, sess.SubjectID, *ch.Password)
	}
	if err := upd.Validate(subjectRules); err != nil {
		return err
	}
	subjects := &SubjectService{s.conn}
	// The e-mail address is a way back into the account, so it changes only
	// through RequestEmailChange. Sending the current address is no change.
	var newEmail *string
	if upd.Email != nil {
		sub, err := subjects.FindSubjectByID(ctx, sess.SubjectID)
		if err != nil {
			return err
		}
		if portal.NormalizeUsername(*upd.Email) != sub.Username {
			newEmail = upd.Email
		}
		upd.Email = nil
	}
	if newEmail != nil && ch.Password != nil {
		// Both would check the current password, which the first changes.
		var fe portal.FieldErrors
		fe.Add("email", "Change your e-mail address and your password one at a time.")
		return fe.Err()
	}
	if ch.Password != nil {
		if err := s.ChangePassword(ctx, sess, ch.IP, ch.CurrentPassword, *ch.Password); err != nil {
			return err
		}
	}
	if newEmail != nil {
		if err := s.RequestEmailChange(ctx, sess, ch.IP, ch.CurrentPassword, *newEmail, ch.ConfirmURLBase); err != nil {
			return err
		}
		// The change is requested: the typed address is no longer a draft.
		if err := s.dropDraftFields(ctx, s.db, sess.SubjectID, portal.DraftAccount, accountEmailFields); err != nil {
			return err
		}
	}
	if upd != (portal.SubjectUpdate{}) {
		if _, err := subjects.UpdateSubject(ctx, sess.SubjectID, upd); err != nil {
			return err
		}
	}
	return nil
}

// errSetupOnly answers a setup credential (from an invitation link) that
// tries more than creating the password.
var errSetupOnly = portal.Errorf(portal.EFORBIDDEN, "Please create your password and log in first.")
