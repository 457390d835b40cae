package portal

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Company is an employer that invites applicants.
type Company struct {
	ID             int64
	Name           string
	LogoURL        string
	AccountingCode string // the primary accounting code
	PackageID      int64  // 0 when the company has no package
	Preferences    CompanyPreferences
}

// CompanyPreferences switch features on or off; the defaults are those of
// spec section 9.
type CompanyPreferences struct {
	SubjectChat                      bool `json:"company_subject_chat"`
	SubjectPasswordLength            int  `json:"company_subject_password_length"`
	RequireSSN                       bool `json:"company_require_ssn"`
	ApplicantCollectionSiteSelection bool `json:"company_applicant_collection_site_selection"`
}

// DefaultCompanyPreferences are the spec's defaults.
func DefaultCompanyPreferences() CompanyPreferences {
	return CompanyPreferences{SubjectPasswordLength: 15}
}

// Package is the set of services a company orders for its applicants.
type Package struct {
	ID                    int64
	CompanyID             int64
	Name                  string
	SelfPayEnabled        bool
	SelfPayInitialHoldAmt string // decimal text such as "25.00"
	Services              []PackageService
	// DocumentTypes are the documents the package asks the applicant to
	// upload, in rank order.
	DocumentTypes []DocumentType
}

// PaymentRequired follows spec section 9: self-pay on and a hold above 0.
func (p *Package) PaymentRequired() bool {
	if p == nil || !p.SelfPayEnabled {
		return false
	}
	return strings.Trim(strings.ReplaceAll(p.SelfPayInitialHoldAmt, ".", ""), "0") != ""
}

// HasMROService reports whether the package holds a medical review service.
func (p *Package) HasMROService() bool {
	if p == nil {
		return false
	}
	for _, s := range p.Services {
		if IsMROService(s.Code) {
			return true
		}
	}
	return false
}

// PackageService is one service of a package.
type PackageService struct {
	ID   int64
	Code string
	Name string
	// Fields are what the applicant enters for the service, sorted by rank
	// (package_services.fields); empty for services without applicant data.
	Fields []FieldDefinition
}

// Service codes of spec section 3.
var serviceNames = map[string]string{
	"edus": "Education", "iedu": "International education", "emps": "Employment",
	"iemp": "International employment", "dots": "DOT employment", "pers": "Personal",
	"prof": "Professional", "cred": "Credential", "dtdr": "DOT drug", "cnet": "Crimnet",
	"mvrs": "Motor vehicle record", "drug": "Drug", "medi": "Medical", "clin": "Clinical",
	"ssnt": "SSN locator", "ssnv": "SSN verification", "crim": "Criminal", "civl": "Civil",
	"excl": "Exclusion", "cdit": "Credit", "sexo": "Sex offender", "misc": "Miscellaneous",
	"wawa": "Warrants", "bank": "Bankruptcy", "cdct": "Credit non-employment",
	"cdts": "Credit tenant", "fedb": "Federal banking sanctions", "x105": "Custom",
	"idvs": "Identity verification",
}

// ServiceName returns the default name of a service code, and whether the
// code is known.
func ServiceName(code string) (string, bool) {
	n, ok := serviceNames[code]
	return n, ok
}

// IsMROService reports whether a code belongs to the medical review group.
func IsMROService(code string) bool { return code == "drug" || code == "medi" || code == "clin" }

// ServiceAlias is the alias the app groups services by.
func ServiceAlias(code string) string {
	switch code {
	case "edus", "iedu":
		return "education"
	case "emps", "iemp", "dots":
		return "employment"
	case "pers":
		return "personal"
	case "prof":
		return "professional"
	case "cred":
		return "credential"
	case "idvs":
		return "idv"
	}
	return code
}

// Subject is an applicant.
type Subject struct {
	ID          int64
	CompanyID   int64
	Username    string
	Email       string
	FirstName   string
	LastName    string
	Phone       string
	HasPassword bool
	StatusID    StatusID
	FullProfile bool
	CreatedAt   time.Time
	// InvitedFirstName and InvitedLastName are the names the operator
	// invited the applicant with. They never change: a signature's typed
	// name is checked against them, not against the names the applicant
	// may edit.
	InvitedFirstName string
	InvitedLastName  string
	// Locale is the applicant's language: the portal's e-mails and texts
	// to them are in it.
	Locale Locale
	// PendingEmail is the address of an e-mail change that waits for its
	// confirmation link ("" when none); FindUserView fills it in.
	PendingEmail string
}

