package portal

import (
	"context"
	"crypto/subtle"
	"io"
	"strings"
	"time"
)

// Reading the report: before a report opens, the applicant confirms who
// they are again (date of birth and the last four SSN digits, or the date
// of birth alone without an SSN). A right answer opens the reports to the
// session (its token family) for ReportGrantTTL; ReportMaxTries wrong
// answers in a row, in any session, lock the confirmation for
// ReportLockTTL. Every view and download is recorded.
const (
	ReportGrantTTL = 15 * time.Minute
	ReportLockTTL  = 15 * time.Minute
	ReportMaxTries = 5
)

// ReportIdentity is what the applicant types to open the report.
type ReportIdentity struct {
	DOB      string `json:"dob"`      // YYYY-MM-DD
	SSNLast4 string `json:"ssnLast4"` // empty for an applicant without an SSN
}

// ReportAccess is where the applicant stands with the report: whether the
// session may open it and until when, whether the confirmation is locked,
// and what it asks.
type ReportAccess struct {
	GrantedUntil *time.Time
	LockedUntil  *time.Time
	// SSNRequired is false for an applicant who has no SSN (noSSN): the
	// date of birth alone confirms them.
	SSNRequired bool
	TriesLeft   int
}

// How a report is read: shown in the viewer, or downloaded.
const (
	ReportInline     = "inline"
	ReportAttachment = "attachment"
)

// ReportRead is the applicant opening a report in a session.
type ReportRead struct {
	SubjectID   int64
	FamilyID    int64 // the session's token family, which the grant is for
	Kind        ReportKind
	Disposition string // ReportInline or ReportAttachment
}

// Why a report does not open.
var (
	ErrReportConfirmFirst = &Error{Code: EFORBIDDEN, Message: "Confirm your identity to open your report."}
	ErrReportNoIdentity   = &Error{Code: ECONFLICT, Message: "We have no date of birth on file to confirm who you are. Contact your employer's hiring team to read your report."}
)

// ReportService is the applicant's side of the report.
type ReportService interface {
	// FindReportAccess says whether the session may open the reports.
	FindReportAccess(ctx context.Context, subjectID, familyID int64) (*ReportAccess, error)
	// ConfirmReportIdentity compares id with the sealed personal
	// information. Right: the session may open the reports for
	// ReportGrantTTL. Wrong: EINVALID with the tries left; the
	// ReportMaxTries-th wrong answer, and any answer while locked, is
	// ETHROTTLED with RetryAfter. Every failure and the lock are audited.
	ConfirmReportIdentity(ctx context.Context, subjectID, familyID int64, id ReportIdentity) (*ReportAccess, error)
	// OpenReport records the view or download and returns the report;
	// without a live grant for the session ErrReportConfirmFirst.
	OpenReport(ctx context.Context, r ReportRead) (*File, io.ReadCloser, error)
}

// ReportView is one view or download of a report.
type ReportView struct {
	At          time.Time
	SubjectID   int64
	Kind        ReportKind
	Disposition string
	Address     string
}

// ReportCopy is the delivery of the free copy of the background report an
// applicant asked for when signing (Signature.FreeReportCopy).
type ReportCopy struct {
	SentAt   time.Time
	Channels []string // "email", "text"
}

// ReportViews is what operators see of an applicant's reports being read.
type ReportViews struct {
	Views []ReportView // newest first
	// FreeCopy is nil when no copy was sent (not asked for, or no report
	// attached yet).
	FreeCopy *ReportCopy
	// FreeCopyAsked says whether the applicant asked for the copy.
	FreeCopyAsked bool
}

// OperatorReportService is what operators read of the reports.
type OperatorReportService interface {
	// FindReportViews lists the views and downloads of the applicant's
	// reports and the free copy's delivery; an applicant of another
	// company (companyID 0: any) is ENOTFOUND.
	FindReportViews(ctx context.Context, companyID, subjectID int64) (*ReportViews, error)
}

// ReportTitle is a report kind in the applicant's words.
func ReportTitle(k ReportKind) string {
	switch k {
	case ReportDrug:
		return "drug test report"
	case ReportECOC:
		return "custody and control form"
	}
	return "background report"
}

// Validate checks the form of what was typed (not whether it is right):
// ssnRequired is ReportAccess.SSNRequired.
func (id ReportIdentity) Validate(ssnRequired bool) error {
	var fe FieldErrors
	switch dob := strings.TrimSpace(id.DOB); {
	case dob == "":
		fe.Add("dob", "Enter your date of birth.")
	default:
		if _, err := time.Parse(DateLayout, dob); err != nil {
			fe.Add("dob", "Date of birth must be a real date.")
		}
	}
	if ssnRequired {
		switch four := strings.TrimSpace(id.SSNLast4); {
		case four == "":
			fe.Add("ssnLast4", "Enter the last 4 digits of your Social Security number.")
		case len(four) != 4 || strings.Trim(four, "0123456789") != "":
			fe.Add("ssnLast4", "Last 4 digits must be 4 numbers, like 1234.")
		}
	}
	return fe.Err()
}

// Matches compares id with the applicant's personal information: the
// same date of birth and, unless they have no SSN, the same last four
// digits, compared in constant time so the answer's timing says nothing
// about how many digits were right.
func (id ReportIdentity) Matches(p *PersonalInfo) bool {
	want, err1 := time.Parse(DateLayout, strings.TrimSpace(p.DOB))
	got, err2 := time.Parse(DateLayout, strings.TrimSpace(id.DOB))
	dobOK := err1 == nil && err2 == nil && want.Equal(got)
	ssnOK := p.NoSSN || subtle.ConstantTimeCompare([]byte(lastFourOf(ssnDigits(p.SSN))), []byte(strings.TrimSpace(id.SSNLast4))) == 1
	return dobOK && ssnOK
}

// ReportMismatch is the answer to a wrong confirmation: it does not say
// which part was wrong.
func ReportMismatch(ssnRequired bool, triesLeft int) error {
	what := Phrasef("the date of birth and the last 4 digits of the Social Security number")
	if !ssnRequired {
		what = Phrasef("the date of birth")
	}
	tries := Phrasef("%d tries left", triesLeft)
	if triesLeft == 1 {
		tries = Phrasef("1 try left")
	}
	return FieldErrors{FieldErrorf("dob", "Enter %s you gave us: these do not match. %s before a 15-minute lock.", what, tries)}.Err()
}

// ReportLocked is the answer while the confirmation is locked.
func ReportLocked(until, now time.Time) error {
	wait := until.Sub(now)
	e := Errorf(ETHROTTLED, "The details did not match %d times. For your security you can try again at %s UTC.", ReportMaxTries, until.UTC().Format("15:04"))
	e.RetryAfter = max(1, int(wait.Seconds()+0.999))
	return e
}
