package portal

import (
	"context"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A dispute is the applicant's challenge of their report, or of one
// service in it, under FCRA section 611: the provider reinvestigates and
// answers within 30 days of receipt, 45 when the applicant adds
// information during that period.

// What the applicant says is wrong.
const (
	DisputeNotMe      = "not-me"
	DisputeInaccurate = "inaccurate"
	DisputeIncomplete = "incomplete"
	DisputeOutdated   = "outdated"
)

// DisputeReasons are the reasons in the order the app offers them.
var DisputeReasons = []string{DisputeNotMe, DisputeInaccurate, DisputeIncomplete, DisputeOutdated}

// States of a dispute.
const (
	DisputeReceived        = "received"
	DisputeReinvestigating = "reinvestigating"
	DisputeResolved        = "resolved"
)

// Outcomes of a resolved dispute.
const (
	DisputeCorrected = "corrected"
	DisputeVerified  = "verified" // verified as accurate
	DisputeDeleted   = "deleted"
)

// DisputeOutcomes are the outcomes an operator may resolve with.
var DisputeOutcomes = []string{DisputeCorrected, DisputeVerified, DisputeDeleted}

// Who wrote a message on a dispute.
const (
	DisputeByApplicant = "applicant"
	DisputeByOperator  = "operator"
)

// The dispute clock (FCRA section 611(a)(1)).
const (
	DisputePeriod         = 30 * 24 * time.Hour
	DisputeExtendedPeriod = 45 * 24 * time.Hour
)

// Limits of a dispute's text and evidence.
const (
	// MaxDisputeText is the longest explanation or message, in characters.
	MaxDisputeText = 5000
	// MaxDisputeFiles is how many files one request may attach.
	MaxDisputeFiles = 5
)

// Dispute is one dispute with its messages and evidence.
type Dispute struct {
	ID        int64
	SubjectID int64
	Reason    string
	// ServiceCode is the service disputed; empty for the report as a
	// whole. ServiceName is its name in the package.
	ServiceCode string
	ServiceName string
	Explanation string
	State       string
	// Outcome and Resolution (the operator's explanation) once resolved.
	Outcome    string
	Resolution string
	ReceivedAt time.Time
	DueAt      time.Time
	// Extended says the applicant added information within the period,
	// which moved DueAt to 45 days from receipt (once).
	Extended   bool
	ResolvedAt *time.Time
	// Files are the evidence attached when it was opened; the messages'
	// own files are on the messages.
	Files    []File
	Messages []DisputeMessage
}

// DisputeMessage is an operator's answer or information the applicant
// added.
type DisputeMessage struct {
	ID        int64
	Author    string // DisputeByApplicant or DisputeByOperator
	Text      string
	Files     []File
	CreatedAt time.Time
}

// Open reports whether the dispute is still being handled.
func (d *Dispute) Open() bool { return d.State != DisputeResolved }

// DaysLeft is how many days remain until the due date at now, counting a
// part of a day as a day; 0 once due or resolved.
func (d *Dispute) DaysLeft(now time.Time) int {
	if !d.Open() || !now.Before(d.DueAt) {
		return 0
	}
	return int((d.DueAt.Sub(now) + 24*time.Hour - 1) / (24 * time.Hour))
}

// DisputeDue is the due date of a dispute received at receivedAt.
func DisputeDue(receivedAt time.Time, extended bool) time.Time {
	if extended {
		return receivedAt.Add(DisputeExtendedPeriod)
	}
	return receivedAt.Add(DisputePeriod)
}

// ExtendsDeadline reports whether information added at now moves the due
// date to 45 days: the first addition, while the 30-day period runs.
func (d *Dispute) ExtendsDeadline(now time.Time) bool {
	return d.Open() && !d.Extended && now.Before(d.DueAt)
}

// CanDispute reports whether an applicant with the order status may open
// a dispute: only once they have submitted (finalization complete) or the
// order is complete or in QA.
func CanDispute(status StatusID) bool {
	return status == StatusFinalizationComplete || status == StatusComplete || status == StatusQA
}

// ErrDisputeTooSoon is a dispute before submission.
var ErrDisputeTooSoon = Errorf(ECONFLICT, "You can dispute your report once you have submitted your information.")

// ErrDisputeResolved is a change to a resolved dispute.
var ErrDisputeResolved = Errorf(ECONFLICT, "This dispute is resolved. To dispute something else, open a new dispute.")

// NewDispute is what the applicant sends to open a dispute. The service
// code is checked against their package by the service.
type NewDispute struct {
	Reason      string
	ServiceCode string
	Explanation string
}

// Validate checks the reason and the explanation and trims the
// explanation; field errors name reason and explanation.
func (n *NewDispute) Validate() error {
	var fe FieldErrors
	if !contains(DisputeReasons, n.Reason) {
		fe.Add("reason", "Select what is wrong")
	}
	text, problem := disputeText(n.Explanation, "explanation", false)
	if problem != nil {
		fe = append(fe, *problem)
	}
	n.Explanation = text
	n.ServiceCode = strings.TrimSpace(n.ServiceCode)
	return fe.Err()
}

// DisputeMessageText checks an answer, a resolution's explanation or
// added information, on the field "message", and answers it trimmed.
// Added information may be files alone (hasFiles).
func DisputeMessageText(text string, hasFiles bool) (string, error) {
	t, problem := disputeText(text, "message", hasFiles)
	if problem != nil {
		return "", FieldErrors{*problem}.Err()
	}
	return t, nil
}

// disputeText checks free text: valid UTF-8 without control characters
// other than line breaks and tabs, not empty (unless files come with
// it), at most MaxDisputeText characters. The problem is on field, nil
// when there is none.
func disputeText(text, field string, hasFiles bool) (string, *FieldError) {
	t := strings.TrimSpace(text)
	explanation := field == "explanation"
	var f FieldError
	switch {
	case !utf8.ValidString(t) || strings.ContainsFunc(t, func(r rune) bool {
		return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t'
	}):
		f = FieldErrorf(field, "Remove the characters that cannot be sent from %s", cmpPhrase(explanation, Phrasef("your explanation"), Phrasef("a message")))
	case t == "" && !hasFiles && explanation:
		f = FieldErrorf(field, "Enter your explanation")
	case t == "" && !hasFiles:
		f = FieldErrorf(field, "Enter a message or attach a file")
	case utf8.RuneCountInString(t) > MaxDisputeText && explanation:
		f = FieldErrorf(field, "Your explanation must be %d characters or fewer", MaxDisputeText)
	case utf8.RuneCountInString(t) > MaxDisputeText:
		f = FieldErrorf(field, "A message must be %d characters or fewer", MaxDisputeText)
	default:
		return t, nil
	}
	return "", &f
}

// cmpPhrase is a when cond holds, else b.
func cmpPhrase(cond bool, a, b Phrase) Phrase {
	if cond {
		return a
	}
	return b
}

// DisputeResolution checks an operator's outcome and explanation and
// answers the explanation trimmed.
func DisputeResolution(outcome, message string) (string, error) {
	var fe FieldErrors
	if !contains(DisputeOutcomes, outcome) {
		fe.Add("outcome", "The outcome is one of corrected, verified or deleted.")
	}
	text, problem := disputeText(message, "message", false)
	if problem != nil {
		fe = append(fe, *problem)
	}
	return text, fe.Err()
}

// Uploads hands out the files of a request one at a time, as they arrive:
// nil when there are no more. Each file's Body is read to its end before
// the next is asked for.
type Uploads func() (*Upload, error)

// NoUploads is a request without files.
func NoUploads() (*Upload, error) { return nil, nil }

// DisputeService is the applicant's side of disputes, on their own only:
// another applicant's dispute or file is ENOTFOUND.
type DisputeService interface {
	// Disputes lists the applicant's disputes, newest first, without
	// messages.
	Disputes(ctx context.Context, subjectID int64) ([]Dispute, error)
	// Dispute reads one dispute with its messages and files.
	Dispute(ctx context.Context, subjectID, disputeID int64) (*Dispute, error)
	// OpenDispute opens a dispute with its evidence (at most
	// MaxDisputeFiles, under the document upload rules). Before submission
	// it is ErrDisputeTooSoon; a service code not in the package is
	// EINVALID on serviceCode.
	OpenDispute(ctx context.Context, subjectID int64, n NewDispute, files Uploads) (*Dispute, error)
	// AddDisputeInformation adds the applicant's text and files; the first
	// addition within the 30-day period extends the due date to 45 days.
	// A resolved dispute is ErrDisputeResolved.
	AddDisputeInformation(ctx context.Context, subjectID, disputeID int64, text string, files Uploads) (*Dispute, error)
	// OpenDisputeFile opens a file of the dispute.
	OpenDisputeFile(ctx context.Context, subjectID, disputeID, fileID int64) (*File, io.ReadCloser, error)
}

// DisputeFilter selects disputes for operators: one company's (0 any),
// in one state ("" any).
type DisputeFilter struct {
	CompanyID int64
	State     string
}

// OperatorDispute is a dispute as operators list it, with whose it is.
type OperatorDispute struct {
	Dispute
	Applicant Subject
}

// OperatorDisputeService is the provider's side: a dispute of another
// company than companyID (0: any) is ENOTFOUND.
type OperatorDisputeService interface {
	// FindDisputes lists disputes, the soonest due first.
	FindDisputes(ctx context.Context, f DisputeFilter) ([]OperatorDispute, error)
	// FindDispute reads one dispute with everything.
	FindDispute(ctx context.Context, companyID, disputeID int64) (*OperatorDispute, error)
	// AnswerDispute adds the operator's note the applicant reads and moves
	// a received dispute to reinvestigating; the applicant is told.
	AnswerDispute(ctx context.Context, companyID, disputeID int64, message string) (*OperatorDispute, error)
	// ResolveDispute closes the dispute with its outcome and the
	// operator's explanation; the applicant is told.
	ResolveDispute(ctx context.Context, companyID, disputeID int64, outcome, message string) (*OperatorDispute, error)
	// OpenDisputeAttachment opens a file of the dispute.
	OpenDisputeAttachment(ctx context.Context, companyID, disputeID, fileID int64) (*File, io.ReadCloser, error)
}
