package httpapi_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// eachAuthAPI is eachOAuthAPI with a store configuration the test may
// change first.
func eachAuthAPI(t *testing.T, configure func(*store.Config), run func(t *testing.T, a *oauthAPI)) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return now }
	if configure != nil {
		configure(&cfg)
	}
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) { run(t, newOAuthAPI(t, db, &now)) })
}

// slowPasswordCheck makes a password check take as long as argon2id does,
// the gap in which parallel guesses used to pass the throttle unseen.
func slowPasswordCheck(cfg *store.Config) {
	verify := cfg.VerifyPassword
	cfg.VerifyPassword = func(p, h string) (bool, error) {
		time.Sleep(50 * time.Millisecond)
		return verify(p, h)
	}
}

func TestParallelWrongLoginsAreThrottled(t *testing.T) {
	eachAuthAPI(t, slowPasswordCheck, func(t *testing.T, a *oauthAPI) {
		const n = 12
		recs := make([]*httptest.ResponseRecorder, n)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range recs {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				recs[i] = a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", "wrong")})
			}()
		}
		start.Done()
		done.Wait()
		count := map[int]int{}
		for _, rec := range recs {
			count[rec.Code]++
			if rec.Code == 429 && (rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "Too many failed login attempts")) {
				t.Errorf("429 without Retry-After or message: %v %s", rec.Header(), rec.Body)
			}
		}
		if count[401] > store.MaxFailuresPerUserAndIP || count[401]+count[429] != n {
			t.Fatalf("answers %v; want at most %d × 401 and the rest 429", count, store.MaxFailuresPerUserAndIP)
		}
		if rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", janePass)}); rec.Code != 429 {
			t.Fatalf("right password after the burst = %d; want 429", rec.Code)
		}
	})
}

func TestPasswordChangeKeepsTheCallersSession(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		mine := a.tokens("jane@example.com", janePass)
		other := a.tokens("jane@example.com", janePass)
		const next = "a brand new passphrase"
		change := request{Method: "PATCH", URL: "/api/v2/user", Token: mine["access_token"].(string),
			Body: map[string]any{"password": next, "currentPassword": janePass}}
		if rec := a.send(change); rec.Code != 200 {
			t.Fatalf("change = %d %s", rec.Code, rec.Body)
		}
		if rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: mine["access_token"].(string)}); rec.Code != 200 {
			t.Fatalf("the caller's session after the change = %d; want 200", rec.Code)
		}
		if rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: other["access_token"].(string)}); rec.Code != 401 {
			t.Fatalf("another session after the change = %d; want 401", rec.Code)
		}
		if rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: refreshGrant(mine["refresh_token"].(string))}); rec.Code != 200 {
			t.Fatalf("the caller's refresh = %d %s", rec.Code, rec.Body)
		}
		if rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: refreshGrant(other["refresh_token"].(string))}); rec.Code != 401 {
			t.Fatalf("another session's refresh = %d; want 401", rec.Code)
		}
		a.tokens("jane@example.com", next)
	})
}

func TestWrongCurrentPasswordCountsAsAFailedLogin(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		jane := a.tokens("jane@example.com", janePass)["access_token"].(string)
		change := func(current string) *httptest.ResponseRecorder {
			return a.send(request{Method: "PATCH", URL: "/api/v2/user", Token: jane,
				Body: map[string]any{"password": "a brand new passphrase", "currentPassword": current}})
		}
		for i := 0; i < store.MaxFailuresPerUserAndIP; i++ {
			if rec := change("wrong"); rec.Code != 422 || !strings.Contains(rec.Body.String(), `"field":"currentPassword"`) {
				t.Fatalf("wrong current password %d = %d %s", i+1, rec.Code, rec.Body)
			}
		}
		if rec := change(janePass); rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
			t.Fatalf("change after %d wrong ones = %d %s; want 429", store.MaxFailuresPerUserAndIP, rec.Code, rec.Body)
		}
		if rec := a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", janePass)}); rec.Code != 429 {
			t.Fatalf("login after the wrong current passwords = %d; want 429", rec.Code)
		}
	})
}

func TestCreatingThePasswordEndsTheSetupCredential(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		rec := a.send(request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(a.invite)})
		if rec.Code != 200 {
			t.Fatalf("token login = %d %s", rec.Code, rec.Body)
		}
		setup := decode(t, rec)["access_token"].(string)
		if rec := a.send(request{Method: "PATCH", URL: "/api/v2/user", Token: setup, Body: map[string]any{"password": janePass}}); rec.Code != 200 {
			t.Fatalf("create password = %d %s", rec.Code, rec.Body)
		}
		if rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: setup}); rec.Code != 401 {
			t.Fatalf("setup credential after the password exists = %d; want 401", rec.Code)
		}
		a.tokens("pat@example.com", janePass)
	})
}

