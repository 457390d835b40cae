package portal

import (
	"context"
	"strconv"
	"strings"
)

// CompanyService is the companies and their preferences.
type CompanyService interface {
	// FindCompanies lists every company, oldest first.
	FindCompanies(ctx context.Context) ([]*Company, error)
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
	PrefAdverseWaitingDays      = "adverse_action_waiting_days"
)

// CompanyPreferenceNames are the preferences in the order they are listed.
var CompanyPreferenceNames = []string{PrefCollectionSiteSelection, PrefSubjectChat, PrefRequireSSN,
	PrefSubjectPasswordLength, PrefAdverseWaitingDays, PrefSelfPayEnabled, PrefSelfPayHoldAmount}

// Bounds of company_subject_password_length.
const (
	MinSubjectPasswordLength = 12
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
// 12 to 64 for the password length, an amount such as 25.00 for the hold,
// business days from 1 to 30 for the adverse-action waiting period.
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
	case PrefAdverseWaitingDays:
		n, err := ParseAdverseWaitingDays(name, value)
		if err != nil {
			return p, err
		}
		p.Value = strconv.Itoa(n)
	default:
		if _, ok := ETAPreferenceCode(name); ok {
			d, err := ParseETADays(v)
			if err != nil {
				return p, Errorf(EINVALID, "%s is MIN-MAX business days, such as 2-6, not %q.", name, value)
			}
			p.Value = d.String()
			return p, nil
		}
		return p, Errorf(EINVALID, "Unknown preference %q: say one of %s, or eta.CODE (a service's estimate).", name, strings.Join(CompanyPreferenceNames, ", "))
	}
	return p, nil
}
