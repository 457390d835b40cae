package lookup_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

func mustGet[T any](tb testing.TB, key string) T {
	tb.Helper()
	v, ok := lookup.Get(key, portal.LocaleEnUS)
	if !ok {
		tb.Fatalf("Get(%q) not found", key)
	}
	t, ok := v.(T)
	if !ok {
		tb.Fatalf("Get(%q) is %T", key, v)
	}
	return t
}

func TestGet(t *testing.T) {
	t.Run("EveryKeyAnswersANonEmptyJSONList", func(t *testing.T) {
		for _, key := range lookup.Keys() {
			v, ok := lookup.Get(key, portal.LocaleEnUS)
			if !ok {
				t.Fatalf("%s: not found", key)
			}
			if n := reflect.ValueOf(v).Len(); n == 0 {
				t.Fatalf("%s: empty", key)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			} else if len(b) < 10 || string(b) == "null" {
				t.Fatalf("%s: %s", key, b)
			}
		}
	})

	t.Run("UnknownKeyNotFound", func(t *testing.T) {
		if _, ok := lookup.Get("planets", portal.LocaleEnUS); ok {
			t.Fatal("unknown key found")
		}
	})

	t.Run("AnswerIsACopy", func(t *testing.T) {
		c := mustGet[[]lookup.Country](t, "countries")
		c[0].CountryName = "Changed"
		if again := mustGet[[]lookup.Country](t, "countries"); again[0].CountryName != "United States" {
			t.Fatal("a caller changed the shared list")
		}
	})
}

func TestCountries(t *testing.T) {
	countries := mustGet[[]lookup.Country](t, "countries")

	t.Run("UnitedStatesIsFirstWithID1AndCodeUS", func(t *testing.T) {
		want := lookup.Country{CountryID: 1, CountryName: "United States", CountryCode: "US"}
		if countries[0] != want {
			t.Fatalf("first country = %+v, want %+v", countries[0], want)
		}
	})

	t.Run("WorldIsCovered", func(t *testing.T) {
		if len(countries) < 195 {
			t.Fatalf("%d countries, want at least 195", len(countries))
		}
		for _, code := range []string{"CA", "MX", "GB", "DE", "FR", "IN", "CN", "JP", "BR", "NG", "PH", "AU", "ZA", "KR", "XK"} {
			if !lookup.IsCountry(code) {
				t.Errorf("%s missing", code)
			}
		}
	})

	t.Run("IDsAndCodesUniqueAndWellFormed", func(t *testing.T) {
		ids, codes := map[int64]bool{}, map[string]bool{}
		alpha2 := regexp.MustCompile(`^[A-Z]{2}$`)
		for _, c := range countries {
			if ids[c.CountryID] || codes[c.CountryCode] {
				t.Errorf("duplicate %+v", c)
			}
			ids[c.CountryID], codes[c.CountryCode] = true, true
			if c.CountryID <= 0 || c.CountryName == "" || !alpha2.MatchString(c.CountryCode) {
				t.Errorf("malformed %+v", c)
			}
		}
	})
}

