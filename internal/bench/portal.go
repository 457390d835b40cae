package bench

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// portalProcess is a `portal serve` the bench started, on a free loopback
// port with a data folder (and, on PostgreSQL, a schema) of its own.
type portalProcess struct {
	binary  string
	dataDir string
	dbURL   string   // empty on SQLite
	env     []string // the data key on PostgreSQL
	base    string
	cmd     *exec.Cmd
	logFile *os.File
}

// startPortal starts the real binary as an operator would, with the demo
// employer (the journey walks its package). The sandbox identity check
// answers at once (--idv-check-delay 0s): its usual 5 s are the simulated
// provider's wait, not the portal's work, and would only hold journeys
// idle.
func startPortal(ctx context.Context, binary, dir, dbURL string) (*portalProcess, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	p := &portalProcess{binary: binary, dataDir: filepath.Join(dir, "data"), dbURL: dbURL,
		base: fmt.Sprintf("http://127.0.0.1:%d", port)}
	if err := os.MkdirAll(p.dataDir, 0o700); err != nil {
		return nil, err
	}
	p.env = os.Environ()
	if dbURL != "" {
		key := make([]byte, 32)
		rand.Read(key)
		p.env = append(p.env, "PORTAL_DATA_KEY="+base64.StdEncoding.EncodeToString(key))
	}
	p.logFile, err = os.Create(filepath.Join(dir, "portal.log"))
	if err != nil {
		return nil, err
	}
	args := []string{"serve", "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--demo",
		"--idv-check-delay", "0s"}
	args = append(args, p.storageArgs()...)
	p.cmd = exec.Command(binary, args...)
	p.cmd.Env = p.env
	p.cmd.Stdout = p.logFile
	p.cmd.Stderr = p.logFile
	if err := p.cmd.Start(); err != nil {
		p.logFile.Close()
		return nil, fmt.Errorf("bench: start %s: %w", binary, err)
	}
	if err := p.waitHealthy(ctx); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

func (p *portalProcess) storageArgs() []string {
	if p.dbURL != "" {
		return []string{"--database-url", p.dbURL}
	}
	return []string{"--data", p.dataDir}
}

func (p *portalProcess) pid() int { return p.cmd.Process.Pid }

func (p *portalProcess) waitHealthy(ctx context.Context) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return err
		}
		resp, err := http.Get(p.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("bench: portal did not answer %s/healthz within 60 s; its log: %s", p.base, p.logFile.Name())
}

// cli runs a portal subcommand against the server's database and returns
// its standard output.
func (p *portalProcess) cli(ctx context.Context, args ...string) (string, error) {
	full := append(args[:len(args):len(args)], p.storageArgs()...)
	cmd := exec.CommandContext(ctx, p.binary, full...)
	cmd.Env = p.env
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		return "", fmt.Errorf("bench: portal %s: %w: %s", strings.Join(args, " "), err, msg)
	}
	return string(out), nil
}

// stop ends the server as an operator would (SIGTERM), killing it if it
// has not gone after 20 s.
func (p *portalProcess) stop() {
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
	p.logFile.Close()
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("bench: free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// pgSchema makes a schema of its own for one run in the database at base,
// as the store's tests do (storetest.Schema), and returns a URL whose
// connections use it and a function that drops it.
func pgSchema(ctx context.Context, base string) (string, func(), error) {
	b := make([]byte, 6)
	rand.Read(b)
	schema := "bench_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, fmt.Errorf("bench: postgres: %w", err)
	}
	if _, err := admin.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("bench: create schema: %w", err)
	}
	drop := func() {
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	}
	u, err := url.Parse(base)
	if err != nil {
		drop()
		return "", nil, fmt.Errorf("bench: %s: %w", "PORTAL_TEST_DATABASE_URL", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}

// demoLoginLine is how `portal serve --demo` names the demo applicant, who has gone through
// setup and signed, so their first page is the profile hub rather than the setup wizard.
var demoLoginLine = regexp.MustCompile(`(?m)^Demo login: (\S+) / (.+)$`)

// demoLogin is the demo applicant's username and password from the server's output.
func (p *portalProcess) demoLogin() (username, password string, ok bool) {
	out, err := os.ReadFile(p.logFile.Name())
	if err != nil {
		return "", "", false
	}
	m := demoLoginLine.FindSubmatch(out)
	if m == nil {
		return "", "", false
	}
	return string(m[1]), strings.TrimSpace(string(m[2])), true
}
