package main_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

// The binary's clock is real, so the final notice is refused here while
// the waiting period runs; the store's tests move a fake clock past it.
func TestAdverseCommands(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	acme := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, acme); err != nil {
		t.Fatal(err)
	}
	subject := func(email string, status portal.StatusID) string {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: email, FirstName: "Jane", LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		if status != portal.StatusNew {
			if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, status); err != nil {
				t.Fatal(err)
			}
		}
		return strconv.FormatInt(s.ID, 10)
	}
	jane, bob := subject("jane@example.com", portal.StatusFinalizationComplete), subject("bob@example.com", portal.StatusNew)
	db.Close()

	runPortal(t, "company", "set-pref", "--data", data, "--company", strconv.FormatInt(acme.ID, 10), portal.PrefAdverseWaitingDays, "7")
	if out := runPortal(t, "adverse", "show", "--data", data, "--subject", jane); out != "Applicant "+jane+" has no adverse action.\n" {
		t.Errorf("show before: %q", out)
	}
	refusals := []struct {
		name string
		args []string
		want string
	}{
		{"ZeroDays", []string{"pre", "--subject", jane, "--waiting-days", "0"}, "--waiting-days is a whole number of business days from 1 to 30"},
		{"NotSubmitted", []string{"pre", "--subject", bob}, "has not submitted"},
		{"FinalBeforePre", []string{"final", "--subject", jane}, "has no pre-adverse notice"},
		{"NoSubject", []string{"show"}, "give --subject"},
		{"UnknownApplicant", []string{"show", "--subject", "9999"}, "Applicant not found."},
	}
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			if out := runPortalFails(t, append(append([]string{"adverse"}, r.args...), "--data", data)...); !strings.Contains(out, r.want) {
				t.Errorf("stderr %q; want %q", out, r.want)
			}
		})
	}
	out := runPortal(t, "adverse", "pre", "--data", data, "--subject", jane, "--note", "The county record of 2019.", "--based-on", "CRIM")
	for _, want := range []string{"Applicant " + jane + " (Acme): pre adverse action", "waiting 7 business days", "Note: The county record of 2019.", "Based on: CRIM"} {
		if !strings.Contains(out, want) {
			t.Errorf("pre printed %q; want %q", out, want)
		}
	}
	if out := runPortalFails(t, "adverse", "final", "--data", data, "--subject", jane); !strings.Contains(out, "The waiting period ends on") {
		t.Errorf("final during the waiting period: %q", out)
	}
	if out := runPortal(t, "audit", "list", "--data", data, "--subject", jane); !strings.Contains(out, "adverse.pre") || !strings.Contains(out, "command line") {
		t.Errorf("audit: %q", out)
	}
	if out := runPortal(t, "adverse", "show", "--data", data, "--subject", jane); !strings.Contains(out, "pre adverse action") {
		t.Errorf("show: %q", out)
	}
}
