package main_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

func TestApplicantListShowAndCompanyList(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	acme := &portal.Company{Name: "Acme", Preferences: portal.CompanyPreferences{SubjectChat: true}}
	other := &portal.Company{Name: "Other"}
	for _, c := range []*portal.Company{acme, other} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	jane, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: other.ID, Email: "olga@example.com", FirstName: "Olga", LastName: "Berg"}); err != nil {
		t.Fatal(err)
	}

	list := runPortal(t, "applicant", "list", "--data", data, "--company", "1")
	if list != runPortal(t, "applicants", "--data", data, "--company", "1") || !strings.Contains(list, "jane@example.com") || strings.Contains(list, "olga") {
		t.Errorf("applicant list: %q", list)
	}
	out := runPortal(t, "applicant", "show", "--data", data, "--subject", fmt.Sprint(jane.ID))
	for _, want := range []string{"Applicant 1: Jane Doe <jane@example.com>\n", "Company:     Acme (1)\n", "Status:      New (0)\n", "Language:    en-US (of the e-mails and texts sent to them)\n",
		"Unread chat: 0\n", "Still to do:\n  - create a password (invitation not started)\n", "  - verify their identity\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if err := db.SetSubjectStatus(ctx, jane.ID, portal.StatusNew, portal.StatusFinalizationComplete); err != nil {
		t.Fatal(err)
	}
	if out := runPortal(t, "applicant", "show", "--data", data, "--subject", fmt.Sprint(jane.ID)); !strings.HasSuffix(out, "Nothing left for the applicant to do.\n") {
		t.Errorf("show when finalized: %q", out)
	}
	if stderr := runPortalFails(t, "applicant", "show", "--data", data, "--subject", "99"); !strings.Contains(stderr, "applicant 99: Applicant not found.") {
		t.Errorf("unknown applicant: %q", stderr)
	}
	if stderr := runPortalFails(t, "applicant", "show", "--data", data); !strings.Contains(stderr, "give --subject") {
		t.Errorf("no --subject: %q", stderr)
	}

	out = runPortal(t, "company", "list", "--data", data)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "1 Acme chat on 1 applicants" ||
		strings.Join(strings.Fields(lines[1]), " ") != "2 Other chat off 1 applicants" {
		t.Errorf("company list: %q", out)
	}
}
