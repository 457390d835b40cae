package portal

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Patterns the app may use for the same checks (served by the regex lookup),
// so the browser and the server agree on the format. The server checks more
// than the pattern (SSN area, group and serial numbers).
const (
	SSNPattern         = `^\d{3}-?\d{2}-?\d{4}$`
	LastFourSSNPattern = `^\d{4}$`
	ZIPPattern         = `^\d{5}(-\d{4})?$`
)

// Limits of the personal information form.
const (
	MaxNameLength           = 50
	MaxIdentificationLength = 50
	MaxLicenseNumberLength  = 30
	MinApplicantAge         = 14
	DefaultDialCode         = "1"
	DateLayout              = "2006-01-02"
)

// Primary notification method types: how the applicant wants to hear from us.
const (
	NotifyByEmail = "email"
	NotifyByText  = "text"
	NotifyByBoth  = "both"
)

var (
	zipRE        = regexp.MustCompile(ZIPPattern)
	ssnRE        = regexp.MustCompile(`^\d{9}$`)
	nameRE       = regexp.MustCompile(`^[\p{L}\p{M}' .’-]+$`)
	licenseRE    = regexp.MustCompile(`^[A-Za-z0-9 -]+$`) // as the message says: letters, digits, spaces, dashes
	dialCodeRE   = regexp.MustCompile(`^[1-9]\d{0,2}$`)
	earliestDOB  = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	phoneDigitRE = regexp.MustCompile(`^[0-9 ().-]+$`)
)

// PersonalInfo is the personal information form (spec section 3), as the app
// sends it with PUT /api/v2/user. Gender, nameSuffix, identificationCountry
// and driversLicenseState hold lookup codes ("F", "JR", "US", "US-CA"); a
// licence's regionId is a region (state) id of the regions lookup.
type PersonalInfo struct {
	FirstName                   string             `json:"firstName"`
	NoMiddleName                bool               `json:"noMiddleName"`
	MiddleName                  string             `json:"middleName"`
	LastName                    string             `json:"lastName"`
	MothersMaidenName           string             `json:"mothersMaidenName"`
	SSN                         string             `json:"ssn"`
	ConfirmSSN                  string             `json:"confirmSSN"`
	NoSSN                       bool               `json:"noSSN"`
	DOB                         string             `json:"dob"`
	ConfirmDOB                  string             `json:"confirmDOB"`
	Gender                      string             `json:"gender"`
	DaytimeDialCode             string             `json:"daytimeDialCode"`
	DaytimePhoneNumber          string             `json:"daytimePhoneNumber"`
	EveningDialCode             string             `json:"eveningDialCode"`
	EveningPhoneNumber          string             `json:"eveningPhoneNumber"`
	CountryIdentificationNumber string             `json:"countryIdentificationNumber"`
	IdentificationCountry       string             `json:"identificationCountry"`
	NameSuffix                  string             `json:"nameSuffix"`
	DriversLicenseNumber        string             `json:"driversLicenseNumber"`
	NoDriversLicenseNumber      bool               `json:"noDriversLicenseNumber"`
	DriversLicenseState         string             `json:"driversLicenseState"`
	DrugZip                     string             `json:"drugZip"`
	CDLRequired                 bool               `json:"cdlRequired"`
	Licenses                    []License          `json:"licenses"`
	PrimaryNotificationMethod   NotificationMethod `json:"primaryNotificationMethod"`
}

// License is a professional licence the applicant holds.
type License struct {
	Number     string `json:"number"`
	RegionID   int64  `json:"regionId"`
	RegionName string `json:"regionName"`
}

// NotificationMethod is how the applicant wants to be told about their
// check. Type is NotifyByEmail, NotifyByText or NotifyByBoth; Text is a
// mobile number under the applicant's daytime dial code.
type NotificationMethod struct {
	Type  string `json:"type"`
	Email string `json:"email"`
	Text  string `json:"text"`
}

