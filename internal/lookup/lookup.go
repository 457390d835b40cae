// Package lookup serves the fixed lists the forms choose from (spec section
// 3 "Lookups": genders, suffixes, countries, states, counties, regex,
// regions), shipped in the binary so they work offline and never change
// under a running server.
//
// The personal information form stores codes, never names or ids: gender
// and suffix by their code ("F", "JR"), identification country by its ISO
// 3166-1 alpha-2 code ("US"), driver's licence state by its ISO 3166-2 code
// ("US-CA"). A professional licence stores its region by id. The Is*
// predicates check exactly those values, for portal.PersonalRules.
//
// Ids are stable; new entries get new ids. Countries: United States 1, then
// the others in name order from 2 (the ISO 3166-1 countries except a few
// uninhabited territories, plus Kosovo as XK). States and regions: a US
// entry's id is its FIPS state code (California 6, District of Columbia 11,
// Puerto Rico 72), the armed-forces codes AA, AE and AP are 97, 98 and 99,
// Canada's provinces and territories 101-113 and Mexico's states 201-232.
//
// Counties are a curated subset, not every US county: the counties whose
// local fair-chance or rights ordinances decide which legal documents an
// applicant sees, with their 5-digit FIPS code as id (San Francisco 6075).
//
// Names are in the language asked for: data/*.json holds the lists in
// English, data/es-US/*.json the Spanish name of each entry by code (a
// county by id). Codes and ids are the same in every language; Spanish
// country names come from CLDR (golang.org/x/text/language/display), a
// few changed to the names in use today, and the countries stay in name
// order in each language, the United States first.
package lookup

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"applicantportal/internal/portal"
)

// USCountryID is the id of the United States, the default country.
const USCountryID int64 = 1

// armedForcesFirstID is the id of US-AA; US-AE and US-AP follow. They are
// postal codes, not places with counties.
const armedForcesFirstID = 97

// Keys returns the keys Get answers.
func Keys() []string {
	return []string{"genders", "suffixes", "countries", "states", "counties", "regex", "regions"}
}

// Gender is one choice of the gender list.
type Gender struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Code string `json:"code"`
}

// Suffix is one choice of the name suffix list.
type Suffix struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Code string `json:"code"`
}

// Country is a country with its ISO 3166-1 alpha-2 code.
type Country struct {
	CountryID   int64  `json:"countryId"`
	CountryName string `json:"countryName"`
	CountryCode string `json:"countryCode"`
}

// State is a state, province or territory of a country, with its ISO 3166-2
// code ("US-CA", "CA-ON", "MX-JAL"; the armed-forces codes "US-AA", "US-AE",
// "US-AP").
type State struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Code      string `json:"code"`
	CountryID int64  `json:"countryId"`
}

// Region is a state as the regions lookup lists it under its country.
type Region struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Code string `json:"code"`
}

// County is a US county (or county equivalent) with its FIPS code as id.
type County struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	StateID   int64  `json:"stateId"`
	StateCode string `json:"stateCode"`
}

//go:embed data/*.json data/es-US/*.json
var dataFS embed.FS

// tables are the parsed lists. They are read-only once loaded.
type tables struct {
	genders   []Gender
	suffixes  []Suffix
	countries []Country
	states    []State
	counties  []County
	regex     map[string]string
	regions   map[string][]Region // by country id, as a JSON object key

	genderCodes  map[string]bool
	suffixCodes  map[string]bool
	countryCodes map[string]bool
	stateCodes   map[string]bool
	regionNames  map[int64]string // by state id
	usStateCodes map[int64]string // by FIPS state code: the 50 states, DC and the territories
}

// load parses the embedded files once. A broken file is a build mistake
// that the tests catch, so it panics.
var load = sync.OnceValue(func() *tables {
	t := &tables{}
	mustRead("genders", &t.genders)
	mustRead("suffixes", &t.suffixes)
	mustRead("countries", &t.countries)
	mustRead("states", &t.states)
	mustRead("counties", &t.counties)
	return t.indexed()
})

// translated are the tables in each language but the default, built once
// from load's and the language's names.
var translated = sync.OnceValue(func() map[portal.Locale]*tables {
	out := map[portal.Locale]*tables{}
	for _, l := range portal.Locales {
		if l != portal.DefaultLocale {
			out[l] = load().in(l)
		}
	}
	return out
})

// tablesIn is the tables in l, the default language's for any other.
func tablesIn(l portal.Locale) *tables {
	if t, ok := translated()[l]; ok {
		return t
	}
	return load()
}

