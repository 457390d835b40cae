package httpapi_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

// TestTokenEndpointRefusesCrossSiteForms: a form body (which any site can
// make a visitor's browser post) needs the X-Requested-With header, so other
// sites cannot feed the login throttle; refused posts count as nothing.
func TestTokenEndpointRefusesCrossSiteForms(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		form := url.Values{"grant_type": {"password"}, "username": {"jane@example.com"}, "password": {"wrong"},
			"client_id": {clientID}, "client_secret": {clientSecret}, "scope": {"default"}}.Encode()
		for _, ct := range []string{"application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8", "text/plain", "multipart/form-data; boundary=x"} {
			for i := 0; i < 6; i++ {
				rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: form, ContentType: ct})
				body := decode(t, rec)
				if rec.Code != 415 || body["error"] != "invalid_request" || !strings.Contains(body["errorMessage"].(string), "application/json") {
					t.Fatalf("%s without the header = %d %v", ct, rec.Code, body)
				}
			}
		}
		a.tokens("jane@example.com", janePass)
		rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: form, ContentType: "application/x-www-form-urlencoded",
			Header: map[string]string{"X-Requested-With": "XMLHttpRequest"}})
		if rec.Code != 401 {
			t.Fatalf("form with the header = %d %s; want 401 (read, wrong password)", rec.Code, rec.Body)
		}
	})
}

