package portal_test

import (
	"encoding/json"
	"os"
	"testing"

	"applicantportal/internal/portal"
)

// TestIsAppPath runs the cases the app's router runs too
// (web/src/app/__tests__/route-table.test.ts), so the server's 404s and the
// app's agree.
func TestIsAppPath(t *testing.T) {
	raw, err := os.ReadFile("testdata/app-path-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Path string `json:"path"`
			App  bool   `json:"app"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range file.Cases {
		t.Run(c.Path, func(t *testing.T) {
			if got := portal.IsAppPath(c.Path); got != c.App {
				t.Errorf("IsAppPath(%q) = %v, want %v", c.Path, got, c.App)
			}
		})
	}
}
