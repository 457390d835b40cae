package main_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"applicantportal/internal/store"
)

// portalBin is the real binary, built once for these tests, or the one
// PORTAL_TEST_BIN names: `make test` builds bin/portal for the browser tests
// anyway and hands it over rather than have it linked twice.
var portalBin string

func TestMain(m *testing.M) {
	if bin := os.Getenv("PORTAL_TEST_BIN"); bin != "" {
		portalBin = bin
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "portal-bin")
	if err != nil {
		panic(err)
	}
	portalBin = filepath.Join(dir, "portal")
	build := exec.Command("go", "build", "-o", portalBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building portal:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is a running `portal serve` on a random port.
type server struct {
	cmd     *exec.Cmd
	base    string
	data    string
	stdout  *bytes.Buffer
	stderr  *bytes.Buffer
	lines   []string
	stopped bool
}

func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	data := t.TempDir()
	cmd := exec.Command(portalBin, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data}, args...)...)
	cmd.Env = append(os.Environ(), "PORTAL_LOG_FORMAT=json")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, data: data, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !s.stopped {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	sc := bufio.NewScanner(out)
	deadline := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		line := sc.Text()
		s.lines = append(s.lines, line)
		if rest, ok := strings.CutPrefix(line, "Applicant portal listening on "); ok {
			s.base = rest
			break
		}
	}
	if s.base == "" {
		t.Fatalf("server did not start; stdout %q; stderr %s", s.lines, s.stderr)
	}
	go io.Copy(s.stdout, out)
	return s
}

func (s *server) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("portal serve exited with %v after SIGTERM; stderr: %s", err, s.stderr)
	}
	s.stopped = true
}

func runPortal(t *testing.T, args ...string) string {
	t.Helper()
	return runPortalEnv(t, nil, args...)
}

type client struct {
	t    *testing.T
	base string
}

func (c client) do(method, path, token string, body any) (int, map[string]any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			c.t.Fatalf("%s %s: answer is not JSON: %s", method, path, raw)
		}
	}
	return res.StatusCode, out
}

// TestInvitationToLogoutThroughTheRealBinary walks an applicant through the
// foundation: invited by the operator command, token login, password
// creation, login, refresh, logout, and a graceful SIGTERM.
func TestInvitationToLogoutThroughTheRealBinary(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--demo")
	c := client{t: t, base: srv.base}

	out := runPortal(t, "invite", "--data", srv.data, "--email", "Pat.Lee@example.com", "--first-name", "Pat",
		"--last-name", "Lee", "--base-url", srv.base)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	link, err := url.Parse(lines[len(lines)-1])
	if err != nil || link.Path != "/setup" || link.Query().Get("token") == "" {
		t.Fatalf("invite's last line %q is not a setup link", lines[len(lines)-1])
	}
	token := link.Query().Get("token")

	status, user := c.do("GET", "/api/user?token="+url.QueryEscape(token), "", nil)
	if status != 200 || user["scope"] != "setup" || user["access_token"] == "" {
		t.Fatalf("token login = %d %v", status, user)
	}
	setupToken := user["access_token"].(string)
	subject := user["subject"].(map[string]any)
	if subject["username"] != "pat.lee@example.com" || subject["status"].(map[string]any)["statusId"] != float64(0) {
		t.Fatalf("token login subject = %v", subject)
	}

	if status, body := c.do("PATCH", "/api/v2/user", setupToken, map[string]any{"password": "short"}); status != 422 {
		t.Fatalf("short password = %d %v; want 422", status, body)
	}
	const pw = "a long enough passphrase"
	if status, body := c.do("PATCH", "/api/v2/user", setupToken, map[string]any{"password": pw}); status != 200 {
		t.Fatalf("create password = %d %v", status, body)
	}
	if status, _ := c.do("GET", "/api/user?token="+url.QueryEscape(token), "", nil); status != 403 {
		t.Fatalf("used invitation answered %d; want 403", status)
	}

	login := map[string]any{"grant_type": "password", "username": "pat.lee@example.com", "password": pw,
		"client_id": "portal-spa", "client_secret": "portal-spa-secret", "scope": "default"}
	status, tokens := c.do("POST", "/oauth/access_token", "", login)
	if status != 200 || tokens["refresh_token"] == nil || tokens["expires_in"] != float64(3600) {
		t.Fatalf("login = %d %v", status, tokens)
	}
	if status, _ := c.do("GET", "/api/v2/user", tokens["access_token"].(string), nil); status != 200 {
		t.Fatalf("GET user with access token = %d", status)
	}

	refresh := map[string]any{"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
		"client_id": "portal-spa", "client_secret": "portal-spa-secret", "scope": "default"}
	status, renewed := c.do("POST", "/oauth/access_token", "", refresh)
	if status != 200 || renewed["refresh_token"] == tokens["refresh_token"] {
		t.Fatalf("refresh = %d %v; want a rotated refresh token", status, renewed)
	}
	access := renewed["access_token"].(string)

	if status, _ := c.do("DELETE", "/oauth/access_token", access, nil); status != 204 {
		t.Fatalf("logout = %d; want 204", status)
	}
	if status, _ := c.do("GET", "/api/v2/user", access, nil); status != 401 {
		t.Fatalf("GET user after logout = %d; want 401", status)
	}

	srv.stop(t)
	for _, secret := range []string{token, pw, access, tokens["refresh_token"].(string)} {
		if strings.Contains(srv.stderr.String(), secret) || strings.Contains(srv.stdout.String(), secret) {
			t.Fatalf("a secret appears in the server's output")
		}
	}
	if !strings.Contains(srv.stderr.String(), `"msg":"stopped"`) {
		t.Fatalf("no clean stop logged: %s", srv.stderr)
	}
}

