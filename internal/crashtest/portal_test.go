package crashtest_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// portalBinary is the binary under test: PORTAL_TEST_BIN (make test hands
// over the bin/portal it builds for the browser tests), else one built
// once for this test binary.
func portalBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("PORTAL_TEST_BIN"); bin != "" {
		return bin
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "crashtest-portal-")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "portal")
		if out, err := exec.Command("go", "build", "-o", built, "applicantportal/cmd/portal").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building portal: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// deployment is where a portal keeps its data: a SQLite data folder, or a
// PostgreSQL database with the data key every instance on it shares.
type deployment struct {
	bin     string
	storage []string // --data DIR or --database-url URL
	env     []string
	dataDir string // SQLite only
}

func sqliteDeployment(t *testing.T) *deployment {
	t.Helper()
	dir := t.TempDir()
	return &deployment{bin: portalBinary(t), storage: []string{"--data", dir}, env: os.Environ(), dataDir: dir}
}

func postgresDeployment(t *testing.T, databaseURL string) *deployment {
	t.Helper()
	key := make([]byte, 32)
	rand.Read(key)
	return &deployment{bin: portalBinary(t), storage: []string{"--database-url", databaseURL},
		env: append(os.Environ(), "PORTAL_DATA_KEY="+base64.StdEncoding.EncodeToString(key))}
}

// cli runs a portal subcommand on the deployment's database and returns
// its standard output.
func (d *deployment) cli(t *testing.T, args ...string) string {
	t.Helper()
	out, err := d.tryCLI(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (d *deployment) tryCLI(args ...string) (string, error) {
	cmd := exec.Command(d.bin, append(args[:len(args):len(args)], d.storage...)...)
	cmd.Env = d.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("portal %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// instance is one running `portal serve`.
type instance struct {
	cmd    *exec.Cmd
	base   string
	stderr *lockedBuffer
	done   chan struct{} // closed once the process has been waited for
}

// start starts `portal serve --demo` on a free port and waits for its
// "listening" line, printed once it serves. A password check waits up to
// 30 s for a free slot: the test's logins must not meet the 503 a loaded
// 2-core machine would otherwise give.
func (d *deployment) start(t *testing.T) *instance {
	t.Helper()
	cmd := exec.Command(d.bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--demo", "--password-check-wait", "30s"}, d.storage...)...)
	cmd.Env = append(d.env[:len(d.env):len(d.env)], "PORTAL_LOG_LEVEL=warn")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &instance{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.kill)
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "Applicant portal listening on "); ok {
				listening <- rest
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	select {
	case p.base = <-listening:
	case <-p.done:
		t.Fatalf("portal serve exited before listening: %s", p.stderr)
	case <-time.After(60 * time.Second):
		t.Fatalf("portal serve did not listen within 60 s: %s", p.stderr)
	}
	return p
}

// kill ends the process with SIGKILL, as a power cut or the OOM killer
// would, and waits for it.
func (p *instance) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop ends the process as an operator would (SIGTERM).
func (p *instance) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Errorf("portal serve did not stop within 30 s of SIGTERM")
		p.kill()
	}
	if !p.cmd.ProcessState.Success() {
		t.Errorf("portal serve exited with %v after SIGTERM: %s", p.cmd.ProcessState, p.stderr)
	}
}

// lockedBuffer is the process's standard error, written by exec's copier
// while a failing test may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// api calls one instance's HTTP API.
type api struct {
	client *http.Client
	base   string
}

func newAPI(base string) api {
	// A transport of its own: no connection kept to an instance killed
	// since. The timeout is only against a hang: a write the client gave
	// up on while the server went on would be taken for one cut by the
	// kill, and the kill ends every request anyway.
	return api{client: &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{}}, base: base}
}

func (a api) close() { a.client.CloseIdleConnections() }

// do sends a request; body is JSON unless it is a *multipartBody. The
// error is the transport's: no answer came.
func (a api) do(ctx context.Context, method, path, token string, body any) (int, []byte, error) {
	var rd io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case *multipartBody:
		rd, contentType = bytes.NewReader(b.data), b.contentType
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return 0, nil, err
		}
		rd, contentType = bytes.NewReader(data), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode, data, nil
}

// must sends a request that has to answer want, decoding the answer into
// out when out is not nil.
func (a api) must(t *testing.T, method, path, token string, body any, want int, out any) {
	t.Helper()
	status, data, err := a.do(context.Background(), method, path, token, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if status != want {
		t.Fatalf("%s %s answered %d, want %d: %.400s", method, path, status, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v: %.400s", method, path, err, data)
		}
	}
}

// multipartBody is an upload as the app sends it: the text fields first,
// then the file.
type multipartBody struct {
	data        []byte
	contentType string
}

func newUpload(fields [][2]string, fileName, contentType string, content []byte) *multipartBody {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		w.WriteField(f[0], f[1])
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, fileName))
	h.Set("Content-Type", contentType)
	part, _ := w.CreatePart(h)
	part.Write(content)
	w.Close()
	return &multipartBody{data: buf.Bytes(), contentType: w.FormDataContentType()}
}

