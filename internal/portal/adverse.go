package portal

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Adverse action (FCRA section 604(b)(3)): before an employer decides
// against an applicant because of the report, it sends a pre-adverse
// notice with the report and the Summary of Rights, and waits some
// business days so the applicant can dispute or explain; only then may it
// send the final adverse-action notice.

// AdverseAction is an applicant's pre-adverse notice and, once sent, the
// final notice. An applicant has at most one.
type AdverseAction struct {
	ID          int64
	SubjectID   int64
	CompanyID   int64
	CompanyName string
	SentAt      time.Time
	// WaitingDays is the waiting period in business days; EndsOn its last
	// business day (a date, midnight UTC). The final notice may go the day
	// after.
	WaitingDays int
	EndsOn      time.Time
	// Note is the operator's word to the applicant on the pre-adverse
	// notice; BasedOn the service codes the decision would rest on
	// (optional).
	Note    string
	BasedOn []string
	FinalAt *time.Time
	// FinalNote is the operator's word on the final notice.
	FinalNote string
	// BusinessDaysLeft is counted by the server's clock when read
	// (portal.BusinessDaysLeft): WaitingDays on the day the notice is
	// sent, 1 on EndsOn, 0 once it has passed.
	BusinessDaysLeft int
}

// States of an adverse action.
const (
	AdverseStatePre   = "pre"
	AdverseStateFinal = "final"
)

// State is "pre" until the final notice is sent, then "final".
func (a *AdverseAction) State() string {
	if a.FinalAt != nil {
		return AdverseStateFinal
	}
	return AdverseStatePre
}

// AdverseActionService is the applicant's view of their adverse action.
type AdverseActionService interface {
	// FindAdverseAction answers the subject's adverse action; ENOTFOUND
	// when none was sent.
	FindAdverseAction(ctx context.Context, subjectID int64) (*AdverseAction, error)
}

// OperatorAdverseActionService is what the employer's staff send. An
// applicant of another company than companyID (0: any) is ENOTFOUND.
type OperatorAdverseActionService interface {
	// SendPreAdverseAction records the pre-adverse notice, sets the
	// profile status to PRE_ADVERSE_ACTION and tells the applicant. The
	// applicant must have submitted (order status 2, 4 or 5), else
	// ECONFLICT; so is a second notice.
	SendPreAdverseAction(ctx context.Context, r PreAdverseRequest) (*AdverseAction, error)
	// SendFinalAdverseAction records the final notice once the waiting
	// period has ended: before, or without a pre-adverse notice, it is
	// ECONFLICT; sent already too.
	SendFinalAdverseAction(ctx context.Context, r FinalAdverseRequest) (*AdverseAction, error)
	// FindAdverseAction answers the applicant's adverse action, ENOTFOUND
	// when none was sent.
	FindAdverseAction(ctx context.Context, companyID, subjectID int64) (*AdverseAction, error)
}

// PreAdverseRequest is a pre-adverse notice to send.
type PreAdverseRequest struct {
	CompanyID int64
	SubjectID int64
	// WaitingDays overrides the company's adverse_action_waiting_days for
	// this notice; nil takes the company's.
	WaitingDays *int
	Note        string
	BasedOn     []string
}

// FinalAdverseRequest is a final adverse-action notice to send.
type FinalAdverseRequest struct {
	CompanyID int64
	SubjectID int64
	Note      string
}

// The waiting period in business days: five unless the company says
// otherwise. Zero is refused: the applicant must have time to answer.
const (
	DefaultAdverseWaitingDays = 5
	MinAdverseWaitingDays     = 1
	MaxAdverseWaitingDays     = 30
	// MaxAdverseNoteLength bounds an operator's note, in characters.
	MaxAdverseNoteLength = 2000
)

// ParseAdverseWaitingDays checks a waiting period as the operator types it.
func ParseAdverseWaitingDays(field, value string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || n < MinAdverseWaitingDays || n > MaxAdverseWaitingDays {
		return 0, Errorf(EINVALID, "%s is a whole number of business days from %d to %d, not %q.",
			field, MinAdverseWaitingDays, MaxAdverseWaitingDays, value)
	}
	return n, nil
}

// Validate checks the notice's fields.
func (r PreAdverseRequest) Validate() error {
	var fields []FieldError
	if r.WaitingDays != nil && (*r.WaitingDays < MinAdverseWaitingDays || *r.WaitingDays > MaxAdverseWaitingDays) {
		fields = append(fields, FieldErrorf("waitingDays", "Enter a waiting period from %d to %d business days", MinAdverseWaitingDays, MaxAdverseWaitingDays))
	}
	if len([]rune(r.Note)) > MaxAdverseNoteLength {
		fields = append(fields, FieldErrorf("note", "Note must be %d characters or fewer", MaxAdverseNoteLength))
	}
	if len(fields) > 0 {
		return &Error{Code: EINVALID, Message: "validation error", Fields: fields}
	}
	return nil
}

// Validate checks the notice's fields.
func (r FinalAdverseRequest) Validate() error {
	if len([]rune(r.Note)) > MaxAdverseNoteLength {
		return &Error{Code: EINVALID, Message: "validation error", Fields: []FieldError{
			FieldErrorf("note", "Note must be %d characters or fewer", MaxAdverseNoteLength)}}
	}
	return nil
}

// LongDate writes a day as the notices and the app say it: "Thursday, December 3, 2026".
func LongDate(d time.Time) string { return LocaleEnUS.LongDate(d) }
