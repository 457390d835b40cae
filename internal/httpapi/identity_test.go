package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestWhichCredentialsReachWhichRoutes: every route behind a credential
// answers 401 without one; a setup credential (from an invitation link)
// reaches only the routes of the setup steps before a password exists and
// gets 403 elsewhere; an applicant's credential passes the check on every
// one. Bodies are empty: the test is about who gets past the door, not
// what the handler answers next.
func TestWhichCredentialsReachWhichRoutes(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		rec := a.send(request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(a.invite)})
		setup, _ := decode(t, rec)["access_token"].(string)
		if rec.Code != http.StatusOK || setup == "" {
			t.Fatalf("token login = %d %s", rec.Code, rec.Body)
		}
		applicant := a.tokens("jane@example.com", janePass)["access_token"].(string)
		company := "/api/settings/company/" + itoa(a.acme.ID)
		for _, route := range []struct {
			method, path string
			setupAllowed bool
		}{
			{"GET", "/api/v2/user", true},
			{"PATCH", "/api/v2/user", true},
			{"GET", company, true},
			{"GET", "/api/v2/banner/active", true},
			{"POST", "/api/v2/banner/dismiss/1", true},
			{"GET", "/api/v2/user/preparation", true},
			{"PUT", "/api/v2/user/preparation/addresses", true},
			{"PUT", "/api/v2/user", false},
			{"GET", "/api/v2/user/profile", false},
			{"POST", "/api/v2/user/subject/status", false},
			{"GET", "/api/v2/user/document", false},
			{"GET", "/api/v2/document/1", false},
			{"POST", "/api/v2/user/document/1/signature", false},
			{"GET", "/api/v2/user/document/1", false},
			{"DELETE", "/api/v2/user/document/1", false},
			{"GET", "/api/v2/user/data", false},
			{"POST", "/api/v2/user/data", false},
			{"GET", "/api/v2/user/subject/alias", false},
			{"PUT", "/api/v2/user/subject/alias", false},
			{"GET", "/api/v2/user/subject/address", false},
			{"PUT", "/api/v2/user/subject/address", false},
			{"PUT", "/api/v2/user/subject/notification", false},
			{"GET", "/api/v2/user/order/1", false},
			{"POST", "/api/v2/user/profile", false},
			{"GET", "/api/v2/user/service", false},
			{"GET", "/api/v2/user/subject/required-fields", false},
			{"GET", "/api/v2/user/subject", false},
			{"GET", "/api/v2/user/profile/fillable-pdf-forms", false},
			{"GET", "/api/v2/user/profile/fillable-pdf-form/1", false},
			{"GET", "/api/v2/user/profile/fillable-pdf-form/1/submitted", false},
			{"POST", "/api/v2/user/profile/fillable-pdf-form/1", false},
			// Last: logging out ends the credentials.
			{"DELETE", "/oauth/access_token", true},
		} {
			t.Run(route.method+" "+route.path, func(t *testing.T) {
				send := func(token string) int {
					var body any
					switch {
					case route.method == "PATCH":
						// An empty change would be refused to a setup
						// credential after the door; a short password is
						// refused for its length by either credential.
						body = map[string]any{"password": "x"}
					case route.method != "GET" && route.method != "DELETE":
						body = map[string]any{}
					}
					return a.send(request{Method: route.method, URL: route.path, Token: token, Body: body}).Code
				}
				if got := send(""); got != http.StatusUnauthorized {
					t.Errorf("without a credential = %d; want 401", got)
				}
				got := send(setup)
				if route.setupAllowed && (got == http.StatusUnauthorized || got == http.StatusForbidden) {
					t.Errorf("setup credential = %d; want it let through", got)
				}
				if !route.setupAllowed && got != http.StatusForbidden {
					t.Errorf("setup credential = %d; want 403", got)
				}
				if got := send(applicant); got == http.StatusUnauthorized || got == http.StatusForbidden {
					t.Errorf("applicant credential = %d; want it let through", got)
				}
			})
		}
	})
}
