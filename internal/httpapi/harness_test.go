package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
	paymentsandbox "applicantportal/internal/sandbox/payment"
	sitesandbox "applicantportal/internal/sandbox/sites"
	"applicantportal/internal/store"
)

// harness is the one way the HTTP tests run the API: the real router over
// a test database, wired as cmd/portal wires it, and requests sent as a
// client at remoteAddr would. The scenario types (oauthAPI, legalAPI,
// personalAPI) embed it and add their own data.
type harness struct {
	t          *testing.T
	db         *store.DB
	handler    http.Handler
	remoteAddr string
	ev         *store.Events
}

// events opens the database's events once per harness, closed before the
// database when the test ends.
func (h *harness) events() *store.Events {
	h.t.Helper()
	if h.ev == nil {
		ev, err := store.OpenEvents(context.Background(), h.db)
		if err != nil {
			h.t.Fatal(err)
		}
		h.t.Cleanup(func() { ev.Close() })
		h.ev = ev
	}
	return h.ev
}

func newHarness(t *testing.T, db *store.DB, remoteAddr string) *harness {
	t.Helper()
	return &harness{t: t, db: db, remoteAddr: remoteAddr}
}

// logIn gives the subject the tests' password and logs them in through the
// "spa" client the scenario registered, answering their access token.
func logIn(t *testing.T, db *store.DB, s *portal.Subject) string {
	t.Helper()
	ctx := context.Background()
	if err := db.Auth().SetInitialPassword(ctx, s.ID, "a long enough passphrase"); err != nil {
		t.Fatal(err)
	}
	pair, err := db.Auth().Login(ctx, portal.Credentials{ClientID: "spa", ClientSecret: "spa-secret",
		Username: s.Username, Password: "a long enough passphrase", IP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	return pair.AccessToken
}

// storeServices are the store's services as cmd/portal serve builds them
// (store.DB.Services), over the sandboxes. events nil leaves the event
// streams out: the chat then publishes through the database alone.
func storeServices(db *store.DB, events portal.Events) httpapi.Services {
	return httpapi.Services{
		Services: db.Services(store.ServicesConfig{
			IDV: store.IDVConfig{Provider: idvsandbox.New(idvsandbox.Config{Records: db.SandboxRecords(),
				Secret: []byte("harness callback secret"), SessionTTL: time.Hour, CheckDelay: time.Second}), ReturnURL: "http://portal.test/idv/success"},
			Payments:       paymentsandbox.New(paymentsandbox.Config{Records: db.SandboxRecords(), SlowDelay: 2 * time.Second}),
			PaymentTimeout: time.Second,
			Sites:          sitesandbox.New(),
			Events:         events,
		}),
		Health: db.Health, Classify: db.Classify,
	}
}

// testIndex is the app's index.html when a test gives no files.
var testIndex = fstest.MapFS{"index.html": {Data: []byte(`<html><head><meta name="portal-config" content="__PORTAL_CONFIG__"></head></html>`)}}

// serve (re)starts the server with cfg over the harness's database; web
// nil serves testIndex, logger nil discards the log.
func (h *harness) serve(cfg httpapi.Config, web fs.FS, logger *slog.Logger) *httpapi.Server {
	h.t.Helper()
	if web == nil {
		web = testIndex
	}
	srv, err := httpapi.New(cfg, storeServices(h.db, h.events()), web, logger)
	if err != nil {
		h.t.Fatal(err)
	}
	h.handler = srv.Handler()
	return srv
}

// request is one scenario of the API.
type request struct {
	Method, URL string
	Body        any // a map is sent as JSON, a string or []byte as is
	ContentType string
	Token       string
	Header      map[string]string // a value with newlines goes as several header lines; RemoteAddr sets the client's address
}

func (h *harness) send(r request) *httptest.ResponseRecorder {
	h.t.Helper()
	var body []byte
	switch b := r.Body.(type) {
	case nil:
	case string:
		body = []byte(b)
	case []byte:
		body = b
	default:
		var err error
		if body, err = json.Marshal(b); err != nil {
			h.t.Fatal(err)
		}
		if r.ContentType == "" {
			r.ContentType = "application/json"
		}
	}
	req := httptest.NewRequest(r.Method, r.URL, bytes.NewReader(body))
	req.RemoteAddr = h.remoteAddr
	if r.ContentType != "" {
		req.Header.Set("Content-Type", r.ContentType)
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	for k, v := range r.Header {
		if k == "RemoteAddr" {
			req.RemoteAddr = v
			continue
		}
		for _, line := range strings.Split(v, "\n") {
			req.Header.Add(k, line)
		}
	}
	rec := httptest.NewRecorder()
	h.handler.ServeHTTP(rec, req)
	return rec
}
