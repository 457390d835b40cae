package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// oauthAPI is the real router over a store with two companies: Acme (jane
// with a password, pat invited) and Other (olga with a password).
type oauthAPI struct {
	*harness
	logs   *bytes.Buffer
	clock  *time.Time
	acme   *portal.Company
	other  *portal.Company
	invite string // pat's invitation token
	ids    map[string]int64
}

const (
	clientID     = "portal-spa"
	clientSecret = "portal-spa-secret"
	janePass     = "a long enough passphrase"
)

func newOAuthAPI(t *testing.T, db *store.DB, now *time.Time) *oauthAPI {
	t.Helper()
	ctx := context.Background()
	a := &oauthAPI{harness: newHarness(t, db, "192.0.2.10:5555"), logs: &bytes.Buffer{}, clock: now, ids: map[string]int64{}}
	if err := db.UpsertClient(ctx, clientID, clientSecret, "test"); err != nil {
		t.Fatal(err)
	}
	a.acme = &portal.Company{Name: "Acme"}
	a.other = &portal.Company{Name: "Other", Preferences: portal.CompanyPreferences{SubjectChat: true, SubjectPasswordLength: 20}}
	for _, c := range []*portal.Company{a.acme, a.other} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []struct {
		who      string
		company  *portal.Company
		password string
	}{{"jane", a.acme, janePass}, {"pat", a.acme, ""}, {"olga", a.other, "another long enough passphrase"}} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: p.company.ID, Email: p.who + "@example.com", FirstName: p.who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		a.ids[p.who] = s.ID
		if p.password != "" {
			if err := db.Auth().SetInitialPassword(ctx, s.ID, p.password); err != nil {
				t.Fatal(err)
			}
		}
	}
	var err error
	if a.invite, err = db.Auth().CreateInvitation(ctx, a.ids["pat"]); err != nil {
		t.Fatal(err)
	}
	web := fstest.MapFS{
		"index.html":           {Data: []byte(`<html><head><meta name="portal-config" content="__PORTAL_CONFIG__"></head></html>`)},
		"assets/app-abc123.js": {Data: []byte(`console.log(1)`)},
	}
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	a.serve(httpapi.Config{BaseURL: "https://portal.example.com", ClientID: clientID, ClientSecret: clientSecret, TrustedProxies: proxies},
		web, slog.New(slog.NewJSONHandler(a.logs, nil)))
	return a
}

func decode(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("answer is not JSON: %s", rec.Body)
	}
	return out
}

func passwordGrant(username, password string) map[string]any {
	return map[string]any{"grant_type": "password", "username": username, "password": password,
		"client_id": clientID, "client_secret": clientSecret, "scope": "default"}
}

func refreshGrant(token string) map[string]any {
	return map[string]any{"grant_type": "refresh_token", "refresh_token": token, "client_id": clientID, "client_secret": clientSecret, "scope": "default"}
}

func (a *oauthAPI) tokens(username, password string) map[string]any {
	a.t.Helper()
	rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant(username, password)})
	if rec.Code != 200 {
		a.t.Fatalf("login %s = %d %s", username, rec.Code, rec.Body)
	}
	return decode(a.t, rec)
}

func eachOAuthAPI(t *testing.T, run func(t *testing.T, a *oauthAPI)) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return now }
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) { run(t, newOAuthAPI(t, db, &now)) })
}

