package lookup_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

// encode is what the handlers wrote before the lists were encoded once.
func encode(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestEncodedAnswersAreTheLists: the answers encoded once per language are
// byte for byte what encoding Get and StatesByCountryID gives, in every
// language, for every list and every country (and one that is not).
func TestEncodedAnswersAreTheLists(t *testing.T) {
	locales := append([]portal.Locale{"fr-FR"}, portal.Locales...) // an unknown one answers the default
	for _, l := range locales {
		for _, key := range lookup.Keys() {
			v, _ := lookup.Get(key, l)
			got, ok := lookup.GetJSON(key, l)
			if !ok || !bytes.Equal(got, encode(t, v)) {
				t.Errorf("GetJSON(%q, %s) differs from encoding Get (ok %v)", key, l, ok)
			}
		}
		if _, ok := lookup.GetJSON("planets", l); ok {
			t.Errorf("GetJSON(planets, %s) answered", l)
		}
		v, _ := lookup.Get("countries", l)
		ids := []int64{0, 99999}
		for _, c := range v.([]lookup.Country) {
			ids = append(ids, c.CountryID)
		}
		for _, id := range ids {
			if got, want := lookup.StatesByCountryIDJSON(id, l), encode(t, lookup.StatesByCountryID(id, l)); !bytes.Equal(got, want) {
				t.Errorf("StatesByCountryIDJSON(%d, %s) = %.60s, want %.60s", id, l, got, want)
			}
		}
	}
}
