package portal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Rule is a condition on the other values of one service entry
// (requiredWhen, visibleWhen; docs/api.md "Field rules"). The app evaluates
// the same rules in web/src/features/services/lib/rules.ts; both run
// testdata/rule-cases.json. Exactly one form is set:
//
//	{"field": api, "equals": v} | {"field": api, "notEquals": v} |
//	{"field": api, "in": [v...]} | {"field": api, "filled": bool} |
//	{"all": [Rule...]} | {"any": [Rule...]} | {"not": Rule}
//
// Values are strings or booleans.
type Rule struct {
	op     string // "equals", "notEquals", "in", "filled", "all", "any", "not"
	field  string
	value  any   // equals, notEquals: string or bool
	values []any // in
	filled bool
	rules  []Rule // all, any, not (one)
}

// Rule constructors, for definitions written in Go.
func Equals(field string, v any) *Rule    { return &Rule{op: "equals", field: field, value: v} }
func NotEquals(field string, v any) *Rule { return &Rule{op: "notEquals", field: field, value: v} }
func In(field string, vs ...any) *Rule    { return &Rule{op: "in", field: field, values: vs} }
func Filled(field string, filled bool) *Rule {
	return &Rule{op: "filled", field: field, filled: filled}
}
func All(rs ...*Rule) *Rule { return &Rule{op: "all", rules: derefRules(rs)} }
func AnyOf(rs ...*Rule) *Rule {
	return &Rule{op: "any", rules: derefRules(rs)}
}
func Not(r *Rule) *Rule { return &Rule{op: "not", rules: []Rule{*r}} }

func derefRules(rs []*Rule) []Rule {
	out := make([]Rule, 0, len(rs))
	for _, r := range rs {
		out = append(out, *r)
	}
	return out
}

// Eval reports whether the rule holds for the entry's values. A missing
// value is "" against a string and false against a boolean; strings compare
// trimmed and case-sensitive; a boolean equals only the same boolean.
func (r *Rule) Eval(values map[string]any) bool {
	switch r.op {
	case "equals":
		return valueEquals(values[r.field], r.value)
	case "notEquals":
		return !valueEquals(values[r.field], r.value)
	case "in":
		for _, v := range r.values {
			if valueEquals(values[r.field], v) {
				return true
			}
		}
		return false
	case "filled":
		return isFilled(values[r.field]) == r.filled
	case "all":
		for i := range r.rules {
			if !r.rules[i].Eval(values) {
				return false
			}
		}
		return true
	case "any":
		for i := range r.rules {
			if r.rules[i].Eval(values) {
				return true
			}
		}
		return false
	case "not":
		return !r.rules[0].Eval(values)
	}
	return false
}

// valueEquals compares an entry's value (possibly missing) with a rule's.
func valueEquals(actual, want any) bool {
	switch w := want.(type) {
	case bool:
		if actual == nil {
			return !w
		}
		a, ok := actual.(bool)
		return ok && a == w
	case string:
		if actual == nil {
			return strings.TrimSpace(w) == ""
		}
		a, ok := actual.(string)
		return ok && strings.TrimSpace(a) == strings.TrimSpace(w)
	}
	return false
}

// isFilled: a non-blank string or true.
func isFilled(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x) != ""
	case bool:
		return x
	}
	return false
}

// ruleJSON is the wire form; pointers tell an absent key from a zero one.
type ruleJSON struct {
	Field     string           `json:"field,omitempty"`
	Equals    *json.RawMessage `json:"equals,omitempty"`
	NotEquals *json.RawMessage `json:"notEquals,omitempty"`
	In        *[]any           `json:"in,omitempty"`
	Filled    *bool            `json:"filled,omitempty"`
	All       *[]Rule          `json:"all,omitempty"`
	Any       *[]Rule          `json:"any,omitempty"`
	Not       *Rule            `json:"not,omitempty"`
}

// MarshalJSON writes the rule in its wire form.
func (r Rule) MarshalJSON() ([]byte, error) {
	var w ruleJSON
	raw := func(v any) *json.RawMessage {
		b, _ := json.Marshal(v)
		m := json.RawMessage(b)
		return &m
	}
	switch r.op {
	case "equals":
		w.Field, w.Equals = r.field, raw(r.value)
	case "notEquals":
		w.Field, w.NotEquals = r.field, raw(r.value)
	case "in":
		vs := append([]any{}, r.values...)
		w.Field, w.In = r.field, &vs
	case "filled":
		f := r.filled
		w.Field, w.Filled = r.field, &f
	case "all":
		rs := append([]Rule{}, r.rules...)
		w.All = &rs
	case "any":
		rs := append([]Rule{}, r.rules...)
		w.Any = &rs
	case "not":
		w.Not = &r.rules[0]
	default:
		return nil, errors.New("portal: empty rule")
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a rule and refuses anything but exactly one form with
// string or boolean values.
func (r *Rule) UnmarshalJSON(b []byte) error {
	var w ruleJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("rule: %w", err)
	}
	n := 0
	for _, set := range []bool{w.Equals != nil, w.NotEquals != nil, w.In != nil, w.Filled != nil, w.All != nil, w.Any != nil, w.Not != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return errors.New("rule: exactly one of equals, notEquals, in, filled, all, any, not")
	}
	needField := w.Equals != nil || w.NotEquals != nil || w.In != nil || w.Filled != nil
	if needField != (w.Field != "") {
		return errors.New("rule: field goes with equals, notEquals, in and filled only")
	}
	scalar := func(m *json.RawMessage) (any, error) {
		var v any
		if err := json.Unmarshal(*m, &v); err != nil {
			return nil, err
		}
		return checkScalar(v)
	}
	*r = Rule{field: w.Field}
	var err error
	switch {
	case w.Equals != nil:
		r.op = "equals"
		r.value, err = scalar(w.Equals)
	case w.NotEquals != nil:
		r.op = "notEquals"
		r.value, err = scalar(w.NotEquals)
	case w.In != nil:
		r.op = "in"
		r.values = []any{}
		for _, v := range *w.In {
			v, err = checkScalar(v)
			if err != nil {
				break
			}
			r.values = append(r.values, v)
		}
	case w.Filled != nil:
		r.op, r.filled = "filled", *w.Filled
	case w.All != nil:
		r.op, r.rules = "all", append([]Rule{}, *w.All...)
	case w.Any != nil:
		r.op, r.rules = "any", append([]Rule{}, *w.Any...)
	case w.Not != nil:
		r.op, r.rules = "not", []Rule{*w.Not}
	}
	return err
}

func checkScalar(v any) (any, error) {
	switch v.(type) {
	case string, bool:
		return v, nil
	}
	return nil, fmt.Errorf("rule: value %v is neither a string nor a boolean", v)
}

// Fields lists the fields the rule reads, so a definition can be checked
// for rules on fields it does not have.
func (r *Rule) Fields() []string {
	if r == nil {
		return nil
	}
	if r.field != "" {
		return []string{r.field}
	}
	var out []string
	for i := range r.rules {
		out = append(out, r.rules[i].Fields()...)
	}
	return out
}

// Valid reports whether a rule built in Go is complete: every node has a
// form and "not" has its rule (JSON decoding already refuses the rest).
func (r *Rule) Valid() bool {
	if r == nil {
		return true
	}
	switch r.op {
	case "equals", "notEquals", "in", "filled":
		return r.field != ""
	case "all", "any":
	case "not":
		if len(r.rules) != 1 {
			return false
		}
	default:
		return false
	}
	for i := range r.rules {
		if !r.rules[i].Valid() {
			return false
		}
	}
	return true
}