// TestInvitationLinkExpires uses a subject who has no password yet, so
// only the link's age can turn the answer from 200 to 403.
func TestInvitationLinkExpires(t *testing.T) {
	eachAuthAPI(t, nil, func(t *testing.T, a *oauthAPI) {
		ctx := context.Background()
		quinn, err := a.db.CreateSubject(ctx, portal.NewSubject{CompanyID: a.acme.ID, Email: "quinn@example.com", FirstName: "Quinn", LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		invite, err := a.db.Auth().CreateInvitation(ctx, quinn.ID)
		if err != nil {
			t.Fatal(err)
		}
		link := request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(invite)}
		if rec := a.send(link); rec.Code != 200 {
			t.Fatalf("fresh invitation = %d %s", rec.Code, rec.Body)
		}
		*a.clock = a.clock.Add(14*24*time.Hour - time.Second)
		if rec := a.send(link); rec.Code != 200 {
			t.Fatalf("invitation a second before it expires = %d %s", rec.Code, rec.Body)
		}
		*a.clock = a.clock.Add(2 * time.Second)
		if rec := a.send(link); rec.Code != 403 {
			t.Fatalf("expired invitation = %d %s; want 403", rec.Code, rec.Body)
		}
	})
}

func TestPasswordResetRequestsThrottledWithoutTelling(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		mailsTo := func(to string) int {
			mails, err := a.db.Outbox(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range mails {
				if m.To == to {
					n++
				}
			}
			return n
		}
		reset := func(username, remote string) {
			t.Helper()
			rec := a.send(request{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": username},
				Header: map[string]string{"RemoteAddr": remote}})
			if rec.Code != 200 || decode(t, rec)["message"] != "Request has been sent" {
				t.Fatalf("reset %s = %d %s; want the usual 200", username, rec.Code, rec.Body)
			}
		}
		t.Run("PerUsername", func(t *testing.T) {
			for i := 0; i < store.MaxResetsPerUser+2; i++ {
				reset("jane@example.com", fmt.Sprintf("192.0.2.%d:5555", 20+i))
			}
			if n := mailsTo("jane@example.com"); n != store.MaxResetsPerUser {
				t.Fatalf("%d reset mails queued; want %d", n, store.MaxResetsPerUser)
			}
		})
		t.Run("PerIP", func(t *testing.T) {
			for i := 0; i < store.MaxResetsPerIP; i++ {
				reset(fmt.Sprintf("ghost%d@example.com", i), "198.51.100.4:5555")
			}
			reset("olga@example.com", "198.51.100.4:5555")
			if n := mailsTo("olga@example.com"); n != 0 {
				t.Fatalf("a throttled IP queued %d mails", n)
			}
			reset("olga@example.com", "198.51.100.5:5555")
			if n := mailsTo("olga@example.com"); n != 1 {
				t.Fatalf("another IP queued %d mails; want 1", n)
			}
		})
	})
}

func TestWrongMethodOnAKnownAPIPathIs405(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	now := time.Now()
	a := newOAuthAPI(t, db, &now)
	for _, tt := range []struct {
		name, method, path string
		wantAllow          []string
	}{
		{"TokenEndpoint", "GET", "/oauth/access_token", []string{"POST", "DELETE"}},
		{"User", "DELETE", "/api/v2/user", []string{"GET", "PATCH"}},
		{"Status", "GET", "/api/v2/user/subject/status", []string{"POST"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := a.send(request{Method: tt.method, URL: tt.path})
			if rec.Code != 405 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				t.Fatalf("%s %s = %d %s %s; want a JSON 405", tt.method, tt.path, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
			}
			allow := strings.Split(rec.Header().Get("Allow"), ", ")
			for _, m := range tt.wantAllow {
				if !slices.Contains(allow, m) {
					t.Errorf("Allow %q lacks %s", rec.Header().Get("Allow"), m)
				}
			}
			if slices.Contains(allow, tt.method) {
				t.Errorf("Allow %q holds the refused method", rec.Header().Get("Allow"))
			}
			if msg, _ := decode(t, rec)["errorMessage"].(string); !strings.Contains(msg, "not allowed") {
				t.Errorf("errorMessage = %q", msg)
			}
		})
	}
	if rec := a.send(request{Method: "GET", URL: "/api/v2/nothing-here"}); rec.Code != 404 {
		t.Fatalf("unknown API path = %d; want 404", rec.Code)
	}
}
