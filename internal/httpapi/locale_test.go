package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// spanish is what a Spanish-speaking applicant's browser sends.
var spanish = map[string]string{"Accept-Language": "es-US,es;q=0.9"}

func subjectLocale(t *testing.T, db *store.DB, id int64) portal.Locale {
	t.Helper()
	sub, err := db.Subjects().FindSubjectByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sub.Locale
}

func TestUserLocaleAPI(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		setup, err := db.Auth().CreateInvitation(context.Background(), a.olga.ID)
		if err != nil {
			t.Fatal(err)
		}
		pair, err := db.Auth().TokenLogin(context.Background(), setup)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name, token string
			body        any
			wantStatus  int
			wantField   string
		}{
			{"Spanish", a.janeToken, map[string]string{"locale": "es-US"}, http.StatusNoContent, ""},
			{"WithTheSetupCredential", pair.AccessToken, map[string]string{"locale": "es-US"}, http.StatusNoContent, ""},
			{"AnotherLanguage", a.janeToken, map[string]string{"locale": "fr-FR"}, http.StatusUnprocessableEntity, "locale"},
			{"NoLanguage", a.janeToken, map[string]string{}, http.StatusUnprocessableEntity, "locale"},
			{"NotLoggedIn", "", map[string]string{"locale": "es-US"}, http.StatusUnauthorized, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := a.send(request{Method: "PUT", URL: "/api/v2/user/locale", Token: tc.token, Body: tc.body, Header: spanish})
				if rec.Code != tc.wantStatus {
					t.Fatalf("%d %s; want %d", rec.Code, rec.Body, tc.wantStatus)
				}
				if tc.wantField != "" {
					if _, ok := fieldsOf(decode(t, rec))[tc.wantField]; !ok {
						t.Errorf("%s; want a message for %s", rec.Body, tc.wantField)
					}
				}
			})
		}
		if got := subjectLocale(t, db, a.jane.ID); got != portal.LocaleEsUS {
			t.Errorf("Jane's language %q, want es-US", got)
		}
		rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: a.janeToken, Header: spanish})
		if sub, _ := decode(t, rec)["subject"].(map[string]any); rec.Code != http.StatusOK || sub["locale"] != "es-US" {
			t.Errorf("GET /api/v2/user: %d %s; want locale es-US", rec.Code, rec.Body)
		}
	})
}

// TestLoginKeepsTheRequestsLanguage: a login and a token login record the
// language the request names (the locale cookie, else Accept-Language) as
// the applicant's; one that names none the portal speaks changes nothing.
func TestLoginKeepsTheRequestsLanguage(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		if err := db.UpsertClient(context.Background(), clientID, clientSecret, "test"); err != nil {
			t.Fatal(err)
		}
		login := func(t *testing.T, header map[string]string) {
			t.Helper()
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", "a long enough passphrase"), Header: header})
			if rec.Code != http.StatusOK {
				t.Fatalf("login: %d %s", rec.Code, rec.Body)
			}
		}
		for _, tc := range []struct {
			name   string
			header map[string]string
			want   portal.Locale
		}{
			{"AcceptLanguage", spanish, portal.LocaleEsUS},
			{"NoneSpoken", map[string]string{"Accept-Language": "fr-FR"}, portal.LocaleEsUS},
			{"CookieBeforeAcceptLanguage", map[string]string{"Cookie": "locale=en-US", "Accept-Language": "es-US"}, portal.LocaleEnUS},
			{"SpanishCookie", map[string]string{"Cookie": "locale=es-US"}, portal.LocaleEsUS},
		} {
			t.Run(tc.name, func(t *testing.T) {
				login(t, tc.header)
				if got := subjectLocale(t, db, a.jane.ID); got != tc.want {
					t.Errorf("language %q, want %q", got, tc.want)
				}
			})
		}

		t.Run("TokenLogin", func(t *testing.T) {
			token, err := db.Auth().CreateInvitation(context.Background(), a.olga.ID)
			if err != nil {
				t.Fatal(err)
			}
			rec := a.send(request{Method: "GET", URL: "/api/user?token=" + token, Header: spanish})
			if rec.Code != http.StatusOK {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			if sub, _ := decode(t, rec)["subject"].(map[string]any); sub["locale"] != "es-US" {
				t.Errorf("answer's subject %v; want locale es-US", sub)
			}
			if got := subjectLocale(t, db, a.olga.ID); got != portal.LocaleEsUS {
				t.Errorf("language %q, want es-US", got)
			}
		})
	})
}

