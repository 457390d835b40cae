package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"applicantportal/internal/demo"
	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// writeBench is the API over the demo employer on a real SQLite store (WAL,
// synchronous FULL, as served), with the demo applicant logged in: setup
// done, every legal document signed with the last four digits of the SSN
// on file, so the writes do all the work an applicant's writes do.
type writeBench struct {
	handler http.Handler
	token   string
	profile int64
}

func newWriteBench(b *testing.B) *writeBench {
	b.Helper()
	ctx := context.Background()
	cfg := storetest.Config(b)
	var db *store.DB
	if os.Getenv("PORTAL_BENCH_POSTGRES") != "" {
		db = storetest.OpenPostgres(b, cfg)
	} else {
		db = storetest.OpenSQLite(b, cfg)
	}
	if _, err := demo.Seed(ctx, db, "http://portal.test"); err != nil {
		b.Fatal(err)
	}
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		b.Fatal(err)
	}
	pair, err := db.Auth().Login(ctx, portal.Credentials{ClientID: "spa", ClientSecret: "spa-secret",
		Username: demo.LoginEmail, Password: demo.LoginPass, IP: "192.0.2.1"})
	if err != nil {
		b.Fatal(err)
	}
	ev, err := store.OpenEvents(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ev.Close() })
	srv, err := httpapi.New(httpapi.Config{}, storeServices(db, ev), testIndex, nil)
	if err != nil {
		b.Fatal(err)
	}
	wb := &writeBench{handler: srv.Handler(), token: pair.AccessToken}
	var user struct {
		Profile struct {
			ID int64 `json:"id"`
		} `json:"profile"`
	}
	if err := json.Unmarshal(wb.expect(b, http.MethodGet, "/api/v2/user", nil, http.StatusOK), &user); err != nil {
		b.Fatal(err)
	}
	wb.profile = user.Profile.ID
	return wb
}

// expect sends one request as the demo applicant and fails unless it
// answers status.
func (wb *writeBench) expect(b *testing.B, method, url string, body []byte, status int) []byte {
	req := httptest.NewRequest(method, url, bytes.NewReader(body))
	req.RemoteAddr = "192.0.2.1:1234"
	req.Header.Set("Authorization", "Bearer "+wb.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	wb.handler.ServeHTTP(rec, req)
	if rec.Code != status {
		b.Fatalf("%s %s = %d, want %d: %s", method, url, rec.Code, status, rec.Body)
	}
	return rec.Body.Bytes()
}

// run measures one request sent again and again. Besides the wall time
// it reports the process's CPU time per request (cpu-ns/op), which holds
// on a machine shared with other work, as the figures are.
func (wb *writeBench) run(b *testing.B, method, url string, body any, status int) {
	plain, err := json.Marshal(body)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		wb.expect(b, method, url, plain, status)
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkUserPut is the save of the personal information form: the SSN
// is checked against the digits signed with.
func BenchmarkUserPut(b *testing.B) {
	wb := newWriteBench(b)
	p := validPersonal()
	p["ssn"], p["confirmSSN"] = "123-45-6789", "123-45-6789"
	wb.run(b, http.MethodPut, "/api/v2/user", p, http.StatusOK)
}

// BenchmarkAddressPut saves seven years of addresses in two entries.
func BenchmarkAddressPut(b *testing.B) {
	wb := newWriteBench(b)
	body := map[string]any{"addresses": []map[string]any{
		{"country": "US", "street1": "1600 Pennsylvania Ave NW", "city": "Washington", "state": "US-DC", "zip": "20500",
			"from": "2022-03", "current": true},
		{"country": "US", "street1": "1 Dr Carlton B Goodlett Pl", "city": "San Francisco", "state": "US-CA", "zip": "94102",
			"from": "2015-01", "to": "2022-03"},
	}}
	wb.run(b, http.MethodPut, "/api/v2/user/subject/address", body, http.StatusOK)
}

// BenchmarkChatMessagePost sends a text message to the employer.
func BenchmarkChatMessagePost(b *testing.B) {
	wb := newWriteBench(b)
	url := fmt.Sprintf("/api/v2/user/subject/profile/%d/chat-messages", wb.profile)
	wb.run(b, http.MethodPost, url, map[string]any{"message": "When is my drug test?"}, http.StatusCreated)
}
