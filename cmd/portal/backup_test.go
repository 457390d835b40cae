package main_test

import (
	"bytes"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// portalFails runs the binary with extra environment variables and wants
// it to fail saying want.
func portalFails(t *testing.T, env []string, want string, args ...string) {
	t.Helper()
	cmd := exec.Command(portalBin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte(want)) {
		t.Fatalf("portal %v = %v %s; want a failure saying %q", args, err, out, want)
	}
}

// TestBackupAndRestoreCommands backs up a running server's database,
// refuses to restore under it or with another data key, restores once it
// stopped, and sends PostgreSQL to pg_dump.
func TestBackupAndRestoreCommands(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--demo")
	data := srv.data
	backup := filepath.Join(t.TempDir(), "portal-backup.db")
	out := runPortal(t, "backup", "--data", data, "--to", backup)
	if !strings.Contains(out, "Backed up to "+backup) || !strings.Contains(out, "fingerprint is ") {
		t.Fatalf("portal backup printed %q", out)
	}
	for _, p := range []string{backup, backup + ".json"} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v, %v; want mode 0600", p, fi, err)
		}
	}
	portalFails(t, nil, "exists", "backup", "--data", data, "--to", backup)
	// Written after the backup: gone once it is restored.
	runPortal(t, "invite", "--data", data, "--email", "later@example.com", "--first-name", "Lee", "--last-name", "Later")

	portalFails(t, nil, "a portal process has the database open", "restore", "--data", data, "--from", backup)
	srv.stop(t)
	otherKey := "PORTAL_DATA_KEY=" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32))
	portalFails(t, []string{otherKey}, "the backup was made with the data key", "restore", "--data", data, "--from", backup)

	out = runPortal(t, "restore", "--data", data, "--from", backup)
	if !strings.Contains(out, "Restored "+backup) || !strings.Contains(out, "portal.db.replaced-") {
		t.Fatalf("portal restore printed %q", out)
	}
	list := runPortal(t, "applicants", "--data", data)
	if strings.Contains(list, "later@example.com") || !strings.Contains(list, "demo.applicant@example.com") {
		t.Fatalf("after the restore portal applicants lists %q; want the demo applicant and not the later one", list)
	}
	// The restored database opens as the portal opens it.
	if out, err := exec.Command(portalBin, "migrate", "--data", data).CombinedOutput(); err != nil {
		t.Fatalf("portal migrate on the restored folder: %v %s", err, out)
	}

	portalFails(t, nil, "pg_dump", "backup", "--database-url", "postgres://nobody@127.0.0.1:1/none", "--to", filepath.Join(t.TempDir(), "b.db"))
}
