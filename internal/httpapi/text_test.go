package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	idvsandbox "applicantportal/internal/sandbox/idv"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// badBytes are the text no outside string may carry into the database:
// PostgreSQL refuses a NUL byte and invalid UTF-8 in text with an error
// that used to be a 500 there (SQLite stored them, answering 4xx later).
var badBytes = []struct{ name, escaped, raw string }{
	{"NUL", "%00", "\x00"},
	{"InvalidUTF8", "%ff", "\xff"},
	{"Overlong", "%c0%80", "\xc0\x80"},
	{"Surrogate", "%ed%a0%80", "\xed\xa0\x80"},
}

// TestNULAndInvalidUTF8AreRefused sends NUL and invalid UTF-8 through each
// way an outside string enters: a form body, a path value, a query value
// and a signed callback's JSON. Each is a 400, or a 404 for an id in a
// path that cannot exist, on SQLite and PostgreSQL alike.
func TestNULAndInvalidUTF8AreRefused(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newIDVAPI(t, db, nil)
		sess := decodeIDVSession(t, a.start("jane"))
		form := "application/x-www-form-urlencoded"
		signed := func(body string) map[string]string {
			return map[string]string{"X-IDV-Signature": idvsandbox.Sign(idvTestSecret, time.Now(), []byte(body))}
		}
		for _, bad := range badBytes {
			callbackNUL := `{"sessionId":"` + sess.ID + `\u0000","status":1}`
			callbackRaw := `{"sessionId":"` + sess.ID + bad.raw + `","status":1}`
			tests := []struct {
				name string
				req  request
				want int
			}{
				{"TokenFormClientID", request{Method: "POST", URL: "/oauth/access_token", ContentType: form, Header: map[string]string{"X-Requested-With": "x"},
					Body: "grant_type=password&client_id=spa" + bad.escaped + "&client_secret=spa-secret&username=jane%40example.com&password=x"}, 400},
				{"TokenFormUsername", request{Method: "POST", URL: "/oauth/access_token", ContentType: form, Header: map[string]string{"X-Requested-With": "x"},
					Body: "grant_type=password&client_id=spa&client_secret=spa-secret&username=jane" + bad.escaped + "%40example.com&password=x"}, 400},
				{"TokenFormRefresh", request{Method: "POST", URL: "/oauth/access_token", ContentType: form, Header: map[string]string{"X-Requested-With": "x"},
					Body: "grant_type=refresh_token&client_id=spa&client_secret=spa-secret&refresh_token=a" + bad.escaped}, 400},
				{"SandboxPageID", request{Method: "GET", URL: "/sandbox/idv/" + sess.ID + bad.escaped + "?token=x"}, 404},
				{"SandboxPageToken", request{Method: "GET", URL: "/sandbox/idv/" + sess.ID + "?token=x" + bad.escaped}, 400},
				{"SandboxStepID", request{Method: "POST", URL: "/sandbox/idv/" + sess.ID + bad.escaped + "/approve", ContentType: form, Body: "token=x"}, 404},
				// The sandbox compares its form's token in memory: a wrong one.
				{"SandboxStepToken", request{Method: "POST", URL: "/sandbox/idv/" + sess.ID + "/approve", ContentType: form, Body: "token=x" + bad.escaped}, 403},
				{"IDVSession", request{Method: "GET", URL: "/api/v2/idv/session/" + sess.ID + bad.escaped, Token: a.tokens["jane"]}, 404},
				// An invitation token that cannot be one is any unknown token's 403.
				{"TokenLoginQuery", request{Method: "GET", URL: "/api/user?token=a" + bad.escaped}, 403},
				{"CollectionSitesQuery", request{Method: "GET", URL: "/api/v2/collection-sites?zip=9" + bad.escaped, Token: a.tokens["jane"]}, 400},
				{"CallbackSessionIDEscapedNUL", request{Method: "POST", URL: "/api/v2/idv/callback", ContentType: "application/json",
					Body: callbackNUL, Header: signed(callbackNUL)}, 400},
				{"CallbackSessionIDRaw", request{Method: "POST", URL: "/api/v2/idv/callback", ContentType: "application/json",
					Body: callbackRaw, Header: signed(callbackRaw)}, 400},
				{"JSONBodyRaw", request{Method: "POST", URL: "/api/user/password/reset", ContentType: "application/json",
					Body: `{"username":"jane` + bad.raw + `@example.com"}`}, 400},
			}
			for _, tt := range tests {
				t.Run(bad.name+"/"+tt.name, func(t *testing.T) {
					rec := a.send(tt.req)
					if rec.Code != tt.want {
						t.Fatalf("%s %s = %d %s; want %d", tt.req.Method, tt.req.URL, rec.Code, rec.Body, tt.want)
					}
					// The sandbox's own pages answer in HTML.
					if ct := rec.Header().Get("Content-Type"); tt.name != "SandboxStepToken" && !strings.HasPrefix(ct, "application/json") {
						t.Errorf("Content-Type = %q; want JSON", ct)
					}
				})
			}
		}
		// Every route with a path value, each value replaced by bad text:
		// never a 500, whatever the handler does with it.
		for _, pattern := range serverRoutes(t) {
			if !strings.Contains(pattern, "{") {
				continue
			}
			method, path, _ := strings.Cut(pattern, " ")
			for _, bad := range badBytes {
				url := fillPathValues(path, "1"+bad.escaped)
				t.Run("Route/"+bad.name+"/"+pattern, func(t *testing.T) {
					for _, who := range []string{"", a.tokens["jane"]} {
						rec := a.send(request{Method: method, URL: url, Token: who, Body: "{}", ContentType: "application/json"})
						if rec.Code != http.StatusNotFound {
							t.Fatalf("%s %s = %d %s; want 404", method, url, rec.Code, rec.Body)
						}
					}
				})
			}
		}
	})
}

// fillPathValues replaces each {name} (and {name...}) of a route's path
// with value.
func fillPathValues(path, value string) string {
	var out strings.Builder
	for {
		open := strings.IndexByte(path, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(path[open:], '}')
		out.WriteString(path[:open] + value)
		path = path[open+end+1:]
	}
	out.WriteString(path)
	return out.String()
}
