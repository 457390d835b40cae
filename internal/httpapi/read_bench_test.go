package httpapi_test

import (
	"bytes"
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"applicantportal/internal/demo"
	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// readBench is the demo employer (eleven package services, the sample
// legal documents, an applicant past setup with personal information and
// every document signed) behind the real router, with that applicant's
// access token: the read path as an applicant's browser meets it.
type readBench struct {
	handler http.Handler
	token   string
}

func newReadBench(tb testing.TB, db *store.DB) *readBench {
	tb.Helper()
	ctx := context.Background()
	token := demoAccessToken(tb, db)
	ev, err := store.OpenEvents(ctx, db)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ev.Close() })
	srv, err := httpapi.New(httpapi.Config{ClientID: "spa", ClientSecret: "spa-secret"}, storeServices(db, ev), testIndex, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return &readBench{handler: srv.Handler(), token: token}
}

// demoAccessToken seeds the demo employer and applicant in db, with the
// SPA's client, and answers an access token of the applicant's login.
func demoAccessToken(tb testing.TB, db *store.DB) string {
	tb.Helper()
	ctx := context.Background()
	if _, err := demo.Seed(ctx, db, "http://portal.test"); err != nil {
		tb.Fatal(err)
	}
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		tb.Fatal(err)
	}
	pair, err := db.Auth().Login(ctx, portal.Credentials{ClientID: "spa", ClientSecret: "spa-secret",
		Username: demo.LoginEmail, Password: demo.LoginPass, IP: "192.0.2.1"})
	if err != nil {
		tb.Fatal(err)
	}
	return pair.AccessToken
}

// get answers the applicant's GET of path, failing unless it is a 200.
func (b *readBench) get(tb testing.TB, path string) []byte {
	req := httptest.NewRequest("GET", path, nil)
	req.RemoteAddr = "192.0.2.1:4242"
	req.Header.Set("Authorization", "Bearer "+b.token)
	rec := httptest.NewRecorder()
	b.handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		tb.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

func benchmarkRead(b *testing.B, path string) {
	rb := newReadBench(b, storetest.OpenSQLite(b, storetest.Config(b)))
	rb.get(b, path)
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		rb.get(b, path)
	}
	// The machine is shared: wall time per request says more about the
	// neighbours than about the portal, the process's CPU time does not.
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU the process has used so far, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkUserGet(b *testing.B)      { benchmarkRead(b, "/api/v2/user") }
func BenchmarkDocumentList(b *testing.B) { benchmarkRead(b, "/api/v2/user/document") }
func BenchmarkSubjectGet(b *testing.B)   { benchmarkRead(b, "/api/v2/user/subject") }

// readAnswers are the answers the read path's speed-ups must keep byte for
// byte: the spec's fields are the contract, and the web app reads them.
var readAnswers = []struct{ path, golden string }{
	{"/api/v2/user", "user.json"},
	{"/api/v2/user/document", "document.json"},
	{"/api/v2/user/subject", "subject.json"},
}

// updateReadAnswers rewrites the golden answers: go test -run
// TestReadAnswersUnchanged -update-read-answers, only when an answer is
// meant to change.
var updateReadAnswers = flag.Bool("update-read-answers", false, "rewrite testdata/read/*.json")

// TestReadAnswersUnchanged compares what the demo applicant reads with the
// answers recorded before the read path was made faster (caches, merged
// queries, prepared statements), on a clock that stands still so that the
// signatures' times are the recorded ones.
func TestReadAnswersUnchanged(t *testing.T) {
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return time.Date(2026, 3, 4, 15, 4, 5, 0, time.UTC) }
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		rb := newReadBench(t, db)
		for _, a := range readAnswers {
			got := rb.get(t, a.path)
			file := filepath.Join("testdata", "read", a.golden)
			if *updateReadAnswers && db.Dialect() == "sqlite" {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("GET %s changed:\n got %s\nwant %s", a.path, got, want)
			}
		}
	})
}
