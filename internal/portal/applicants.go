package portal

import (
	"context"
	"time"
)

// InvitationService invites applicants (ReminderService reminds them).
type InvitationService interface {
	// InviteApplicant creates the applicant (or finds one invited before
	// who has no password yet) and a new invitation link, in one
	// transaction. An applicant with a password, or of another company,
	// is ECONFLICT.
	InviteApplicant(ctx context.Context, req InviteRequest) (*InviteResult, error)
}

// ApplicantService is the applicants as operators see them.
type ApplicantService interface {
	// FindApplicants lists applicants, oldest first.
	FindApplicants(ctx context.Context, filter ApplicantFilter) ([]Applicant, error)
	// ApplicantDetail is one applicant with their status and what they
	// still have to do.
	ApplicantDetail(ctx context.Context, companyID, subjectID int64) (*ApplicantDetail, error)
}

// InviteRequest is an invitation an operator asks for: the applicant and,
// optionally, where they will work (which decides the regional legal
// documents). CompanyID must be set. With BaseURL the invitation is also
// e-mailed to the applicant, with the link BaseURL/setup?token=...
type InviteRequest struct {
	NewSubject
	Work    Place
	BaseURL string
}

// Validate checks the request with the rules the applicant's own changes
// pass, so an operator cannot invite a name or an address the applicant
// could not save; the place of work is checked against lookups.
func (r InviteRequest) Validate(rules SubjectRules, lookups PlaceLookups) error {
	fields := SubjectUpdate{Email: &r.Email, FirstName: &r.FirstName, LastName: &r.LastName, Phone: &r.Phone}
	if err := fields.Validate(rules); err != nil {
		return err
	}
	var fe FieldErrors
	checkLocale(&fe, "locale", r.Locale)
	if r.Work.Validate("work", lookups, &fe); len(fe) > 0 {
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

// ApplicantDetail is an applicant as `portal applicant show` and the
// operator API show them.
type ApplicantDetail struct {
	Applicant
	CompanyName string
	StatusText  string
	// Missing says, in plain words and in the order the applicant meets
	// them, what they still have to do ("create a password", "sign the
	// Disclosure", "verify their identity"); empty when nothing is left.
	Missing []string
	// UnreadChat counts the applicant's chat messages no operator has read.
	UnreadChat int
	// DeclaredAt is when the applicant declared what they gave true and
	// complete, with their submission; nil before it.
	DeclaredAt *time.Time
}
