package main_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

// The staff move a screening through the real binary: a service, the
// order and the profile, with clear messages for what is wrong.
func TestServiceOrderProfileCommands(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePackage(ctx, &portal.Package{CompanyID: c.ID, Name: "Standard",
		Services: []portal.PackageService{{Code: "crim"}, {Code: "emps"}}}); err != nil {
		t.Fatal(err)
	}
	sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(sub.ID)

	out := runPortal(t, "service", "set", "--data", data, "--subject", id, "--service", "emps", "--reason", "employer-not-responding", "--note", "HR line busy")
	if !strings.HasPrefix(out, "Applicant "+id+", Employment (emps): waiting-applicant, employer-not-responding; expected between ") {
		t.Errorf("service set: %q", out)
	}
	out = runPortal(t, "service", "set", "--data", data, "--subject", id, "--service", "crim", "--state", "in-progress", "--eta-days", "2-6")
	if !strings.Contains(out, "Criminal (crim): in-progress; expected between") {
		t.Errorf("service set crim: %q", out)
	}
	out = runPortal(t, "service", "list", "--data", data, "--subject", id)
	for _, want := range []string{"CODE", "crim  Criminal", "in-progress", "emps  Employment", "employer-not-responding", "HR line busy"} {
		if !strings.Contains(out, want) {
			t.Errorf("service list lacks %q:\n%s", want, out)
		}
	}
	if out := runPortal(t, "service", "reasons"); !strings.Contains(out, "court-closed (state waiting-third-party)") ||
		!strings.Contains(out, "action:    Upload a W-2 or pay stub -> /#documents") {
		t.Errorf("service reasons:\n%s", out)
	}
	if out := runPortal(t, "order", "set", "--data", data, "--subject", id, "--status", "4"); out != "Applicant "+id+"'s order: Complete (4).\n" {
		t.Errorf("order set: %q", out)
	}
	if out := runPortal(t, "profile", "set", "--data", data, "--subject", id, "--status", "PRE_ADVERSE_ACTION"); out != "Applicant "+id+"'s profile: PRE_ADVERSE_ACTION (65), shown to them as complete.\n" {
		t.Errorf("profile set: %q", out)
	}
	list, err := db.Documents().FindDocuments(ctx, sub.ID)
	if err != nil || list.Writable {
		t.Errorf("documents after completion: writable %v, %v", list != nil && list.Writable, err)
	}
	trail, err := db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: sub.ID})
	if err != nil || len(trail) != 4 || trail[0].Actor.Kind != portal.ActorCommandLine {
		t.Errorf("audit %+v, %v", trail, err)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"service", "set", "--subject", id, "--service", "drug", "--state", "complete"}, `service: Applicant ` + id + `'s package has no service "drug": say one of crim, emps.`},
		{[]string{"service", "set", "--subject", id, "--service", "crim", "--state", "done"}, `state: Unknown state "done": say one of pending, in-progress`},
		{[]string{"service", "set", "--subject", id, "--service", "crim", "--reason", "lunch"}, `reason: Unknown reason "lunch": say one of court-closed`},
		{[]string{"service", "set", "--subject", id, "--service", "crim", "--reason", "court-closed"}, "note: The reason court-closed needs the date in the note, as YYYY-MM-DD"},
		{[]string{"service", "set", "--subject", id, "--service", "crim", "--state", "complete", "--eta-days", "9-1"}, "--eta-days: An estimate is MIN-MAX business days"},
		{[]string{"service", "set", "--subject", id, "--service", "crim"}, "give --service and --state"},
		{[]string{"service", "set", "--subject", "999", "--service", "crim", "--state", "complete"}, "Applicant not found."},
		{[]string{"order", "set", "--subject", id, "--status", "9"}, "statusId: Unknown order status 9: say one of 0 New, 1 Setup Complete"},
		{[]string{"profile", "set", "--subject", id, "--status", "64"}, "statusId: Unknown profile status 64: say one of ACTIVE (1)"},
		{[]string{"profile", "set", "--subject", id, "--status", "HAPPY"}, `unknown --status "HAPPY": say one of ACTIVE (1)`},
		{[]string{"order", "set", "--status", "4"}, "give --subject"},
	} {
		args := append(tt.args[:2:2], append([]string{"--data", data}, tt.args[2:]...)...)
		if got := runPortalFails(t, args...); !strings.Contains(got, tt.want) {
			t.Errorf("portal %v: %q, want %q", tt.args, got, tt.want)
		}
	}
}
