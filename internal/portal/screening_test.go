package portal_test

import (
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
)

func TestAddBusinessDays(t *testing.T) {
	tests := []struct {
		from string
		n    int
		want string
	}{
		{"2026-11-30", 0, "2026-11-30"}, // a Monday
		{"2026-11-30", 1, "2026-12-01"},
		{"2026-12-04", 1, "2026-12-07"},  // Friday + 1 is Monday
		{"2026-12-05", 0, "2026-12-07"},  // Saturday rolls to Monday
		{"2026-12-06", 1, "2026-12-08"},  // Sunday + 1
		{"2026-11-30", 5, "2026-12-07"},  // a whole week
		{"2026-11-30", 10, "2026-12-14"}, // two
		{"2026-11-25", 1, "2026-11-27"},  // Thanksgiving does not count
		{"2026-12-24", 1, "2026-12-28"},  // nor Christmas
	}
	for _, tt := range tests {
		got := portal.AddBusinessDays(day(tt.from).Add(15*time.Hour), tt.n)
		if got.Format(time.DateOnly) != tt.want {
			t.Errorf("AddBusinessDays(%s, %d) = %s, want %s", tt.from, tt.n, got.Format(time.DateOnly), tt.want)
		}
	}
}

func TestParseETADays(t *testing.T) {
	for in, want := range map[string]portal.ETADays{"2-6": {2, 6}, " 3 ": {3, 3}, "0-1": {0, 1}} {
		got, err := portal.ParseETADays(in)
		if err != nil || got != want {
			t.Errorf("ParseETADays(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "6-2", "a-b", "-1-3", "1-99", "2-"} {
		if _, err := portal.ParseETADays(in); portal.ErrorCode(err) != portal.EINVALID {
			t.Errorf("ParseETADays(%q) = %v, want EINVALID", in, err)
		}
	}
}

func TestServiceReasonCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range portal.ServiceReasons {
		if seen[r.Code] || r.Code != strings.ToLower(r.Code) || strings.ContainsAny(r.Code, " _") {
			t.Errorf("reason code %q: duplicate or not kebab-case", r.Code)
		}
		seen[r.Code] = true
		if !r.State.Valid() || r.Applicant == "" || r.Operator == "" {
			t.Errorf("reason %s: state %q, texts %q / %q", r.Code, r.State, r.Applicant, r.Operator)
		}
		if r.Action != nil && !strings.HasPrefix(r.Action.Path, "/") {
			t.Errorf("reason %s: action path %q", r.Code, r.Action.Path)
		}
		// A reason that takes an action waits on the applicant, and the
		// other way round: hasError means "you can do something".
		if (r.Action != nil) != r.State.NeedsApplicant() {
			t.Errorf("reason %s: action %v but state %s", r.Code, r.Action, r.State)
		}
	}
	for _, code := range []string{"court-closed", "employer-not-responding", "county-search-pending", "name-mismatch",
		"mro-review", "awaiting-records", "identity-documents-needed"} {
		if !seen[code] {
			t.Errorf("catalogue lacks %s", code)
		}
	}
	r, _ := portal.FindServiceReason("court-closed")
	if got := r.ApplicantText("2026-12-10", portal.LocaleEnUS); !strings.Contains(got, "closed until December 10, 2026;") {
		t.Errorf("court-closed text = %q", got)
	}
	if got := r.ApplicantText("2026-12-10", portal.LocaleEsUS); !strings.Contains(got, "cerrado hasta el 10 de diciembre de 2026;") {
		t.Errorf("court-closed text in Spanish = %q", got)
	}
}

// TestEveryReasonIsInSpanish: each reason's text and action label has its
// Spanish.
func TestEveryReasonIsInSpanish(t *testing.T) {
	for _, r := range portal.ServiceReasons {
		if strings.TrimSpace(r.Spanish) == "" || strings.Contains(r.Applicant, "{date}") != strings.Contains(r.Spanish, "{date}") {
			t.Errorf("reason %s: Spanish %q for %q", r.Code, r.Spanish, r.Applicant)
		}
		if r.Action != nil && strings.TrimSpace(r.Action.LabelIn(portal.LocaleEsUS)) == "" {
			t.Errorf("reason %s: no Spanish action label", r.Code)
		}
	}
}

func TestSetServiceStateRequestNormalize(t *testing.T) {
	eta := func(min, max int) *portal.ETADays { return &portal.ETADays{Min: min, Max: max} }
	tests := []struct {
		name      string
		req       portal.SetServiceStateRequest
		wantState portal.ServiceState
		wantField string
	}{
		{"StateAlone", portal.SetServiceStateRequest{State: portal.ServiceInProgress}, portal.ServiceInProgress, ""},
		{"ReasonImpliesState", portal.SetServiceStateRequest{Reason: "employer-not-responding"}, portal.ServiceWaitingApplicant, ""},
		{"ErrUnknownState", portal.SetServiceStateRequest{State: "done"}, "", "state"},
		{"ErrNoState", portal.SetServiceStateRequest{}, "", "state"},
		{"ErrUnknownReason", portal.SetServiceStateRequest{State: portal.ServiceInProgress, Reason: "lunch"}, "", "reason"},
		{"ErrReasonOtherState", portal.SetServiceStateRequest{State: portal.ServiceComplete, Reason: "mro-review"}, "", "reason"},
		{"ErrCourtClosedNoDate", portal.SetServiceStateRequest{Reason: "court-closed", Note: "closed"}, "", "note"},
		{"CourtClosedDate", portal.SetServiceStateRequest{Reason: "court-closed", Note: "2026-12-10"}, portal.ServiceWaitingThirdParty, ""},
		{"ErrETA", portal.SetServiceStateRequest{State: portal.ServicePending, ETADays: eta(5, 2)}, "", "etaDays"},
		{"ErrLongNote", portal.SetServiceStateRequest{State: portal.ServicePending, Note: strings.Repeat("x", 1001)}, "", "note"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			_, err := req.Normalize()
			if tt.wantField == "" {
				if err != nil || req.State != tt.wantState {
					t.Fatalf("Normalize = %v, state %q; want %q", err, req.State, tt.wantState)
				}
				return
			}
			e, ok := err.(*portal.Error)
			if !ok || e.Code != portal.EINVALID || len(e.Fields) == 0 || e.Fields[0].Field != tt.wantField {
				t.Fatalf("Normalize = %v, want EINVALID on %s", err, tt.wantField)
			}
		})
	}
}