// NormalizeUsername is how usernames are compared and stored.
func NormalizeUsername(u string) string { return strings.ToLower(strings.TrimSpace(u)) }

// Limits of the subject's own fields.
const (
	MaxEmailLength    = 254 // RFC 5321's path limit less the angle brackets
	MaxUsernameLength = MaxEmailLength
	MaxPhoneLength    = 32
)

// SubjectUpdate is a PATCH of the subject's own fields; nil means unchanged.
type SubjectUpdate struct {
	Email     *string
	FirstName *string
	LastName  *string
	Phone     *string
}

// SubjectRules are the checks a subject's fields need from outside the
// domain. A nil ValidPhone accepts 4 to 15 digits.
type SubjectRules struct {
	ValidPhone func(dialCode, number string) bool
}

// Validate checks the fields that are set with the personal information
// form's rules: names required, at most MaxNameLength letters, spaces,
// hyphens, apostrophes and periods; the e-mail by ValidEmail; the phone a
// real number (CheckSubjectPhone). Values are checked trimmed, as they are
// stored.
func (u SubjectUpdate) Validate(rules SubjectRules) error {
	var fe FieldErrors
	if u.Email != nil {
		checkEmail(&fe, "email", *u.Email)
	}
	if u.FirstName != nil {
		checkName(&fe, "firstName", "First name", strings.TrimSpace(*u.FirstName), true)
	}
	if u.LastName != nil {
		checkName(&fe, "lastName", "Last name", strings.TrimSpace(*u.LastName), true)
	}
	if u.Phone != nil {
		checkSubjectPhone(&fe, "phone", *u.Phone, rules.ValidPhone)
	}
	return fe.Err()
}

func checkEmail(fe *FieldErrors, field, email string) {
	email = strings.TrimSpace(email)
	switch {
	case email == "":
		fe.Add(field, "E-mail address is required.")
	case len(email) > MaxEmailLength:
		fe.Addf(field, "E-mail address must be at most %d characters.", MaxEmailLength)
	case !ValidEmail(email):
		fe.Add(field, "Enter a valid e-mail address, like name@example.com.")
	}
}

// checkSubjectPhone checks the subject's optional phone: a number with its
// dial code ("+44 20 7946 0958"), or without one a number of dial code 1
// ("202 456 1111"), at most MaxPhoneLength characters.
func checkSubjectPhone(fe *FieldErrors, field, number string, valid func(dialCode, number string) bool) {
	number = strings.TrimSpace(number)
	switch {
	case number == "":
	case utf8.RuneCountInString(number) > MaxPhoneLength:
		fe.Addf(field, "Phone number must be at most %d characters.", MaxPhoneLength)
	case !validSubjectPhone(number, valid):
		fe.Add(field, "Enter a valid phone number, like 202 456 1111, or with its dial code, like +44 20 7946 0958.")
	}
}

func validSubjectPhone(number string, valid func(dialCode, number string) bool) bool {
	international, ok := strings.CutPrefix(number, "+")
	if !ok {
		return validPhone(DefaultDialCode, phoneDigits(number), valid)
	}
	digits := phoneDigits(international)
	// Dial codes are prefix-free, so at most one split is a real number.
	for n := 1; n <= 3 && n < len(digits); n++ {
		if digits[0] != '0' && validPhone(digits[:n], digits[n:], valid) {
			return true
		}
	}
	return false
}

// Profile is the subject's screening profile with its orders.
type Profile struct {
	ID       int64
	Number   string
	StatusID int // a profile status id (spec section 4), not an order status
	Orders   []Order
}

// Profile status ids used by the portal itself.
const (
	ProfileStatusPending = 19
	ProfileStatusNew     = 32
)

// Order is one screening order of a profile.
type Order struct {
	ID        int64
	PackageID int64
	StatusID  StatusID
}