// Names are the names of the lists' entries in one language, by code (a
// county by its id).
type Names struct {
	Genders, Suffixes, Countries, States, Counties map[string]string
}

// NamesIn reads data/<l>/*.json, which must name every entry.
func NamesIn(l portal.Locale) Names {
	var n Names
	for name, m := range map[string]*map[string]string{"genders": &n.Genders, "suffixes": &n.Suffixes,
		"countries": &n.Countries, "states": &n.States, "counties": &n.Counties} {
		mustRead(string(l)+"/"+name, m)
	}
	return n
}

// in is t with the names of l (an entry without one keeps its name), the
// countries sorted again by name in l's order.
func (t *tables) in(l portal.Locale) *tables {
	n := NamesIn(l)
	out := &tables{genders: slices.Clone(t.genders), suffixes: slices.Clone(t.suffixes), countries: slices.Clone(t.countries),
		states: slices.Clone(t.states), counties: slices.Clone(t.counties)}
	rename := func(name *string, names map[string]string, key string) {
		if v, ok := names[key]; ok && v != "" {
			*name = v
		}
	}
	for i := range out.genders {
		rename(&out.genders[i].Name, n.Genders, out.genders[i].Code)
	}
	for i := range out.suffixes {
		rename(&out.suffixes[i].Name, n.Suffixes, out.suffixes[i].Code)
	}
	for i := range out.countries {
		rename(&out.countries[i].CountryName, n.Countries, out.countries[i].CountryCode)
	}
	for i := range out.states {
		rename(&out.states[i].Name, n.States, out.states[i].Code)
	}
	for i := range out.counties {
		rename(&out.counties[i].Name, n.Counties, strconv.FormatInt(out.counties[i].ID, 10))
	}
	order := collate.New(language.Make(string(l)))
	slices.SortStableFunc(out.countries[1:], func(a, b Country) int { return order.CompareString(a.CountryName, b.CountryName) })
	return out.indexed()
}

// indexed fills in what is derived from the lists.
func (t *tables) indexed() *tables {
	t.regex = map[string]string{
		"ssn":         portal.SSNPattern,
		"lastFourSSN": portal.LastFourSSNPattern,
		"zip":         portal.ZIPPattern,
		// Only the characters a number may be typed with; whether it is a
		// real number for its dial code is checked with libphonenumber.
		"phone": `^[0-9 ().-]{4,20}$`,
		// A first check as the user types; the server applies the
		// stricter portal.ValidEmail.
		"email": `^[^\s@]+@[^\s@]+\.[^\s@]+$`,
	}

	t.regions = map[string][]Region{}
	t.genderCodes = map[string]bool{}
	t.suffixCodes = map[string]bool{}
	t.countryCodes = map[string]bool{}
	t.stateCodes = map[string]bool{}
	t.regionNames = map[int64]string{}
	t.usStateCodes = map[int64]string{}
	for _, g := range t.genders {
		t.genderCodes[g.Code] = true
	}
	for _, s := range t.suffixes {
		t.suffixCodes[s.Code] = true
	}
	for _, c := range t.countries {
		t.countryCodes[c.CountryCode] = true
	}
	for _, s := range t.states {
		t.stateCodes[s.Code] = true
		t.regionNames[s.ID] = s.Name
		if s.CountryID == USCountryID && s.ID < armedForcesFirstID {
			t.usStateCodes[s.ID] = s.Code
		}
		key := strconv.FormatInt(s.CountryID, 10)
		t.regions[key] = append(t.regions[key], Region{ID: s.ID, Name: s.Name, Code: s.Code})
	}
	return t
}

func mustRead(name string, v any) {
	b, err := dataFS.ReadFile("data/" + name + ".json")
	if err != nil {
		panic(fmt.Sprintf("lookup: %s: %v", name, err))
	}
	if err := json.Unmarshal(b, v); err != nil {
		panic(fmt.Sprintf("lookup: %s: %v", name, err))
	}
}

