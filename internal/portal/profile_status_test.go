package portal_test

import (
	"encoding/json"
	"os"
	"testing"

	"applicantportal/internal/portal"
)

func TestProfileStatusConstants(t *testing.T) {
	raw, err := os.ReadFile("contract/profile-statuses.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		IDs map[string]int `json:"ids"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]int{
		"PENDING": portal.ProfileStatusPending, "NEW": portal.ProfileStatusNew, "QA": portal.ProfileStatusQA,
		"COMPLETED": portal.ProfileStatusCompleted, "PRE_ADVERSE_ACTION": portal.ProfileStatusPreAdverseAction,
	} {
		if file.IDs[name] != c {
			t.Errorf("constant for %s = %d, the contract says %d", name, c, file.IDs[name])
		}
		if id, ok := portal.ProfileStatusID(name); !ok || id != c {
			t.Errorf("ProfileStatusID(%q) = %d, %v; want %d", name, id, ok, c)
		}
	}
}

func TestProfileStatusShown(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   int
		want string
	}{
		{"QAStaysQA", portal.ProfileStatusQA, "qa"},
		{"CompletedShowsComplete", portal.ProfileStatusCompleted, "complete"},
		{"PreAdverseActionShowsComplete", portal.ProfileStatusPreAdverseAction, "complete"},
		{"NewIsPending", portal.ProfileStatusNew, "pending"},
		{"PendingIsPending", portal.ProfileStatusPending, "pending"},
		{"ReviewIsPending", 40, "pending"},
		{"UnknownIsPending", 12345, "pending"},
		{"ZeroIsPending", 0, "pending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := portal.ProfileStatusShown(tc.id); got != tc.want {
				t.Errorf("ProfileStatusShown(%d) = %q, want %q", tc.id, got, tc.want)
			}
		})
	}
}
