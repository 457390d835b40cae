package portal

import (
	"context"
	"strings"
	"time"
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
}

// NormalizeUsername is how usernames are compared and stored.
func NormalizeUsername(u string) string { return strings.ToLower(strings.TrimSpace(u)) }

// SubjectUpdate is a PATCH of the subject's own fields; nil means unchanged.
type SubjectUpdate struct {
	Email     *string
	FirstName *string
	LastName  *string
	Phone     *string
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
}

// Validate checks an invitation request.
func (n NewSubject) Validate() error {
	var fe FieldErrors
	if n.CompanyID <= 0 {
		fe.Add("company", "A company is required.")
	}
	if !LooksLikeEmail(n.Email) {
		fe.Add("email", "Enter a valid e-mail address, like name@example.com.")
	}
	if strings.TrimSpace(n.FirstName) == "" {
		fe.Add("firstName", "First name is required.")
	}
	if strings.TrimSpace(n.LastName) == "" {
		fe.Add("lastName", "Last name is required.")
	}
	return fe.Err()
}

// LooksLikeEmail is a deliberately loose check: one @, something on both
// sides, a dot in the domain, no spaces. Delivery is the real test.
func LooksLikeEmail(s string) bool {
	s = strings.TrimSpace(s)
	at := strings.LastIndexByte(s, '@')
	if at < 1 || at == len(s)-1 || strings.ContainsAny(s, " \t\r\n") || len(s) > 254 {
		return false
	}
	domain := s[at+1:]
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// UserView is everything GET /api/v2/user answers about the subject.
type UserView struct {
	Subject  *Subject
	Company  *Company
	Profile  *Profile
	Package  *Package      // nil when the company has none
	Personal *PersonalInfo // nil until the applicant saves it
}

// SubjectService stores companies, packages, subjects and their profiles.
type SubjectService interface {
	FindSubjectByID(ctx context.Context, id int64) (*Subject, error)
	FindSubjectByUsername(ctx context.Context, username string) (*Subject, error)
	FindUserView(ctx context.Context, subjectID int64) (*UserView, error)
	FindCompanyByID(ctx context.Context, id int64) (*Company, error)
	UpdateSubject(ctx context.Context, id int64, upd SubjectUpdate) (*Subject, error)
	FindProfile(ctx context.Context, subjectID int64) (*Profile, error)
	// MoveSubjectStatus moves the subject to a status when CheckStatusMove
	// allows it, checking and moving in one transaction that holds the
	// subject's lock, the same lock signing, deleting signatures and
	// location changes take, so the rules hold under concurrency.
	MoveSubjectStatus(ctx context.Context, subjectID int64, to StatusID) error
	// FindPersonalInfo answers nil when nothing was saved yet.
	FindPersonalInfo(ctx context.Context, subjectID int64) (*PersonalInfo, error)
	SavePersonalInfo(ctx context.Context, subjectID int64, p *PersonalInfo) error
}

// BannerService keeps the maintenance banner.
type BannerService interface {
	ActiveBanner(ctx context.Context, subjectID int64) (*Banner, error)
	DismissBanner(ctx context.Context, subjectID, bannerID int64) error
}

// Banner is a maintenance message shown to logged-in applicants.
type Banner struct {
	ID      int64  `json:"id"`
	Message string `json:"message"`
}
