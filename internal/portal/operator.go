package portal

import (
	"context"
	"time"
)

// OperatorService is what the screening provider's and the employer's staff
// do: today through the `portal` subcommands, later (issue 13) through the
// operator API with keys as well. Both call this one service, so an action
// is checked and applied the same way whichever way it comes. Methods to
// come with the operator API: chat list/show/reply, company show and
// set-preference, applicant show, API keys.
type OperatorService interface {
	// InviteApplicant creates the applicant (or finds one invited before
	// who has no password yet) and a new invitation link, in one
	// transaction. An applicant with a password, or of another company,
	// is ECONFLICT.
	InviteApplicant(ctx context.Context, req InviteRequest) (*InviteResult, error)
	// FindApplicants lists applicants, oldest first.
	FindApplicants(ctx context.Context, filter ApplicantFilter) ([]Applicant, error)
	// FindCompanies lists every company, oldest first.
	FindCompanies(ctx context.Context) ([]*Company, error)
	// SetBanner replaces the maintenance banner every logged-in applicant
	// sees; an empty message clears it (and the answer is nil).
	SetBanner(ctx context.Context, message string) (*Banner, error)
	// Outbox lists the e-mail queued and sent, oldest first.
	Outbox(ctx context.Context) ([]Mail, error)
	// Sweep deletes what can no longer matter (expired throttle records,
	// tokens, invitations, reset and e-mail-change links).
	Sweep(ctx context.Context) (SweepResult, error)
	// AttachReport attaches a report PDF for the applicant to download,
	// replacing an earlier one of the kind. Not a PDF is EUNSUPPORTED,
	// past MaxReportSize ETOOLARGE, an unknown applicant ENOTFOUND, an
	// unknown kind EINVALID.
	AttachReport(ctx context.Context, req AttachReportRequest) (*File, error)
	// AddPdfForm adds a fillable PDF form (an AcroForm template) to a
	// package. A PDF without form fields, or a code the package already
	// has, is refused.
	AddPdfForm(ctx context.Context, f NewPdfForm) (*PdfForm, error)
}

// InviteRequest is an invitation an operator asks for: the applicant and,
// optionally, where they will work (which decides the regional legal
// documents). CompanyID must be set.
type InviteRequest struct {
	NewSubject
	Work Place
}

// Validate checks the request with the rules the applicant's own changes
// pass, so an operator cannot invite a name or an address the applicant
// could not save. knownState says whether a state code exists.
func (r InviteRequest) Validate(rules SubjectRules, knownState func(code string) bool) error {
	fields := SubjectUpdate{Email: &r.Email, FirstName: &r.FirstName, LastName: &r.LastName, Phone: &r.Phone}
	if err := fields.Validate(rules); err != nil {
		return err
	}
	var fe FieldErrors
	if r.Work.Validate("work", knownState, &fe); len(fe) > 0 {
		return fe.Err()
	}
	return nil
}

// InviteResult is the invited applicant and the token of their link
// (BASE/setup?token=...). The token is shown once; only its hash is kept.
type InviteResult struct {
	Subject *Subject
	Token   string
}

// ApplicantFilter narrows FindApplicants; a zero field does not filter.
type ApplicantFilter struct {
	CompanyID int64
}

// Applicant is a subject as an operator lists them.
type Applicant struct {
	Subject
	// HoldReason is why the subject's orders wait (HoldPaperForms), or "".
	HoldReason string
}

// Mail is one message in the outbox.
type Mail struct {
	ID        int64
	To        string
	Subject   string
	Body      string
	CreatedAt time.Time
	SentAt    *time.Time
}

// SweepResult counts the rows one sweep deleted, per kind.
type SweepResult struct {
	LoginFailures  int64 // failed logins older than the throttle window
	ResetRequests  int64 // password-reset requests older than their window
	Tokens         int64 // access and refresh tokens long expired
	TokenFamilies  int64 // logins whose every token expired long ago
	Invitations    int64 // invitation links used or expired long ago
	PasswordResets int64 // reset links used or expired long ago
	EmailChanges   int64 // e-mail change links used, replaced or expired long ago
	Uploads        int64 // uploads left unfinished for a day
}

// Total is the number of rows deleted.
func (r SweepResult) Total() int64 {
	return r.LoginFailures + r.ResetRequests + r.Tokens + r.TokenFamilies + r.Invitations + r.PasswordResets + r.EmailChanges + r.Uploads
}
