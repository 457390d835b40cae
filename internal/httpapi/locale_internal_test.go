package httpapi

import (
	"net/http/httptest"
	"testing"

	"applicantportal/internal/portal"
)

func TestRequestLocaleTakesTheCookieThenAcceptLanguageThenTheDefault(t *testing.T) {
	for _, tc := range []struct {
		name, cookie, accept string
		want                 portal.Locale
	}{
		{"cookie wins", "es-US", "en-US", portal.LocaleEsUS},
		{"accept-language when no cookie", "", "es-MX,es;q=0.9,en;q=0.8", portal.LocaleEsUS},
		{"first language the portal speaks", "", "fr-FR,de;q=0.9,es;q=0.5", portal.LocaleEsUS},
		{"an unknown cookie falls to accept-language", "fr-FR", "es", portal.LocaleEsUS},
		{"nothing known is the default", "", "fr-FR", portal.DefaultLocale},
		{"a malformed header is the default", "", ";;;=", portal.DefaultLocale},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/v2/user", nil)
			if tc.cookie != "" {
				r.Header.Set("Cookie", "locale="+tc.cookie)
			}
			r.Header.Set("Accept-Language", tc.accept)
			if got := requestLocale(r); got != tc.want {
				t.Errorf("requestLocale = %q, want %q", got, tc.want)
			}
		})
	}
}
