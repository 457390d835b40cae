package portal

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Field types of a service definition (docs/api.md, GET /api/v2/user/service).
const (
	FieldText     = "text"
	FieldTextarea = "textarea"
	FieldEmail    = "email"
	FieldPhone    = "phone"
	FieldDate     = "date"
	FieldMonth    = "month"
	FieldSelect   = "select"
	FieldRadio    = "radio"
	FieldCheckbox = "checkbox"
	FieldState    = "state"
	FieldCountry  = "country"
)

// FlagDOT marks the checkbox that says an employer is DOT-regulated.
const FlagDOT = "dot"

// Default patterns of email and phone fields whose format is "" (valid in
// RE2 and JS; the app uses the same).
const (
	DefaultEmailFormat = `[^\s@]+@[^\s@]+\.[^\s@]+`
	DefaultPhoneFormat = `\+?[0-9 ().-]{7,20}`
)

// Default maximum lengths, in characters.
const (
	DefaultMaxLength         = 200
	DefaultTextareaMaxLength = 2000
)

// MaxServiceEntries is how many entries one alias may hold.
const MaxServiceEntries = 20

// Option is one choice of a select or radio field.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// FieldDefinition is one field of a package service (stored in
// package_services.fields).
type FieldDefinition struct {
	ID           int64    `json:"id"`
	API          string   `json:"api"`
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	Format       string   `json:"format"`
	Options      []Option `json:"options"`
	RequiredFlag bool     `json:"requiredFlag"`
	Rank         int      `json:"rank"`
	Reference    string   `json:"reference"`
	Flag         string   `json:"flag"`
	Hint         string   `json:"hint,omitempty"`
	MaxLength    int      `json:"maxLength,omitempty"`
	NotFuture    bool     `json:"notFuture,omitempty"`
	After        string   `json:"after,omitempty"`
	RequiredWhen *Rule    `json:"requiredWhen"`
	VisibleWhen  *Rule    `json:"visibleWhen"`
}

// Limit is the field's maximum length in characters.
func (f *FieldDefinition) Limit() int {
	switch {
	case f.MaxLength > 0:
		return f.MaxLength
	case f.Type == FieldTextarea:
		return DefaultTextareaMaxLength
	}
	return DefaultMaxLength
}

// Visible reports whether the field shows for the entry.
func (f *FieldDefinition) Visible(entry map[string]any) bool {
	return f.VisibleWhen == nil || f.VisibleWhen.Eval(entry)
}

// Required reports whether the field must be filled for the entry.
func (f *FieldDefinition) Required(entry map[string]any) bool {
	return f.Visible(entry) && (f.RequiredFlag || (f.RequiredWhen != nil && f.RequiredWhen.Eval(entry)))
}

// Normalized fills what JSON may leave out: options [] rather than null.
func (f FieldDefinition) Normalized() FieldDefinition {
	if f.Options == nil {
		f.Options = []Option{}
	}
	return f
}

// SortFields orders fields by rank (ties by api, so the order is stable
// everywhere).
func SortFields(fields []FieldDefinition) {
	sort.SliceStable(fields, func(i, j int) bool {
		if fields[i].Rank != fields[j].Rank {
			return fields[i].Rank < fields[j].Rank
		}
		return fields[i].API < fields[j].API
	})
}

// MergeFields is one page's fields: those of every service of the alias,
// deduplicated by api (the lowest rank wins), sorted by rank.
func MergeFields(lists ...[]FieldDefinition) []FieldDefinition {
	byAPI := map[string]FieldDefinition{}
	for _, l := range lists {
		for _, f := range l {
			if old, ok := byAPI[f.API]; !ok || f.Rank < old.Rank {
				byAPI[f.API] = f.Normalized()
			}
		}
	}
	out := make([]FieldDefinition, 0, len(byAPI))
	for _, f := range byAPI {
		out = append(out, f)
	}
	SortFields(out)
	return out
}

// Lookups say which values reference fields accept ("states": state codes
// such as "US-CA", "countries": country codes such as "US"); known is false
// for a reference they do not hold, whose values are then not checked.
type Lookups interface {
	Has(reference, code string) (ok, known bool)
}

// LookupLists are lookups as lists (the shared cases use them).
type LookupLists map[string][]string

// Has implements Lookups.
func (l LookupLists) Has(reference, code string) (ok, known bool) {
	list, known := l[reference]
	return contains(list, code), known
}

// ServiceEntry is one entry of a service page: values by api (strings, or
// booleans for checkboxes) plus "id".
type ServiceEntry map[string]any

// EntryIDKey is the key of an entry's id.
const EntryIDKey = "id"

var (
	dateRE  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	monthRE = regexp.MustCompile(`^\d{4}-\d{2}$`)
)

// patterns caches compiled formats; definitions are few and fixed.
var patterns sync.Map

func fullMatch(format, s string) bool {
	re, ok := patterns.Load(format)
	if !ok {
		c, err := regexp.Compile(`^(?:` + format + `)$`)
		if err != nil {
			// A broken pattern in a definition must not let values through
			// unchecked; it refuses them (and ValidateDefinitions reports it).
			return false
		}
		re, _ = patterns.LoadOrStore(format, c)
	}
	return re.(*regexp.Regexp).MatchString(s)
}

// EarliestYear is the first year a date or month may name: earlier ones
// are typing mistakes ("0202-05"), and years below 100 would be read as
// 19xx by JavaScript's Date, so the app and the server would disagree.
const EarliestYear = 1900

func validDate(s string) bool {
	if !dateRE.MatchString(s) {
		return false
	}
	t, err := time.Parse("2006-01-02", s)
	return err == nil && t.Year() >= EarliestYear
}