// TestBadInputAnswersClearJSONErrors walks the bad inputs of issue 2: each
// is a JSON error with its status, never a 500 or a stack trace.
func TestBadInputAnswersClearJSONErrors(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		jane := a.tokens("jane@example.com", janePass)["access_token"].(string)
		huge := `{"username":"` + strings.Repeat("a", httpapi.MaxJSONBody) + `"}`
		tests := []struct {
			Name       string
			Req        request
			WantStatus int
			WantBody   []string
		}{
			{"MalformedJSON", request{Method: "POST", URL: "/oauth/access_token", Body: `{"grant_type":`, ContentType: "application/json"}, 400, []string{`"error":"invalid_request"`, "not valid JSON"}},
			{"WrongContentType", request{Method: "POST", URL: "/oauth/access_token", Body: "grant_type=password", ContentType: "text/plain"}, 415, []string{`"error":"invalid_request"`}},
			{"EmptyBody", request{Method: "POST", URL: "/api/user/password/reset", Body: "", ContentType: "application/json"}, 400, []string{"empty"}},
			{"TwoObjects", request{Method: "POST", URL: "/api/user/password/reset", Body: `{"username":"a"}{"username":"b"}`, ContentType: "application/json"}, 400, []string{"one JSON object"}},
			{"BodyOver1MiB", request{Method: "POST", URL: "/api/user/password/reset", Body: huge, ContentType: "application/json"}, 413, []string{"too large"}},
			{"UnknownGrantType", request{Method: "POST", URL: "/oauth/access_token", Body: map[string]any{"grant_type": "client_credentials", "client_id": clientID, "client_secret": clientSecret}}, 400, []string{`"error":"unsupported_grant_type"`}},
			{"MissingGrantType", request{Method: "POST", URL: "/oauth/access_token", Body: map[string]any{"client_id": clientID}}, 400, []string{`"error":"invalid_request"`, "grant_type"}},
			{"MissingPassword", request{Method: "POST", URL: "/oauth/access_token", Body: map[string]any{"grant_type": "password", "username": "jane@example.com", "client_id": clientID, "client_secret": clientSecret}}, 400, []string{`"error":"invalid_request"`, "password parameter"}},
			{"BadScope", request{Method: "POST", URL: "/oauth/access_token", Body: with(passwordGrant("jane@example.com", janePass), map[string]any{"scope": "admin"})}, 400, []string{`"error":"invalid_scope"`}},
			{"WrongClient", request{Method: "POST", URL: "/oauth/access_token", Body: with(passwordGrant("jane@example.com", janePass), map[string]any{"client_secret": "guess"})}, 401, []string{`"error":"invalid_client"`}},
			{"WrongCredentials", request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", "wrong")}, 401, []string{`"error":"invalid_grant"`, `"errorMessage":"The user credentials were incorrect."`, `"message":"The user credentials were incorrect."`}},
			{"MalformedBearer", request{Method: "GET", URL: "/api/v2/user", Token: "not a real token"}, 401, []string{"invalid or has expired"}},
			{"MissingBearer", request{Method: "GET", URL: "/api/v2/user"}, 401, []string{"must log in"}},
			{"WrongTypeInField", request{Method: "POST", URL: "/api/v2/user/subject/status", Body: map[string]any{"statusId": "one"}, Token: jane}, 422, []string{"statusId"}},
			{"MissingStatus", request{Method: "POST", URL: "/api/v2/user/subject/status", Body: map[string]any{}, Token: jane}, 422, []string{"statusId is required"}},
			{"UnknownStatus", request{Method: "POST", URL: "/api/v2/user/subject/status", Body: map[string]any{"statusId": 42}, Token: jane}, 422, []string{"Unknown status"}},
			{"SetupNotFinished", request{Method: "POST", URL: "/api/v2/user/subject/status", Body: map[string]any{"statusId": 1}, Token: jane}, 409, []string{"personal information"}},
			{"UnknownAPIPath", request{Method: "GET", URL: "/api/v2/nothing-here", Token: jane}, 404, []string{"No such API endpoint"}},
		}
		for _, tt := range tests {
			t.Run(tt.Name, func(t *testing.T) {
				rec := a.send(tt.Req)
				if rec.Code != tt.WantStatus {
					t.Fatalf("status = %d; want %d; body %s", rec.Code, tt.WantStatus, rec.Body)
				}
				body := rec.Body.String()
				if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") || strings.Contains(body, "goroutine") || strings.Contains(body, ".go:") {
					t.Fatalf("not a clean JSON error: %s %s", rec.Header().Get("Content-Type"), body)
				}
				for _, want := range tt.WantBody {
					if !strings.Contains(body, want) {
						t.Errorf("body %s lacks %s", body, want)
					}
				}
			})
		}
	})
}