// Get returns the list named key in language l (the default language's
// for one the portal does not speak), ready to encode as JSON, and false
// for an unknown key. The answer is a copy the caller may keep:
//
//	genders   []Gender            [{id, name, code}]
//	suffixes  []Suffix            [{id, name, code}]
//	countries []Country           [{countryId, countryName, countryCode}], United States first
//	states    []State             [{id, name, code, countryId}], every country
//	counties  []County            [{id, name, stateId, stateCode}]
//	regex     map[string]string   {ssn, lastFourSSN, zip, phone, email}: patterns that RE2 and JavaScript both read
//	regions   map[string][]Region {"<countryId>": [{id, name, code}]}
func Get(key string, l portal.Locale) (any, bool) {
	t := tablesIn(l)
	switch key {
	case "genders":
		return slices.Clone(t.genders), true
	case "suffixes":
		return slices.Clone(t.suffixes), true
	case "countries":
		return slices.Clone(t.countries), true
	case "states":
		return slices.Clone(t.states), true
	case "counties":
		return slices.Clone(t.counties), true
	case "regex":
		return maps.Clone(t.regex), true
	case "regions":
		m := make(map[string][]Region, len(t.regions))
		for k, v := range t.regions {
			m[k] = slices.Clone(v)
		}
		return m, true
	}
	return nil, false
}

// StatesByCountryID returns the states of a country in language l, or an
// empty list for a country without states in the lookup or an unknown id.
func StatesByCountryID(id int64, l portal.Locale) []State {
	states := []State{}
	for _, s := range tablesIn(l).states {
		if s.CountryID == id {
			states = append(states, s)
		}
	}
	return states
}

// IsGender reports whether code is a gender code ("F").
func IsGender(code string) bool { return load().genderCodes[code] }

// IsSuffix reports whether code is a name suffix code ("JR").
func IsSuffix(code string) bool { return load().suffixCodes[code] }

// IsCountry reports whether code is a country's ISO alpha-2 code ("US").
func IsCountry(code string) bool { return load().countryCodes[code] }

// IsStateCode reports whether code is a state's code ("US-CA").
func IsStateCode(code string) bool { return load().stateCodes[code] }

// IsRegionID reports whether id is a region (state) id.
func IsRegionID(id int64) bool { return RegionName(id) != "" }

// RegionName returns the name of a region (state) id, "" for an unknown id.
func RegionName(id int64) string { return load().regionNames[id] }

// CountyState returns the state code of a county id, and false for an id
// that is no county. A county id is a 5-digit FIPS code whose leading digits
// are its state's FIPS code (the state's id here): 6075 lies in 6, US-CA.
// Any county of a US state or territory is accepted, not only the curated
// ones the counties lookup lists (an operator may name another in a
// document's regions or an invitation).
func CountyState(county int64) (string, bool) {
	if county <= 0 || county%1000 == 0 {
		return "", false
	}
	code, ok := load().usStateCodes[county/1000]
	return code, ok
}

// Places returns the checks of portal.Place.Validate.
func Places() portal.PlaceLookups {
	return portal.PlaceLookups{KnownState: IsStateCode, CountyState: CountyState}
}

// encodedLists are the JSON answers of Get and StatesByCountryID in one
// language, each followed by a newline as json.Encoder writes it.
type encodedLists struct {
	byKey map[string][]byte
	// statesOf are the states of each country that has any.
	statesOf map[int64][]byte
}

// noStates is the answer for a country without states.
var noStates = []byte("[]\n")

// encoded holds the answers of every list in every language, encoded once:
// the lists never change under a running server, and encoding the
// countries on every request cost more than the rest of the answer.
var encoded = sync.OnceValue(func() map[portal.Locale]*encodedLists {
	out := map[portal.Locale]*encodedLists{}
	for _, l := range portal.Locales {
		e := &encodedLists{byKey: map[string][]byte{}, statesOf: map[int64][]byte{}}
		for _, key := range Keys() {
			v, _ := Get(key, l)
			e.byKey[key] = mustEncode(v)
		}
		for _, s := range tablesIn(l).states {
			if _, ok := e.statesOf[s.CountryID]; !ok {
				e.statesOf[s.CountryID] = mustEncode(StatesByCountryID(s.CountryID, l))
			}
		}
		out[l] = e
	}
	return out
})

func mustEncode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("lookup: encode: %v", err))
	}
	return append(b, '\n')
}

// encodedIn is the encoded lists in l, the default language's for any
// other (as tablesIn).
func encodedIn(l portal.Locale) *encodedLists {
	if e, ok := encoded()[l]; ok {
		return e
	}
	return encoded()[portal.DefaultLocale]
}

// GetJSON is Get encoded as JSON with a final newline, as json.Encoder
// writes it; the caller must not change the bytes.
func GetJSON(key string, l portal.Locale) ([]byte, bool) {
	b, ok := encodedIn(l).byKey[key]
	return b, ok
}

// StatesByCountryIDJSON is StatesByCountryID encoded as GetJSON is.
func StatesByCountryIDJSON(id int64, l portal.Locale) []byte {
	if b, ok := encodedIn(l).statesOf[id]; ok {
		return b
	}
	return noStates
}
