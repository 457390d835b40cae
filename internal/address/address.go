// Package address checks postal addresses: US addresses against the US ZIP
// code data shipped in the binary (data/uszips.tsv.gz), international ones
// against the per-country address formats of Google's libaddressinput
// metadata (data/countries.json). data/README.md names the sources and how
// the files are regenerated.
//
// The checks are what the address forms need before saving: every part the
// country requires is there, a ZIP or postal code has its country's form, a
// US ZIP code belongs to the state given. They do not ask whether the street
// exists.
package address

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

// Problem is one part of an address that is wrong; Field is the query
// parameter's name (street, city, state, zip; country, locality,
// administrative_area, postal_code).
type Problem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
	// Code is the message's stable code, which the API's answer sets with
	// the message in the request's language (portal.FieldError.Localize).
	Code string `json:"code,omitempty"`
}

// Result is the answer of a check.
type Result struct {
	Valid    bool      `json:"valid"`
	Problems []Problem `json:"errorFields"`
	// ReleaseFormRequired is set for Idaho (US-ID) addresses: the employer
	// needs the applicant's signed Idaho release form.
	ReleaseFormRequired bool `json:"releaseFormRequired"`
	// Military is set for APO/FPO/DPO addresses (US-AA, US-AE, US-AP).
	Military bool `json:"military"`
}

// Messages the checks answer with (the contract's wording).
const (
	MsgZIPFormat       = "ZIP code must be 5 digits, or 5+4 (12345 or 12345-6789)."
	MsgChooseState     = "Choose a state from the list."
	MsgMilitaryCity    = "City must be APO, FPO or DPO for a military address."
	MsgChooseCountry   = "Choose a country from the list."
	MsgCountryNotUS    = "Choose a country other than the United States; a US address takes a state and ZIP code."
	msgRequired        = "%s is required."
	msgZIPNotFound     = "ZIP code %s was not found."
	msgZIPNotInState   = "ZIP code %s is not in %s."
	msgZIPNotMilitary  = "ZIP code %s is not an %s military ZIP code."
	msgPostalCodeWrong = "Postal code is not valid for %s."
)

// IdahoState is the state whose addresses need the Idaho release form.
const IdahoState = "US-ID"

// militaryZIPs are the ZIP code prefixes of each armed-forces "state"
// as the Postal Service routes them: AA 340, AE 090-098, AP 962-966.
var militaryZIPs = map[string][]string{
	"US-AA": {"340"},
	"US-AE": {"090", "091", "092", "093", "094", "095", "096", "097", "098"},
	"US-AP": {"962", "963", "964", "965", "966"},
}

// militaryCities are the only "cities" of a military address: Army/Air
// Force, Fleet and Diplomatic post offices.
var militaryCities = map[string]bool{"APO": true, "FPO": true, "DPO": true}

var zipFormat = regexp.MustCompile(`^(\d{5})(?:-\d{4})?$`)

