package portal

import (
	"context"
	"testing"
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