func TestPlanEstimate(t *testing.T) {
	now := day("2026-11-30").Add(9 * time.Hour) // Monday
	court, _ := portal.FindServiceReason("court-closed")
	employer, _ := portal.FindServiceReason("employer-not-responding")
	tests := []struct {
		name                   string
		state                  portal.ServiceState
		reason                 *portal.ServiceReason
		note                   string
		days                   portal.ETADays
		wantEarliest, wantLate string
	}{
		{"Default", portal.ServiceInProgress, nil, "", portal.DefaultETADays("crim"), "2026-12-01", "2026-12-03"},
		{"CourtClosedUntil", portal.ServiceWaitingThirdParty, &court, "2026-12-10", portal.ETADays{Min: 1, Max: 3}, "2026-12-11", "2026-12-15"},
		{"CourtReopenedAlready", portal.ServiceWaitingThirdParty, &court, "2026-11-01", portal.ETADays{Min: 1, Max: 3}, "2026-12-01", "2026-12-03"},
		{"EmployerNotResponding", portal.ServiceWaitingApplicant, &employer, "", portal.DefaultETADays("emps"), "2026-12-07", "2026-12-16"},
		{"Complete", portal.ServiceComplete, nil, "", portal.ETADays{Min: 1, Max: 3}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, days := portal.PlanEstimate(now, tt.state, tt.reason, tt.note, tt.days)
			est := portal.ServiceProgress{State: tt.state, ETAFrom: from, ETADays: days}.Estimate()
			if tt.wantEarliest == "" {
				if est != nil {
					t.Fatalf("estimate %v, want none", est)
				}
				return
			}
			if est == nil || est.Earliest.Format(time.DateOnly) != tt.wantEarliest || est.Latest.Format(time.DateOnly) != tt.wantLate {
				t.Fatalf("estimate %+v, want %s..%s", est, tt.wantEarliest, tt.wantLate)
			}
		})
	}
}

func TestProfileStatusName(t *testing.T) {
	if n, ok := portal.ProfileStatusName(65); !ok || n != "PRE_ADVERSE_ACTION" {
		t.Errorf("ProfileStatusName(65) = %q, %v", n, ok)
	}
	if _, ok := portal.ProfileStatusName(64); ok {
		t.Error("64 is no profile status")
	}
	if !strings.HasPrefix(portal.ProfileStatusNames(), "ACTIVE (1), COMPLETED (5)") {
		t.Errorf("ProfileStatusNames = %s", portal.ProfileStatusNames())
	}
}
