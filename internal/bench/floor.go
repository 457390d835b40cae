package bench

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the pgx driver, as the portal's store uses
	_ "modernc.org/sqlite"             // the SQLite driver, as the portal's store uses
)

// The floor is what the cheapest possible server would spend on the same
// request: a bare net/http handler that finds the bearer token in a map and
// answers the bytes the portal answered; for a write, it also inserts one
// row through the portal's own driver and settings. It runs in a process of
// its own (the bench binary re-executed with the hidden subcommand
// FloorCommand) so its CPU is measured alone, as the portal's is.

// FloorCommand is the hidden subcommand of the bench binary that serves a
// floor; cmd/bench hands it to ServeFloor.
const FloorCommand = "floor"

// floorRoute is one scenario's answer on the floor.
type floorRoute struct {
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        []byte `json:"body"`
	Write       bool   `json:"write"` // insert a row before answering
}

// floorConfig is what the floor process is told, as a JSON file.
type floorConfig struct {
	Tokens []string              `json:"tokens"`
	Routes map[string]floorRoute `json:"routes"` // by path: /{scenario}
	// Where writes go: a SQLite file opened as the portal opens its
	// database, or a PostgreSQL URL (a schema of the bench's own).
	SQLitePath  string `json:"sqlitePath"`
	PostgresURL string `json:"postgresURL"`
}

// ServeFloor runs the floor server until its standard input closes (the
// bench ends it that way, or by a signal). It prints "listening ADDR" once it
// accepts connections.
func ServeFloor(args []string, stdin io.Reader, stdout io.Writer) error {
	f := flag.NewFlagSet(FloorCommand, flag.ContinueOnError)
	configPath := f.String("config", "", "the floor's JSON configuration")
	if err := f.Parse(args); err != nil {
		return err
	}
	b, err := os.ReadFile(*configPath)
	if err != nil {
		return fmt.Errorf("bench floor: %w", err)
	}
	var cfg floorConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("bench floor: config: %w", err)
	}
	db, insert, err := openFloorDB(cfg)
	if err != nil {
		return err
	}
	if db != nil {
		defer db.Close()
	}
	tokens := make(map[string]bool, len(cfg.Tokens))
	for _, t := range cfg.Tokens {
		tokens[t] = true
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || !tokens[token] {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		route, ok := cfg.Routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if route.Write {
			if db == nil {
				http.Error(w, "no database", http.StatusInternalServerError)
				return
			}
			if _, err := db.ExecContext(r.Context(), insert, token, body, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Type", route.ContentType)
		w.WriteHeader(route.Status)
		w.Write(route.Body)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("bench floor: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		io.Copy(io.Discard, stdin) // the bench closes it to stop us
		srv.Close()
	}()
	fmt.Fprintf(stdout, "listening %s\n", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("bench floor: %w", err)
	}
	return nil
}

// openFloorDB opens the database a write floor inserts into, with the
// statement it runs; nil when the floor only reads.
func openFloorDB(cfg floorConfig) (*sql.DB, string, error) {
	switch {
	case cfg.PostgresURL != "":
		db, err := sql.Open("pgx", cfg.PostgresURL)
		if err != nil {
			return nil, "", fmt.Errorf("bench floor: %w", err)
		}
		// The store's pool settings on PostgreSQL.
		db.SetMaxOpenConns(20)
		db.SetMaxIdleConns(10)
		if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS bench_floor_rows (id BIGSERIAL PRIMARY KEY, token TEXT NOT NULL, body BYTEA NOT NULL, created_at TEXT NOT NULL)`); err != nil {
			db.Close()
			return nil, "", fmt.Errorf("bench floor: create table: %w", err)
		}
		return db, `INSERT INTO bench_floor_rows (token, body, created_at) VALUES ($1, $2, $3)`, nil
	case cfg.SQLitePath != "":
		dsn, err := floorSQLiteDSN(cfg.SQLitePath)
		if err != nil {
			return nil, "", err
		}
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, "", fmt.Errorf("bench floor: %w", err)
		}
		// The store's pool settings on SQLite.
		db.SetMaxOpenConns(4)
		db.SetMaxIdleConns(4)
		if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS bench_floor_rows (id INTEGER PRIMARY KEY, token TEXT NOT NULL, body BLOB NOT NULL, created_at TEXT NOT NULL)`); err != nil {
			db.Close()
			return nil, "", fmt.Errorf("bench floor: create table: %w", err)
		}
		return db, `INSERT INTO bench_floor_rows (token, body, created_at) VALUES (?, ?, ?)`, nil
	}
	return nil, "", nil
}

// floorSQLiteDSN is the DSN internal/store opens the portal's database
// with (dialect.go, sqliteDSNWith): WAL, synchronous=FULL, foreign keys, a
// 10 s busy timeout and transactions that take the write lock at BEGIN.
func floorSQLiteDSN(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("bench floor: %w", err)
	}
	q := url.Values{
		"_txlock": {"immediate"},
		"_pragma": {"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(FULL)"},
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String(), nil
}

// floorProcess is a running floor.
type floorProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	base  string
}

// startFloor re-executes the bench binary as a floor with cfg.
func startFloor(ctx context.Context, self, dir string, cfg floorConfig) (*floorProcess, error) {
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fmt.Sprintf("floor-%d.json", time.Now().UnixNano()))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("bench: floor config: %w", err)
	}
	cmd := exec.CommandContext(ctx, self, FloorCommand, "-config", path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: start floor: %w", err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		stdin.Close()
		cmd.Wait()
		return nil, fmt.Errorf("bench: floor did not start (%q): %v", line, err)
	}
	return &floorProcess{cmd: cmd, stdin: stdin, base: "http://" + addr}, nil
}

func (f *floorProcess) pid() int { return f.cmd.Process.Pid }

// stop ends the floor by closing its standard input, and kills it if it
// does not go.
func (f *floorProcess) stop() {
	f.stdin.Close()
	done := make(chan struct{})
	go func() { f.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		f.cmd.Process.Kill()
		<-done
	}
}
