// Package address checks postal addresses: US addresses against the US ZIP
// code data shipped in the binary, international ones against per-country
// address formats. SKELETON: the address helper replaces the bodies.
package address

import "strings"

// Problem is one part of an address that is wrong; Field is the query
// parameter's name (street, city, state, zip; country, locality,
// administrative_area, postal_code).
type Problem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
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

// US checks a US address; state is a code such as "US-CA".
func US(street, city, state, zip string) Result {
	var r Result
	if strings.TrimSpace(street) == "" {
		r.Problems = append(r.Problems, Problem{"street", "Street is required."})
	}
	r.Valid = len(r.Problems) == 0
	return r
}

// International checks an address outside the US; country is an ISO 3166-1
// alpha-2 code such as "CA".
func International(country, street, locality, administrativeArea, postalCode string) Result {
	var r Result
	if strings.TrimSpace(street) == "" {
		r.Problems = append(r.Problems, Problem{"street", "Street is required."})
	}
	r.Valid = len(r.Problems) == 0
	return r
}
