package store

import (
	"context"
	"strings"

	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

// OperatorService is portal.OperatorService on the store: the `portal`
// subcommands call it, and the operator API will.
type OperatorService struct {
	db *DB
}

var _ portal.OperatorService = (*OperatorService)(nil)

// NewOperatorService returns the operator service of db.
func NewOperatorService(db *DB) *OperatorService { return &OperatorService{db: db} }

// InviteApplicant validates the request, then finds or creates the
// applicant, records where they will work and creates the link in one
// transaction, serialised per e-mail address across processes: two
// invitations of one new address at once give one applicant.
func (o *OperatorService) InviteApplicant(ctx context.Context, req portal.InviteRequest) (*portal.InviteResult, error) {
	if err := req.Validate(subjectRules, lookup.IsStateCode); err != nil {
		return nil, err
	}
	var res portal.InviteResult
	err := o.db.Atomically(ctx, "invite:"+portal.NormalizeUsername(req.Email), func(tx *DB) error {
		sub, err := tx.Subjects().FindSubjectByUsername(ctx, req.Email)
		switch {
		case portal.ErrorCode(err) == portal.ENOTFOUND:
			if sub, err = tx.CreateSubject(ctx, req.NewSubject); err != nil {
				return err
			}
		case err != nil:
			return err
		case sub.HasPassword:
			return portal.Errorf(portal.ECONFLICT, "%s already has an account with a password; they can log in or reset their password", sub.Username)
		case sub.CompanyID != req.CompanyID:
			return portal.Errorf(portal.ECONFLICT, "%s is an applicant of another company", sub.Username)
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
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// FindApplicants lists the applicants of filter.CompanyID (every
// company's when 0).
func (o *OperatorService) FindApplicants(ctx context.Context, filter portal.ApplicantFilter) ([]portal.Applicant, error) {
	return o.db.FindApplicants(ctx, filter.CompanyID)
}

// FindCompanies lists every company.
func (o *OperatorService) FindCompanies(ctx context.Context) ([]*portal.Company, error) {
	return o.db.FindCompanies(ctx)
}

// SetBanner replaces or clears the maintenance banner; a message of only
// spaces clears it too.
func (o *OperatorService) SetBanner(ctx context.Context, message string) (*portal.Banner, error) {
	return o.db.SetBanner(ctx, strings.TrimSpace(message))
}

// Outbox lists the e-mail outbox.
func (o *OperatorService) Outbox(ctx context.Context) ([]portal.Mail, error) {
	return o.db.Outbox(ctx)
}

// Sweep deletes expired rows (DB.Sweep).
func (o *OperatorService) Sweep(ctx context.Context) (portal.SweepResult, error) {
	return o.db.Sweep(ctx)
}