func TestOperatorInvitationInSpanish(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		t.Run("Spanish", func(t *testing.T) {
			code, body := a.call("POST", "/api/v2/operator/invitations", a.key, map[string]any{
				"email": "ana@example.com", "firstName": "Ana", "lastName": "Ruiz", "locale": "es-US"})
			app, _ := body["applicant"].(map[string]any)
			if code != http.StatusCreated {
				t.Fatalf("%d %v", code, body)
			}
			if got := subjectLocale(t, db, int64(app["id"].(float64))); got != portal.LocaleEsUS {
				t.Errorf("language %q, want es-US", got)
			}
			mails, err := db.Outbox(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var subjects []string
			for _, m := range mails {
				if m.To == "ana@example.com" {
					subjects = append(subjects, m.Subject)
				}
			}
			if len(subjects) != 1 || !strings.HasPrefix(subjects[0], "Lo invitamos") {
				t.Errorf("mails %q; want the Spanish invitation", subjects)
			}
		})
		t.Run("UnknownLanguage", func(t *testing.T) {
			code, body := a.call("POST", "/api/v2/operator/invitations", a.key, map[string]any{
				"email": "bo@example.com", "firstName": "Bo", "lastName": "Ruiz", "locale": "klingon"})
			if _, ok := fieldsOf(body)["locale"]; code != http.StatusUnprocessableEntity || !ok {
				t.Errorf("%d %v; want 422 naming locale", code, body)
			}
		})
	})
}

// TestLookupsInTheRequestsLanguage: the lookups answer in the request's
// language, codes unchanged, and say that caches must keep each apart.
func TestLookupsInTheRequestsLanguage(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		for _, tc := range []struct {
			name, url string
			header    map[string]string
			want      string
		}{
			{"GendersInSpanish", "/api/v2/lookup/genders", spanish, `{"id":1,"name":"Femenino","code":"F"}`},
			{"GendersInEnglish", "/api/v2/lookup/genders", nil, `{"id":1,"name":"Female","code":"F"}`},
			{"CountriesInSpanish", "/api/v2/lookup/countries", spanish, `{"countryId":1,"countryName":"Estados Unidos","countryCode":"US"}`},
			{"StatesByTheCookie", "/api/v2/lookup/statesByCountryId?countryId=1", map[string]string{"Cookie": "locale=es-US"},
				`{"id":36,"name":"Nueva York","code":"US-NY","countryId":1}`},
			{"RegionsInSpanish", "/api/v2/lookup/regions", spanish, `{"id":102,"name":"Columbia Británica","code":"CA-BC"}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := a.send(request{Method: "GET", URL: tc.url, Header: tc.header})
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), tc.want) {
					t.Errorf("%d %.300s; want %s in it", rec.Code, rec.Body, tc.want)
				}
				if vary := rec.Header().Get("Vary"); !strings.Contains(vary, "Accept-Language") || !strings.Contains(vary, "Cookie") {
					t.Errorf("Vary %q; want Accept-Language and Cookie", vary)
				}
			})
		}
	})
}

// TestServiceFieldsInTheRequestsLanguage: the package's field definitions
// come with Spanish labels, hints and options to a Spanish request, with
// the same api names and values.
func TestServiceFieldsInTheRequestsLanguage(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newServiceAPI(t, db)
		for _, tc := range []struct {
			name   string
			header map[string]string
			want   []string
		}{
			{"Spanish", spanish, []string{`"api":"employer_name","name":"Nombre del empleador"`, `{"value":"yes","label":"Sí"}`,
				`"hint":"El nombre legal o comercial de la empresa`}},
			{"English", nil, []string{`"api":"employer_name","name":"Employer name"`, `{"value":"yes","label":"Yes"}`}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := a.send(request{Method: "GET", URL: "/api/v2/user/service", Token: a.tokens["jane"], Header: tc.header})
				if rec.Code != http.StatusOK {
					t.Fatalf("%d %s", rec.Code, rec.Body)
				}
				for _, w := range tc.want {
					if !strings.Contains(rec.Body.String(), w) {
						t.Errorf("no %s in %.400s", w, rec.Body)
					}
				}
			})
		}
	})
}
