package httpapi_test

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// lastMailTo is the newest outbox mail's body to address ("" if none) and
// how many there are.
func (a *oauthAPI) lastMailTo(address string) (string, int) {
	a.t.Helper()
	mails, err := a.db.Outbox(context.Background())
	if err != nil {
		a.t.Fatal(err)
	}
	body, n := "", 0
	for _, m := range mails {
		if m.To == address {
			body, n = m.Body, n+1
		}
	}
	return body, n
}

func TestNewLinkOnRequest(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		// The one answer, whatever happened behind it.
		const answer = `{"message":"If we know this address, a new link is on its way. It can take a few minutes to arrive: check your spam folder too.","messageCode":"signin.link_renewal_sent"}`
		renew := func(t *testing.T, body map[string]any) {
			t.Helper()
			rec := a.send(request{Method: "POST", URL: "/api/v2/links/renew", Body: body})
			if rec.Code != 202 || strings.TrimSpace(rec.Body.String()) != answer {
				t.Fatalf("renew %v = %d %s", body, rec.Code, rec.Body)
			}
		}
		status := func(t *testing.T, kind, token string) string {
			t.Helper()
			rec := a.send(request{Method: "GET", URL: "/api/v2/links/status?kind=" + kind + "&token=" + url.QueryEscape(token)})
			if rec.Code != 200 {
				t.Fatalf("status = %d %s", rec.Code, rec.Body)
			}
			return decode(t, rec)["state"].(string)
		}

		t.Run("ExpiredInvitationSaysSoAndGetsANewOne", func(t *testing.T) {
			*a.clock = a.clock.Add(90 * 24 * time.Hour)
			if got := status(t, "invitation", a.invite); got != "expired" {
				t.Fatalf("state = %q", got)
			}
			renew(t, map[string]any{"kind": "invitation", "token": a.invite})
			body, n := a.lastMailTo("pat@example.com")
			if n != 1 || !strings.Contains(body, "https://portal.example.com/setup?token=") {
				t.Fatalf("mail %d %q", n, body)
			}
			token := strings.Fields(strings.SplitN(body, "/setup?token=", 2)[1])[0]
			if rec := a.send(request{Method: "GET", URL: "/api/user?token=" + token}); rec.Code != 200 {
				t.Fatalf("token login with the new link = %d %s", rec.Code, rec.Body)
			}
		})
		t.Run("SameAnswerForUnknownAddressAndToken", func(t *testing.T) {
			_, before := a.lastMailTo("ghost@example.com")
			renew(t, map[string]any{"kind": "reset", "email": "ghost@example.com"})
			renew(t, map[string]any{"kind": "invitation", "token": "c29tZS10b2tlbi1ub2JvZHktaG9sZHMtYXQtYWxsLTEyMzQ1"})
			renew(t, map[string]any{"kind": "reset", "email": "jane@example.com"})
			if _, after := a.lastMailTo("ghost@example.com"); after != before {
				t.Fatal("mail to an unknown address")
			}
			if body, _ := a.lastMailTo("jane@example.com"); !strings.Contains(body, "/reset?token=") {
				t.Fatalf("jane's mail %q", body)
			}
			if got := status(t, "reset", "c29tZS10b2tlbi1ub2JvZHktaG9sZHMtYXQtYWxsLTEyMzQ1"); got != "unknown" {
				t.Fatalf("state = %q", got)
			}
		})
		t.Run("ThrottledStillTheSameAnswer", func(t *testing.T) {
			for i := 0; i < 8; i++ {
				renew(t, map[string]any{"kind": "reset", "email": "olga@example.com"})
			}
			if _, n := a.lastMailTo("olga@example.com"); n != 5 {
				t.Fatalf("mails = %d; want 5", n)
			}
		})
		t.Run("BadInputIsAFieldError", func(t *testing.T) {
			for _, body := range []map[string]any{{"kind": "invitation"}, {"kind": "other", "email": "a@example.com"}, {"kind": "reset", "email": "not an address"}} {
				rec := a.send(request{Method: "POST", URL: "/api/v2/links/renew", Body: body})
				if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"errorMessage":"validation error"`) {
					t.Fatalf("%v = %d %s", body, rec.Code, rec.Body)
				}
			}
			if rec := a.send(request{Method: "GET", URL: "/api/v2/links/status?kind=other&token=x"}); rec.Code != 422 {
				t.Fatalf("status of kind other = %d", rec.Code)
			}
		})
	})
}

var codeRE = regexp.MustCompile(`\b\d{6}\b`)

func TestOneTimeCodeSignIn(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		const answer = `{"message":"If we know this address, a sign-in code is on its way. It works once, for 10 minutes.","messageCode":"signin.code_sent"}`
		ask := func(t *testing.T, body map[string]any) {
			t.Helper()
			rec := a.send(request{Method: "POST", URL: "/api/v2/login/code", Body: body})
			if rec.Code != 202 || strings.TrimSpace(rec.Body.String()) != answer {
				t.Fatalf("code request %v = %d %s", body, rec.Code, rec.Body)
			}
		}
		codeGrant := func(username, code string) map[string]any {
			return map[string]any{"grant_type": "one_time_code", "username": username, "code": code,
				"client_id": clientID, "client_secret": clientSecret, "scope": "default"}
		}
		t.Run("CodeFromTheMailSignsInOnce", func(t *testing.T) {
			ask(t, map[string]any{"username": "jane@example.com", "channel": "email"})
			body, _ := a.lastMailTo("jane@example.com")
			code := codeRE.FindString(body)
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: codeGrant("jane@example.com", code)})
			tokens := decode(t, rec)
			if rec.Code != 200 || tokens["refresh_token"] == "" || tokens["scope"] != "default" {
				t.Fatalf("code grant = %d %v", rec.Code, tokens)
			}
			if rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: tokens["access_token"].(string)}); rec.Code != 200 {
				t.Fatalf("user = %d", rec.Code)
			}
			again := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: codeGrant("jane@example.com", code)})
			if again.Code != 401 || decode(t, again)["error"] != "invalid_grant" {
				t.Fatalf("replay = %d %s", again.Code, again.Body)
			}
		})
		t.Run("FormBody", func(t *testing.T) {
			ask(t, map[string]any{"username": "olga@example.com"})
			body, _ := a.lastMailTo("olga@example.com")
			form := url.Values{"grant_type": {"one_time_code"}, "username": {"olga@example.com"}, "code": {codeRE.FindString(body)},
				"client_id": {clientID}, "client_secret": {clientSecret}}
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: form.Encode(), ContentType: "application/x-www-form-urlencoded",
				Header: map[string]string{"X-Requested-With": "oauth-client"}})
			if rec.Code != 200 {
				t.Fatalf("form code grant = %d %s", rec.Code, rec.Body)
			}
		})
		t.Run("UnknownUserSameAnswer", func(t *testing.T) {
			ask(t, map[string]any{"username": "ghost@example.com", "channel": "sms"})
			if _, n := a.lastMailTo("ghost@example.com"); n != 0 {
				t.Fatal("mail to an unknown address")
			}
		})
		t.Run("MissingCodeOrBadChannel", func(t *testing.T) {
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: codeGrant("jane@example.com", "")})
			if rec.Code != 400 || !strings.Contains(rec.Body.String(), "code parameter") {
				t.Fatalf("missing code = %d %s", rec.Code, rec.Body)
			}
			rec = a.send(request{Method: "POST", URL: "/api/v2/login/code", Body: map[string]any{"username": "", "channel": "pigeon"}})
			if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"field":"channel"`) || !strings.Contains(rec.Body.String(), `"field":"username"`) {
				t.Fatalf("bad request = %d %s", rec.Code, rec.Body)
			}
		})
		t.Run("WrongCodesAreThrottledLikePasswords", func(t *testing.T) {
			for i := 0; i < 5; i++ {
				if rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: codeGrant("olga@example.com", "000001")}); rec.Code != 401 {
					t.Fatalf("wrong code %d = %d", i, rec.Code)
				}
			}
			rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: codeGrant("olga@example.com", "000001")})
			if rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
				t.Fatalf("sixth = %d %s", rec.Code, rec.Body)
			}
		})
	})
}
