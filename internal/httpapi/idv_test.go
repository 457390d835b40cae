package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

var idvTestSecret = []byte("idv http test secret")

// idvAPI is a company with jane and bob in idv-started and amy only set
// up, served with the built-in sandbox provider as cmd/portal wires it.
type idvAPI struct {
	*harness
	sandbox *idvsandbox.Provider
	ids     map[string]int64
	tokens  map[string]string
}

func newIDVAPI(t *testing.T, db *store.DB, provider portal.IDVProvider) *idvAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	a := &idvAPI{harness: newHarness(t, db, "192.0.2.1:1234"), ids: map[string]int64{}, tokens: map[string]string{},
		sandbox: idvsandbox.New(idvsandbox.Config{Records: db.SandboxRecords(), Secret: idvTestSecret,
			SessionTTL: 30 * time.Minute, CheckDelay: time.Hour})}
	if provider == nil {
		provider = a.sandbox
	}
	for _, p := range []struct {
		who string
		to  portal.StatusID
	}{{"jane", portal.StatusIDVStarted}, {"bob", portal.StatusIDVStarted}, {"amy", portal.StatusSetupComplete}} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: p.who + "@example.com", FirstName: p.who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		token := logIn(t, db, s)
		a.ids[p.who], a.tokens[p.who] = s.ID, token
		if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, p.to); err != nil {
			t.Fatal(err)
		}
	}
	svc := storeServices(db, nil)
	svc.IDV = db.IDV(store.IDVConfig{Provider: provider, ReturnURL: "http://portal.test/idv/success"})
	srv, err := httpapi.New(httpapi.Config{Sandboxes: a.sandbox.Handler(), IDVPageURL: "/sandbox/idv/{id}?token={token}"},
		svc, testIndex, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.handler = srv.Handler()
	return a
}

type idvSessionBody struct {
	ID         string  `json:"id"`
	Token      *string `json:"token"`
	Env        string  `json:"env"`
	Status     int     `json:"status"`
	StatusText string  `json:"statusText"`
	Decision   *string `json:"decision"`
	ExpiresAt  string  `json:"expiresAt"`
}

func decodeIDVSession(t *testing.T, rec *httptest.ResponseRecorder) idvSessionBody {
	t.Helper()
	var b idvSessionBody
	if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
		t.Fatalf("%v: %s", err, rec.Body.String())
	}
	return b
}

func (a *idvAPI) start(who string) *httptest.ResponseRecorder {
	return a.send(request{Method: "PUT", URL: "/api/v2/idv/session", Token: a.tokens[who], Body: map[string]any{"subjectId": a.ids[who]}})
}

func (a *idvAPI) get(who, id string) *httptest.ResponseRecorder {
	return a.send(request{Method: "GET", URL: "/api/v2/idv/session/" + id, Token: a.tokens[who]})
}

func (a *idvAPI) callback(signature string, body string) *httptest.ResponseRecorder {
	return a.send(request{Method: "POST", URL: "/api/v2/idv/callback", Body: body, ContentType: "application/json",
		Header: map[string]string{"X-IDV-Signature": signature}})
}

func (a *idvAPI) signedCallback(body string) *httptest.ResponseRecorder {
	return a.callback(idvsandbox.Sign(idvTestSecret, time.Now(), []byte(body)), body)
}

func wantStatus(t *testing.T, rec *httptest.ResponseRecorder, status int, message string) {
	t.Helper()
	if rec.Code != status || !strings.Contains(rec.Body.String(), message) {
		t.Fatalf("answer %d %s; want %d with %q", rec.Code, rec.Body.String(), status, message)
	}
}