func TestTokenGrants(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		t.Run("PasswordGrantTakesAFormBody", func(t *testing.T) {
			form := url.Values{"grant_type": {"password"}, "username": {"jane@example.com"}, "password": {janePass},
				"client_id": {clientID}, "client_secret": {clientSecret}, "scope": {"default"}}
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: form.Encode(), ContentType: "application/x-www-form-urlencoded",
				Header: map[string]string{"X-Requested-With": "oauth-client"}})
			body := decode(t, rec)
			if rec.Code != 200 || body["token_type"] != "Bearer" || body["expires_in"] != float64(3600) || body["refresh_token"] == "" {
				t.Fatalf("form grant = %d %v", rec.Code, body)
			}
			if rec.Header().Get("Cache-Control") != "no-store" {
				t.Fatalf("token answer Cache-Control = %q", rec.Header().Get("Cache-Control"))
			}
		})
		t.Run("RefreshRotatesAndReuseRevokesTheFamily", func(t *testing.T) {
			first := a.tokens("jane@example.com", janePass)
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: refreshGrant(first["refresh_token"].(string))})
			second := decode(t, rec)
			if rec.Code != 200 || second["refresh_token"] == first["refresh_token"] {
				t.Fatalf("refresh = %d %v", rec.Code, second)
			}
			if rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: second["access_token"].(string)}); rec.Code != 200 {
				t.Fatalf("new access token = %d", rec.Code)
			}
			reuse := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: refreshGrant(first["refresh_token"].(string))})
			if reuse.Code != 401 || decode(t, reuse)["error"] != "invalid_grant" {
				t.Fatalf("reuse = %d %s", reuse.Code, reuse.Body)
			}
			if rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: second["access_token"].(string)}); rec.Code != 401 {
				t.Fatalf("family not revoked: newest access token answered %d", rec.Code)
			}
		})
		t.Run("LogoutRevokesAtOnce", func(t *testing.T) {
			tok := a.tokens("jane@example.com", janePass)
			access := tok["access_token"].(string)
			if rec := a.send(request{Method: "DELETE", URL: "/oauth/access_token", Token: access}); rec.Code != 204 {
				t.Fatalf("DELETE = %d %s", rec.Code, rec.Body)
			}
			if rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: access}); rec.Code != 401 {
				t.Fatalf("revoked token answered %d", rec.Code)
			}
			if rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: refreshGrant(tok["refresh_token"].(string))}); rec.Code != 401 {
				t.Fatalf("refresh after logout answered %d", rec.Code)
			}
		})
		t.Run("ExpiredAccessTokenIs401", func(t *testing.T) {
			access := a.tokens("jane@example.com", janePass)["access_token"].(string)
			*a.clock = a.clock.Add(time.Hour)
			if rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: access}); rec.Code != 401 || rec.Header().Get("WWW-Authenticate") == "" {
				t.Fatalf("expired token = %d", rec.Code)
			}
		})
		t.Run("ThrottledWithRetryAfterForKnownAndUnknownUsers", func(t *testing.T) {
			for _, user := range []string{"jane@example.com", "ghost@example.com"} {
				for i := 0; i < 5; i++ {
					a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant(user, "wrong")})
				}
				rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant(user, janePass)})
				if rec.Code != 429 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "Too many failed login attempts") {
					t.Fatalf("%s: 6th attempt = %d %s", user, rec.Code, rec.Body)
				}
			}
			*a.clock = a.clock.Add(15 * time.Minute)
		})
	})
}

