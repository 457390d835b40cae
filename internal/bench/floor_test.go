package bench

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startFloorInProcess runs ServeFloor as the re-executed binary would, in
// this process, and returns its address.
func startFloorInProcess(t *testing.T, cfg floorConfig) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "floor.json")
	b, _ := json.Marshal(cfg)
	os.WriteFile(path, b, 0o600)
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeFloor([]string{"-config", path}, stdinR, stdoutW) }()
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stdoutR)
	t.Cleanup(func() {
		stdinW.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeFloor: %v", err)
		}
	})
	return "http://" + strings.TrimSpace(strings.TrimPrefix(line, "listening "))
}

func TestFloorAnswersTheCapturedBytesAndInserts(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "floor.db")
	base := startFloorInProcess(t, floorConfig{
		Tokens: []string{"tok-a", "tok-b"},
		Routes: map[string]floorRoute{
			"/user":     {Status: 200, ContentType: "application/json", Body: []byte(`{"subject":{"id":2}}`)},
			"/put-user": {Status: 201, ContentType: "application/json", Body: []byte(`{"ok":true}`), Write: true},
		},
		SQLitePath: dbPath,
	})
	client := newClient(2)
	read := scenario{Name: "read", Key: "/user", Method: http.MethodGet, Want: 200, Path: fixed("/user")}
	ans, err := send(context.Background(), client, base, "/user", read, applicant{Token: "tok-a"})
	if err != nil || string(ans.Body) != `{"subject":{"id":2}}` || ans.ContentType != "application/json" {
		t.Fatalf("read: %+v, %v", ans, err)
	}
	write := scenario{Name: "write", Key: "/put-user", Method: http.MethodPut, Want: 201, Path: fixed("/put-user"),
		Body: func(applicant) []byte { return []byte(`{"firstName":"Bench"}`) }, Write: true}
	for range 3 {
		if _, err := send(context.Background(), client, base, "/put-user", write, applicant{Token: "tok-b"}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("ErrUnknownToken", func(t *testing.T) {
		if _, err := send(context.Background(), client, base, "/user", read, applicant{Token: "tok-c"}); err == nil || !strings.Contains(err.Error(), "401") {
			t.Fatalf("an unknown token: %v; want a 401", err)
		}
	})
	t.Run("ErrUnknownPath", func(t *testing.T) {
		if _, err := send(context.Background(), client, base, "/nothing", read, applicant{Token: "tok-a"}); err == nil || !strings.Contains(err.Error(), "404") {
			t.Fatalf("an unknown path: %v; want a 404", err)
		}
	})
	client.CloseIdleConnections()

	dsn, _ := floorSQLiteDSN(dbPath)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	var body, mode string
	if err := db.QueryRow(`SELECT count(*), max(body) FROM bench_floor_rows WHERE token = 'tok-b'`).Scan(&n, &body); err != nil {
		t.Fatal(err)
	}
	if n != 3 || body != `{"firstName":"Bench"}` {
		t.Errorf("rows: %d, body %q; want the 3 writes' bodies", n, body)
	}
	// The portal's settings: WAL, as internal/store opens SQLite.
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
}

func TestFloorSQLiteDSNHasTheStoreSettings(t *testing.T) {
	dsn, err := floorSQLiteDSN("/tmp/some folder/floor.db")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"file:///tmp/some%20folder/floor.db?", "_txlock=immediate", "journal_mode%28WAL%29", "synchronous%28FULL%29", "foreign_keys%281%29", "busy_timeout%2810000%29"} {
		if !strings.Contains(dsn, want) {
			t.Errorf("the DSN %q lacks %q", dsn, want)
		}
	}
}
