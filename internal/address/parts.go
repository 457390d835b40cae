package address

import "applicantportal/internal/portal"

// CheckParts checks an address's street, city, state, ZIP and country as
// the address history's save does (portal.AddressRules.CheckParts): US or
// International by its country, the problems named after the Address's
// fields.
func CheckParts(a portal.Address) []portal.AddressPartProblem {
	var r Result
	var fields map[string]string
	if a.Country == "US" {
		r = US(a.Street1, a.City, a.State, a.Zip)
		fields = usAddressFields
	} else {
		r = International(a.Country, a.Street1, a.City, a.State, a.Zip)
		fields = internationalAddressFields
	}
	var out []portal.AddressPartProblem
	for _, p := range r.Problems {
		f, ok := fields[p.Field]
		if !ok {
			f = "street1" // a part the map does not know: shown on the first line
		}
		out = append(out, portal.AddressPartProblem{Field: f, Message: p.Message})
	}
	return out
}

// The checks' part names (their query parameters) -> Address fields.
var (
	usAddressFields            = map[string]string{"street": "street1", "city": "city", "state": "state", "zip": "zip"}
	internationalAddressFields = map[string]string{"street": "street1", "locality": "city", "administrative_area": "state",
		"postal_code": "zip", "country": "country"}
)