func TestTokenLoginAndSetupScope(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		rec := a.send(request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(a.invite)})
		body := decode(t, rec)
		if rec.Code != 200 || body["scope"] != "setup" || body["access_token"] == nil || body["refresh_token"] != nil || body["expires_in"] != float64(1800) {
			t.Fatalf("token login = %d %v", rec.Code, body)
		}
		for _, key := range []string{"subject", "company", "profile", "ipAddress", "package", "packageServices"} {
			if _, ok := body[key]; !ok {
				t.Errorf("token login lacks %s", key)
			}
		}
		setup := body["access_token"].(string)
		companyID := body["company"].(map[string]any)["id"].(float64)
		for _, tt := range []struct {
			name       string
			req        request
			wantStatus int
		}{
			{"SetupMayReadTheUser", request{Method: "GET", URL: "/api/v2/user", Token: setup}, 200},
			{"SetupMayReadItsCompanySettings", request{Method: "GET", URL: "/api/settings/company/" + itoa(int64(companyID)), Token: setup}, 200},
			{"SetupMayNotSavePersonalInformation", request{Method: "PUT", URL: "/api/v2/user", Token: setup, Body: map[string]any{}}, 403},
			{"SetupMayNotReadTheProfile", request{Method: "GET", URL: "/api/v2/user/profile", Token: setup}, 403},
			{"SetupMayNotChangeOtherFields", request{Method: "PATCH", URL: "/api/v2/user", Token: setup, Body: map[string]any{"password": janePass, "email": "x@example.com"}}, 403},
			{"SetupPasswordBelowMinimum", request{Method: "PATCH", URL: "/api/v2/user", Token: setup, Body: map[string]any{"password": "too short"}}, 422},
			{"SetupCreatesThePassword", request{Method: "PATCH", URL: "/api/v2/user", Token: setup, Body: map[string]any{"password": janePass}}, 200},
			// Creating the password ends the setup credential.
			{"SetupCredentialEndsWithThePassword", request{Method: "PATCH", URL: "/api/v2/user", Token: setup, Body: map[string]any{"password": janePass + "!"}}, 401},
			{"UsedInvitationForbidden", request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(a.invite)}, 403},
			{"UnknownInvitationForbidden", request{Method: "GET", URL: "/api/user?token=nope"}, 403},
			{"MissingInvitationForbidden", request{Method: "GET", URL: "/api/user"}, 403},
		} {
			t.Run(tt.name, func(t *testing.T) {
				if rec := a.send(tt.req); rec.Code != tt.wantStatus {
					t.Fatalf("status = %d; want %d; %s", rec.Code, tt.wantStatus, rec.Body)
				}
			})
		}
		t.Run("NewPasswordLogsIn", func(t *testing.T) {
			a.tokens("pat@example.com", janePass)
		})
	})
}

func TestCompanySettingsAreScopedToTheSubject(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		jane := a.tokens("jane@example.com", janePass)["access_token"].(string)
		own := a.send(request{Method: "GET", URL: "/api/settings/company/" + itoa(a.acme.ID), Token: jane})
		prefs := decode(t, own)["preferences"].(map[string]any)
		if own.Code != 200 || prefs["company_subject_password_length"] != float64(15) || prefs["company_subject_chat"] != false || prefs["company_require_ssn"] != false {
			t.Fatalf("own settings = %d %s; want the spec defaults", own.Code, own.Body)
		}
		for _, path := range []string{"/api/settings/company/" + itoa(a.other.ID), "/api/settings/company/999", "/api/settings/company/abc"} {
			if rec := a.send(request{Method: "GET", URL: path, Token: jane}); rec.Code != 404 {
				t.Fatalf("GET %s = %d; want 404", path, rec.Code)
			}
		}
	})
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestPasswordResetOverHTTP(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		for _, user := range []string{"jane@example.com", "ghost@example.com"} {
			rec := a.send(request{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": user}})
			if rec.Code != 200 || decode(t, rec)["message"] != "Request has been sent" {
				t.Fatalf("reset %s = %d %s", user, rec.Code, rec.Body)
			}
		}
		mails, _ := a.db.Outbox(context.Background())
		if len(mails) != 1 || mails[0].To != "jane@example.com" {
			t.Fatalf("outbox = %+v; want one mail to jane", mails)
		}
		_, after, _ := strings.Cut(mails[0].Body, "https://portal.example.com/reset?token=")
		token, _ := url.QueryUnescape(strings.Fields(after)[0])
		confirm := request{Method: "POST", URL: "/api/user/password/reset/confirm", Body: map[string]any{"token": token, "password": "a brand new passphrase"}}
		if rec := a.send(confirm); rec.Code != 200 {
			t.Fatalf("confirm = %d %s", rec.Code, rec.Body)
		}
		a.tokens("jane@example.com", "a brand new passphrase")
		if rec := a.send(confirm); rec.Code != 422 || !strings.Contains(rec.Body.String(), `"field":"token"`) {
			t.Fatalf("reuse = %d %s; want 422 on token", rec.Code, rec.Body)
		}
	})
}

