package portal

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"
)

// OperatorService is what the screening provider's and the employer's staff
// do, through the `portal` subcommands and the operator API (with an API
// key). Both call this one service, so an action is checked and applied
// the same way whichever way it comes.
//
// Methods that take a companyID act within that company only (an
// applicant, message or banner of another company is ENOTFOUND): the
// operator API passes its key's company. The command line passes 0, which
// means every company.
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
	// ApplicantDetail is one applicant with their status and what they
	// still have to do.
	ApplicantDetail(ctx context.Context, companyID, subjectID int64) (*ApplicantDetail, error)

	// SetBanner replaces the maintenance banner every logged-in applicant
	// sees; an empty message clears it (and the answer is nil).
	// Superseded by PostBanner and ClearBanner.
	SetBanner(ctx context.Context, message string) (*Banner, error)
	// PostBanner shows a maintenance banner to logged-in applicants (of
	// req.CompanyID, or everyone's when 0) until req.EndsAt (or until
	// cleared), replacing the active banner of the same audience. An
	// empty or over-long message, or an end in the past, is EINVALID.
	PostBanner(ctx context.Context, req BannerRequest) (*OperatorBanner, error)
	// ClearBanner ends a banner now; bannerID 0 ends every active banner
	// of companyID's audience (of every audience when companyID is 0).
	// An unknown banner, or one of another company, is ENOTFOUND.
	ClearBanner(ctx context.Context, companyID, bannerID int64) error
	// Banners lists the banners still shown or scheduled, newest first.
	Banners(ctx context.Context, companyID int64) ([]OperatorBanner, error)

	// ChatThreads lists the conversations, the most recent first.
	ChatThreads(ctx context.Context, companyID int64) ([]ChatThread, error)
	// ChatConversation lists one applicant's conversation, oldest first,
	// and marks the applicant's messages read by the employer.
	ChatConversation(ctx context.Context, companyID, subjectID int64) ([]ChatMessage, error)
	// ReplyChat adds an employer's message (with an optional attachment
	// under the document upload rules), publishes it to the applicant's
	// open chat, and e-mails an applicant who is away (ChatAwayAfter),
	// once until they read. Chat switched off for the company is
	// EFORBIDDEN.
	ReplyChat(ctx context.Context, req ChatReply) (*ChatMessage, error)
	// OpenChatAttachment opens a file attached to the applicant's
	// conversation.
	OpenChatAttachment(ctx context.Context, companyID, subjectID, fileID int64) (*File, io.ReadCloser, error)

	// CreateAPIKey creates an operator API key for one company and answers
	// it with its secret, which is shown once: only its hash is kept.
	CreateAPIKey(ctx context.Context, companyID int64, name string) (*APIKey, string, error)
	// APIKeys lists the keys (of companyID, or every company's when 0),
	// revoked ones too.
	APIKeys(ctx context.Context, companyID int64) ([]APIKey, error)
	// RevokeAPIKey revokes a key at once; an unknown key is ENOTFOUND.
	RevokeAPIKey(ctx context.Context, keyID int64) error
	// AuthenticateAPIKey answers the key whose secret this is, recording
	// its use; an unknown or revoked key is EUNAUTHORIZED.
	AuthenticateAPIKey(ctx context.Context, secret string) (*APIKey, error)

	// SendInvitationReminders e-mails a new invitation link (under
	// baseURL) to each applicant invited at least InvitationReminderAfter
	// ago who has not started (no password), once per applicant, and
	// answers how many it sent.
	SendInvitationReminders(ctx context.Context, baseURL string) (int, error)
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
	// MarkSpecimenCollected records that the applicant's specimen was
	// collected at the chosen site, which then can no longer change. An
	// applicant without a chosen site is ENOTFOUND; marking again keeps
	// the first time.
	MarkSpecimenCollected(ctx context.Context, subjectID int64) (*SiteChoice, error)
	// CompanyPreferences lists a company's preferences (CompanyPreferenceNames)
	// as SetCompanyPreference takes them, the package's from its default
	// package. An unknown company is ENOTFOUND.
	CompanyPreferences(ctx context.Context, companyID int64) ([]CompanyPreference, error)
	// SetCompanyPreference changes one preference and answers it as now
	// stored. An unknown name or a value the preference cannot take is
	// EINVALID (ParseCompanyPreference); a package preference of a company
	// without a package is ECONFLICT.
	SetCompanyPreference(ctx context.Context, companyID int64, name, value string) (*CompanyPreference, error)
}

// The preferences an operator can set: the company's own, and its default
// package's self-pay settings (spec section 9).
const (
	PrefCollectionSiteSelection = "company_applicant_collection_site_selection"
	PrefSubjectChat             = "company_subject_chat"
	PrefRequireSSN              = "company_require_ssn"
	PrefSubjectPasswordLength   = "company_subject_password_length"
	PrefSelfPayEnabled          = "applicant_self_pay_enabled"
	PrefSelfPayHoldAmount       = "applicant_self_pay_initial_hold_amount"
)

// CompanyPreferenceNames are the preferences in the order they are listed.
var CompanyPreferenceNames = []string{PrefCollectionSiteSelection, PrefSubjectChat, PrefRequireSSN,
	PrefSubjectPasswordLength, PrefSelfPayEnabled, PrefSelfPayHoldAmount}