func TestStates(t *testing.T) {
	t.Run("USStatesIncludeCaliforniaDCTerritoriesAndArmedForces", func(t *testing.T) {
		us := lookup.StatesByCountryID(lookup.USCountryID, portal.LocaleEnUS)
		codes := map[string]lookup.State{}
		for _, s := range us {
			codes[s.Code] = s
			if s.CountryID != lookup.USCountryID {
				t.Errorf("%+v is not in the US", s)
			}
		}
		for _, code := range []string{"US-CA", "US-NY", "US-DC", "US-ID", "US-PR", "US-GU", "US-VI", "US-AS", "US-MP", "US-AA", "US-AE", "US-AP"} {
			if _, ok := codes[code]; !ok {
				t.Errorf("%s missing", code)
			}
		}
		if ca := codes["US-CA"]; ca.ID != 6 || ca.Name != "California" {
			t.Errorf("California = %+v, want id 6 (FIPS)", ca)
		}
		if n := len(us); n != 50+1+5+3 {
			t.Errorf("%d US entries, want 50 states + DC + 5 territories + 3 armed-forces codes", n)
		}
	})

	t.Run("CanadaAndMexicoHaveTheirSubdivisions", func(t *testing.T) {
		countries := mustGet[[]lookup.Country](t, "countries")
		id := func(code string) int64 {
			for _, c := range countries {
				if c.CountryCode == code {
					return c.CountryID
				}
			}
			t.Fatalf("%s missing", code)
			return 0
		}
		if n := len(lookup.StatesByCountryID(id("CA"), portal.LocaleEnUS)); n != 13 {
			t.Errorf("Canada has %d provinces and territories, want 13", n)
		}
		if n := len(lookup.StatesByCountryID(id("MX"), portal.LocaleEnUS)); n != 32 {
			t.Errorf("Mexico has %d states, want 32", n)
		}
	})

	t.Run("UnknownCountryIDGivesEmptyList", func(t *testing.T) {
		for _, id := range []int64{0, -1, 9999} {
			got := lookup.StatesByCountryID(id, portal.LocaleEnUS)
			if got == nil || len(got) != 0 {
				t.Fatalf("StatesByCountryID(%d) = %#v, want an empty list", id, got)
			}
			if b, _ := json.Marshal(got); string(b) != "[]" {
				t.Fatalf("encodes as %s, want []", b)
			}
		}
	})

	t.Run("CountryWithoutStatesGivesEmptyList", func(t *testing.T) {
		if got := lookup.StatesByCountryID(2, portal.LocaleEnUS); len(got) != 0 {
			t.Fatalf("got %v", got)
		}
	})

	t.Run("IDsAndCodesUnique", func(t *testing.T) {
		ids, codes := map[int64]bool{}, map[string]bool{}
		for _, s := range mustGet[[]lookup.State](t, "states") {
			if ids[s.ID] || codes[s.Code] {
				t.Errorf("duplicate %+v", s)
			}
			ids[s.ID], codes[s.Code] = true, true
		}
	})

	t.Run("RegionsAreTheStatesByCountryID", func(t *testing.T) {
		regions := mustGet[map[string][]lookup.Region](t, "regions")
		us := regions["1"]
		if len(us) != len(lookup.StatesByCountryID(1, portal.LocaleEnUS)) {
			t.Fatalf("%d US regions", len(us))
		}
		if !slices.Contains(us, lookup.Region{ID: 6, Name: "California", Code: "US-CA"}) {
			t.Fatal("US regions lack California")
		}
		total := 0
		for _, r := range regions {
			total += len(r)
		}
		if total != len(mustGet[[]lookup.State](t, "states")) {
			t.Fatalf("regions hold %d entries, states another number", total)
		}
	})
}

func TestCounties(t *testing.T) {
	counties := mustGet[[]lookup.County](t, "counties")
	byID := map[int64]lookup.County{}
	for _, c := range counties {
		byID[c.ID] = c
		if !lookup.IsStateCode(c.StateCode) || !lookup.IsRegionID(c.StateID) || c.ID/1000 != c.StateID {
			t.Errorf("%+v: state does not match its FIPS code", c)
		}
	}
	t.Run("FairChanceOrdinanceCountiesPresent", func(t *testing.T) {
		for _, id := range []int64{6075, 6037, 17031, 36061, 36047, 36081, 36005, 36085, 42101, 53033, 11001} {
			if _, ok := byID[id]; !ok {
				t.Errorf("county %d missing", id)
			}
		}
		if sf := byID[6075]; sf.StateCode != "US-CA" || !strings.Contains(sf.Name, "San Francisco") {
			t.Errorf("6075 = %+v", sf)
		}
	})

	t.Run("CountyStateOfEveryListedCountyIsItsState", func(t *testing.T) {
		for _, c := range counties {
			if got, ok := lookup.CountyState(c.ID); !ok || got != c.StateCode {
				t.Errorf("CountyState(%d) = %q, %v; want %q", c.ID, got, ok, c.StateCode)
			}
		}
	})

	t.Run("CountyState", func(t *testing.T) {
		for _, tc := range []struct {
			county int64
			want   string // "" for no county
		}{
			{6075, "US-CA"},
			{48201, "US-TX"}, // Harris County: a real county the lookup does not list
			{72127, "US-PR"},
			{11001, "US-DC"},
			{0, ""},
			{-6075, ""},
			{6000, ""},  // a state's own code, not a county
			{3001, ""},  // FIPS 03 is no state
			{97001, ""}, // the armed forces (US-AA) have no counties
			{101001, ""},
		} {
			got, ok := lookup.CountyState(tc.county)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("CountyState(%d) = %q, %v; want %q", tc.county, got, ok, tc.want)
			}
		}
	})
}