// US checks a US address; state is a code such as "US-CA" (the states
// lookup's codes: the 50 states, DC, the territories and the armed-forces
// codes US-AA, US-AE and US-AP).
func US(street, city, state, zip string) Result {
	street, city, zip = strings.TrimSpace(street), strings.TrimSpace(city), strings.TrimSpace(zip)
	state = strings.ToUpper(strings.TrimSpace(state))
	// Never nil: the answer's errorFields is always a list.
	r := Result{Problems: []Problem{}}
	add := func(field, message string) { r.Problems = append(r.Problems, Problem{Field: field, Message: message}) }

	if street == "" {
		add("street", fmt.Sprintf(msgRequired, "Street"))
	}
	prefixes, military := militaryZIPs[state]
	r.Military = military
	r.ReleaseFormRequired = state == IdahoState
	switch {
	case city == "":
		add("city", fmt.Sprintf(msgRequired, "City"))
	case military && !militaryCities[strings.ToUpper(city)]:
		add("city", MsgMilitaryCity)
	}
	stateName, knownState := stateName(state)
	switch {
	case state == "":
		add("state", fmt.Sprintf(msgRequired, "State"))
	case !knownState:
		add("state", MsgChooseState)
	}
	m := zipFormat.FindStringSubmatch(zip)
	switch {
	case zip == "":
		add("zip", fmt.Sprintf(msgRequired, "ZIP code"))
	case m == nil:
		add("zip", MsgZIPFormat)
	case military:
		// The ZIP data lists only some military ZIP codes; the prefix is
		// what the Postal Service routes by.
		if !hasPrefix(m[1], prefixes) {
			add("zip", fmt.Sprintf(msgZIPNotMilitary, zip, strings.TrimPrefix(state, "US-")))
		}
	case knownState:
		z, ok := LookupZIP(m[1])
		switch {
		case !ok:
			add("zip", fmt.Sprintf(msgZIPNotFound, zip))
		case z.State != state:
			add("zip", fmt.Sprintf(msgZIPNotInState, zip, stateName))
		}
	}
	r.Valid = len(r.Problems) == 0
	return r
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// stateName is the name of a US state code as the states lookup (and so
// the form's list) shows it.
func stateName(code string) (string, bool) {
	name, ok := names().states[code]
	return name, ok
}

// names are the lookup's US state and country names by code, read once.
var names = sync.OnceValue(func() (n struct{ states, countries map[string]string }) {
	n.states = map[string]string{}
	for _, s := range lookup.StatesByCountryID(lookup.USCountryID, portal.LocaleEnUS) {
		n.states[s.Code] = s.Name
	}
	n.countries = map[string]string{}
	if list, ok := lookup.Get("countries", portal.LocaleEnUS); ok {
		for _, c := range list.([]lookup.Country) {
			n.countries[c.CountryCode] = c.CountryName
		}
	}
	return n
})

// International checks an address outside the US; country is an ISO 3166-1
// alpha-2 code such as "CA" (one of the countries lookup's codes). Which
// parts are required, and the form of a postal code, are the country's in
// libaddressinput; a part the country does not use is not checked.
func International(country, street, locality, administrativeArea, postalCode string) Result {
	country = strings.ToUpper(strings.TrimSpace(country))
	values := map[string]string{
		"street":              strings.TrimSpace(street),
		"locality":            strings.TrimSpace(locality),
		"administrative_area": strings.TrimSpace(administrativeArea),
		"postal_code":         strings.TrimSpace(postalCode),
	}
	// Never nil: the answer's errorFields is always a list.
	r := Result{Problems: []Problem{}}
	add := func(field, message string) { r.Problems = append(r.Problems, Problem{Field: field, Message: message}) }

	f, known := formatOf(country)
	name, listed := countryName(country)
	switch {
	case country == "":
		add("country", fmt.Sprintf(msgRequired, "Country"))
	case country == "US":
		add("country", MsgCountryNotUS)
	case !known || !listed:
		add("country", MsgChooseCountry)
	}
	if len(r.Problems) > 0 {
		// Without a country only the street is surely required.
		if values["street"] == "" {
			add("street", fmt.Sprintf(msgRequired, "Street"))
		}
		r.Valid = false
		return r
	}
	labels := map[string]string{
		"street":              "Street",
		"locality":            f.LocalityLabel,
		"administrative_area": f.AdminAreaLabel,
		"postal_code":         f.PostalCodeLabel,
	}
	for _, part := range []string{"street", "locality", "administrative_area", "postal_code"} {
		v := values[part]
		switch {
		case v == "" && f.requires(part):
			add(part, fmt.Sprintf(msgRequired, labels[part]))
		case part == "postal_code" && v != "" && f.postalCode != nil &&
			!f.postalCode.MatchString(strings.ToUpper(v)):
			add(part, fmt.Sprintf(msgPostalCodeWrong, name))
		}
	}
	r.Valid = len(r.Problems) == 0
	return r
}

// countryName is the country's name as the countries lookup (and so the
// form's list) shows it.
func countryName(code string) (string, bool) {
	name, ok := names().countries[code]
	return name, ok
}
