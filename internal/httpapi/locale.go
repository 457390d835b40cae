package httpapi

import (
	"net/http"

	"golang.org/x/text/language"

	"applicantportal/internal/portal"
)

// localeCookie is the app's locale cookie (spec: 365 days), which the app
// writes with the language it chose or the applicant switched to.
const localeCookie = "locale"

// requestLocale is the language a request asks for: the locale cookie's,
// else the first of Accept-Language the portal speaks, else the default.
func requestLocale(r *http.Request) portal.Locale {
	if c, err := r.Cookie(localeCookie); err == nil {
		if l, ok := portal.ParseLocale(c.Value); ok {
			return l
		}
	}
	tags, _, err := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	if err == nil {
		for _, tag := range tags {
			if l, ok := portal.ParseLocale(tag.String()); ok {
				return l
			}
		}
	}
	return portal.DefaultLocale
}

// withLocale puts the request's language in its context (portal.LocaleOf),
// where errors, lookups and texts find it.
func withLocale(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(portal.WithLocale(r.Context(), requestLocale(r))))
	})
}