func TestIDVSessionEndpoints(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newIDVAPI(t, db, nil)
		rec := a.start("jane")
		wantStatus(t, rec, http.StatusOK, `"decision":null`)
		started := decodeIDVSession(t, rec)
		if !strings.HasPrefix(started.ID, "idv_") || started.Token == nil || *started.Token == "" || started.Env != "sandbox" ||
			started.Status != 0 || started.StatusText != "active" || started.Decision != nil {
			t.Fatalf("PUT session = %s", rec.Body.String())
		}
		if exp, err := time.Parse(time.RFC3339, started.ExpiresAt); err != nil || time.Until(exp) < 29*time.Minute {
			t.Errorf("expiresAt = %q; want RFC3339 about 30 minutes ahead", started.ExpiresAt)
		}

		tests := []struct {
			name       string
			req        request
			wantStatus int
			wantBody   string
		}{
			{"StartWithoutLogin", request{Method: "PUT", URL: "/api/v2/idv/session", Body: map[string]any{"subjectId": a.ids["jane"]}},
				http.StatusUnauthorized, "log in"},
			{"StartForAnother", request{Method: "PUT", URL: "/api/v2/idv/session", Token: a.tokens["jane"], Body: map[string]any{"subjectId": a.ids["bob"]}},
				http.StatusNotFound, "not found"},
			{"StartWithoutSubjectID", request{Method: "PUT", URL: "/api/v2/idv/session", Token: a.tokens["jane"], Body: map[string]any{}},
				http.StatusUnprocessableEntity, `"field":"subjectId"`},
			{"StartWithATextSubjectID", request{Method: "PUT", URL: "/api/v2/idv/session", Token: a.tokens["jane"], Body: map[string]any{"subjectId": "1"}},
				http.StatusUnprocessableEntity, `"field":"subjectId"`},
			{"StartBeforeIDVStarted", request{Method: "PUT", URL: "/api/v2/idv/session", Token: a.tokens["amy"], Body: map[string]any{"subjectId": a.ids["amy"]}},
				http.StatusConflict, "Identity verification can only start"},
			{"GetAnothers", request{Method: "GET", URL: "/api/v2/idv/session/" + started.ID, Token: a.tokens["bob"]}, http.StatusNotFound, "No such"},
			{"GetUnknown", request{Method: "GET", URL: "/api/v2/idv/session/idv_aaaaaaaaaaaaaaaaaaaa", Token: a.tokens["jane"]}, http.StatusNotFound, "No such"},
			{"GetWithoutLogin", request{Method: "GET", URL: "/api/v2/idv/session/" + started.ID}, http.StatusUnauthorized, "log in"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) { wantStatus(t, a.send(tt.req), tt.wantStatus, tt.wantBody) })
		}

		t.Run("ASecondStartAnswersTheActiveOne", func(t *testing.T) {
			again := decodeIDVSession(t, a.start("jane"))
			if again.ID != started.ID || again.Token == nil || *again.Token != *started.Token {
				t.Errorf("second start = %+v; want %s", again, started.ID)
			}
		})
		t.Run("GetHasNoToken", func(t *testing.T) {
			rec := a.get("jane", started.ID)
			wantStatus(t, rec, http.StatusOK, `"statusText":"active"`)
			if strings.Contains(rec.Body.String(), "token") {
				t.Errorf("GET answers the token: %s", rec.Body.String())
			}
		})
	})
}

// TestIDVSandboxFlow goes through the hosted page as an applicant would,
// framed by the portal, and polls the session as the app does (the sandbox
// here sends no callbacks).
func TestIDVSandboxFlow(t *testing.T) {
	tests := []struct {
		outcome      string
		wantStatus   int
		wantDecision string
	}{
		{"approve", 1, ""},
		{"decline", 2, "declined"},
		{"abandon", 4, ""},
	}
	for _, tt := range tests {
		t.Run(tt.outcome, func(t *testing.T) {
			a := newIDVAPI(t, storetest.OpenSQLite(t, storetest.Config(t)), nil)
			s := decodeIDVSession(t, a.start("jane"))
			page := "/sandbox/idv/" + s.ID + "?token=" + url.QueryEscape(*s.Token)
			if rec := a.send(request{Method: "GET", URL: "/sandbox/idv/" + s.ID}); rec.Code != http.StatusForbidden {
				t.Errorf("page without the token answered %d; want 403", rec.Code)
			}
			rec := a.send(request{Method: "GET", URL: page})
			wantStatus(t, rec, http.StatusOK, "Step 1 of 3")
			for _, step := range []string{"document", "selfie"} {
				if tt.outcome == "abandon" {
					break
				}
				rec := a.send(request{Method: "POST", URL: "/sandbox/idv/" + s.ID + "/" + step, ContentType: "application/x-www-form-urlencoded",
					Body: url.Values{"token": {*s.Token}, "sample": {"1"}}.Encode()})
				if rec.Code != http.StatusSeeOther {
					t.Fatalf("%s step answered %d", step, rec.Code)
				}
			}
			rec = a.send(request{Method: "POST", URL: "/sandbox/idv/" + s.ID + "/" + tt.outcome, ContentType: "application/x-www-form-urlencoded",
				Body: url.Values{"token": {*s.Token}}.Encode()})
			if rec.Code != http.StatusSeeOther {
				t.Fatalf("%s answered %d", tt.outcome, rec.Code)
			}
			wantStatus(t, a.send(request{Method: "GET", URL: page}), http.StatusOK, "http://portal.test/idv/success?session="+s.ID)

			got := decodeIDVSession(t, a.get("jane", s.ID))
			decision := ""
			if got.Decision != nil {
				decision = *got.Decision
			}
			if got.Status != tt.wantStatus || decision != tt.wantDecision {
				t.Errorf("after %s the session is %+v; want status %d, decision %q", tt.outcome, got, tt.wantStatus, tt.wantDecision)
			}
			// Only an active session is answered again: after any outcome
			// a start (which the app makes only after a decline or an
			// expiry) opens a new one.
			if next := decodeIDVSession(t, a.start("jane")); next.ID == s.ID || next.Status != 0 {
				t.Errorf("start after %s answered %+v; want a new active session", tt.outcome, next)
			}
		})
	}
}