// Bounds of company_subject_password_length.
const (
	MinSubjectPasswordLength = 8
	MaxSubjectPasswordLength = 64
)

// CompanyPreference is one preference as text, the way the user payload
// shows the package's ("1", "25.00") and the operator types it.
type CompanyPreference struct {
	Name  string
	Value string
	// Package is true for the package's preferences.
	Package bool
}

// IsPackagePreference reports whether the preference belongs to the
// company's package rather than the company.
func IsPackagePreference(name string) bool {
	return name == PrefSelfPayEnabled || name == PrefSelfPayHoldAmount
}

// ParseCompanyPreference checks a value for a preference and answers it in
// its stored form: true or false for the company's switches (1, 0, yes and
// no are read too), 1 or 0 for self-pay, a whole number of characters from
// 8 to 64 for the password length, an amount such as 25.00 for the hold.
func ParseCompanyPreference(name, value string) (CompanyPreference, error) {
	v := strings.ToLower(strings.TrimSpace(value))
	p := CompanyPreference{Name: name, Package: IsPackagePreference(name)}
	yes, no := v == "true" || v == "1" || v == "yes", v == "false" || v == "0" || v == "no"
	switch name {
	case PrefCollectionSiteSelection, PrefSubjectChat, PrefRequireSSN:
		if !yes && !no {
			return p, Errorf(EINVALID, "%s is true or false, not %q.", name, value)
		}
		p.Value = strconv.FormatBool(yes)
	case PrefSelfPayEnabled:
		if !yes && !no {
			return p, Errorf(EINVALID, "%s is 1 (on) or 0 (off), not %q.", name, value)
		}
		p.Value = map[bool]string{true: "1", false: "0"}[yes]
	case PrefSubjectPasswordLength:
		n, err := strconv.Atoi(v)
		if err != nil || n < MinSubjectPasswordLength || n > MaxSubjectPasswordLength {
			return p, Errorf(EINVALID, "%s is a whole number from %d to %d, not %q.", name, MinSubjectPasswordLength, MaxSubjectPasswordLength, value)
		}
		p.Value = strconv.Itoa(n)
	case PrefSelfPayHoldAmount:
		m, ok := ParseMoney(v, "USD")
		if !ok {
			return p, Errorf(EINVALID, "%s is an amount in dollars such as 25.00, not %q.", name, value)
		}
		p.Value = m.Text()
	default:
		return p, Errorf(EINVALID, "Unknown preference %q: say one of %s.", name, strings.Join(CompanyPreferenceNames, ", "))
	}
	return p, nil
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

// InvitationReminderAfter is how long an invitation may stay unstarted
// before the applicant is reminded, once.
const InvitationReminderAfter = 72 * time.Hour

// MaxBannerLength is the longest maintenance banner, in characters.
const MaxBannerLength = 500

// BannerRequest is a maintenance banner an operator posts.
type BannerRequest struct {
	Message string
	// EndsAt is when the banner stops showing by itself; nil shows it
	// until it is cleared.
	EndsAt *time.Time
	// CompanyID limits the banner to one company's applicants; 0 shows
	// it to everyone.
	CompanyID int64
}

// OperatorBanner is a banner as operators see it.
type OperatorBanner struct {
	Banner
	CompanyID int64 // 0: every applicant
	CreatedAt time.Time
	EndsAt    *time.Time
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
}

// ChatThread is one applicant's conversation as operators list it.
type ChatThread struct {
	Applicant Subject
	Messages  int
	// Unread counts the applicant's messages no operator has read.
	Unread int
	Last   ChatMessage
}

// ChatReply is an employer's message to an applicant.
type ChatReply struct {
	CompanyID int64 // the caller's company, 0 for any
	SubjectID int64
	// SenderName is shown beside the message; empty means the company's
	// name.
	SenderName string
	Message    string
	File       *Upload
}

// APIKey is an operator API key of one company. Its secret is never
// stored; Prefix (the secret's first characters) tells keys apart.
type APIKey struct {
	ID         int64
	CompanyID  int64
	Name       string
	Prefix     string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
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

// Mail is one message in the outbox.
type Mail struct {
	ID        int64
	To        string
	Subject   string
	Body      string
	CreatedAt time.Time
	SentAt    *time.Time
	// Attempts counts failed deliveries; LastError is the last one's.
	Attempts  int
	LastError string
	// BodyRemoved says the body was dropped, once the mail was delivered
	// or the link in it expired, so that no copy of the database holds a
	// working link; Body is then "".
	BodyRemoved bool
}

// Mailer delivers one e-mail (SMTP when configured). Without one, mail
// stays in the outbox, where `portal outbox` shows it.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
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
	OrphanedFiles  int64 // finished uploads nothing refers to (a crash between storing and linking), a day after they began
	SandboxRecords int64 // the built-in sandboxes' sessions and authorizations past their expiry
	Events         int64 // events published on SQLite, read by every process by now
	MailBodies     int64 // bodies of queued mails whose link expired (the rows stay)
}

// Total is the number of rows deleted.
func (r SweepResult) Total() int64 {
	return r.LoginFailures + r.ResetRequests + r.Tokens + r.TokenFamilies + r.Invitations + r.PasswordResets + r.EmailChanges + r.Uploads + r.OrphanedFiles + r.SandboxRecords
}
