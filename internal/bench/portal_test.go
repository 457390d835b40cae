package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// PortalForTest is the portal binary this package's tests run (bench_test's too):
// PORTAL_TEST_BIN when set (`make test` builds bin/portal once for every package's tests),
// else cmd/portal built once for the test binary.
func PortalForTest(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("PORTAL_TEST_BIN"); bin != "" {
		return bin
	}
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bench-portal-")
		if err != nil {
			builtErr = err
			return
		}
		built = filepath.Join(dir, "portal")
		if out, err := exec.Command("go", "build", "-o", built, "applicantportal/cmd/portal").CombinedOutput(); err != nil {
			builtErr = fmt.Errorf("building portal: %v\n%s", err, out)
		}
	})
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return built
}

var (
	builtOnce sync.Once
	built     string
	builtErr  error
)
