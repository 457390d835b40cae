package portal

import (
	"context"
	"strings"
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