func validMonth(s string) bool {
	if !monthRE.MatchString(s) {
		return false
	}
	y, _ := strconv.Atoi(s[:4])
	m, _ := strconv.Atoi(s[5:])
	return y >= EarliestYear && m >= 1 && m <= 12
}

// entryString is a field's value as a trimmed string; ok is false when the
// value has the wrong JSON type for the field.
func entryValue(f *FieldDefinition, v any) (s string, b bool, ok bool) {
	if f.Type == FieldCheckbox {
		switch x := v.(type) {
		case nil:
			return "", false, true
		case bool:
			return "", x, true
		}
		return "", false, false
	}
	switch x := v.(type) {
	case nil:
		return "", false, true
	case string:
		return strings.TrimSpace(x), false, true
	}
	return "", false, false
}

// ValidateEntry checks one entry fully (the validated save and the
// checklist) against the page's fields on today ("YYYY-MM-DD"), and returns
// messages by api, one per field, the first that fails. Hidden fields are
// not checked.
func ValidateEntry(fields []FieldDefinition, entry map[string]any, today string, lookups Lookups) map[string]string {
	errs := map[string]string{}
	byAPI := make(map[string]*FieldDefinition, len(fields))
	for i := range fields {
		byAPI[fields[i].API] = &fields[i]
	}
	for i := range fields {
		f := &fields[i]
		if msg := checkField(f, entry, today, lookups, byAPI); msg != "" {
			errs[f.API] = msg
		}
	}
	return errs
}

func checkField(f *FieldDefinition, entry map[string]any, today string, lookups Lookups, byAPI map[string]*FieldDefinition) string {
	if !f.Visible(entry) {
		return ""
	}
	label := f.Name
	s, b, ok := entryValue(f, entry[f.API])
	if !ok {
		return label + " is not valid."
	}
	if (f.Type == FieldCheckbox && !b) || (f.Type != FieldCheckbox && s == "") {
		if f.Required(entry) {
			return label + " is required."
		}
		return ""
	}
	if f.Type == FieldCheckbox {
		return ""
	}
	if n := f.Limit(); utf8.RuneCountInString(s) > n {
		return label + " must be at most " + strconv.Itoa(n) + " characters."
	}
	switch f.Type {
	case FieldDate, FieldMonth:
		if (f.Type == FieldDate && !validDate(s)) || (f.Type == FieldMonth && !validMonth(s)) {
			return label + " is not a valid date."
		}
		if f.NotFuture && s > today[:len(s)] {
			return label + " cannot be in the future."
		}
		if other := byAPI[f.After]; f.After != "" && other != nil && other.Visible(entry) {
			if o, _, ok := entryValue(other, entry[other.API]); ok && validTemporal(other.Type, o) {
				n := min(len(s), len(o))
				if s[:n] < o[:n] {
					return label + " cannot be before " + other.Name + "."
				}
			}
		}
	case FieldSelect, FieldRadio:
		if !hasOption(f.Options, s) {
			return "Choose " + label + " from the list."
		}
	case FieldState, FieldCountry:
		ok, known := false, false
		if f.Reference != "" && lookups != nil {
			ok, known = lookups.Has(f.Reference, s)
		}
		if known {
			if !ok {
				return "Choose " + label + " from the list."
			}
		} else if len(f.Options) > 0 && !hasOption(f.Options, s) {
			return "Choose " + label + " from the list."
		}
	default:
		format := f.Format
		if format == "" && f.Type == FieldEmail {
			format = DefaultEmailFormat
		} else if format == "" && f.Type == FieldPhone {
			format = DefaultPhoneFormat
		}
		if format != "" && !fullMatch(format, s) {
			return label + " is not valid."
		}
	}
	return ""
}

func validTemporal(typ, s string) bool {
	switch typ {
	case FieldDate:
		return validDate(s)
	case FieldMonth:
		return validMonth(s)
	}
	return false
}

func hasOption(opts []Option, v string) bool {
	for _, o := range opts {
		if o.Value == v {
			return true
		}
	}
	return false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// CheckEntryStructure is the in-flight save's check of one entry: value
// types and lengths only. It returns messages by api and the entry as it is
// kept: unknown apis dropped, strings trimmed, its id kept or a new one.
// A hidden field's value is dropped unchecked: the form cannot show a
// message on a field it does not show.
func CheckEntryStructure(fields []FieldDefinition, entry map[string]any) (ServiceEntry, map[string]string) {
	errs := map[string]string{}
	out := ServiceEntry{EntryIDKey: entryID(entry)}
	for i := range fields {
		f := &fields[i]
		v, present := entry[f.API]
		if !present || v == nil || !f.Visible(entry) {
			continue
		}
		s, b, ok := entryValue(f, v)
		switch {
		case !ok:
			errs[f.API] = f.Name + " is not valid."
		case f.Type == FieldCheckbox:
			out[f.API] = b
		case utf8.RuneCountInString(s) > f.Limit():
			errs[f.API] = f.Name + " must be at most " + strconv.Itoa(f.Limit()) + " characters."
		default:
			out[f.API] = s
		}
	}
	return out, errs
}

// DropHidden removes the values of fields hidden for the entry (a hidden
// field's value is never stored by the validated save).
func DropHidden(fields []FieldDefinition, entry ServiceEntry) ServiceEntry {
	// Visibility is decided on the entry as given, before any value goes.
	var hidden []string
	for i := range fields {
		if !fields[i].Visible(entry) {
			hidden = append(hidden, fields[i].API)
		}
	}
	for _, api := range hidden {
		delete(entry, api)
	}
	return entry
}

var entryIDRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

// entryID keeps a well-formed given id, or makes a new one (16 hex chars).
func entryID(entry map[string]any) string {
	if s, ok := entry[EntryIDKey].(string); ok && entryIDRE.MatchString(s) {
		return s
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
