package main_test

import (
	"bytes"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// applicantLogin invites an applicant through the command, sets a password
// and logs in: a default-scope access token of the running server.
func applicantLogin(t *testing.T, srv *server, c client, email string) string {
	t.Helper()
	out := runPortal(t, "invite", "--data", srv.data, "--email", email, "--first-name", "Pat", "--last-name", "Lee", "--base-url", srv.base)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	link, err := url.Parse(lines[len(lines)-1])
	if err != nil || link.Query().Get("token") == "" {
		t.Fatalf("invite printed %q", out)
	}
	status, user := c.do("GET", "/api/user?token="+url.QueryEscape(link.Query().Get("token")), "", nil)
	if status != 200 {
		t.Fatalf("token login = %d %v", status, user)
	}
	const pw = "a long enough passphrase"
	if status, body := c.do("PATCH", "/api/v2/user", user["access_token"].(string), map[string]any{"password": pw}); status != 200 {
		t.Fatalf("create password = %d %v", status, body)
	}
	status, tokens := c.do("POST", "/oauth/access_token", "", map[string]any{"grant_type": "password", "username": email, "password": pw,
		"client_id": "portal-spa", "client_secret": "portal-spa-secret", "scope": "default"})
	if status != 200 {
		t.Fatalf("login = %d %v", status, tokens)
	}
	return tokens["access_token"].(string)
}

var keyID = regexp.MustCompile(`\b[0-9a-f]{16}\b`)

// TestKeysRotateAndStatusCommands rotates the data key of a data folder
// while its server serves: data.key gains a new first key, every value is
// resealed under it, the server reads what was resealed and seals with the
// new key, and no output holds a key.
func TestKeysRotateAndStatusCommands(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--demo")
	c := client{t: t, base: srv.base}
	access := applicantLogin(t, srv, c, "pat.lee@example.com")
	if status, body := c.do("PUT", "/api/v2/user/drafts/personal", access, map[string]any{"fields": map[string]any{"firstName": "Jan"}}); status != 200 {
		t.Fatalf("PUT draft = %d %v", status, body)
	}
	keyFile := filepath.Join(srv.data, "data.key")
	before, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	oldLine := strings.TrimSpace(string(before))

	status := runPortal(t, "keys", "status", "--data", srv.data)
	oldID := keyID.FindString(status)
	if oldID == "" || !strings.Contains(status, oldID+"  seals") || !strings.Contains(status, "drafts.sealed") ||
		!strings.Contains(status, "Every sealed value is under the sealing key "+oldID) {
		t.Fatalf("keys status before the rotation printed %q", status)
	}

	out := runPortal(t, "keys", "rotate", "--data", srv.data)
	after, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(after))
	if len(lines) != 2 || lines[1] != oldLine || lines[0] == oldLine {
		t.Fatalf("data.key after the rotation holds %d lines; want the new key first and the old one after", len(lines))
	}
	if fi, err := os.Stat(keyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("data.key: %v, %v; want mode 0600", fi, err)
	}
	newID := keyID.FindString(out)
	if newID == "" || newID == oldID || !strings.Contains(out, "Added the data key "+newID) || !strings.Contains(out, "Resealed ") {
		t.Fatalf("keys rotate printed %q", out)
	}

	t.Run("ServerReadsWhatWasResealed", func(t *testing.T) {
		status, body := c.do("GET", "/api/v2/user/drafts/personal", access, nil)
		if status != 200 || body["payload"].(map[string]any)["fields"].(map[string]any)["firstName"] != "Jan" {
			t.Fatalf("GET draft after the rotation = %d %v", status, body)
		}
	})
	t.Run("ServerSealsWithTheNewKey", func(t *testing.T) {
		if status, body := c.do("PUT", "/api/v2/user/drafts/personal", access, map[string]any{"fields": map[string]any{"lastName": "Lee"}}); status != 200 {
			t.Fatalf("PUT draft after the rotation = %d %v", status, body)
		}
		st := runPortal(t, "keys", "status", "--data", srv.data)
		if !strings.Contains(st, newID+"  seals") || !strings.Contains(st, oldID+"  opens") || !strings.Contains(st, "Every sealed value is under the sealing key "+newID) {
			t.Fatalf("keys status after the rotation printed %q", st)
		}
	})
	t.Run("RunAgainFindsNothingLeft", func(t *testing.T) {
		// The folder's key is the new one; a second rotate adds a third
		// key, so this asks with the key ring given instead.
		again := runPortalEnv(t, []string{"PORTAL_DATA_KEY=" + lines[0] + "," + lines[1]}, "keys", "rotate", "--data", srv.data)
		if !strings.Contains(again, "Nothing left to reseal") {
			t.Fatalf("keys rotate again printed %q", again)
		}
		out += again
	})
	t.Run("NoOutputHoldsAKey", func(t *testing.T) {
		for _, k := range lines {
			if strings.Contains(out+status, k) || strings.Contains(srv.stderr.String(), k) {
				t.Fatal("a data key appears in the output")
			}
		}
	})
}

// runPortalEnv is runPortal with extra environment variables.
func runPortalEnv(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(portalBin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("portal %v: %v %s", args, err, stderr.String())
	}
	return string(out)
}
