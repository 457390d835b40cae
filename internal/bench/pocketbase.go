package bench

import (
	"context"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"
)

// A peer: PocketBase, a Go backend on SQLite of the same kind, serving its
// authenticated record view (GET /api/collections/users/records/{id}) to
// the record's own user. docs/benchmarks.md says how to get a binary; it
// is not a dependency of the module.

type peer struct {
	cmd     *exec.Cmd
	base    string
	version string
	user    applicant // Token is PocketBase's auth token, ProfileID unused
	userID  string
	log     *os.File
}

const pbEmail = "bench.user@example.com"

func startPocketBase(ctx context.Context, binary, dir string, client *http.Client) (*peer, error) {
	pbDir := filepath.Join(dir, "pocketbase")
	if err := os.MkdirAll(pbDir, 0o700); err != nil {
		return nil, err
	}
	// The superuser first, with the CLI, before the server holds the files.
	// --dev=false everywhere: a binary under /tmp looks like `go run` to
	// PocketBase, which then logs every SQL statement.
	if out, err := exec.CommandContext(ctx, binary, "superuser", "upsert", "bench.admin@example.com", benchPassword, "--dir", pbDir, "--dev=false").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pocketbase superuser upsert: %v: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(dir, "pocketbase.log"))
	if err != nil {
		return nil, err
	}
	pb := &peer{base: fmt.Sprintf("http://127.0.0.1:%d", port), version: binaryVersion(binary), log: logFile}
	pb.cmd = exec.Command(binary, "serve", "--http", fmt.Sprintf("127.0.0.1:%d", port), "--dir", pbDir, "--dev=false")
	pb.cmd.Stdout, pb.cmd.Stderr = logFile, logFile
	if err := pb.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start pocketbase: %w", err)
	}
	if err := pb.setUp(ctx, client); err != nil {
		pb.stop()
		return nil, err
	}
	return pb, nil
}

// binaryVersion names the PocketBase module a binary was built from
// (`go install .../examples/base@v0.36.0` stamps no version of its own).
func binaryVersion(binary string) string {
	info, err := buildinfo.ReadFile(binary)
	if err != nil {
		return "(version unknown)"
	}
	for _, m := range append([]*debug.Module{&info.Main}, info.Deps...) {
		if m.Path == "github.com/pocketbase/pocketbase" && m.Version != "" && m.Version != "(devel)" {
			return m.Version
		}
	}
	return "(version unknown)"
}

func (pb *peer) setUp(ctx context.Context, client *http.Client) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := client.Get(pb.base + "/api/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pocketbase did not answer /api/health within 30 s (log: %s)", pb.log.Name())
		}
		time.Sleep(200 * time.Millisecond)
	}
	var admin struct {
		Token string `json:"token"`
	}
	body, _ := json.Marshal(map[string]string{"identity": "bench.admin@example.com", "password": benchPassword})
	if err := doPB(ctx, client, http.MethodPost, pb.base+"/api/collections/_superusers/auth-with-password", "", body, &admin); err != nil {
		return fmt.Errorf("pocketbase superuser login: %w", err)
	}
	var rec struct {
		ID string `json:"id"`
	}
	body, _ = json.Marshal(map[string]any{"email": pbEmail, "password": benchPassword, "passwordConfirm": benchPassword, "verified": true})
	if err := doPB(ctx, client, http.MethodPost, pb.base+"/api/collections/users/records", admin.Token, body, &rec); err != nil {
		return fmt.Errorf("pocketbase create user: %w", err)
	}
	var auth struct {
		Token string `json:"token"`
	}
	body, _ = json.Marshal(map[string]string{"identity": pbEmail, "password": benchPassword})
	if err := doPB(ctx, client, http.MethodPost, pb.base+"/api/collections/users/auth-with-password", "", body, &auth); err != nil {
		return fmt.Errorf("pocketbase user login: %w", err)
	}
	pb.userID, pb.user = rec.ID, applicant{Email: pbEmail, Token: auth.Token}
	// The view must work as the user, or the figures mean nothing.
	if _, err := send(ctx, client, pb.base, pb.scenario().Path(pb.user), pb.scenario(), pb.user); err != nil {
		return fmt.Errorf("pocketbase record view: %w", err)
	}
	return nil
}

// doPB is doJSON for PocketBase, whose token goes in Authorization as is.
func doPB(ctx context.Context, client *http.Client, method, u, token string, body []byte, out any) error {
	return doJSON(ctx, client, method, u, token, body, http.StatusOK, out)
}

func (pb *peer) scenario() scenario {
	return scenario{Name: "PocketBase record view", Key: "/pocketbase", Method: http.MethodGet, Want: http.StatusOK,
		Path: fixed("/api/collections/users/records/" + pb.userID)}
}

func (pb *peer) apps() []applicant { return []applicant{pb.user} }

func (pb *peer) target() target {
	return target{pid: pb.cmd.Process.Pid, base: pb.base, path: func(sc scenario, a applicant) string { return sc.Path(a) }}
}

func (pb *peer) stop() {
	pb.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { pb.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		pb.cmd.Process.Kill()
		<-done
	}
	pb.log.Close()
}
