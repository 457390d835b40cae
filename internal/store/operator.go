package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"applicantportal/internal/filetype"
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

// AttachReport stores the report's PDF, then in one transaction replaces
// the kind's earlier report (whose file goes) with it. A refused or failed
// attachment leaves the earlier report as it was.
func (o *OperatorService) AttachReport(ctx context.Context, req portal.AttachReportRequest) (*portal.File, error) {
	if !slices.Contains(portal.ReportKinds, req.Kind) {
		return nil, portal.Errorf(portal.EINVALID, "Unknown report kind %q: say report, drug-report or ecoc-form.", req.Kind)
	}
	var one int
	if err := o.db.db.QueryRowContext(ctx, `SELECT 1 FROM subjects WHERE id = $1`, req.SubjectID).Scan(&one); err != nil {
		return nil, notFound(err, "Applicant")
	}
	body, kind, err := peekKind(req.Body, req.Name, "")
	if errors.Is(err, filetype.ErrNotAccepted) || (err == nil && kind.Family != filetype.PDF) {
		// The applicants' list of accepted types means nothing here.
		return nil, portal.Errorf(portal.EUNSUPPORTED, "A report must be a PDF.")
	}
	if err != nil {
		return nil, err
	}
	files := NewFileStore(o.db)
	file, err := files.Put(ctx, portal.FileMeta{SubjectID: req.SubjectID, Name: filetype.SanitizeName(req.Name, kind), ContentType: kind.ContentType},
		body, portal.MaxReportSize)
	if err != nil {
		return nil, err
	}
	err = o.db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := o.db.lockSubject(ctx, tx, req.SubjectID); err != nil {
			return err
		}
		// The old report's row goes with its file (ON DELETE CASCADE).
		if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id IN (SELECT file_id FROM subject_reports WHERE subject_id = $1 AND kind = $2)`,
			req.SubjectID, string(req.Kind)); err != nil {
			return fmt.Errorf("store: replace report: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO subject_reports (subject_id, kind, file_id, created_at) VALUES ($1, $2, $3, $4)`,
			req.SubjectID, string(req.Kind), file.ID, ms(file.CreatedAt)); err != nil {
			return fmt.Errorf("store: attach report: %w", err)
		}
		return nil
	})
	if err != nil {
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		return nil, errors.Join(err, files.remove(cleanup, file.ID))
	}
	return file, nil
}

// AddPdfForm implements portal.OperatorService through the document
// service, which the demo uses too.
func (o *OperatorService) AddPdfForm(ctx context.Context, f portal.NewPdfForm) (*portal.PdfForm, error) {
	return o.db.Documents().AddPdfForm(ctx, f)
}