func TestAppServingAndHeaders(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	now := time.Now()
	a := newOAuthAPI(t, db, &now)
	for _, path := range []string{"/", "/idv/success", "/setup?token=abc"} {
		rec := a.send(request{Method: "GET", URL: path})
		body := rec.Body.String()
		if rec.Code != 200 || strings.Contains(body, "__PORTAL_CONFIG__") || !strings.Contains(body, "&#34;clientId&#34;:&#34;portal-spa&#34;") {
			t.Fatalf("GET %s = %d %s; want index.html with the escaped config", path, rec.Code, body)
		}
		if rec.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("index Cache-Control = %q", rec.Header().Get("Cache-Control"))
		}
	}
	asset := a.send(request{Method: "GET", URL: "/assets/app-abc123.js"})
	if asset.Code != 200 || asset.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("asset = %d %q", asset.Code, asset.Header().Get("Cache-Control"))
	}
	if rec := a.send(request{Method: "GET", URL: "/assets/missing.js"}); rec.Code != 404 {
		t.Fatalf("missing asset = %d; want 404", rec.Code)
	}
	api := a.send(request{Method: "GET", URL: "/healthz"})
	want := map[string]string{
		"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
	}
	for h, v := range want {
		if api.Header().Get(h) != v {
			t.Errorf("%s = %q; want %q", h, api.Header().Get(h), v)
		}
	}
	if csp := api.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP = %q", csp)
	}
}

func TestClientIPBelievesOnlyTrustedProxies(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	now := time.Now()
	a := newOAuthAPI(t, db, &now)
	jane := a.tokens("jane@example.com", janePass)["access_token"].(string)
	for _, tt := range []struct {
		name, remote, forwarded, want string
	}{
		{"DirectClient", "192.0.2.10:5555", "", "192.0.2.10"},
		{"ForgedHeaderFromUntrustedPeerIgnored", "192.0.2.10:5555", "203.0.113.9", "192.0.2.10"},
		{"TrustedProxyForwards", "10.1.2.3:443", "203.0.113.9", "203.0.113.9"},
		{"ChainSkipsTrustedHops", "10.1.2.3:443", "198.51.100.7, 10.9.9.9", "198.51.100.7"},
		// A proxy that adds its own header line must not let the client's
		// forged first line win.
		{"ForgedFirstLineBeforeProxysOwnLineIgnored", "10.1.2.3:443", "6.6.6.6\n203.0.113.9", "203.0.113.9"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"RemoteAddr": tt.remote}
			if tt.forwarded != "" {
				h["X-Forwarded-For"] = tt.forwarded
			}
			rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: jane, Header: h})
			if got := decode(t, rec)["ipAddress"]; got != tt.want {
				t.Fatalf("ipAddress = %v; want %s", got, tt.want)
			}
		})
	}
}

// TestLogsHoldNoSecrets runs logins, a token login and a reset, and reads
// every log line for the secrets that passed through.
func TestLogsHoldNoSecrets(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	now := time.Now()
	a := newOAuthAPI(t, db, &now)
	tok := a.tokens("jane@example.com", janePass)
	a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", "wrong-secret-guess")})
	a.send(request{Method: "POST", URL: "/oauth/access_token", Body: refreshGrant(tok["refresh_token"].(string))})
	a.send(request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(a.invite)})
	a.send(request{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": "jane@example.com"}})
	mails, _ := db.Outbox(context.Background())
	_, after, _ := strings.Cut(mails[0].Body, "reset?token=")
	reset := strings.Fields(after)[0]
	a.send(request{Method: "POST", URL: "/api/user/password/reset/confirm", Body: map[string]any{"token": reset, "password": "a brand new passphrase"}})
	logs := a.logs.String()
	if !strings.Contains(logs, `"path":"/oauth/access_token"`) {
		t.Fatalf("no request lines logged: %s", logs)
	}
	for name, secret := range map[string]string{"password": janePass, "wrong password": "wrong-secret-guess", "new password": "a brand new passphrase",
		"access token": tok["access_token"].(string), "refresh token": tok["refresh_token"].(string), "invitation": a.invite, "reset token": reset} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds the %s", name)
		}
	}
}
