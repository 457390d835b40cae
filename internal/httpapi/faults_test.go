package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// lockedLog is a log buffer the store's background probe and the test
// may use at once.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// count answers how many log lines have msg as their message.
func (l *lockedLog) count(msg string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range strings.Split(l.buf.String(), "\n") {
		var rec struct{ Msg string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == msg {
			n++
		}
	}
	return n
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

const (
	outageBegins = "database unavailable: requests answer 503 until it answers again"
	outageEnds   = "database available again"
	fullBegins   = "storage full: writes answer 507 until a write finds room again"
	fullEnds     = "storage writable again"
)

// waitHealthy polls /healthz until it answers 200, failing after limit.
func waitHealthy(t *testing.T, a *oauthAPI, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		rec := a.send(request{Method: "GET", URL: "/healthz"})
		if rec.Code == 200 {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			t.Fatalf("/healthz still answers %d %s after %v", rec.Code, rec.Body, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDatabaseAwayAnswers503 makes the database go away for real: on
// SQLite another connection holds the write lock past the busy timeout; on
// PostgreSQL a proxy between the portal and the server drops every
// connection and refuses new ones. Every request meanwhile answers 503
// with Retry-After and the plain message, /healthz answers 503, the log
// has one line when the outage begins and one when it ends, and once the
// database is back everything answers again without a restart.
func TestDatabaseAwayAnswers503(t *testing.T) {
	for _, tc := range []struct {
		name string
		// open opens the database and answers how to take it away and
		// bring it back.
		open func(t *testing.T, cfg store.Config) (db *store.DB, away, back func())
	}{{
		name: "SQLiteBusy",
		open: func(t *testing.T, cfg store.Config) (*store.DB, func(), func()) {
			cfg.BusyTimeout = 100 * time.Millisecond
			db := storetest.OpenSQLite(t, cfg)
			var holder *sql.Conn
			away := func() {
				var err error
				if holder, err = db.SQL().Conn(context.Background()); err != nil {
					t.Fatal(err)
				}
				if _, err := holder.ExecContext(context.Background(), `BEGIN IMMEDIATE`); err != nil {
					t.Fatal(err)
				}
			}
			back := func() {
				if _, err := holder.ExecContext(context.Background(), `ROLLBACK`); err != nil {
					t.Fatal(err)
				}
				holder.Close()
			}
			return db, away, back
		},
	}, {
		name: "PostgreSQLAway",
		open: func(t *testing.T, cfg store.Config) (*store.DB, func(), func()) {
			db, proxy := storetest.OpenPostgresViaProxy(t, cfg)
			return db, proxy.Cut, proxy.Restore
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			logs := &lockedLog{}
			cfg := storetest.Config(t)
			cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
			db, away, back := tc.open(t, cfg)
			a := newOAuthAPI(t, db, nil)
			a.tokens("jane@example.com", janePass)

			away()
			for i := range 5 {
				// Logging in writes a token; a read needs the database too.
				for _, r := range []request{
					{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", janePass)},
					{Method: "GET", URL: "/api/v2/user", Token: "a token the database would have to look up"},
				} {
					rec := a.send(r)
					if tc.name == "SQLiteBusy" && r.Method == "GET" {
						// SQLite's readers do not wait for the write lock.
						continue
					}
					if rec.Code != 503 || rec.Header().Get("Retry-After") != "2" {
						t.Fatalf("request %d %s %s during the outage = %d (Retry-After %q) %s; want 503 with Retry-After 2",
							i, r.Method, r.URL, rec.Code, rec.Header().Get("Retry-After"), rec.Body)
					}
					if got := decode(t, rec)["errorMessage"]; got != store.UnavailableMessage {
						t.Fatalf("errorMessage = %q; want %q", got, store.UnavailableMessage)
					}
				}
				if rec := a.send(request{Method: "GET", URL: "/healthz"}); rec.Code != 503 || decode(t, rec)["status"] != "unavailable" {
					t.Fatalf("/healthz during the outage = %d %s; want 503 unavailable", rec.Code, rec.Body)
				}
			}
			back()
			took := waitHealthy(t, a, 5*time.Second)
			t.Logf("/healthz answered 200 %v after the database came back", took)
			a.tokens("jane@example.com", janePass)

			expectOneOutageLogged(t, logs, a)
		})
	}
}

// TestSilentDatabaseIsUnavailable: a PostgreSQL server that answers
// nothing (a network dropping packets) makes /healthz answer 503 within
// its 2 s check, starting the outage once, and 200 once it answers again.
func TestSilentDatabaseIsUnavailable(t *testing.T) {
	logs := &lockedLog{}
	cfg := storetest.Config(t)
	cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	db, proxy := storetest.OpenPostgresViaProxy(t, cfg)
	a := newOAuthAPI(t, db, nil)
	proxy.Silence()
	start := time.Now()
	if rec := a.send(request{Method: "GET", URL: "/healthz"}); rec.Code != 503 || decode(t, rec)["status"] != "unavailable" {
		t.Fatalf("/healthz while the database is silent = %d %s; want 503 unavailable", rec.Code, rec.Body)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("/healthz took %v; want its 2 s check", took)
	}
	for range 3 {
		if rec := a.send(request{Method: "GET", URL: "/healthz"}); rec.Code != 503 {
			t.Fatalf("/healthz again = %d %s; want 503", rec.Code, rec.Body)
		}
	}
	proxy.Restore()
	waitHealthy(t, a, 20*time.Second)
	expectOneOutageLogged(t, logs, a)
}

// expectOneOutageLogged: the store logged the outage once as it began and
// once as it ended, and the server no request of it as an error.
func expectOneOutageLogged(t *testing.T, logs *lockedLog, a *oauthAPI) {
	t.Helper()
	if n := logs.count(outageBegins); n != 1 {
		t.Errorf("%d lines %q; want 1 for the outage\n%s", n, outageBegins, logs)
	}
	if n := logs.count(outageEnds); n != 1 {
		t.Errorf("%d lines %q; want 1 for its end\n%s", n, outageEnds, logs)
	}
	if strings.Contains(a.logs.String(), `"level":"ERROR"`) {
		t.Errorf("the server logged errors for the outage's requests:\n%s", a.logs)
	}
}

// TestStorageFullAnswers507 fills a SQLite database for real (PRAGMA
// max_page_count on each of the pool's connections): logging in, which
// writes a token, answers 507 with the plain message, /healthz answers 503
// "storage full", each logged once; raising the limit again lets /healthz's
// check and the next login succeed without a restart.
func TestStorageFullAnswers507(t *testing.T) {
	logs := &lockedLog{}
	cfg := storetest.Config(t)
	cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	db := storetest.OpenSQLite(t, cfg)
	a := newOAuthAPI(t, db, nil)
	a.tokens("jane@example.com", janePass)
	ctx := context.Background()

	// eachConn runs query on every connection of the pool (it keeps 4):
	// max_page_count belongs to a connection.
	eachConn := func(query string) {
		t.Helper()
		var conns []*sql.Conn
		for range 4 {
			c, err := db.SQL().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
			if _, err := c.ExecContext(ctx, query); err != nil {
				t.Fatalf("%s: %v", query, err)
			}
		}
		for _, c := range conns {
			c.Close()
		}
	}
	var pages int
	if err := db.SQL().QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	eachConn("PRAGMA max_page_count = " + itoa(int64(pages+4)))
	// Fill what room is left, so even a small row finds none.
	for size := 4096; size >= 16; size /= 4 {
		for i := 0; ; i++ {
			if _, err := db.SQL().ExecContext(ctx, `INSERT INTO meta (name, value) VALUES ($1, zeroblob($2))`,
				"filler-"+itoa(int64(size))+"-"+itoa(int64(i)), size); err != nil {
				break
			}
		}
	}

	// A small row may still fit in a page's last bytes (a login's token
	// did about 20 times here): the disk is full when a write does not,
	// and every login after it fails the same way.
	login := func() *httptest.ResponseRecorder {
		return a.send(request{Method: "POST", URL: "/oauth/access_token", Body: passwordGrant("jane@example.com", janePass)})
	}
	for i := 0; login().Code == 200; i++ {
		if i == 200 {
			t.Fatal("200 logins succeeded on the full database")
		}
	}
	for range 5 {
		rec := login()
		if rec.Code != 507 {
			t.Fatalf("login on a full database = %d %s; want 507", rec.Code, rec.Body)
		}
		if got := decode(t, rec)["errorMessage"]; got != store.StorageFullMessage {
			t.Fatalf("errorMessage = %q; want %q", got, store.StorageFullMessage)
		}
	}
	for range 3 {
		if rec := a.send(request{Method: "GET", URL: "/healthz"}); rec.Code != 503 || decode(t, rec)["status"] != "storage full" {
			t.Fatalf("/healthz on a full database = %d %s; want 503 storage full", rec.Code, rec.Body)
		}
	}

	eachConn("PRAGMA max_page_count = 1073741823")
	if rec := a.send(request{Method: "GET", URL: "/healthz"}); rec.Code != 200 {
		t.Fatalf("/healthz once there is room = %d %s; want 200", rec.Code, rec.Body)
	}
	a.tokens("jane@example.com", janePass)
	if n := logs.count(fullBegins); n != 1 {
		t.Errorf("%d lines %q; want 1\n%s", n, fullBegins, logs)
	}
	if n := logs.count(fullEnds); n != 1 {
		t.Errorf("%d lines %q; want 1\n%s", n, fullEnds, logs)
	}
	if strings.Contains(a.logs.String(), `"level":"ERROR"`) {
		t.Errorf("the server logged errors for the full disk's requests:\n%s", a.logs)
	}
}

// TestChatStreamResumesSoonAfterTheDatabaseReturns: while PostgreSQL is
// away (a proxy between the portal and the server is cut), an open chat
// stream stays open; once the database is back the stream ends with a
// short retry (events may have been missed), and the reopened stream
// carries a new message within 3 s of the database coming back.
func TestChatStreamResumesSoonAfterTheDatabaseReturns(t *testing.T) {
	db, proxy := storetest.OpenPostgresViaProxy(t, storetest.Config(t))
	a := newChatAPI(t, db)
	a.srv.SetChatKeepAlive(200 * time.Millisecond)
	ts := httptest.NewServer(a.handler)
	t.Cleanup(ts.Close) // after the streams' own cleanups, which close them
	s := openStream(t, ts, a.url("jane", "/events"), a.tokens["jane"])
	s.expect(t, "event: ready")

	proxy.Cut()
	time.Sleep(3 * time.Second)
	s.expect(t, ": keep-alive") // still open
	proxy.Restore()
	back := time.Now()

	// The stream ends, telling the app to come back within about a second.
	var retry int
	for line := range s.lines {
		if v, ok := strings.CutPrefix(line, "retry: "); ok {
			json.Unmarshal([]byte(v), &retry)
		}
	}
	if retry < 250 || retry > 1250 {
		t.Fatalf("the stream ended with retry %d ms; want 250 to 1250", retry)
	}
	if time.Since(back) > 3*time.Second {
		t.Fatalf("the stream ended %v after the database came back", time.Since(back))
	}
	time.Sleep(time.Duration(retry) * time.Millisecond)
	var again *sseStream
	for again == nil {
		req, _ := http.NewRequest("GET", ts.URL+a.url("jane", "/events"), nil)
		req.Header.Set("Authorization", "Bearer "+a.tokens["jane"])
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == 200 {
			t.Cleanup(func() { resp.Body.Close() })
			again = &sseStream{resp: resp, lines: make(chan string, 100)}
			go func() {
				defer close(again.lines)
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					again.lines <- sc.Text()
				}
			}()
			break
		}
		resp.Body.Close()
		if time.Since(back) > 3*time.Second {
			t.Fatalf("the stream still answers %d 3 s after the database came back", resp.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
	again.expect(t, "event: ready")
	m := a.reply("after the outage")
	again.expect(t, "event: chat", fmt.Sprintf(`data: {"kind":"message","messageId":%d,"sender":"employer"}`, m.ID))
	t.Logf("a new message arrived %v after the database came back", time.Since(back).Round(time.Millisecond))
	if time.Since(back) > 3*time.Second {
		t.Fatalf("the new message arrived %v after the database came back; want within 3 s", time.Since(back))
	}
}