// TestDemoPrintsItsLinkAndLoginOnEveryStart proves `make run` always has a
// link and login to show, also when the data folder already exists.
func TestDemoPrintsItsLinkAndLoginOnEveryStart(t *testing.T) {
	t.Parallel()
	first := startServer(t, "--demo")
	first.stop(t)
	joined := strings.Join(first.lines, "\n")
	if !strings.Contains(joined, "Demo invitation link: http://") || !strings.Contains(joined, "Demo login: demo.applicant@example.com / ") {
		t.Fatalf("first start printed %q", joined)
	}
	again := exec.Command(portalBin, "serve", "--addr", "127.0.0.1:0", "--data", first.data, "--demo")
	out, _ := again.StdoutPipe()
	if err := again.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { again.Process.Signal(syscall.SIGTERM); again.Wait() }()
	sc := bufio.NewScanner(out)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.HasPrefix(sc.Text(), "Applicant portal listening on") {
			break
		}
	}
	if joined := strings.Join(seen, "\n"); !strings.Contains(joined, "Demo invitation link:") {
		t.Fatalf("second start printed no invitation link: %q", joined)
	}
}

// TestServeHelpListsEverySetting proves each setting has a flag and an
// environment variable.
func TestServeHelpListsEverySetting(t *testing.T) {
	t.Parallel()
	out, _ := exec.Command(portalBin, "serve", "--help").CombinedOutput()
	for _, want := range []string{"--addr, PORTAL_ADDR", "--data, PORTAL_DATA", "--database-url, PORTAL_DATABASE_URL", "--demo, PORTAL_DEMO",
		"--client-id, PORTAL_CLIENT_ID", "--client-secret, PORTAL_CLIENT_SECRET", "--invite-ttl, PORTAL_INVITE_TTL", "--trusted-proxies, PORTAL_TRUSTED_PROXIES",
		"--sweep-interval, PORTAL_SWEEP_INTERVAL", "--password-checks, PORTAL_PASSWORD_CHECKS", "--password-check-wait, PORTAL_PASSWORD_CHECK_WAIT"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
}

// TestBannerCommandReachesApplicants proves an operator's banner shows in
// the API while the server runs, and clears.
func TestBannerCommandReachesApplicants(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--demo")
	c := client{t: t, base: srv.base}
	login := map[string]any{"grant_type": "password", "username": "demo.applicant@example.com", "password": "Demo-Applicant-2026!",
		"client_id": "portal-spa", "client_secret": "portal-spa-secret", "scope": "default"}
	_, tokens := c.do("POST", "/oauth/access_token", "", login)
	access := tokens["access_token"].(string)

	runPortal(t, "banner", "--data", srv.data, "--message", "Maintenance tonight at 22:00 UTC")
	_, body := c.do("GET", "/api/v2/banner/active", access, nil)
	banner, _ := body["payload"].(map[string]any)["banner"].(map[string]any)
	if banner == nil || banner["message"] != "Maintenance tonight at 22:00 UTC" {
		t.Fatalf("active banner = %v", body)
	}
	runPortal(t, "banner", "--data", srv.data, "--message", "")
	if _, body := c.do("GET", "/api/v2/banner/active", access, nil); body["payload"].(map[string]any)["banner"] != nil {
		t.Fatalf("banner after clearing = %v", body)
	}
}

// TestInviteTakesTheInvitationLifetime proves `portal invite` gives its link
// the lifetime of --invite-ttl or PORTAL_INVITE_TTL, 14 days by default.
func TestInviteTakesTheInvitationLifetime(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--demo")
	c := client{t: t, base: srv.base}
	invite := func(env []string, email string, extra ...string) string {
		t.Helper()
		cmd := exec.Command(portalBin, append([]string{"invite", "--data", srv.data, "--email", email,
			"--first-name", "Tess", "--last-name", "Ttl", "--base-url", srv.base}, extra...)...)
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("portal invite %v: %v %s", extra, err, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		link, err := url.Parse(lines[len(lines)-1])
		if err != nil {
			t.Fatal(err)
		}
		return link.Query().Get("token")
	}
	db, err := store.Open(context.Background(), store.Config{DataDir: srv.data})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lifetime := func(token string) time.Duration {
		t.Helper()
		sum := sha256.Sum256([]byte(token))
		var created, expires int64
		if err := db.SQL().QueryRow(`SELECT created_at, expires_at FROM invitations WHERE token_hash = $1`, hex.EncodeToString(sum[:])).
			Scan(&created, &expires); err != nil {
			t.Fatalf("stored invitation: %v", err)
		}
		return time.Duration(expires-created) * time.Millisecond
	}
	if got := lifetime(invite(nil, "ttl.default@example.com")); got != 14*24*time.Hour {
		t.Errorf("default lifetime = %s; want 336h", got)
	}
	if got := lifetime(invite([]string{"PORTAL_INVITE_TTL=2h"}, "ttl.env@example.com")); got != 2*time.Hour {
		t.Errorf("PORTAL_INVITE_TTL=2h gave %s", got)
	}
	short := invite([]string{"PORTAL_INVITE_TTL=2h"}, "ttl.flag@example.com", "--invite-ttl", "1s")
	if got := lifetime(short); got != time.Second {
		t.Errorf("--invite-ttl 1s (beating the environment) gave %s", got)
	}
	time.Sleep(1100 * time.Millisecond)
	if status, body := c.do("GET", "/api/user?token="+url.QueryEscape(short), "", nil); status != 403 {
		t.Fatalf("invitation past its --invite-ttl = %d %v; want 403", status, body)
	}
}

// TestSweepCommandAndServe proves `portal sweep` deletes a failed login
// that left the throttle window and prints the counts, and that `portal
// serve` sweeps at start and logs the counts at debug level.
func TestSweepCommandAndServe(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db, err := store.Open(context.Background(), store.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	failure := func(age time.Duration) {
		t.Helper()
		if _, err := db.SQL().Exec(`INSERT INTO login_failures (username, ip, at) VALUES ($1, $2, $3)`,
			"jane@example.com", "192.0.2.1", time.Now().Add(-age).UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	failures := func() int {
		t.Helper()
		var n int
		if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM login_failures`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	failure(time.Hour)
	failure(time.Minute)
	// A finished upload nothing links to (its process died before it
	// linked it), two days old.
	if _, err := db.SQL().Exec(`INSERT INTO files (name, content_type, complete, created_at) VALUES ('', 'application/pdf', TRUE, $1)`,
		time.Now().Add(-48*time.Hour).UnixMilli()); err != nil {
		t.Fatal(err)
	}

	out := runPortal(t, "sweep", "--data", data)
	if !strings.Contains(out, "login failures:  1\n") || !strings.Contains(out, "tokens:          0\n") ||
		!strings.Contains(out, "orphaned files:  1\n") {
		t.Fatalf("portal sweep printed %q", out)
	}
	if n := failures(); n != 1 {
		t.Fatalf("%d failed logins after portal sweep; want the recent one", n)
	}

	failure(time.Hour)
	srv := startServer(t, "--data", data, "--log-level", "debug")
	for deadline := time.Now().Add(10 * time.Second); failures() != 1; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("portal serve did not sweep at start: %d failed logins", failures())
		}
	}
	srv.stop(t)
	if !strings.Contains(srv.stderr.String(), `"msg":"swept","login_failures":1,`) {
		t.Fatalf("no debug log of the sweep: %s", srv.stderr)
	}
}

// TestServeRefusesABadPasswordGate: the password-check bounds must make
// sense before the server starts.
func TestServeRefusesABadPasswordGate(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--password-checks", "-1"}, {"--password-check-wait", "0s"}} {
		out, err := exec.Command(portalBin, append([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, args...)...).CombinedOutput()
		if err == nil || !bytes.Contains(out, []byte("--password-check")) {
			t.Errorf("serve %v = %v %s; want a refusal naming the flag", args, err, out)
		}
	}
}
