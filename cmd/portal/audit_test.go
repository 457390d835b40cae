package main_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestAuditVerifyReportsIntactAndBrokenChains: portal audit verify prints
// the chain's length and last hash and exits 0, then, after a row's
// detail is changed by SQL, names that row and exits 1; on SQLite and on
// PostgreSQL.
func TestAuditVerifyReportsIntactAndBrokenChains(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		open    func(t *testing.T) (*store.DB, []string)
		disable string
	}{
		{"SQLite", func(t *testing.T) (*store.DB, []string) {
			data := t.TempDir()
			return openWithDataKey(t, data), []string{"--data", data}
		}, `DROP TRIGGER audit_log_no_update`},
		{"PostgreSQL", func(t *testing.T) (*store.DB, []string) {
			if os.Getenv(storetest.EnvURL) == "" {
				t.Skip(storetest.EnvURL + " is not set; PostgreSQL tests skipped")
			}
			url := storetest.Database(t, os.Getenv(storetest.EnvURL))
			db, err := store.Open(context.Background(), store.Config{DatabaseURL: url})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				db.SQL().Exec(`ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only`)
				db.Close()
			})
			return db, []string{"--database-url", url}
		}, `ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, where := tt.open(t)
			ctx := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorCommandLine, Name: "ops"})
			acme := &portal.Company{Name: "Acme"}
			if err := db.CreateCompany(ctx, acme); err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if _, _, err := db.Operator().APIKeys.CreateAPIKey(ctx, acme.ID, fmt.Sprintf("system %d", i)); err != nil {
					t.Fatal(err)
				}
			}
			// The company's creation and the three keys.
			out := runPortal(t, append([]string{"audit", "verify"}, where...)...)
			if !strings.HasPrefix(out, "Audit chain intact: 4 rows, last hash ") || len(strings.TrimSpace(out)) != len("Audit chain intact: 4 rows, last hash ")+64 {
				t.Errorf("verify printed %q", out)
			}
			if list := runPortal(t, append([]string{"audit", "list"}, where...)...); strings.Count(list, "apikey.created") != 3 || !strings.Contains(list, "command line (ops)") {
				t.Errorf("list printed %q", list)
			}

			var id int64
			if err := db.SQL().QueryRow(`SELECT id FROM audit_log WHERE seq = 2`).Scan(&id); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{tt.disable, `UPDATE audit_log SET detail = 'nothing' WHERE seq = 2`} {
				if _, err := db.SQL().Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(portalBin, append([]string{"audit", "verify"}, where...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); err == nil || code != 1 {
				t.Errorf("verify of a broken chain: exit %d (%v); want 1", code, err)
			}
			want := fmt.Sprintf("Audit chain broken at row %d (place 2): content altered", id)
			if !strings.HasPrefix(stdout.String(), want) || !strings.Contains(stdout.String(), "The 1 rows before it are intact") {
				t.Errorf("verify printed %q; want it to start %q", stdout.String(), want)
			}
			if !strings.Contains(stderr.String(), fmt.Sprintf("audit chain broken at row %d", id)) {
				t.Errorf("stderr %q", stderr.String())
			}
		})
	}
}
