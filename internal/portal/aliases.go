package portal

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// HistoryService keeps what the applicant tells about their past on the
// data pages besides the service entries: other names, address history, and
// how they want to be notified. Writes of aliases and addresses hold the
// subject's lock and are refused once the profile is submitted
// (ErrProfileSubmitted).
type HistoryService interface {
	FindAliases(ctx context.Context, subjectID int64) (*AliasList, error)
	// SaveAliases replaces the list once ValidateAliases passes; each new
	// alias gets an id, given ids are kept.
	SaveAliases(ctx context.Context, subjectID int64, aliases []Alias) (*AliasList, error)
	FindAddresses(ctx context.Context, subjectID int64) (*AddressHistory, error)
	// SaveAddresses replaces the history once ValidateAddresses passes
	// under the package's required years; a draft (AddressRules.Draft)
	// need not cover them yet, and its checklist page stays incomplete.
	SaveAddresses(ctx context.Context, subjectID int64, addresses []Address, draft bool) (*AddressHistory, error)
	// SaveNotificationMethod changes the saved personal information's
	// primaryNotificationMethod; ECONFLICT when none is saved yet.
	SaveNotificationMethod(ctx context.Context, subjectID int64, m NotificationMethod) (NotificationMethod, error)
}

// Alias types.
const (
	AliasMaiden   = "maiden"
	AliasPrevious = "previous"
	AliasNickname = "nickname"
	AliasOther    = "other"
)

// Limits of the history lists and their texts.
const (
	MaxAliases         = 10
	MaxAddresses       = 30
	MaxHistoryNameLen  = 100
	MaxAddressPartLen  = 200
	historyMonthLayout = "2006-01"
)

// Alias is another name the applicant used. From and To are months
// ("YYYY-MM") or "".
type Alias struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	FirstName  string `json:"firstName"`
	MiddleName string `json:"middleName"`
	LastName   string `json:"lastName"`
	Suffix     string `json:"suffix"`
	From       string `json:"from"`
	To         string `json:"to"`
}

// AliasList is GET /api/v2/user/subject/alias: the aliases and whether the
// applicant saved them at least once (an empty list is an answer).
type AliasList struct {
	Aliases []Alias
	Saved   bool
}

// AliasRules are the facts the alias checks need.
type AliasRules struct {
	Today time.Time
	// CurrentNames are the applicant's current first and last names (the
	// account's and the personal information's); an alias may not repeat one.
	CurrentNames [][2]string
	// ValidSuffix says whether a suffix code exists (nil accepts any).
	ValidSuffix func(code string) bool
}

// Normalized trims every text, lower-cases the type and upper-cases the
// suffix.
func (a Alias) Normalized() Alias {
	trim := strings.TrimSpace
	a.ID = trim(a.ID)
	a.Type = strings.ToLower(trim(a.Type))
	a.FirstName, a.MiddleName, a.LastName = trim(a.FirstName), trim(a.MiddleName), trim(a.LastName)
	a.Suffix = strings.ToUpper(trim(a.Suffix))
	a.From, a.To = trim(a.From), trim(a.To)
	return a
}

// NormalizeAliases returns the aliases normalized (a nil list becomes empty).
func NormalizeAliases(aliases []Alias) []Alias {
	out := make([]Alias, 0, len(aliases))
	for _, a := range aliases {
		out = append(out, a.Normalized())
	}
	return out
}