// UnmarshalJSON also accepts the spec's other names: noMiddleFlag for
// noMiddleName and suffix for nameSuffix.
func (p *PersonalInfo) UnmarshalJSON(b []byte) error {
	type plain PersonalInfo
	var v struct {
		plain
		NoMiddleFlag *bool   `json:"noMiddleFlag"`
		Suffix       *string `json:"suffix"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*p = PersonalInfo(v.plain)
	if v.NoMiddleFlag != nil && *v.NoMiddleFlag {
		p.NoMiddleName = true
	}
	if v.Suffix != nil && p.NameSuffix == "" {
		p.NameSuffix = *v.Suffix
	}
	return nil
}

// PersonalService keeps the applicant's personal information.
type PersonalService interface {
	// FindPersonalInfo answers nil when nothing was saved yet.
	FindPersonalInfo(ctx context.Context, subjectID int64) (*PersonalInfo, error)
	// UpdatePersonalInfo saves the full personal information once it
	// passes Validate under the company's rules; an empty SSN keeps the SSN
	// on file, and an SSN must end in the last four digits typed when
	// signing (CheckSSNAgainstSignatures). Checked and saved in
	// one transaction holding the subject's lock. On success p is left as
	// saved (normalized, the SSN on file kept), so the caller can answer it
	// without reading it back.
	UpdatePersonalInfo(ctx context.Context, subjectID int64, p *PersonalInfo) error
}

// PersonalRules are the facts about the company and the lookups that
// validation depends on. The lookups are passed as predicates so the domain
// does not depend on where they come from. A nil predicate accepts any
// non-empty value, except ValidPhone, whose nil fallback accepts 4 to 15
// digits.
type PersonalRules struct {
	// RequireSSN is the company preference company_require_ssn.
	RequireSSN bool
	// SSNOnFile means an SSN is already stored: the app only ever sees its
	// last four digits, so an empty ssn keeps the stored one.
	SSNOnFile bool

	ValidGender  func(code string) bool
	ValidSuffix  func(code string) bool
	ValidState   func(code string) bool
	ValidCountry func(code string) bool
	ValidRegion  func(id int64) bool
	ValidPhone   func(dialCode, number string) bool
}

// Normalize trims every text, keeps only the digits of the SSN and of
// phone numbers typed with separators, upper-cases lookup codes, defaults
// the dial codes to 1 and the notification type to e-mail, and clears what
// a flag says is absent (middle name, SSN, driver's licence) and the
// identification country and number when the applicant has an SSN. A
// cleared suffix stays "".
func (p *PersonalInfo) Normalize() {
	*p = p.normalized()
}

func (p PersonalInfo) normalized() PersonalInfo {
	trim := strings.TrimSpace
	p.FirstName = trim(p.FirstName)
	p.MiddleName = trim(p.MiddleName)
	p.LastName = trim(p.LastName)
	p.MothersMaidenName = trim(p.MothersMaidenName)
	p.SSN = stripSSNSeparators(p.SSN)
	p.ConfirmSSN = stripSSNSeparators(p.ConfirmSSN)
	p.DOB = trim(p.DOB)
	p.ConfirmDOB = trim(p.ConfirmDOB)
	p.Gender = strings.ToUpper(trim(p.Gender))
	p.NameSuffix = strings.ToUpper(trim(p.NameSuffix))
	p.DaytimeDialCode = dialCode(p.DaytimeDialCode)
	p.DaytimePhoneNumber = phoneDigits(p.DaytimePhoneNumber)
	p.EveningDialCode = dialCode(p.EveningDialCode)
	p.EveningPhoneNumber = phoneDigits(p.EveningPhoneNumber)
	p.IdentificationCountry = strings.ToUpper(trim(p.IdentificationCountry))
	p.CountryIdentificationNumber = trim(p.CountryIdentificationNumber)
	p.DriversLicenseNumber = strings.ToUpper(trim(p.DriversLicenseNumber))
	p.DriversLicenseState = strings.ToUpper(trim(p.DriversLicenseState))
	p.DrugZip = trim(p.DrugZip)

	if p.NoMiddleName {
		p.MiddleName = ""
	}
	if p.NoSSN {
		p.SSN, p.ConfirmSSN = "", ""
	} else {
		// Identification country and number only stand in for an SSN.
		p.IdentificationCountry, p.CountryIdentificationNumber = "", ""
	}
	if p.NoDriversLicenseNumber {
		p.DriversLicenseNumber, p.DriversLicenseState = "", ""
	}

	if p.Licenses != nil {
		licenses := make([]License, 0, len(p.Licenses))
		for _, l := range p.Licenses {
			l.Number = trim(l.Number)
			l.RegionName = trim(l.RegionName)
			licenses = append(licenses, l)
		}
		p.Licenses = licenses
	}

	m := &p.PrimaryNotificationMethod
	m.Type = strings.ToLower(trim(m.Type))
	if m.Type == "" {
		m.Type = NotifyByEmail
	}
	m.Email = trim(m.Email)
	m.Text = phoneDigits(m.Text)
	return p
}

// Validate checks the form at the time now. It normalizes a copy first, so
// an SSN typed with dashes or a blank dial code is not an error. Field keys
// are the JSON names; nested ones use the form library's paths
// ("licenses.0.number", "primaryNotificationMethod.email").
func (p PersonalInfo) Validate(now time.Time, rules PersonalRules) error {
	p = p.normalized()
	var fe FieldErrors

	checkName(&fe, "firstName", "First name", p.FirstName, true)
	if p.MiddleName == "" && !p.NoMiddleName {
		fe.Add("middleName", "Middle name is required. If you have none, tick \"No middle name\".")
	} else {
		checkName(&fe, "middleName", "Middle name", p.MiddleName, false)
	}
	checkName(&fe, "lastName", "Last name", p.LastName, true)
	checkName(&fe, "mothersMaidenName", "Mother's maiden name", p.MothersMaidenName, false)
	checkCode(&fe, "nameSuffix", "Choose a suffix from the list.", p.NameSuffix, rules.ValidSuffix)
	checkCode(&fe, "gender", "Choose a gender from the list.", p.Gender, rules.ValidGender)

	p.validateSSN(&fe, rules)
	p.validateDOB(&fe, now)

	checkPhone(&fe, "daytime", "Daytime phone number", p.DaytimeDialCode, p.DaytimePhoneNumber, true, rules.ValidPhone)
	checkPhone(&fe, "evening", "Evening phone number", p.EveningDialCode, p.EveningPhoneNumber, false, rules.ValidPhone)

	if !p.NoDriversLicenseNumber {
		switch n := p.DriversLicenseNumber; {
		case n == "":
			fe.Add("driversLicenseNumber", "Driver's license number is required. If you have none, tick \"No driver's license\".")
		case utf8.RuneCountInString(n) > MaxLicenseNumberLength || !licenseRE.MatchString(n):
			fe.Addf("driversLicenseNumber", "Enter the driver's license number as printed: letters, digits, spaces and dashes, at most %d characters.", MaxLicenseNumberLength)
		}
		if p.DriversLicenseState == "" {
			fe.Add("driversLicenseState", "Choose the state that issued your driver's license.")
		} else {
			checkCode(&fe, "driversLicenseState", "Choose the state that issued your driver's license.", p.DriversLicenseState, rules.ValidState)
		}
	}

	if p.DrugZip != "" && !zipRE.MatchString(p.DrugZip) {
		fe.Add("drugZip", "Enter a 5-digit ZIP code, like 94105 or 94105-1234.")
	}

	for i, l := range p.Licenses {
		key := "licenses." + strconv.Itoa(i) + "."
		switch {
		case l.Number == "":
			fe.Add(key+"number", "License number is required.")
		case utf8.RuneCountInString(l.Number) > MaxIdentificationLength:
			fe.Addf(key+"number", "License number must be at most %d characters.", MaxIdentificationLength)
		}
		if l.RegionID <= 0 || (rules.ValidRegion != nil && !rules.ValidRegion(l.RegionID)) {
			fe.Add(key+"regionId", "Choose the state or province that issued the license.")
		}
	}

	m := p.PrimaryNotificationMethod
	switch m.Type {
	case NotifyByEmail, NotifyByText, NotifyByBoth:
	default:
		fe.Add("primaryNotificationMethod.type", "Choose how you want to be notified: e-mail, text or both.")
	}
	if m.Type == NotifyByEmail || m.Type == NotifyByBoth {
		if m.Email == "" {
			fe.Add("primaryNotificationMethod.email", "E-mail address is required for e-mail notifications.")
		} else if !ValidEmail(m.Email) {
			fe.Add("primaryNotificationMethod.email", "Enter a valid e-mail address, like name@example.com.")
		}
	}
	if m.Type == NotifyByText || m.Type == NotifyByBoth {
		if m.Text == "" {
			fe.Add("primaryNotificationMethod.text", "Mobile number is required for text notifications.")
		} else if !validPhone(p.DaytimeDialCode, m.Text, rules.ValidPhone) {
			fe.Addf("primaryNotificationMethod.text", "Enter a valid mobile number for dial code +%s.", p.DaytimeDialCode)
		}
	}
	return fe.Err()
}

func (p PersonalInfo) validateSSN(fe *FieldErrors, rules PersonalRules) {
	if p.NoSSN {
		if p.IdentificationCountry == "" {
			fe.Add("identificationCountry", "Choose the country that issued your identification number.")
		} else {
			checkCode(fe, "identificationCountry", "Choose a country from the list.", p.IdentificationCountry, rules.ValidCountry)
		}
		switch n := p.CountryIdentificationNumber; {
		case n == "":
			fe.Add("countryIdentificationNumber", "Identification number is required when you have no SSN.")
		case utf8.RuneCountInString(n) > MaxIdentificationLength:
			fe.Addf("countryIdentificationNumber", "Identification number must be at most %d characters.", MaxIdentificationLength)
		}
		return
	}

	if p.SSN == "" {
		if rules.RequireSSN && !rules.SSNOnFile {
			fe.Add("ssn", "SSN is required. If you have none, tick \"No SSN\".")
		}
		if p.ConfirmSSN != "" {
			fe.Add("confirmSSN", "The SSNs do not match.")
		}
		return
	}
	if msg := ssnProblem(p.SSN); msg != "" {
		fe.Add("ssn", msg)
		return
	}
	switch {
	case p.ConfirmSSN == "":
		fe.Add("confirmSSN", "Type your SSN again to confirm it.")
	case p.ConfirmSSN != p.SSN:
		fe.Add("confirmSSN", "The SSNs do not match.")
	}
}

// ssnProblem explains why ssn (digits only) cannot be a Social Security
// number: never issued are area 000, 666 and 900-999, group 00 and serial
// 0000.
func ssnProblem(ssn string) string {
	const msgDigits, msgNeverIssued = "Enter the 9 digits of your SSN, like 123-45-6789.",
		"This is not a valid SSN. Check the number on your Social Security card."
	if !ssnRE.MatchString(ssn) {
		return msgDigits
	}
	area, group, serial := ssn[:3], ssn[3:5], ssn[5:]
	if area == "000" || area == "666" || area[0] == '9' || group == "00" || serial == "0000" {
		return msgNeverIssued
	}
	return ""
}

func (p PersonalInfo) validateDOB(fe *FieldErrors, now time.Time) {
	if p.DOB == "" {
		fe.Add("dob", "Enter your date of birth.")
		return
	}
	dob, err := time.Parse(DateLayout, p.DOB)
	if err != nil {
		fe.Add("dob", "Date of birth must be a real date.")
		return
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case !dob.Before(today):
		fe.Add("dob", "Date of birth must be in the past.")
		return
	case dob.Before(earliestDOB):
		fe.Add("dob", "Date of birth cannot be before 1900.")
		return
	case dob.AddDate(MinApplicantAge, 0, 0).After(today):
		fe.Addf("dob", "You must be at least %d years old.", MinApplicantAge)
		return
	}
	if p.ConfirmDOB == "" {
		fe.Add("confirmDOB", "Enter your date of birth again to confirm it.")
	} else if p.ConfirmDOB != p.DOB {
		fe.Add("confirmDOB", "The dates of birth do not match.")
	}
}

func checkName(fe *FieldErrors, field, label, name string, required bool) {
	switch {
	case name == "":
		if required {
			fe.Addf(field, "%s is required.", label)
		}
	case utf8.RuneCountInString(name) > MaxNameLength:
		fe.Addf(field, "%s must be at most %d characters.", label, MaxNameLength)
	case !nameRE.MatchString(name) || !strings.ContainsFunc(name, unicode.IsLetter):
		fe.Addf(field, "%s can only contain letters, spaces, hyphens, apostrophes and periods.", label)
	}
}

// checkCode checks an optional lookup code.
func checkCode(fe *FieldErrors, field, message, code string, valid func(string) bool) {
	if code != "" && valid != nil && !valid(code) {
		fe.Add(field, message)
	}
}

// checkPhone checks a phone and its dial code; prefix is "daytime" or
// "evening".
func checkPhone(fe *FieldErrors, prefix, label, dial, number string, required bool, valid func(string, string) bool) {
	if number == "" {
		switch {
		case required:
			fe.Addf(prefix+"PhoneNumber", "%s is required.", label)
		case !dialCodeRE.MatchString(dial):
			// Stored even without a number, so it must be a dial code.
			fe.Add(prefix+"DialCode", "Choose a dial code, like +1.")
		}
		return
	}
	if !dialCodeRE.MatchString(dial) {
		fe.Add(prefix+"DialCode", "Choose a dial code, like +1.")
		return
	}
	if !validPhone(dial, number, valid) {
		fe.Addf(prefix+"PhoneNumber", "Enter a valid phone number for dial code +%s.", dial)
	}
}

func validPhone(dial, number string, valid func(string, string) bool) bool {
	if valid != nil {
		return valid(dial, number)
	}
	n := len(number)
	return n >= 4 && n <= 15 && !strings.ContainsFunc(number, func(r rune) bool { return r < '0' || r > '9' })
}

// stripSSNSeparators drops the dashes and spaces people type in an SSN;
// anything else stays so that validation can reject it.
func stripSSNSeparators(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// phoneDigits keeps only the digits of a number typed with separators, and
// leaves anything else as typed so that validation can reject it.
func phoneDigits(s string) string {
	s = strings.TrimSpace(s)
	if !phoneDigitRE.MatchString(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r < '0' || r > '9' {
			return -1
		}
		return r
	}, s)
}

func dialCode(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "+")
	if s == "" {
		return DefaultDialCode
	}
	return s
}

// SSNLastFour returns the last four digits of an SSN, or "" when it has
// fewer than four digits.
func SSNLastFour(ssn string) string {
	digits := strings.Map(func(r rune) rune {
		if r < '0' || r > '9' {
			return -1
		}
		return r
	}, ssn)
	if len(digits) < 4 {
		return ""
	}
	return digits[len(digits)-4:]
}

// PersonalSnapshot is the saved personal information as GET answers it
// (spec section 3). It never holds the full SSN, only its last four digits.
// Beyond the spec's list it carries cdlRequired and licenses, so the form
// can be filled from it alone.
type PersonalSnapshot struct {
	FirstName                   string             `json:"firstName"`
	LastName                    string             `json:"lastName"`
	MiddleName                  string             `json:"middleName"`
	NoMiddleFlag                bool               `json:"noMiddleFlag"`
	Suffix                      string             `json:"suffix"`
	DOB                         string             `json:"dob"`
	SSNLastFour                 string             `json:"ssnLastFour"`
	NoSSNFlag                   bool               `json:"noSsnFlag"`
	Gender                      string             `json:"gender"`
	MothersMaidenName           string             `json:"mothersMaidenName"`
	DaytimeDialCode             string             `json:"daytimeDialCode"`
	DaytimePhoneNumber          string             `json:"daytimePhoneNumber"`
	EveningDialCode             string             `json:"eveningDialCode"`
	EveningPhoneNumber          string             `json:"eveningPhoneNumber"`
	IdentificationCountry       string             `json:"identificationCountry"`
	CountryIdentificationNumber string             `json:"countryIdentificationNumber"`
	DriversLicense              string             `json:"driversLicense"`
	DriversLicenseState         string             `json:"driversLicenseState"`
	NoDriversLicenseFlag        bool               `json:"noDriversLicenseFlag"`
	DrugZip                     string             `json:"drugZip"`
	CDLRequired                 bool               `json:"cdlRequired"`
	Licenses                    []License          `json:"licenses"`
	PrimaryNotificationMethod   NotificationMethod `json:"primaryNotificationMethod"`
}

// Snapshot returns what the app may see of p: the SSN reduced to its last
// four digits, and the evening phone falling back to the daytime one.
func (p PersonalInfo) Snapshot() PersonalSnapshot {
	p = p.normalized()
	s := PersonalSnapshot{
		FirstName:                   p.FirstName,
		LastName:                    p.LastName,
		MiddleName:                  p.MiddleName,
		NoMiddleFlag:                p.NoMiddleName,
		Suffix:                      p.NameSuffix,
		DOB:                         p.DOB,
		SSNLastFour:                 SSNLastFour(p.SSN),
		NoSSNFlag:                   p.NoSSN,
		Gender:                      p.Gender,
		MothersMaidenName:           p.MothersMaidenName,
		DaytimeDialCode:             p.DaytimeDialCode,
		DaytimePhoneNumber:          p.DaytimePhoneNumber,
		EveningDialCode:             p.EveningDialCode,
		EveningPhoneNumber:          p.EveningPhoneNumber,
		IdentificationCountry:       p.IdentificationCountry,
		CountryIdentificationNumber: p.CountryIdentificationNumber,
		DriversLicense:              p.DriversLicenseNumber,
		DriversLicenseState:         p.DriversLicenseState,
		NoDriversLicenseFlag:        p.NoDriversLicenseNumber,
		DrugZip:                     p.DrugZip,
		CDLRequired:                 p.CDLRequired,
		Licenses:                    slices.Clone(p.Licenses),
		PrimaryNotificationMethod:   p.PrimaryNotificationMethod,
	}
	if s.Licenses == nil {
		s.Licenses = []License{}
	}
	if s.EveningPhoneNumber == "" {
		s.EveningDialCode, s.EveningPhoneNumber = s.DaytimeDialCode, s.DaytimePhoneNumber
	}
	return s
}
