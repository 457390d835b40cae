package address_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"applicantportal/internal/address"
	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

// problems renders a result's problems as "field: message" lines, in order.
func problems(r address.Result) []string {
	out := []string{}
	for _, p := range r.Problems {
		out = append(out, p.Field+": "+p.Message)
	}
	return out
}

func TestUS(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		street, city, state, zip string
		want                     []string
		releaseForm, military    bool
	}{
		{name: "valid", street: "9336 Civic Center Dr", city: "Beverly Hills", state: "US-CA", zip: "90210"},
		{name: "valid zip+4", street: "1 Main St", city: "New York", state: "US-NY", zip: "10001-1234"},
		{name: "blanks trimmed, lower-case state", street: " 1 Main St ", city: " New York ", state: " us-ny ", zip: " 10001 "},
		{name: "DC", street: "1600 Pennsylvania Ave NW", city: "Washington", state: "US-DC", zip: "20500"},
		{name: "Puerto Rico", street: "Calle 1", city: "Adjuntas", state: "US-PR", zip: "00601"},
		{name: "Guam", street: "1 Marine Dr", city: "Hagatna", state: "US-GU", zip: "96910"},
		{name: "everything missing", want: []string{
			"street: Street is required.", "city: City is required.",
			"state: State is required.", "zip: ZIP code is required.",
		}},
		{name: "zip 4 digits", street: "1 Main St", city: "Boston", state: "US-MA", zip: "0211",
			want: []string{"zip: " + address.MsgZIPFormat}},
		{name: "zip letters", street: "1 Main St", city: "Boston", state: "US-MA", zip: "0211A",
			want: []string{"zip: " + address.MsgZIPFormat}},
		{name: "zip+4 without dash", street: "1 Main St", city: "Boston", state: "US-MA", zip: "021101234",
			want: []string{"zip: " + address.MsgZIPFormat}},
		{name: "zip+3", street: "1 Main St", city: "Boston", state: "US-MA", zip: "02110-123",
			want: []string{"zip: " + address.MsgZIPFormat}},
		{name: "zip in another state", street: "1 Main St", city: "Portland", state: "US-OR", zip: "90210",
			want: []string{"zip: ZIP code 90210 is not in Oregon."}},
		{name: "zip+4 in another state", street: "1 Main St", city: "Portland", state: "US-OR", zip: "90210-1234",
			want: []string{"zip: ZIP code 90210-1234 is not in Oregon."}},
		{name: "territory name from the lookup", street: "1 Main St", city: "Charlotte Amalie", state: "US-VI", zip: "90210",
			want: []string{"zip: ZIP code 90210 is not in U.S. Virgin Islands."}},
		{name: "unknown zip", street: "1 Main St", city: "Nowhere", state: "US-CA", zip: "00000",
			want: []string{"zip: ZIP code 00000 was not found."}},
		{name: "unknown state", street: "1 Main St", city: "Toronto", state: "CA-ON", zip: "90210",
			want: []string{"state: " + address.MsgChooseState}},
		{name: "state without prefix", street: "1 Main St", city: "Los Angeles", state: "CA", zip: "90210",
			want: []string{"state: " + address.MsgChooseState}},
		{name: "Idaho", street: "1 Capitol Blvd", city: "Boise", state: "US-ID", zip: "83702", releaseForm: true},
		{name: "Idaho, still flagged when invalid", state: "US-ID", zip: "83702", releaseForm: true,
			want: []string{"street: Street is required.", "city: City is required."}},
		{name: "AE military", street: "Unit 2050 Box 4190", city: "APO", state: "US-AE", zip: "09045", military: true},
		{name: "AE military, dpo lower case, zip+4", street: "Unit 8400 Box 0000", city: "dpo", state: "US-AE", zip: "09498-0001", military: true},
		{name: "AA military", street: "PSC 3 Box 4120", city: "FPO", state: "US-AA", zip: "34034", military: true},
		{name: "AP military", street: "Unit 45013 Box 2666", city: "APO", state: "US-AP", zip: "96338", military: true},
		{name: "AP military zip not in the data", street: "PSC 1 Box 1", city: "FPO", state: "US-AP", zip: "96699", military: true},
		{name: "military city", street: "Unit 2050 Box 4190", city: "Berlin", state: "US-AE", zip: "09045", military: true,
			want: []string{"city: " + address.MsgMilitaryCity}},
		{name: "AE zip of AP", street: "Unit 2050 Box 4190", city: "APO", state: "US-AE", zip: "96338", military: true,
			want: []string{"zip: ZIP code 96338 is not an AE military ZIP code."}},
		{name: "AE 099 is not AE", street: "Unit 2050 Box 4190", city: "APO", state: "US-AE", zip: "09901", military: true,
			want: []string{"zip: ZIP code 09901 is not an AE military ZIP code."}},
		{name: "AA zip of a state", street: "PSC 3 Box 4120", city: "FPO", state: "US-AA", zip: "33101", military: true,
			want: []string{"zip: ZIP code 33101 is not an AA military ZIP code."}},
		{name: "AP bad format", street: "PSC 3 Box 4120", city: "FPO", state: "US-AP", zip: "963", military: true,
			want: []string{"zip: " + address.MsgZIPFormat}},
		{name: "military zip with a state", street: "1 Main St", city: "New York", state: "US-NY", zip: "09045",
			want: []string{"zip: ZIP code 09045 is not in New York."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := address.US(tc.street, tc.city, tc.state, tc.zip)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := problems(r); !slices.Equal(got, want) {
				t.Errorf("problems = %q; want %q", got, want)
			}
			if r.Valid != (len(want) == 0) {
				t.Errorf("valid = %v", r.Valid)
			}
			if r.ReleaseFormRequired != tc.releaseForm || r.Military != tc.military {
				t.Errorf("releaseFormRequired, military = %v, %v; want %v, %v",
					r.ReleaseFormRequired, r.Military, tc.releaseForm, tc.military)
			}
		})
	}
}

