package portal

import (
	"encoding/json"
	"os"
	"testing"
)

// testdata/rule-cases.json and entry-cases.json are shared with the app
// (web/src/features/services/lib): both evaluators must give these answers.

func TestRuleSharedCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/rule-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name   string         `json:"name"`
		Rule   Rule           `json:"rule"`
		Values map[string]any `json:"values"`
		Want   bool           `json:"want"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 25 {
		t.Fatalf("only %d rule cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if got := c.Rule.Eval(c.Values); got != c.Want {
				t.Errorf("Eval = %v, want %v", got, c.Want)
			}
			// The wire form survives a round trip.
			b, err := json.Marshal(c.Rule)
			if err != nil {
				t.Fatal(err)
			}
			var again Rule
			if err := json.Unmarshal(b, &again); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if got := again.Eval(c.Values); got != c.Want {
				t.Errorf("after round trip %s: Eval = %v", b, got)
			}
		})
	}
}

func TestRuleRefusesMalformed(t *testing.T) {
	for _, s := range []string{
		`{}`,
		`{"field": "a"}`,
		`{"field": "a", "equals": 1}`,
		`{"field": "a", "equals": "x", "notEquals": "y"}`,
		`{"equals": "x"}`,
		`{"field": "a", "all": []}`,
		`{"field": "a", "in": ["x", null]}`,
		`{"field": "a", "equals": "x", "extra": 1}`,
		`{"not": {}}`,
		`{"all": [{"field": "a"}]}`,
	} {
		var r Rule
		if err := json.Unmarshal([]byte(s), &r); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
}

func TestEntrySharedCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/entry-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name    string            `json:"name"`
		Today   string            `json:"today"`
		Fields  []FieldDefinition `json:"fields"`
		Entry   map[string]any    `json:"entry"`
		Errors  map[string]string `json:"errors"`
		Lookups LookupLists       `json:"lookups"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 25 {
		t.Fatalf("only %d entry cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got := ValidateEntry(c.Fields, c.Entry, c.Today, c.Lookups)
			for api, want := range c.Errors {
				if got[api] != want {
					t.Errorf("%s: got %q, want %q", api, got[api], want)
				}
			}
			for api, msg := range got {
				if _, ok := c.Errors[api]; !ok {
					t.Errorf("unexpected %s: %q", api, msg)
				}
			}
		})
	}
}