// TestTokenEndpointBoundsItsInput: control characters and oversized values
// are refused before they reach the database, with the same 400 on SQLite
// and PostgreSQL (which used to answer 500).
func TestTokenEndpointBoundsItsInput(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		long := strings.Repeat("a", 3000) + "@example.com"
		for _, tt := range []struct {
			name   string
			change map[string]any
			grant  map[string]any
		}{
			{"NULInUsername", map[string]any{"username": "jane\x00@example.com"}, nil},
			{"NULInClientID", map[string]any{"client_id": "portal\x00spa"}, nil},
			{"NULInClientSecret", map[string]any{"client_secret": "x\x00"}, nil},
			{"NULInPassword", map[string]any{"password": "a long\x00 passphrase"}, nil},
			{"EscapeInUsername", map[string]any{"username": "jane\x1b@example.com"}, nil},
			{"UsernameOf3000Characters", map[string]any{"username": long}, nil},
			{"ClientIDOver128", map[string]any{"client_id": strings.Repeat("c", 129)}, nil},
			{"PasswordOver128", map[string]any{"password": strings.Repeat("p", 129)}, nil},
			{"NULInRefreshToken", nil, refreshGrant("abc\x00def")},
			{"NULInRefreshClientID", map[string]any{"client_id": "\x00"}, refreshGrant("abc")},
		} {
			t.Run(tt.name, func(t *testing.T) {
				grant := tt.grant
				if grant == nil {
					grant = passwordGrant("jane@example.com", janePass)
				}
				rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: with(grant, tt.change)})
				body := decode(t, rec)
				if rec.Code != 400 || body["error"] != "invalid_request" {
					t.Fatalf("= %d %v; want 400 invalid_request", rec.Code, body)
				}
			})
		}
		t.Run("FormBodyWithNUL", func(t *testing.T) {
			form := url.Values{"grant_type": {"password"}, "username": {"jane\x00@example.com"}, "password": {janePass},
				"client_id": {clientID}, "client_secret": {clientSecret}}.Encode()
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: form, ContentType: "application/x-www-form-urlencoded",
				Header: map[string]string{"X-Requested-With": "x"}})
			if rec.Code != 400 {
				t.Fatalf("= %d %s", rec.Code, rec.Body)
			}
		})
		t.Run("PasswordOf128CharactersIsChecked", func(t *testing.T) {
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", strings.Repeat("p", 128))})
			if rec.Code != 401 {
				t.Fatalf("= %d %s; want 401", rec.Code, rec.Body)
			}
		})
		t.Run("ResetEndpointsTooAnswerWithout500", func(t *testing.T) {
			for _, req := range []request{
				{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": "jane\x00@example.com"}},
				{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": long}},
			} {
				// Every JSON body refuses control characters and strings over
				// 512 characters on the field, before any lookup.
				if rec := a.send(req); rec.Code != 422 || !strings.Contains(rec.Body.String(), `"field":"username"`) {
					t.Fatalf("reset request = %d %s; want 422 on username", rec.Code, rec.Body)
				}
			}
			for _, path := range []string{"/api/user/password/reset/verify", "/api/user/password/reset/confirm"} {
				rec := a.send(request{Method: "POST", URL: path, Body: map[string]any{"token": "a\x00b", "password": "a brand new passphrase"}})
				if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"field":"token"`) {
					t.Fatalf("%s = %d %s; want 422 on token", path, rec.Code, rec.Body)
				}
			}
		})
		// Nothing above was a login failure: jane is not throttled.
		a.tokens("jane@example.com", janePass)
	})
}

// TestLoginBeyondThePasswordGateIs503: with every password-check slot busy
// past the wait, a login answers 503 with Retry-After and a JSON message.
func TestLoginBeyondThePasswordGateIs503(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	eachAuthAPI(t, func(cfg *store.Config) {
		cfg.PasswordChecks, cfg.PasswordCheckWait = 1, 20*time.Millisecond
		verify := cfg.VerifyPassword
		cfg.VerifyPassword = func(p, h string) (bool, error) {
			if p == "blocking passphrase" {
				entered <- struct{}{}
				<-release
			}
			return verify(p, h)
		}
	}, func(t *testing.T, a *oauthAPI) {
		done := make(chan int)
		go func() {
			done <- a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("olga@example.com", "blocking passphrase")}).Code
		}()
		<-entered
		rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", janePass)})
		body := decode(t, rec)
		if rec.Code != 503 || rec.Header().Get("Retry-After") == "" || body["error"] != "temporarily_unavailable" || !strings.Contains(body["errorMessage"].(string), "busy") {
			t.Fatalf("login with the gate full = %d %v %v", rec.Code, rec.Header(), body)
		}
		release <- struct{}{}
		if code := <-done; code != 401 {
			t.Fatalf("the blocked login = %d; want 401", code)
		}
		a.tokens("jane@example.com", janePass)
	})
}

// TestPasswordResetVerify is the reset page's check of its link: 200
// {"valid":true,"username":...} while usable, without spending it; 422 on
// token otherwise.
func TestPasswordResetVerify(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		if rec := a.send(request{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": "jane@example.com"}}); rec.Code != 200 {
			t.Fatal(rec.Body)
		}
		mails, _ := a.db.Outbox(context.Background())
		_, after, _ := strings.Cut(mails[0].Body, "https://portal.example.com/reset?token=")
		token, _ := url.QueryUnescape(strings.Fields(after)[0])
		verify := func(token string) (int, string) {
			rec := a.send(request{Method: "POST", URL: "/api/user/password/reset/verify", Body: map[string]any{"token": token}})
			return rec.Code, strings.TrimSpace(rec.Body.String())
		}
		for i := 0; i < 2; i++ {
			if code, body := verify(token); code != 200 || body != `{"valid":true,"username":"jane@example.com"}` {
				t.Fatalf("verify %d = %d %s", i, code, body)
			}
		}
		if rec := a.send(request{Method: "POST", URL: "/api/user/password/reset/confirm", Body: map[string]any{"token": token, "password": "a brand new passphrase"}}); rec.Code != 200 {
			t.Fatalf("confirm after verify = %d %s", rec.Code, rec.Body)
		}
		want := `{"errorMessage":"validation error","errorCode":"validation.error","errorFields":[{"field":"token","message":"This reset link is invalid or has expired. Please ask for a new one.","code":"password.reset_link_invalid"}]}`
		for _, bad := range []string{token, "unknown", ""} {
			if code, body := verify(bad); code != 422 || body != want {
				t.Fatalf("verify %q = %d %s", bad, code, body)
			}
		}
	})
}

// TestSignInsAreAuditedWithTheClientsAddress: the token endpoint names the
// client's address for the audit trail, and the store the applicant once
// the credential shows who it is; a sign-out is recorded too.
func TestSignInsAreAuditedWithTheClientsAddress(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		const remote = "198.51.100.23"
		h := map[string]string{"RemoteAddr": remote + ":4242"}
		last := func() portal.AuditEntry {
			t.Helper()
			list, err := a.db.Operator().Audit.FindAudit(context.Background(), portal.AuditFilter{Limit: 1})
			if err != nil || len(list) != 1 {
				t.Fatalf("FindAudit = %v, %v", list, err)
			}
			return list[0]
		}
		jane := a.ids["jane"]
		if rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", "wrong"), Header: h}); rec.Code != 401 {
			t.Fatalf("wrong password = %d", rec.Code)
		}
		if e := last(); e.Action != "login.failed" || e.SubjectID != jane || e.Actor.ID != jane || e.Actor.Address != remote {
			t.Fatalf("after a wrong password: %+v", e)
		}
		rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", janePass), Header: h})
		if rec.Code != 200 {
			t.Fatalf("login = %d %s", rec.Code, rec.Body)
		}
		if e := last(); e.Action != "login.succeeded" || e.SubjectID != jane || e.Actor.Kind != portal.ActorApplicant || e.Actor.Address != remote {
			t.Fatalf("after the login: %+v", e)
		}
		token := decode(t, rec)["access_token"].(string)
		if rec := a.send(request{Method: "DELETE", URL: "/oauth/access_token", Token: token, Header: h}); rec.Code != 204 {
			t.Fatalf("logout = %d %s", rec.Code, rec.Body)
		}
		if e := last(); e.Action != "logout" || e.SubjectID != jane || e.Actor.Address != remote {
			t.Fatalf("after the logout: %+v", e)
		}
	})
}

// withoutSignIns is the trail without the password and sign-in rows the
// tests' setup leaves, for tests about the acts after it.
func withoutSignIns(trail []portal.AuditEntry) []portal.AuditEntry {
	var out []portal.AuditEntry
	for _, e := range trail {
		if !strings.HasPrefix(e.Action, "login.") && !strings.HasPrefix(e.Action, "password.") {
			out = append(out, e)
		}
	}
	return out
}