// Invitation is a subject's invitation link token. Only its hash is stored.
type Invitation struct {
	ID        int64
	SubjectID int64
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// NewSubject is what an operator gives to invite an applicant.
type NewSubject struct {
	CompanyID   int64
	Email       string
	FirstName   string
	LastName    string
	Phone       string
	FullProfile bool
	// Locale is the language to invite in (the invitation e-mail's and,
	// until the applicant chooses, every later message's); "" is
	// DefaultLocale.
	Locale Locale
}

// Validate checks an invitation request with the rules the applicant's own
// changes must pass (SubjectUpdate.Validate), so an operator cannot invite
// a name or an address the applicant could not save.
func (n NewSubject) Validate(rules SubjectRules) error {
	var fe FieldErrors
	if n.CompanyID <= 0 {
		fe.Add("company", "A company is required.")
	}
	if err := (SubjectUpdate{Email: &n.Email, FirstName: &n.FirstName, LastName: &n.LastName, Phone: &n.Phone}).Validate(rules); err != nil {
		fe = append(fe, err.(*Error).Fields...)
	}
	checkLocale(&fe, "locale", n.Locale)
	return fe.Err()
}

// ValidEmail is the one e-mail check of the portal: at most MaxEmailLength
// characters, a dot-atom local part of at most 64 ASCII characters (the
// letters, digits and !#$%&'*+/=?^_`{|}~- of RFC 5322, dots only between
// them), one @, and a domain of at least two labels of letters, digits and
// inner hyphens, the last one not all digits. Quoted local parts, IP
// literals and non-ASCII addresses are refused: no applicant mailbox needs
// them, and each is a way to smuggle odd text into mail headers and logs.
// Surrounding spaces are ignored, as the value is stored trimmed.
func ValidEmail(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) > MaxEmailLength {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || len(local) == 0 || len(local) > 64 || strings.Contains(domain, "@") {
		return false
	}
	for _, atom := range strings.Split(local, ".") {
		if atom == "" || strings.ContainsFunc(atom, func(r rune) bool { return !isAtomChar(r) }) {
			return false
		}
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 || len(domain) > 253 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' ||
			strings.ContainsFunc(l, func(r rune) bool { return !isLetterOrDigit(r) && r != '-' }) {
			return false
		}
	}
	tld := labels[len(labels)-1]
	return strings.ContainsFunc(tld, func(r rune) bool { return r < '0' || r > '9' })
}

func isLetterOrDigit(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

func isAtomChar(r rune) bool {
	return isLetterOrDigit(r) || strings.ContainsRune("!#$%&'*+/=?^_`{|}~-", r)
}

// MaxTokenLength bounds a link or bearer token read from a request; the
// portal's own tokens have 43 characters. Anything longer, or holding
// characters a token never has, is refused before any lookup.
const MaxTokenLength = 128

// PlausibleToken reports whether t could be one of the portal's tokens:
// not empty, at most MaxTokenLength printable ASCII characters.
func PlausibleToken(t string) bool {
	return t != "" && len(t) <= MaxTokenLength && !strings.ContainsFunc(t, func(r rune) bool { return r <= ' ' || r >= 0x7f })
}

// EmailChangeTokenInvalid is the message for a confirmation link that is
// unknown, used, replaced or expired.
const EmailChangeTokenInvalid = "This confirmation link is invalid or has expired. Please ask for a new one."

// UserView is everything GET /api/v2/user answers about the subject.
type UserView struct {
	Subject  *Subject
	Company  *Company
	Profile  *Profile
	Package  *Package      // nil when the company has none
	Personal *PersonalInfo // nil until the applicant saves it
	// Finalization decides the steps after identity verification, which
	// the answer tells the app (the app does not decide them again).
	Finalization Finalization
	// StatusAfterIDV is Finalization.StatusAfterIDV for the applicant's
	// chosen site and payment.
	StatusAfterIDV StatusID
}

// SubjectService keeps the applicant's account record, profile and orders,
// and moves the status of setup.
type SubjectService interface {
	FindSubjectByID(ctx context.Context, id int64) (*Subject, error)
	FindSubjectByUsername(ctx context.Context, username string) (*Subject, error)
	FindUserView(ctx context.Context, subjectID int64) (*UserView, error)
	// FindCompanySettings returns the subject's company when companyID is
	// its id; any other company is ENOTFOUND, as if it did not exist.
	FindCompanySettings(ctx context.Context, subjectID, companyID int64) (*Company, error)
	UpdateSubject(ctx context.Context, id int64, upd SubjectUpdate) (*Subject, error)
	// SetLocale keeps the applicant's language (ValidateLocale), which the
	// portal's e-mails and texts to them use.
	SetLocale(ctx context.Context, id int64, l Locale) error
	FindProfile(ctx context.Context, subjectID int64) (*Profile, error)
	// MoveSubjectStatus moves the subject to a status when CheckStatusMove
	// allows it, checking and moving in one transaction that holds the
	// subject's lock, the same lock signing, deleting signatures and
	// location changes take, so the rules hold under concurrency. The
	// submission records when the declaration was made.
	MoveSubjectStatus(ctx context.Context, subjectID int64, move StatusMove) error
}