func TestIDVCallbackEndpoint(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newIDVAPI(t, db, nil)
		s := decodeIDVSession(t, a.start("bob"))
		body := `{"sessionId":"` + s.ID + `","status":2,"decision":"declined","occurredAt":"2026-11-22T10:00:00Z"}`
		tests := []struct {
			name       string
			signature  string
			body       string
			wantStatus int
		}{
			{"Missing", "", body, http.StatusUnauthorized},
			{"WrongSecret", idvsandbox.Sign([]byte("other"), time.Now(), []byte(body)), body, http.StatusUnauthorized},
			{"Stale", idvsandbox.Sign(idvTestSecret, time.Now().Add(-6*time.Minute), []byte(body)), body, http.StatusUnauthorized},
			{"TamperedBody", idvsandbox.Sign(idvTestSecret, time.Now(), []byte(body)), strings.Replace(body, "declined", "approved", 1), http.StatusUnauthorized},
			{"UnknownSession", idvsandbox.Sign(idvTestSecret, time.Now(), []byte(`{"sessionId":"idv_x","status":1}`)), `{"sessionId":"idv_x","status":1}`, http.StatusNotFound},
			{"TooLarge", "t=1,v1=00", `{"x":"` + strings.Repeat("a", httpapi.MaxIDVCallbackBody) + `"}`, http.StatusRequestEntityTooLarge},
			{"Good", idvsandbox.Sign(idvTestSecret, time.Now(), []byte(body)), body, http.StatusNoContent},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if rec := a.callback(tt.signature, tt.body); rec.Code != tt.wantStatus {
					t.Errorf("callback answered %d %s; want %d", rec.Code, rec.Body.String(), tt.wantStatus)
				}
			})
		}
		got := decodeIDVSession(t, a.get("bob", s.ID))
		if got.Status != 2 || got.StatusText != "checkCompleted" || got.Decision == nil || *got.Decision != "declined" {
			t.Errorf("after the callback the session is %+v; want checkCompleted, declined", got)
		}
		if rec := a.signedCallback(`{"sessionId":"` + s.ID + `","status":1}`); rec.Code != http.StatusNoContent {
			t.Errorf("an older callback answered %d; want 204 (ignored)", rec.Code)
		}
		if got := decodeIDVSession(t, a.get("bob", s.ID)); got.Status != 2 {
			t.Errorf("an older callback moved the session back: %+v", got)
		}
	})
}

type failingIDVProvider struct{ portal.IDVProvider }

func (failingIDVProvider) CreateSession(context.Context, portal.IDVSessionRequest) (portal.IDVProviderSession, error) {
	return portal.IDVProviderSession{}, errors.New("dial tcp: connection refused")
}

func TestIDVProviderFailureIsBadGateway(t *testing.T) {
	a := newIDVAPI(t, storetest.OpenSQLite(t, storetest.Config(t)), failingIDVProvider{})
	rec := a.start("jane")
	wantStatus(t, rec, http.StatusBadGateway, `"errorMessage":"`+portal.IDVSessionFailedMessage+`"`)
	if strings.Contains(rec.Body.String(), "refused") {
		t.Errorf("the cause reached the client: %s", rec.Body.String())
	}
}

func TestSandboxPagesAreFramedByThePortalOnly(t *testing.T) {
	a := newIDVAPI(t, storetest.OpenSQLite(t, storetest.Config(t)), nil)
	tests := []struct {
		path             string
		frameOptions     string
		frameAncestors   string
		cameraPermission string
	}{
		{"/sandbox/idv/idv_aaaaaaaaaaaaaaaaaaaa?token=x", "SAMEORIGIN", "frame-ancestors 'self'", "camera=(self)"},
		{"/sandbox/idv/assets/finished.js", "SAMEORIGIN", "frame-ancestors 'self'", "camera=(self)"},
		{"/idv", "DENY", "frame-ancestors 'none'", "camera=(self)"},
		{"/login", "DENY", "frame-ancestors 'none'", "camera=(self)"},
		{"/api/v2/idv/session/x", "DENY", "frame-ancestors 'none'", "camera=(self)"},
		{"/sandboxes", "DENY", "frame-ancestors 'none'", "camera=(self)"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := a.send(request{Method: "GET", URL: tt.path})
			h := rec.Header()
			csp := h.Get("Content-Security-Policy")
			if h.Get("X-Frame-Options") != tt.frameOptions || !strings.Contains(csp, tt.frameAncestors) ||
				strings.Count(csp, "frame-ancestors") != 1 || !strings.HasPrefix(h.Get("Permissions-Policy"), tt.cameraPermission) {
				t.Errorf("headers of %s: X-Frame-Options %q, CSP %q, Permissions-Policy %q", tt.path, h.Get("X-Frame-Options"), csp, h.Get("Permissions-Policy"))
			}
			for _, keep := range []string{"script-src 'self';", "object-src 'none'", "form-action 'self'"} {
				if !strings.Contains(csp, keep) {
					t.Errorf("CSP of %s lost %q: %s", tt.path, keep, csp)
				}
			}
			if !strings.Contains(h.Get("Permissions-Policy"), "microphone=(), geolocation=(), payment=()") {
				t.Errorf("Permissions-Policy of %s = %q", tt.path, h.Get("Permissions-Policy"))
			}
		})
	}
}