func TestInternational(t *testing.T) {
	for _, tc := range []struct {
		name                                             string
		country, street, locality, adminArea, postalCode string
		want                                             []string
	}{
		{name: "Canada", country: "CA", street: "24 Sussex Dr", locality: "Ottawa", adminArea: "CA-ON", postalCode: "K1M 1M4"},
		{name: "Canada without space, lower case", country: "ca", street: "24 Sussex Dr", locality: "Ottawa", adminArea: "ON", postalCode: "k1m1m4"},
		{name: "Canada bad postcode", country: "CA", street: "24 Sussex Dr", locality: "Ottawa", adminArea: "ON", postalCode: "90210",
			want: []string{"postal_code: Postal code is not valid for Canada."}},
		{name: "Canada letters not used", country: "CA", street: "24 Sussex Dr", locality: "Ottawa", adminArea: "ON", postalCode: "D1M 1M4",
			want: []string{"postal_code: Postal code is not valid for Canada."}},
		{name: "Canada missing province and postcode", country: "CA", street: "24 Sussex Dr", locality: "Ottawa",
			want: []string{"administrative_area: Province is required.", "postal_code: Postal code is required."}},
		{name: "UK", country: "GB", street: "10 Downing St", locality: "London", postalCode: "SW1A 2AA"},
		{name: "UK outward EC1Y", country: "GB", street: "1 Old St", locality: "London", postalCode: "EC1Y 8SY"},
		{name: "UK bad postcode", country: "GB", street: "10 Downing St", locality: "London", postalCode: "SW1A",
			want: []string{"postal_code: Postal code is not valid for United Kingdom."}},
		{name: "UK missing post town", country: "GB", street: "10 Downing St", postalCode: "SW1A 2AA",
			want: []string{"locality: Post town is required."}},
		{name: "Germany", country: "DE", street: "Platz der Republik 1", locality: "Berlin", postalCode: "11011"},
		{name: "Germany 4 digits", country: "DE", street: "Platz der Republik 1", locality: "Berlin", postalCode: "1101",
			want: []string{"postal_code: Postal code is not valid for Germany."}},
		{name: "Germany postcode missing", country: "DE", street: "Platz der Republik 1", locality: "Berlin",
			want: []string{"postal_code: Postal code is required."}},
		{name: "Hong Kong has no postal codes", country: "HK", street: "1 Queen's Rd", adminArea: "Central"},
		{name: "Hong Kong, something typed as postcode", country: "HK", street: "1 Queen's Rd", adminArea: "Central", postalCode: "000000"},
		{name: "Hong Kong area missing", country: "HK", street: "1 Queen's Rd",
			want: []string{"administrative_area: Area is required."}},
		{name: "Ireland eircode optional but checked", country: "IE", street: "1 Main St", locality: "Dublin", postalCode: "D02 X285"},
		{name: "Ireland bad eircode", country: "IE", street: "1 Main St", locality: "Dublin", postalCode: "D02-X285",
			want: []string{"postal_code: Postal code is not valid for Ireland."}},
		{name: "India", country: "IN", street: "1 Rajpath", locality: "New Delhi", adminArea: "Delhi",
			want: []string{"postal_code: PIN code is required."}},
		{name: "Japan", country: "JP", street: "1-1 Chiyoda", adminArea: "Tokyo", postalCode: "100-8111"},
		{name: "a country only the defaults describe", country: "XK", street: "Rr. Nena Tereze", locality: "Prishtina"},
		{name: "everything missing in Canada", country: "CA", want: []string{
			"street: Street is required.", "locality: City is required.",
			"administrative_area: Province is required.", "postal_code: Postal code is required.",
		}},
		{name: "no country", street: "1 Main St", want: []string{"country: Country is required."}},
		{name: "no country, no street", want: []string{"country: Country is required.", "street: Street is required."}},
		{name: "unknown country", country: "QQ", street: "1 Main St", want: []string{"country: " + address.MsgChooseCountry}},
		{name: "alpha-3 is not a code", country: "CAN", street: "1 Main St", want: []string{"country: " + address.MsgChooseCountry}},
		{name: "not in the countries list", country: "AQ", street: "1 Main St", want: []string{"country: " + address.MsgChooseCountry}},
		{name: "US goes through US", country: "US", street: "1 Main St", locality: "Boston", postalCode: "02110",
			want: []string{"country: " + address.MsgCountryNotUS}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := address.International(tc.country, tc.street, tc.locality, tc.adminArea, tc.postalCode)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := problems(r); !slices.Equal(got, want) {
				t.Errorf("problems = %q; want %q", got, want)
			}
			if r.Valid != (len(want) == 0) || r.Military || r.ReleaseFormRequired {
				t.Errorf("valid, military, releaseFormRequired = %v, %v, %v", r.Valid, r.Military, r.ReleaseFormRequired)
			}
		})
	}
}

