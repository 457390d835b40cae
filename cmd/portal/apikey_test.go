package main_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestAPIKeyReachesTheOperatorAPI proves a key made with `portal apikey
// create` opens the running server's operator API for its company, and
// `portal apikey revoke` shuts it at once.
func TestAPIKeyReachesTheOperatorAPI(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--demo")
	c := client{t: t, base: srv.base}
	out := runPortal(t, "apikey", "create", "--data", srv.data, "--company", "1", "--name", "HR system")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	secret := lines[len(lines)-1]
	m := regexp.MustCompile(`^API key (\d+) \((pk_\S{7})\) created for company 1: HR system$`).FindStringSubmatch(lines[0])
	if m == nil || !strings.HasPrefix(secret, m[2]) || !strings.Contains(out, "shown this once") {
		t.Fatalf("create: %q", out)
	}
	id := m[1]
	code, body := c.do("GET", "/api/v2/operator/applicants", secret, nil)
	if list, _ := body["payload"].([]any); code != http.StatusOK || len(list) == 0 {
		t.Fatalf("applicants with the key: %d %v", code, body)
	}
	if out := runPortal(t, "apikey", "list", "--data", srv.data); !strings.Contains(out, m[2]+"...") || !strings.Contains(out, "used ") || strings.Contains(out, secret) {
		t.Errorf("list: %q", out)
	}
	if out := runPortal(t, "apikey", "revoke", "--data", srv.data, "--id", id); out != fmt.Sprintf("API key %s revoked.\n", id) {
		t.Errorf("revoke: %q", out)
	}
	if code, body := c.do("GET", "/api/v2/operator/applicants", secret, nil); code != http.StatusUnauthorized || body["errorMessage"] != "This API key was revoked." {
		t.Errorf("after revoke: %d %v", code, body)
	}
	if out := runPortal(t, "apikey", "list", "--data", srv.data, "--company", "1"); !strings.Contains(out, "REVOKED") {
		t.Errorf("list after revoke: %q", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"create", "--name", "X"}, "give --company"},
		{[]string{"create", "--company", "1", "--name", " "}, "name: Name the key"},
		{[]string{"create", "--company", "9", "--name", "X"}, "company 9: Company not found."},
		{[]string{"revoke", "--id", "999"}, "API key 999: API key not found."},
		{[]string{"rotate"}, "say create or list or revoke"},
	} {
		if stderr := runPortalFails(t, append(append([]string{"apikey"}, tc.args...), "--data", srv.data)...); !strings.Contains(stderr, tc.want) {
			t.Errorf("apikey %v: stderr %q; want %q", tc.args, stderr, tc.want)
		}
	}
}