// The SPA's OAuth client, as `portal serve` registers it by default.
const (
	clientID     = "portal-spa"
	clientSecret = "portal-spa-secret"
)

// tokens is the token endpoint's answer.
type tokens struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

func passwordGrant(username, password string) map[string]string {
	return map[string]string{"grant_type": "password", "username": username, "password": password,
		"client_id": clientID, "client_secret": clientSecret, "scope": "default"}
}

func refreshGrant(refreshToken string) map[string]string {
	return map[string]string{"grant_type": "refresh_token", "refresh_token": refreshToken,
		"client_id": clientID, "client_secret": clientSecret, "scope": "default"}
}

// testPassword passes the demo company's rules (15 characters at least).
const testPassword = "Crash-Proof-Lantern-4921"

// inviteAndSetUp invites an applicant with `portal invite`, as an operator
// would, takes the invitation as the app does (token login, then the
// password) and logs in; it answers the login's tokens.
func inviteAndSetUp(t *testing.T, d *deployment, a api, email, first, last string, extra ...string) tokens {
	t.Helper()
	out := d.cli(t, append([]string{"invite", "--email", email, "--first-name", first, "--last-name", last,
		"--base-url", a.base}, extra...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	link, err := url.Parse(lines[len(lines)-1])
	if err != nil || link.Query().Get("token") == "" {
		t.Fatalf("portal invite's last line %q is not an invitation link", lines[len(lines)-1])
	}
	var setup struct {
		AccessToken string `json:"access_token"`
	}
	a.must(t, "GET", "/api/user?token="+url.QueryEscape(link.Query().Get("token")), "", nil, 200, &setup)
	a.must(t, "PATCH", "/api/v2/user", setup.AccessToken, map[string]string{"password": testPassword}, 200, nil)
	var tok tokens
	a.must(t, "POST", "/oauth/access_token", "", passwordGrant(email, testPassword), 200, &tok)
	return tok
}

// profileID is the applicant's profile, which the chat's paths name.
func profileID(t *testing.T, a api, token string) int64 {
	t.Helper()
	var user struct {
		Profile struct {
			ID int64 `json:"id"`
		} `json:"profile"`
	}
	a.must(t, "GET", "/api/v2/user", token, nil, 200, &user)
	if user.Profile.ID == 0 {
		t.Fatal("GET /api/v2/user has no profile id")
	}
	return user.Profile.ID
}

func chatPath(profile int64) string {
	return fmt.Sprintf("/api/v2/user/subject/profile/%d/chat-messages", profile)
}

// samplePNG is a 1 x 1 PNG; uploads append bytes after it to tell one
// from another (the server sniffs the type from the first bytes).
var samplePNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

func pngWithTag(tag string) []byte {
	return append(append([]byte{}, samplePNG...), []byte(tag)...)
}
