package portal

import (
	"context"
	"testing"
	"time"
)

func TestParseLocaleReadsAnyTagOfALanguageThePortalSpeaks(t *testing.T) {
	for _, tc := range []struct {
		tag  string
		want Locale
		ok   bool
	}{
		{"en-US", LocaleEnUS, true},
		{"es-US", LocaleEsUS, true},
		{"ES-us", LocaleEsUS, true},
		{"es", LocaleEsUS, true},
		{"es-MX", LocaleEsUS, true},
		{"en-GB", LocaleEnUS, true},
		{"fr-FR", "", false},
		{"", "", false},
		{"e", "", false},
	} {
		got, ok := ParseLocale(tc.tag)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseLocale(%q) = %q, %v; want %q, %v", tc.tag, got, ok, tc.want, tc.ok)
		}
	}
}

func TestLocaleOfAContextWithoutOneIsTheDefault(t *testing.T) {
	if got := LocaleOf(context.Background()); got != DefaultLocale {
		t.Errorf("LocaleOf(background) = %q, want %q", got, DefaultLocale)
	}
	if got := LocaleOf(WithLocale(context.Background(), LocaleEsUS)); got != LocaleEsUS {
		t.Errorf("LocaleOf(es-US) = %q", got)
	}
}

func TestDatesInEachLanguage(t *testing.T) {
	d := time.Date(2026, time.December, 3, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		l              Locale
		date, longDate string
	}{
		{LocaleEnUS, "December 3, 2026", "Thursday, December 3, 2026"},
		{LocaleEsUS, "3 de diciembre de 2026", "jueves, 3 de diciembre de 2026"},
	} {
		if got := tc.l.Date(d); got != tc.date {
			t.Errorf("%s Date = %q, want %q", tc.l, got, tc.date)
		}
		if got := tc.l.LongDate(d); got != tc.longDate {
			t.Errorf("%s LongDate = %q, want %q", tc.l, got, tc.longDate)
		}
	}
}

func TestValidateLocale(t *testing.T) {
	for _, tc := range []struct {
		l    Locale
		want string // the field message, "" for none
	}{
		{LocaleEnUS, ""}, {LocaleEsUS, ""}, {"", "Choose a language."}, {"es", "Choose en-US or es-US."}, {"fr-FR", "Choose en-US or es-US."},
	} {
		err := ValidateLocale(tc.l)
		got := ""
		if e, ok := err.(*Error); ok && len(e.Fields) == 1 && e.Fields[0].Field == "locale" {
			got = e.Fields[0].Message
		} else if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("ValidateLocale(%q) = %q, want %q", tc.l, got, tc.want)
		}
	}
}
