package portal_test

import (
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"testing"
	"time"

	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

var historyToday = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

// fieldMessages turns a validation error into field -> message (nil for no
// error); it fails the test on any other error.
func fieldMessages(t *testing.T, err error) map[string]string {
	t.Helper()
	if err == nil {
		return nil
	}
	e, ok := err.(*portal.Error)
	if !ok || e.Code != portal.EINVALID || e.Message != portal.ValidationMessage {
		t.Fatalf("error = %v, want a validation error", err)
	}
	out := map[string]string{}
	for _, f := range e.Fields {
		if _, dup := out[f.Field]; dup {
			t.Errorf("field %s has two messages", f.Field)
		}
		out[f.Field] = f.Message
	}
	return out
}

func TestValidateAliases(t *testing.T) {
	ok := portal.Alias{Type: "maiden", FirstName: "Jane", LastName: "Smith", From: "2001-05", To: "2010-06"}
	with := func(f func(a *portal.Alias)) portal.Alias { a := ok; f(&a); return a }
	rules := portal.AliasRules{Today: historyToday, CurrentNames: [][2]string{{"Jane", "Doe"}},
		ValidSuffix: func(c string) bool { return c == "JR" || c == "SR" }}
	for _, tc := range []struct {
		name    string
		aliases []portal.Alias
		want    map[string]string
	}{
		{"EmptyListIsAnAnswer", nil, nil},
		{"Valid", []portal.Alias{ok, with(func(a *portal.Alias) {
			a.Type, a.FirstName, a.From, a.To, a.Suffix = " Nickname ", "Janie", "", "", "jr"
		})}, nil},
		{"RequiredParts", []portal.Alias{{}}, map[string]string{
			"aliases.0.type": "Type of name is required.", "aliases.0.firstName": "First name is required.", "aliases.0.lastName": "Last name is required."}},
		{"UnknownType", []portal.Alias{with(func(a *portal.Alias) { a.Type = "stage" })}, map[string]string{"aliases.0.type": "Choose Type of name from the list."}},
		{"UnknownSuffix", []portal.Alias{with(func(a *portal.Alias) { a.Suffix = "XIV" })}, map[string]string{"aliases.0.suffix": "Choose a suffix from the list."}},
		{"BadMonth", []portal.Alias{with(func(a *portal.Alias) { a.From = "2001-13" })}, map[string]string{"aliases.0.from": "Used from must be a real date."}},
		{"DayGivenIsNotAMonth", []portal.Alias{with(func(a *portal.Alias) { a.To = "2010-06-01" })}, map[string]string{"aliases.0.to": "Used until must be a real date."}},
		{"FutureFrom", []portal.Alias{with(func(a *portal.Alias) { a.From, a.To = "2026-12", "" })}, map[string]string{"aliases.0.from": "Used from cannot be in the future."}},
		{"ThisMonthIsNotFuture", []portal.Alias{with(func(a *portal.Alias) { a.From, a.To = "2026-11", "2026-11" })}, nil},
		{"FutureTo", []portal.Alias{with(func(a *portal.Alias) { a.To = "2027-01" })}, map[string]string{"aliases.0.to": "Used until cannot be in the future."}},
		{"EndsBeforeItStarts", []portal.Alias{with(func(a *portal.Alias) { a.From, a.To = "2010-06", "2010-05" })}, map[string]string{"aliases.0.to": "Used until cannot be before Used from."}},
		{"CurrentNameCaseInsensitive", []portal.Alias{with(func(a *portal.Alias) { a.FirstName, a.LastName = " jane", "DOE " })},
			map[string]string{"aliases.0.firstName": "This is your current name; list only other names."}},
		{"Duplicate", []portal.Alias{ok, with(func(a *portal.Alias) { a.Type, a.FirstName = "other", "JANE" })},
			map[string]string{"aliases.1.firstName": "You listed this name twice."}},
		{"DifferentMiddleNameIsAnotherName", []portal.Alias{ok, with(func(a *portal.Alias) { a.MiddleName = "Q" })}, nil},
		{"TooLong", []portal.Alias{with(func(a *portal.Alias) { a.LastName = string(make([]byte, 101)) })},
			map[string]string{"aliases.0.lastName": "Last name must be at most 100 characters."}},
		{"TooMany", make([]portal.Alias, 11), map[string]string{"aliases": "You can list up to 10 names."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fieldMessages(t, portal.ValidateAliases(tc.aliases, rules))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors = %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestNormalizeAliases(t *testing.T) {
	got := portal.NormalizeAliases([]portal.Alias{{ID: " a ", Type: " Maiden", FirstName: " Jane ", Suffix: "jr "}})
	want := []portal.Alias{{ID: "a", Type: "maiden", FirstName: "Jane", Suffix: "JR"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got := portal.NormalizeAliases(nil); got == nil || len(got) != 0 {
		t.Errorf("nil list = %#v, want empty", got)
	}
}

// TestAliasSharedCases runs testdata/alias-cases.json, the table of other
// names cases the app's Vitest runs too (its "about" says the shape), so the
// two copies of the rules cannot drift apart unnoticed.
func TestAliasSharedCases(t *testing.T) {
	table, today := readHistoryTable(t, "alias-cases.json", 30)
	rules := portal.AliasRules{Today: today, CurrentNames: table.CurrentNames, ValidSuffix: lookup.IsSuffix}
	for _, c := range table.Cases {
		t.Run(c.Name, func(t *testing.T) {
			aliases := withBase[portal.Alias](t, table.Base, c.Aliases)
			c.check(t, portal.ValidateAliases(aliases, rules))
		})
	}
}

// historyTable is testdata/alias-cases.json or address-cases.json, a table
// of cases shared with the app.
type historyTable struct {
	Today string         `json:"today"`
	Base  map[string]any `json:"base"`
	Cases []historyCase  `json:"cases"`
	// Aliases: the applicant's current first and last names.
	CurrentNames [][2]string `json:"currentNames"`
	// Addresses: the package's years and the states lookup's codes the
	// app is given.
	RequiredYears int      `json:"requiredYears"`
	StateCodes    []string `json:"stateCodes"`
}

// historyCase is one case: a list, each item the table's base with the
// item's keys replacing its own, and every field error it must give.
type historyCase struct {
	Name          string            `json:"name"`
	Aliases       []map[string]any  `json:"aliases"`
	Addresses     []map[string]any  `json:"addresses"`
	RequiredYears int               `json:"requiredYears"`
	Draft         bool              `json:"draft"`
	Want          map[string]string `json:"want"`
}

// check compares a validation's field errors with the case's.
func (c historyCase) check(t *testing.T, err error) {
	t.Helper()
	got := map[string]string{}
	maps.Copy(got, fieldMessages(t, err))
	if !maps.Equal(got, c.Want) {
		t.Errorf("errors\n got %v\nwant %v", got, c.Want)
	}
}

// readHistoryTable reads testdata/name, which must hold at least minCases
// cases, and returns it with its today at midday, as the app's clock would
// be: the day is what counts.
func readHistoryTable(t *testing.T, name string, minCases int) (historyTable, time.Time) {
	t.Helper()
	var table historyTable
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	today, err := time.Parse(portal.DateLayout, table.Today)
	if err != nil {
		t.Fatalf("%s: today: %v", name, err)
	}
	if len(table.Cases) < minCases {
		t.Fatalf("%s holds %d cases, want at least %d", name, len(table.Cases), minCases)
	}
	seen := map[string]bool{}
	for _, c := range table.Cases {
		if seen[c.Name] {
			t.Errorf("%s: duplicate case name %q", name, c.Name)
		}
		seen[c.Name] = true
	}
	return table, today.Add(12 * time.Hour)
}

// withBase is the list of items, each the base with the item's keys
// replacing its own, as T.
func withBase[T any](t *testing.T, base map[string]any, changes []map[string]any) []T {
	t.Helper()
	out := []T{}
	for _, change := range changes {
		item := maps.Clone(base)
		maps.Copy(item, change)
		b, err := json.Marshal(item)
		if err != nil {
			t.Fatal(err)
		}
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%v: %v", item, err)
		}
		out = append(out, v)
	}
	return out
}