func TestRegex(t *testing.T) {
	patterns := mustGet[map[string]string](t, "regex")
	tests := []struct {
		name, pattern string
		match, reject []string
	}{
		{"SSN", "ssn", []string{"123-45-6789", "123456789"}, []string{"12-345-6789", "12345678", "abc-de-fghi"}},
		{"LastFourSSN", "lastFourSSN", []string{"6789"}, []string{"678", "67890", "67a9"}},
		{"ZIP", "zip", []string{"94105", "94105-1234"}, []string{"9410", "941051234", "SW1A 1AA"}},
		{"Phone", "phone", []string{"(202) 456-1111", "202.456.1111"}, []string{"call me", "12"}},
		{"Email", "email", []string{"jane@example.com"}, []string{"jane@example", "jane example.com", "@example.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"PatternCompilesAndMatches", func(t *testing.T) {
			p, ok := patterns[tt.pattern]
			if !ok {
				t.Fatalf("pattern %s missing", tt.pattern)
			}
			re, err := regexp.Compile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.match {
				if !re.MatchString(s) {
					t.Errorf("%q rejected", s)
				}
			}
			for _, s := range tt.reject {
				if re.MatchString(s) {
					t.Errorf("%q matched", s)
				}
			}
		})
	}
}

func TestPredicates(t *testing.T) {
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"GenderCodeKnown", lookup.IsGender("F"), true},
		{"GenderNameIsNotACode", lookup.IsGender("Female"), false},
		{"EveryGenderCodeKnown", func() bool {
			for _, g := range mustGet[[]lookup.Gender](t, "genders") {
				if !lookup.IsGender(g.Code) {
					return false
				}
			}
			return true
		}(), true},
		{"SuffixCodeKnown", lookup.IsSuffix("JR"), true},
		{"GenerationalSuffixKnown", lookup.IsSuffix("III"), true},
		{"EmptySuffixIsNotACode", lookup.IsSuffix(""), false},
		{"CountryCodeKnown", lookup.IsCountry("US"), true},
		{"CountryNameIsNotACode", lookup.IsCountry("United States"), false},
		{"LowercaseCountryCodeUnknown", lookup.IsCountry("us"), false},
		{"StateCodeKnown", lookup.IsStateCode("US-CA"), true},
		{"ArmedForcesCodeKnown", lookup.IsStateCode("US-AP"), true},
		{"ProvinceCodeKnown", lookup.IsStateCode("CA-ON"), true},
		{"BareStateAbbreviationUnknown", lookup.IsStateCode("CA"), false},
		{"RegionIDKnown", lookup.IsRegionID(6), true},
		{"UnusedFIPSCodeUnknown", lookup.IsRegionID(3), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Fatalf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}

