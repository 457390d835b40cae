package httpapi_test

import (
	"net/url"
	"strings"
	"testing"
)

// TestHandoffAPI walks "Continue on another device" through HTTP: the link
// made after login, its grant on the token endpoint (JSON and form), the
// refusals and their texts, and the scope rules.
func TestHandoffAPI(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		jane := a.tokens("jane@example.com", janePass)["access_token"].(string)
		makeLink := func(t *testing.T, body map[string]any) string {
			t.Helper()
			rec := a.send(request{Method: "POST", URL: "/api/v2/user/handoff", Token: jane, Body: body})
			if rec.Code != 201 {
				t.Fatalf("create = %d %s", rec.Code, rec.Body)
			}
			out := decode(t, rec)
			link, _ := out["url"].(string)
			if !strings.HasPrefix(link, "https://portal.example.com/continue?token=") || out["expiresAt"] != "2026-11-22T10:10:00Z" {
				t.Fatalf("create = %v", out)
			}
			return strings.TrimPrefix(link, "https://portal.example.com/continue?token=")
		}
		grant := func(token string) map[string]any {
			return map[string]any{"grant_type": "handoff", "handoff_token": token, "client_id": clientID, "client_secret": clientSecret}
		}

		t.Run("LinkSignsInOnceAndOpensThePage", func(t *testing.T) {
			token := makeLink(t, map[string]any{"path": "/addresses?x=1", "send": nil})
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: grant(token)})
			body := decode(t, rec)
			if rec.Code != 200 || body["path"] != "/addresses?x=1" || body["access_token"] == "" || body["refresh_token"] == "" || body["scope"] != "default" {
				t.Fatalf("redeem = %d %v", rec.Code, body)
			}
			me := a.send(request{Method: "GET", URL: "/api/v2/user", Token: body["access_token"].(string)})
			if me.Code != 200 || !strings.Contains(me.Body.String(), "jane@example.com") {
				t.Fatalf("the new login = %d %s", me.Code, me.Body)
			}
			rec = a.send(request{Method: "POST", URL: "/oauth/access_token", Body: grant(token)})
			body = decode(t, rec)
			if rec.Code != 400 || body["error"] != "invalid_grant" || body["errorMessage"] != "This link has already been used. Each link works only once." {
				t.Fatalf("replay = %d %v; want 400 invalid_grant, already used", rec.Code, body)
			}
		})

		t.Run("FormBody", func(t *testing.T) {
			token := makeLink(t, map[string]any{"path": "/personal"})
			form := url.Values{"grant_type": {"handoff"}, "handoff_token": {token}, "client_id": {clientID}, "client_secret": {clientSecret}}.Encode()
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: form, ContentType: "application/x-www-form-urlencoded",
				Header: map[string]string{"X-Requested-With": "x"}})
			if rec.Code != 200 || decode(t, rec)["path"] != "/personal" {
				t.Fatalf("form redeem = %d %s", rec.Code, rec.Body)
			}
		})

		t.Run("Refusals", func(t *testing.T) {
			for _, tc := range []struct {
				name      string
				body      map[string]any
				wantCode  int
				wantError string
				wantText  string
			}{
				{"Unknown", grant("not-a-real-token"), 400, "invalid_grant", "This link is not valid."},
				{"Missing", map[string]any{"grant_type": "handoff", "client_id": clientID, "client_secret": clientSecret}, 400, "invalid_request", "The request is missing the handoff_token parameter."},
				{"TooLong", grant(strings.Repeat("t", 200)), 400, "invalid_request", "The handoff_token parameter is too long (at most 128 characters)."},
				{"WrongClient", with(grant("x"), map[string]any{"client_secret": "nope"}), 401, "invalid_client", "Client authentication failed."},
			} {
				t.Run(tc.name, func(t *testing.T) {
					rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: tc.body})
					body := decode(t, rec)
					if rec.Code != tc.wantCode || body["error"] != tc.wantError || body["errorMessage"] != tc.wantText {
						t.Fatalf("= %d %v; want %d %s %q", rec.Code, body, tc.wantCode, tc.wantError, tc.wantText)
					}
				})
			}
		})

		t.Run("Expired", func(t *testing.T) {
			token := makeLink(t, map[string]any{"path": "/personal"})
			*a.clock = a.clock.Add(10 * 60e9)
			defer func() { *a.clock = a.clock.Add(-10 * 60e9) }()
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: grant(token)})
			if body := decode(t, rec); rec.Code != 400 || body["errorMessage"] != "This link has expired. Each link works for 10 minutes." {
				t.Fatalf("= %d %v", rec.Code, body)
			}
		})

		t.Run("BadInput", func(t *testing.T) {
			for _, tc := range []struct {
				body       map[string]any
				wantStatus int
				wantField  string
			}{
				{map[string]any{"path": "https://evil.example/"}, 422, "path"},
				{map[string]any{"path": ""}, 422, "path"},
				{map[string]any{"path": "/personal", "send": "fax"}, 422, "send"},
				{map[string]any{"path": "/personal", "send": ""}, 422, "send"},
				{map[string]any{"path": "/personal", "send": "sms"}, 422, "send"}, // jane has no phone
			} {
				rec := a.send(request{Method: "POST", URL: "/api/v2/user/handoff", Token: jane, Body: tc.body})
				body := decode(t, rec)
				fields, _ := body["errorFields"].([]any)
				if rec.Code != tc.wantStatus || body["errorMessage"] != "validation error" || len(fields) != 1 ||
					fields[0].(map[string]any)["field"] != tc.wantField {
					t.Errorf("%v = %d %v; want %d on %s", tc.body, rec.Code, body, tc.wantStatus, tc.wantField)
				}
			}
		})

		t.Run("ChannelsAndEmail", func(t *testing.T) {
			rec := a.send(request{Method: "GET", URL: "/api/v2/user/handoff", Token: jane})
			body := decode(t, rec)
			if rec.Code != 200 || body["email"] != "jane@example.com" || body["phone"] != nil || body["expiresInSeconds"] != float64(600) {
				t.Fatalf("channels = %d %v", rec.Code, body)
			}
			rec = a.send(request{Method: "POST", URL: "/api/v2/user/handoff", Token: jane, Body: map[string]any{"path": "/personal", "send": "email"}})
			if body := decode(t, rec); rec.Code != 201 || body["sentTo"] != "jane@example.com" {
				t.Fatalf("e-mailed = %d %v", rec.Code, body)
			}
		})

		t.Run("Scope", func(t *testing.T) {
			rec := a.send(request{Method: "POST", URL: "/api/v2/user/handoff", Body: map[string]any{"path": "/personal"}})
			if rec.Code != 401 {
				t.Fatalf("no token = %d", rec.Code)
			}
			setup := a.send(request{Method: "GET", URL: "/api/user?token=" + a.invite})
			if setup.Code != 200 {
				t.Fatalf("token login = %d %s", setup.Code, setup.Body)
			}
			setupToken := decode(t, setup)["access_token"].(string)
			for _, m := range []string{"GET", "POST"} {
				rec := a.send(request{Method: m, URL: "/api/v2/user/handoff", Token: setupToken, Body: map[string]any{"path": "/personal"}})
				if rec.Code != 403 {
					t.Fatalf("%s with a setup credential = %d %s; want 403", m, rec.Code, rec.Body)
				}
			}
		})
	})
}
