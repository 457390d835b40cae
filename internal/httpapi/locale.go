package httpapi

import (
	"net/http"

	"golang.org/x/text/language"

	"applicantportal/internal/portal"
)

// localeCookie is the app's locale cookie (spec: 365 days), which the app
// writes with the language it chose or the applicant switched to.
const localeCookie = "locale"

// requestLocale is the language a request asks for (namedLocale), else
// the default.
func requestLocale(r *http.Request) portal.Locale {
	if l, ok := namedLocale(r); ok {
		return l
	}
	return portal.DefaultLocale
}

// namedLocale is the language a request names: the locale cookie's, else
// the first of Accept-Language the portal speaks. ok is false when it
// names none the portal speaks.
func namedLocale(r *http.Request) (l portal.Locale, ok bool) {
	if c, err := r.Cookie(localeCookie); err == nil {
		if l, ok := portal.ParseLocale(c.Value); ok {
			return l, true
		}
	}
	tags, _, err := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	if err == nil {
		for _, tag := range tags {
			if l, ok := portal.ParseLocale(tag.String()); ok {
				return l, true
			}
		}
	}
	return "", false
}

// keepLocale records the language a login's request names as the
// applicant's (portal.Subject.Locale), so that one who only ever used the
// portal in Spanish gets its e-mails and texts in Spanish. A failure is
// logged, not answered: the login stands.
func (s *Server) keepLocale(r *http.Request, subjectID int64) {
	l, ok := namedLocale(r)
	if !ok {
		return
	}
	if err := s.svc.Subjects.SetLocale(r.Context(), subjectID, l); err != nil {
		s.logger.WarnContext(r.Context(), "keeping the applicant's language failed", "subject", subjectID, "err", err)
	}
}

// withLocale puts the request's language in its context (portal.LocaleOf),
// where errors, lookups and texts find it.
func withLocale(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(portal.WithLocale(r.Context(), requestLocale(r))))
	})
}
