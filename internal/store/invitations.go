package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

// CreateInvitation implements portal.AuthService. The new link replaces
// the subject's earlier unused ones, which end now: a re-invitation, a
// reminder or the demo's link at each start must not leave every link
// ever sent (in old e-mails, logs, backups) working.
func (s *AuthService) CreateInvitation(ctx context.Context, subjectID int64) (string, error) {
	return s.createInvitation(ctx, s.db, subjectID)
}

// createInvitation is CreateInvitation in q (a transaction of the caller's).
func (s *conn) createInvitation(ctx context.Context, q queryer, subjectID int64) (string, error) {
	token, hash, err := newSecret()
	if err != nil {
		return "", err
	}
	now := s.now()
	// Ending them first: if the insert then fails, no link works, and
	// inviting again gives one.
	if _, err := q.ExecContext(ctx, `UPDATE invitations SET expires_at = $1 WHERE subject_id = $2 AND used_at IS NULL AND expires_at > $1`,
		ms(now), subjectID); err != nil {
		return "", fmt.Errorf("store: end earlier invitations: %w", err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO invitations (subject_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		subjectID, hash, ms(now), ms(now.Add(s.cfg.InvitationTTL))); err != nil {
		return "", fmt.Errorf("store: create invitation: %w", err)
	}
	return token, nil
}

// TokenLogin implements portal.AuthService. The same 403 answers an
// unknown, expired or used token, so the answer reveals nothing.
func (s *AuthService) TokenLogin(ctx context.Context, invitationToken string) (*portal.TokenPair, error) {
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
func (s *AuthService) SetInitialPassword(ctx context.Context, subjectID int64, pw string) error {
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
		s.tokens.forgetAfter(tx)
		if _, err := tx.ExecContext(ctx, `UPDATE token_families SET revoked_at = $1 WHERE subject_id = $2 AND scope = $3 AND revoked_at IS NULL`,
			now, subjectID, portal.ScopeSetup); err != nil {
			return fmt.Errorf("store: end setup credentials: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE invitations SET used_at = $1 WHERE subject_id = $2 AND used_at IS NULL`, now, subjectID); err != nil {
			return fmt.Errorf("store: consume invitation: %w", err)
		}
		if err := spendResetLinks(ctx, tx, subjectID, now); err != nil {
			return err
		}
		return s.audit(asApplicant(ctx, subjectID), tx, subjectID, "password.set", "the account's first password")
	})
}

// InvitationService is portal.InvitationService on the store: operators'
// invitations (ReminderService reminds those who do not finish).
type InvitationService struct{ db *DB }

var _ portal.InvitationService = (*InvitationService)(nil)

// InviteApplicant validates the request, then finds or creates the
// applicant, records where they will work, creates the link and, with
// req.BaseURL, queues the invitation e-mail, in one transaction serialised
// per e-mail address across processes: two invitations of one new address
// at once give one applicant.
func (s *InvitationService) InviteApplicant(ctx context.Context, req portal.InviteRequest) (*portal.InviteResult, error) {
	if err := req.Validate(subjectRules, lookup.Places()); err != nil {
		return nil, err
	}
	var res portal.InviteResult
	err := s.db.Atomically(ctx, "invite:"+portal.NormalizeUsername(req.Email), func(tx *DB) error {
		sub, err := tx.Subjects().FindSubjectByUsername(ctx, req.Email)
		switch {
		case portal.ErrorCode(err) == portal.ENOTFOUND:
			if sub, err = tx.CreateSubject(ctx, req.NewSubject); err != nil {
				return err
			}
		case err != nil:
			return err
		case sub.CompanyID != req.CompanyID:
			// Checked first, and said without the other account's facts:
			// one employer must not learn that an address applied
			// elsewhere, nor whether it set a password there. Usernames
			// are one namespace, so that the address is taken remains.
			return portal.Errorf(portal.ECONFLICT, "%s is already in use by another account and cannot be invited", sub.Username)
		case sub.HasPassword:
			return portal.Errorf(portal.ECONFLICT, "%s already has an account with a password; they can log in or reset their password", sub.Username)
		case req.Locale != "" && req.Locale != sub.Locale:
			// Invited again in another language: the new link's e-mail,
			// and the later ones, are in it.
			if err := tx.Subjects().SetLocale(ctx, sub.ID, req.Locale); err != nil {
				return err
			}
			sub.Locale = req.Locale
		}
		if !req.Work.Empty() {
			if err := tx.SetEmploymentLocation(ctx, sub.ID, req.Work); err != nil {
				return err
			}
		}
		token, err := tx.Auth().CreateInvitation(ctx, sub.ID)
		if err != nil {
			return err
		}
		res = portal.InviteResult{Subject: sub, Token: token}
		if err := s.db.audit(ctx, tx.db, sub.ID, "applicant.invited", "an invitation link created"); err != nil {
			return err
		}
		if err := startReminderWindow(ctx, tx.db, sub.ID, s.db.now()); err != nil {
			return err
		}
		if err := s.db.queueWebhook(ctx, tx.db, sub.ID, portal.WebhookApplicantInvited, webhookStatus{sub.StatusID}); err != nil {
			return err
		}
		if req.BaseURL == "" {
			return nil
		}
		company, err := tx.FindCompanyByID(ctx, sub.CompanyID)
		if err != nil {
			return err
		}
		subject, body := messagesIn(sub.Locale).invitationMail(company.Name, sub.FirstName, portalLink(req.BaseURL, "/setup", token), s.db.cfg.InvitationTTL)
		return s.db.enqueueMail(ctx, tx.db, s.db.now(), sub.Email, subject, body, s.db.cfg.InvitationTTL)
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}
