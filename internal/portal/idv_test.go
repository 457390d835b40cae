package portal

import "testing"

// TestIDVStateLaterRefusesADecisionWithoutACheck: only a finished check
// carries a decision. A state that pairs one with an active, only-sent or
// expired session would leave the session "active but approved": never
// expiring (a decision stays) and never found as the applicant's open
// session, so a second one is opened beside it.
func TestIDVStateLaterRefusesADecisionWithoutACheck(t *testing.T) {
	active := IDVState{Status: IDVActive}
	sent := IDVState{Status: IDVCompletedByUser}
	tests := []struct {
		name     string
		from, to IDVState
		want     bool
	}{
		{"ActiveApproved", active, IDVState{Status: IDVActive, Decision: IDVApproved}, false},
		{"ActiveDeclined", active, IDVState{Status: IDVActive, Decision: IDVDeclined}, false},
		{"SentApproved", active, IDVState{Status: IDVCompletedByUser, Decision: IDVApproved}, false},
		{"SentDeclined", sent, IDVState{Status: IDVCompletedByUser, Decision: IDVDeclined}, false},
		{"ExpiredDeclined", active, IDVState{Status: IDVExpired, Decision: IDVDeclined}, false},
		{"Sent", active, sent, true},
		{"Expired", active, IDVState{Status: IDVExpired}, true},
		{"CheckApproved", sent, IDVState{Status: IDVCheckCompleted, Decision: IDVApproved}, true},
		{"CheckDeclined", active, IDVState{Status: IDVCheckCompleted, Decision: IDVDeclined}, true},
		{"DataApproved", IDVState{Status: IDVCheckCompleted, Decision: IDVApproved}, IDVState{Status: IDVDataCompleted, Decision: IDVApproved}, true},
		{"UnknownStatus", active, IDVState{Status: 9}, false},
		{"UnknownDecision", sent, IDVState{Status: IDVCheckCompleted, Decision: "maybe"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.from.Later(tt.to); got != tt.want {
				t.Errorf("%+v.Later(%+v) = %v; want %v", tt.from, tt.to, got, tt.want)
			}
			if got := tt.to.Coherent(); tt.want && !got {
				t.Errorf("%+v.Coherent() = false", tt.to)
			}
		})
	}
}
