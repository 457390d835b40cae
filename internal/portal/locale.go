package portal

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Locale is a language the portal speaks (issue 26): the app, the API's
// messages, lookups, legal texts, e-mails and texts.
type Locale string

const (
	LocaleEnUS Locale = "en-US"
	LocaleEsUS Locale = "es-US"
)

// DefaultLocale is the language of a request or an applicant that names none
// the portal has (spec: default language en-US).
const DefaultLocale = LocaleEnUS

// Locales lists every language the portal speaks, the default first.
var Locales = []Locale{LocaleEnUS, LocaleEsUS}

// ParseLocale reads a language tag as one of Locales: "es-US", "es" or
// "es-MX" read es-US, any English en-US, case aside. ok is false for a
// language the portal does not speak.
func ParseLocale(tag string) (l Locale, ok bool) {
	base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	for _, l := range Locales {
		if strings.EqualFold(string(l), tag) || (base != "" && strings.HasPrefix(strings.ToLower(string(l)), base+"-")) {
			return l, true
		}
	}
	return "", false
}

type localeKey struct{}

// WithLocale returns ctx carrying the request's language.
func WithLocale(ctx context.Context, l Locale) context.Context {
	return context.WithValue(ctx, localeKey{}, l)
}

// LocaleOf returns the language ctx carries, DefaultLocale when none.
func LocaleOf(ctx context.Context) Locale {
	if l, ok := ctx.Value(localeKey{}).(Locale); ok {
		return l
	}
	return DefaultLocale
}

// ValidateLocale checks a language an applicant or an operator asks for:
// one of Locales, exactly as spelled there.
func ValidateLocale(l Locale) error {
	var fe FieldErrors
	if l == "" {
		fe.Add("locale", "Choose a language.")
		return fe.Err()
	}
	checkLocale(&fe, "locale", l)
	return fe.Err()
}

// checkLocale adds field's error when l is set and not one of Locales.
func checkLocale(fe *FieldErrors, field string, l Locale) {
	if l != "" && !slices.Contains(Locales, l) {
		fe.Add(field, "Choose en-US or es-US.")
	}
}

// OrDefault is l, or DefaultLocale when l is not one of Locales (a subject's
// stored language read back, a request that named none).
func (l Locale) OrDefault() Locale {
	if slices.Contains(Locales, l) {
		return l
	}
	return DefaultLocale
}

// Spanish names of the months and weekdays, which Go's time package has
// only in English.
var (
	spanishMonths = [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
		"septiembre", "octubre", "noviembre", "diciembre"}
	spanishWeekdays = [7]string{"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"}
)

// Date writes a day in l: "December 3, 2026", "3 de diciembre de 2026".
func (l Locale) Date(d time.Time) string {
	if l == LocaleEsUS {
		return fmt.Sprintf("%d de %s de %d", d.Day(), spanishMonths[d.Month()-1], d.Year())
	}
	return d.Format("January 2, 2006")
}

// LongDate writes a day with its weekday in l: "Thursday, December 3,
// 2026", "jueves, 3 de diciembre de 2026".
func (l Locale) LongDate(d time.Time) string {
	if l == LocaleEsUS {
		return spanishWeekdays[d.Weekday()] + ", " + l.Date(d)
	}
	return d.Format("Monday, January 2, 2006")
}
