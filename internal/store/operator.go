package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
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
// applicant, records where they will work, creates the link and, with
// req.BaseURL, queues the invitation e-mail, in one transaction serialised
// per e-mail address across processes: two invitations of one new address
// at once give one applicant.
func (o *OperatorService) InviteApplicant(ctx context.Context, req portal.InviteRequest) (*portal.InviteResult, error) {
	if err := req.Validate(subjectRules, lookup.Places()); err != nil {
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
		if req.BaseURL == "" {
			return nil
		}
		company, err := tx.FindCompanyByID(ctx, sub.CompanyID)
		if err != nil {
			return err
		}
		subject, body := invitationMail(company.Name, sub.FirstName, portalLink(req.BaseURL, "/setup", token), o.db.cfg.InvitationTTL)
		return o.db.enqueueMail(ctx, tx.db, o.db.now(), sub.Email, subject, body, o.db.cfg.InvitationTTL)
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

// MarkSpecimenCollected sets the chosen site's collected_at once; marking
// again keeps the first time.
func (o *OperatorService) MarkSpecimenCollected(ctx context.Context, subjectID int64) (*portal.SiteChoice, error) {
	res, err := o.db.db.ExecContext(ctx, `UPDATE subject_collection_sites SET collected_at = $1 WHERE subject_id = $2 AND collected_at IS NULL`,
		ms(o.db.now()), subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: mark specimen collected: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var one int
		err := o.db.db.QueryRowContext(ctx, `SELECT 1 FROM subject_collection_sites WHERE subject_id = $1`, subjectID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, portal.Errorf(portal.ENOTFOUND, "Applicant %d has not chosen a collection site.", subjectID)
		}
		if err != nil {
			return nil, fmt.Errorf("store: mark specimen collected: %w", err)
		}
	}
	// Choice never asks the network.
	return o.db.CollectionSites(nil).Choice(ctx, subjectID)
}

// companyColumn is the companies column of each company preference.
var companyColumn = map[string]string{
	portal.PrefCollectionSiteSelection: "applicant_collection_site_selection",
	portal.PrefSubjectChat:             "subject_chat",
	portal.PrefRequireSSN:              "require_ssn",
	portal.PrefSubjectPasswordLength:   "subject_password_length",
}

// CompanyPreferences reads the company and its default package.
func (o *OperatorService) CompanyPreferences(ctx context.Context, companyID int64) ([]portal.CompanyPreference, error) {
	c, err := o.db.FindCompanyByID(ctx, companyID)
	if err != nil {
		return nil, err
	}
	p := c.Preferences
	out := []portal.CompanyPreference{
		{Name: portal.PrefCollectionSiteSelection, Value: strconv.FormatBool(p.ApplicantCollectionSiteSelection)},
		{Name: portal.PrefSubjectChat, Value: strconv.FormatBool(p.SubjectChat)},
		{Name: portal.PrefRequireSSN, Value: strconv.FormatBool(p.RequireSSN)},
		{Name: portal.PrefSubjectPasswordLength, Value: strconv.Itoa(p.SubjectPasswordLength)},
	}
	if c.PackageID == 0 {
		return out, nil
	}
	pkg, err := o.db.FindPackageByID(ctx, c.PackageID)
	if err != nil {
		return nil, err
	}
	enabled := "0"
	if pkg.SelfPayEnabled {
		enabled = "1"
	}
	return append(out,
		portal.CompanyPreference{Name: portal.PrefSelfPayEnabled, Value: enabled, Package: true},
		portal.CompanyPreference{Name: portal.PrefSelfPayHoldAmount, Value: pkg.SelfPayInitialHoldAmt, Package: true}), nil
}

// SetCompanyPreference checks the value (portal.ParseCompanyPreference)
// and stores it: on the company, or on its default package, which the
// applicants invited from now on get.
func (o *OperatorService) SetCompanyPreference(ctx context.Context, companyID int64, name, value string) (*portal.CompanyPreference, error) {
	pref, err := portal.ParseCompanyPreference(name, value)
	if err != nil {
		return nil, err
	}
	c, err := o.db.FindCompanyByID(ctx, companyID)
	if err != nil {
		return nil, err
	}
	var arg any = pref.Value
	switch pref.Name {
	case portal.PrefSubjectPasswordLength:
		arg, _ = strconv.Atoi(pref.Value)
	case portal.PrefCollectionSiteSelection, portal.PrefSubjectChat, portal.PrefRequireSSN:
		arg = pref.Value == "true"
	case portal.PrefSelfPayEnabled:
		arg = pref.Value == "1"
	}
	query := `UPDATE companies SET ` + companyColumn[pref.Name] + ` = $1 WHERE id = $2`
	id := companyID
	if pref.Package {
		if c.PackageID == 0 {
			return nil, portal.Errorf(portal.ECONFLICT, "Company %d has no package to set %s on.", companyID, pref.Name)
		}
		column := map[string]string{portal.PrefSelfPayEnabled: "self_pay_enabled", portal.PrefSelfPayHoldAmount: "self_pay_initial_hold_amount"}[pref.Name]
		query, id = `UPDATE packages SET `+column+` = $1 WHERE id = $2`, c.PackageID
	}
	if _, err := o.db.db.ExecContext(ctx, query, arg, id); err != nil {
		return nil, fmt.Errorf("store: set %s: %w", pref.Name, err)
	}
	return &pref, nil
}
