package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary be a floor too, as cmd/bench is: Run
// re-executes it with FloorCommand.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == FloorCommand {
		if err := ServeFloor(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// The whole harness, in its smoke size, against a portal built from this
// tree: every row measured, the report written.
func TestRunQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the portal for a minute; skipped with -short")
	}
	portal := PortalForTest(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "benchmarks.md")
	var log strings.Builder
	rep, err := Run(context.Background(), Config{Portal: portal, Self: self, Out: out, Quick: true,
		DatabaseURL: os.Getenv("PORTAL_TEST_DATABASE_URL"), Commit: "test", Log: &log})
	if rep == nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	// Journeys may fail on a loaded machine (the portal answers 503 when
	// its password checks are all busy): that is a finding, reported;
	// everything else must have worked.
	for _, f := range rep.Failures {
		if !strings.Contains(f, "journeys") {
			t.Errorf("failure: %s", f)
		}
	}
	if err != nil && len(rep.Failures) == 0 {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	for _, db := range rep.Databases {
		if len(db.Rows) != len(scenarios())+1 {
			t.Errorf("%s: %d rows; want %d", db.Name, len(db.Rows), len(scenarios())+1)
		}
		for _, r := range db.Rows {
			if r.Portal <= 0 || r.Floor <= 0 {
				t.Errorf("%s %s: portal %v, floor %v; want both measured", db.Name, r.Scenario, r.Portal, r.Floor)
			}
		}
		if db.Streams.Open.RSS <= 0 {
			t.Errorf("%s: streams' memory not measured", db.Name)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "| GET /api/v2/user |") {
		t.Fatalf("the report: %v\n%s", err, b)
	}
}