// TestEveryEntryHasASpanishName: data/es-US names every entry of every
// list, and nothing the lists do not hold.
func TestEveryEntryHasASpanishName(t *testing.T) {
	es := lookup.NamesIn(portal.LocaleEsUS)
	codes := func(list []string) []string { slices.Sort(list); return list }
	var genders, suffixes, countries, states, counties []string
	for _, g := range mustGet[[]lookup.Gender](t, "genders") {
		genders = append(genders, g.Code)
	}
	for _, s := range mustGet[[]lookup.Suffix](t, "suffixes") {
		suffixes = append(suffixes, s.Code)
	}
	for _, c := range mustGet[[]lookup.Country](t, "countries") {
		countries = append(countries, c.CountryCode)
	}
	for _, s := range mustGet[[]lookup.State](t, "states") {
		states = append(states, s.Code)
	}
	for _, c := range mustGet[[]lookup.County](t, "counties") {
		counties = append(counties, strconv.FormatInt(c.ID, 10))
	}
	for _, tt := range []struct {
		name  string
		codes []string
		names map[string]string
	}{
		{"genders", genders, es.Genders}, {"suffixes", suffixes, es.Suffixes}, {"countries", countries, es.Countries},
		{"states", states, es.States}, {"counties", counties, es.Counties},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, code := range tt.codes {
				if strings.TrimSpace(tt.names[code]) == "" {
					t.Errorf("%s has no Spanish name", code)
				}
			}
			if named := codes(slices.Collect(maps.Keys(tt.names))); !slices.Equal(named, codes(tt.codes)) {
				t.Errorf("Spanish names for %v, want exactly %v", named, tt.codes)
			}
		})
	}
}

// TestListsInSpanish: in es-US the names are Spanish and the codes and ids
// the same; the countries are in Spanish name order, the United States
// first; a language the portal does not speak reads English.
func TestListsInSpanish(t *testing.T) {
	get := func(key string, l portal.Locale) any {
		v, ok := lookup.Get(key, l)
		if !ok {
			t.Fatalf("Get(%q, %s) not found", key, l)
		}
		return v
	}
	countries := get("countries", portal.LocaleEsUS).([]lookup.Country)
	english := mustGet[[]lookup.Country](t, "countries")
	if len(countries) != len(english) || countries[0] != (lookup.Country{CountryID: 1, CountryName: "Estados Unidos", CountryCode: "US"}) {
		t.Fatalf("countries start %+v, %d of them; want Estados Unidos first of %d", countries[0], len(countries), len(english))
	}
	index := map[string]int{}
	for i, c := range countries {
		index[c.CountryName] = i
	}
	for _, pair := range [][2]string{{"Alemania", "Argelia"}, {"Nicaragua", "Níger"}, {"Níger", "Nigeria"}, {"España", "Estonia"}} {
		if index[pair[0]] == 0 || index[pair[1]] == 0 || index[pair[0]] > index[pair[1]] {
			t.Errorf("%s (%d) should come before %s (%d)", pair[0], index[pair[0]], pair[1], index[pair[1]])
		}
	}
	for _, tt := range []struct {
		name string
		got  any
		want any
	}{
		{"Gender", get("genders", portal.LocaleEsUS).([]lookup.Gender)[0], lookup.Gender{ID: 1, Name: "Femenino", Code: "F"}},
		{"State", lookup.StatesByCountryID(1, portal.LocaleEsUS)[32], lookup.State{ID: 36, Name: "Nueva York", Code: "US-NY", CountryID: 1}},
		{"Region", get("regions", portal.LocaleEsUS).(map[string][]lookup.Region)["41"][1], lookup.Region{ID: 102, Name: "Columbia Británica", Code: "CA-BC"}},
		{"County", get("counties", portal.LocaleEsUS).([]lookup.County)[3], lookup.County{ID: 6075, Name: "Condado de San Francisco", StateID: 6, StateCode: "US-CA"}},
		{"OtherLanguage", get("genders", "fr-FR").([]lookup.Gender)[0], lookup.Gender{ID: 1, Name: "Female", Code: "F"}},
		{"EnglishUnchanged", mustGet[[]lookup.Country](t, "countries")[0].CountryName, "United States"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if !reflect.DeepEqual(tt.got, tt.want) {
				t.Errorf("got %+v, want %+v", tt.got, tt.want)
			}
		})
	}
}
