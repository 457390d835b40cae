package address_test

import (
	"slices"
	"strings"
	"testing"

	"applicantportal/internal/address"
	"applicantportal/internal/portal"
)

// addressFields are the Address fields a problem may name.
var addressFields = []string{"street1", "city", "state", "zip", "country"}

// FuzzCheckParts: an address is checked as the address history saves it
// (normalized, then CheckParts). Normalizing is idempotent; the check is
// deterministic and names only the Address's fields; an address it
// accepts is accepted again once stored (normalized a second time), and
// the validation endpoints (US, International) accept it too, so the form
// and the save never disagree.
func FuzzCheckParts(f *testing.F) {
	f.Add("US", "9336 Civic Center Dr", "Beverly Hills", "US-CA", "90210")
	f.Add(" us ", " 1 Main St ", " Boise ", " us-id ", " 83702-1234 ")
	f.Add("US", "PSC 1234 Box 5678", "APO", "US-AE", "09012")
	f.Add("US", "1 Main St", "Nowhere", "US-ZZ", "1234")
	f.Add("CA", "24 Sussex Dr", "Ottawa", "ON", "k1m1m4")
	f.Add("GB", "10 Downing St", "London", "", "SW1A 2AA")
	f.Add("HK", "1 Queen's Rd", "", "Central", "")
	f.Add("uſ", "1 Main St", "Boise", "US-ID", "83702")
	f.Add("", "", "", "", "")
	f.Fuzz(func(t *testing.T, country, street, city, state, zip string) {
		n := portal.Address{Country: country, Street1: street, City: city, State: state, Zip: zip}.Normalized()
		if again := n.Normalized(); again != n {
			t.Fatalf("normalized %+v, then %+v", n, again)
		}
		got := address.CheckParts(n)
		if again := address.CheckParts(n); !slices.Equal(again, got) {
			t.Fatalf("CheckParts(%+v) = %v, then %v", n, got, again)
		}
		for _, p := range got {
			if !slices.Contains(addressFields, p.Field) || p.Message == "" {
				t.Fatalf("a problem %+v names no Address field or says nothing", p)
			}
		}
		if len(got) > 0 {
			return
		}
		if again := address.CheckParts(n.Normalized()); len(again) > 0 {
			t.Fatalf("accepted %+v, then refused it stored: %v", n, again)
		}
		var r address.Result
		if n.Country == "US" {
			r = address.US(n.Street1, n.City, n.State, n.Zip)
		} else {
			r = address.International(n.Country, n.Street1, n.City, n.State, n.Zip)
		}
		if !r.Valid || len(r.Problems) > 0 {
			t.Fatalf("CheckParts accepted %+v; the validation endpoint answers %+v", n, r)
		}
	})
}

// FuzzUS: the US check answers the same for the values as typed and as
// trimmed and upper-cased (what the save stores); a valid non-military
// address has a ZIP code in the data, in its state.
func FuzzUS(f *testing.F) {
	f.Add("9336 Civic Center Dr", "Beverly Hills", "US-CA", "90210")
	f.Add(" 1 Main St ", " Boise ", " us-id ", " 83702-1234 ")
	f.Add("PSC 1234 Box 5678", "apo", "US-AE", "09012")
	f.Add("1 Main St", "Springfield", "US-IL", "62701-")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, street, city, state, zip string) {
		r := address.US(street, city, state, zip)
		if r.Problems == nil || r.Valid != (len(r.Problems) == 0) {
			t.Fatalf("US = %+v: problems nil, or Valid disagreeing with them", r)
		}
		trim := strings.TrimSpace
		again := address.US(trim(street), trim(city), strings.ToUpper(trim(state)), trim(zip))
		if again.Valid != r.Valid || !slices.Equal(again.Problems, r.Problems) {
			t.Fatalf("US as typed = %+v; as stored = %+v", r, again)
		}
		if !r.Valid || r.Military {
			return
		}
		z, ok := address.LookupZIP(trim(zip)[:5])
		if !ok || z.State != strings.ToUpper(trim(state)) {
			t.Fatalf("US accepted ZIP %q in %q; the data says %+v, %v", zip, state, z, ok)
		}
	})
}

// FuzzLookupZIP: a code is found only when it is five ASCII digits, and
// the answer carries the code asked for.
func FuzzLookupZIP(f *testing.F) {
	for _, code := range []string{"90210", "00501", "99999", "+0501", "-0501", "0x1F", " 9021", "902100", ""} {
		f.Add(code)
	}
	f.Fuzz(func(t *testing.T, code string) {
		z, ok := address.LookupZIP(code)
		if !ok {
			return
		}
		if len(code) != 5 || strings.Trim(code, "0123456789") != "" || z.Code != code || !strings.HasPrefix(z.State, "US-") {
			t.Fatalf("LookupZIP(%q) = %+v", code, z)
		}
	})
}
