package portal

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// profileStatusesJSON defines the profile status ids of spec section 4 once,
// for the server and the app (web/src/lib/profile-status.ts imports the same
// file), so the two cannot disagree on what the applicant is shown.
//
//go:embed contract/profile-statuses.json
var profileStatusesJSON []byte

// Profile status ids the server names (spec section 4). ProfileStatusPending
// and ProfileStatusNew are in subject.go. TestProfileStatusConstants checks
// them all against contract/profile-statuses.json.
const (
	ProfileStatusCompleted        = 5
	ProfileStatusQA               = 36
	ProfileStatusPreAdverseAction = 65
)

// What the applicant is shown of a profile status (GET /api/v2/user/profile
// "status").
const (
	ProfileShownQA       = "qa"
	ProfileShownComplete = "complete"
	ProfileShownPending  = "pending"
)

type profileStatusTable struct {
	IDs   map[string]int      `json:"ids"`
	Shown map[string][]string `json:"shown"`
	// shownByID is the "shown" rule turned around: id -> qa/complete.
	shownByID map[int]string
}

// profileStatuses parses the embedded table once; it never changes after.
var profileStatuses = sync.OnceValue(func() profileStatusTable {
	var t profileStatusTable
	if err := json.Unmarshal(profileStatusesJSON, &t); err != nil {
		panic(fmt.Sprintf("portal: contract/profile-statuses.json: %v", err))
	}
	t.shownByID = map[int]string{}
	for shown, names := range t.Shown {
		for _, n := range names {
			id, ok := t.IDs[n]
			if !ok {
				panic(fmt.Sprintf("portal: contract/profile-statuses.json: shown.%s names unknown status %q", shown, n))
			}
			t.shownByID[id] = shown
		}
	}
	return t
})

// ProfileStatusID returns the id of a profile status named as in spec
// section 4 ("QA", "COMPLETED"), and whether the name is known.
func ProfileStatusID(name string) (int, bool) {
	id, ok := profileStatuses().IDs[name]
	return id, ok
}

// ProfileStatusShown is what the applicant is shown of a profile status:
// QA stays "qa", COMPLETED and PRE_ADVERSE_ACTION show "complete", anything
// else (unknown ids included) "pending".
func ProfileStatusShown(id int) string {
	if s, ok := profileStatuses().shownByID[id]; ok {
		return s
	}
	return ProfileShownPending
}