// ValidateAliases checks a list of other names; field errors are named
// aliases.{i}.{field} ("aliases" for the list itself).
func ValidateAliases(aliases []Alias, rules AliasRules) error {
	var fe FieldErrors
	if len(aliases) > MaxAliases {
		fe.Addf("aliases", "You can list up to %d names.", MaxAliases)
		return fe.Err()
	}
	seen := map[string]bool{}
	for i, a := range aliases {
		a = a.Normalized()
		key := "aliases." + strconv.Itoa(i) + "."
		switch a.Type {
		case "":
			fe.Add(key+"type", "Type of name is required.")
		case AliasMaiden, AliasPrevious, AliasNickname, AliasOther:
		default:
			fe.Add(key+"type", "Choose Type of name from the list.")
		}
		checkHistoryText(&fe, key+"firstName", "First name", a.FirstName, true, MaxHistoryNameLen)
		checkHistoryText(&fe, key+"middleName", "Middle name", a.MiddleName, false, MaxHistoryNameLen)
		checkHistoryText(&fe, key+"lastName", "Last name", a.LastName, true, MaxHistoryNameLen)
		if a.Suffix != "" && rules.ValidSuffix != nil && !rules.ValidSuffix(a.Suffix) {
			fe.Add(key+"suffix", "Choose a suffix from the list.")
		}
		checkMonthRange(&fe, key, "Used from", "Used until", a.From, a.To, rules.Today)
		if a.FirstName == "" || a.LastName == "" {
			continue
		}
		if isCurrentName(a, rules.CurrentNames) {
			fe.Add(key+"firstName", "This is your current name; list only other names.")
			continue
		}
		name := strings.ToLower(strings.Join([]string{a.FirstName, a.MiddleName, a.LastName, a.Suffix}, "\x00"))
		if seen[name] && !fe.Has(key+"firstName") {
			fe.Add(key+"firstName", "You listed this name twice.")
		}
		seen[name] = true
	}
	return fe.Err()
}

func isCurrentName(a Alias, current [][2]string) bool {
	for _, n := range current {
		if strings.EqualFold(a.FirstName, strings.TrimSpace(n[0])) && strings.EqualFold(a.LastName, strings.TrimSpace(n[1])) {
			return true
		}
	}
	return false
}

// checkHistoryText checks a required or optional text and its length.
func checkHistoryText(fe *FieldErrors, field, label, v string, required bool, max int) {
	switch {
	case v == "" && required:
		fe.Addf(field, "%s is required.", label)
	case utf8.RuneCountInString(v) > max:
		fe.Addf(field, "%s must be at most %d characters.", label, max)
	}
}

// checkMonthRange checks the optional from and to months of a period (key
// is the field prefix; the labels are the form's): each "YYYY-MM", not
// after today's month, to not before from.
func checkMonthRange(fe *FieldErrors, key, fromLabel, toLabel, from, to string, today time.Time) {
	now := monthOf(today)
	f, fOK := checkMonth(fe, key+"from", fromLabel, from, false, now)
	t, tOK := checkMonth(fe, key+"to", toLabel, to, false, now)
	if fOK && tOK && t < f {
		fe.Addf(key+"to", "%s cannot be before %s.", toLabel, fromLabel)
	}
}

// checkMonth checks one month field and returns its month number; ok is
// false when it is empty or wrong.
func checkMonth(fe *FieldErrors, field, label, v string, required bool, now int) (m int, ok bool) {
	if v == "" {
		if required {
			fe.Addf(field, "%s is required.", label)
		}
		return 0, false
	}
	m, ok = ParseMonth(v)
	switch {
	case !ok:
		fe.Addf(field, "%s must be a real date.", label)
	case m > now:
		fe.Addf(field, "%s cannot be in the future.", label)
		return m, false
	}
	return m, ok
}

// ParseMonth reads "YYYY-MM" as a month number (year*12 + month-1).
func ParseMonth(v string) (int, bool) {
	t, err := time.Parse(historyMonthLayout, v)
	if err != nil || t.Year() < EarliestYear {
		return 0, false
	}
	return monthOf(t), true
}

func monthOf(t time.Time) int { return t.Year()*12 + int(t.Month()) - 1 }

// FormatMonth writes a month number as "YYYY-MM".
func FormatMonth(m int) string {
	return time.Date(m/12, time.Month(m%12+1), 1, 0, 0, 0, 0, time.UTC).Format(historyMonthLayout)
}