// TestEveryCountryOfTheListHasAFormat: a country the form offers is checked
// by its own format, and its own examples pass.
func TestEveryCountryOfTheListHasAFormat(t *testing.T) {
	countries, _ := lookup.Get("countries", portal.LocaleEnUS)
	for _, c := range countries.([]lookup.Country) {
		if c.CountryCode == "US" {
			continue
		}
		r := address.International(c.CountryCode, "1 Main St", "Town", "Area", "")
		for _, p := range r.Problems {
			if p.Field == "country" {
				t.Errorf("%s: %s", c.CountryCode, p.Message)
			}
		}
	}
	for code, examples := range address.PostalCodeExamples() {
		for _, ex := range strings.Split(examples, ",") {
			r := address.International(code, "1 Main St", "Town", "Area", ex)
			for _, p := range r.Problems {
				if p.Field == "postal_code" {
					t.Errorf("%s %q: %s", code, ex, p.Message)
				}
			}
		}
	}
}

// TestZIPData: the shipped data has the whole country, with centroids, and
// every state of the form's list (bar the armed forces, whose ZIP codes the
// Postal Service does not publish fully) has ZIP codes.
func TestZIPData(t *testing.T) {
	if n := address.ZIPCount(); n < 40000 {
		t.Errorf("%d ZIP codes; want the whole country", n)
	}
	z, ok := address.LookupZIP("90210")
	if !ok || z.State != "US-CA" || z.City != "Beverly Hills" || !z.HasCentroid ||
		z.Lat < 34 || z.Lat > 34.2 || z.Lon < -118.5 || z.Lon > -118.3 {
		t.Errorf("90210 = %+v, %v", z, ok)
	}
	if z, ok := address.LookupZIP("00501"); !ok || z.State != "US-NY" || z.City != "Holtsville" {
		t.Errorf("00501 (the first) = %+v, %v", z, ok)
	}
	if z, ok := address.LookupZIP("99950"); !ok || z.State != "US-AK" {
		t.Errorf("99950 (the last) = %+v, %v", z, ok)
	}
	for _, bad := range []string{"", "0", "9021", "902100", "abcde", "-0001", "00000"} {
		if z, ok := address.LookupZIP(bad); ok {
			t.Errorf("%q = %+v", bad, z)
		}
	}
	withZIPs := map[string]bool{}
	for i := 0; i <= 99999; i++ {
		code := fmt.Sprintf("%05d", i)
		if z, ok := address.LookupZIP(code); ok {
			withZIPs[z.State] = true
		}
	}
	for _, s := range lookup.StatesByCountryID(lookup.USCountryID, portal.LocaleEnUS) {
		if !withZIPs[s.Code] {
			t.Errorf("no ZIP code in %s", s.Code)
		}
	}
}

func BenchmarkUS(b *testing.B) {
	address.US("1 Main St", "Beverly Hills", "US-CA", "90210") // loads the data
	b.ReportAllocs()
	for b.Loop() {
		address.US("1 Main St", "Beverly Hills", "US-CA", "90210-1234")
	}
}

func BenchmarkInternational(b *testing.B) {
	address.International("GB", "10 Downing St", "London", "", "SW1A 2AA")
	b.ReportAllocs()
	for b.Loop() {
		address.International("GB", "10 Downing St", "London", "", "SW1A 2AA")
	}
}

func BenchmarkLoadZIPs(b *testing.B) {
	for b.Loop() {
		address.ParseZIPs()
	}
}
