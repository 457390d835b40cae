package main_test

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	sitesandbox "applicantportal/internal/sandbox/sites"
)

// runPortalFails runs a command that must fail and answers its stderr.
func runPortalFails(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(portalBin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); err == nil || code != 1 {
		t.Errorf("portal %v: exit %d (%v); want 1", args, code, err)
	}
	return stderr.String()
}

func TestCompanySetPrefAndShow(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePackage(ctx, &portal.Package{CompanyID: c.ID, Name: "Standard", Services: []portal.PackageService{{Code: "drug"}}}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, value, want string }{
		{portal.PrefCollectionSiteSelection, "true", "company_applicant_collection_site_selection = true (company 1)\n"},
		{portal.PrefSubjectChat, "1", "company_subject_chat = true (company 1)\n"},
		{portal.PrefRequireSSN, "true", "company_require_ssn = true (company 1)\n"},
		{portal.PrefSubjectPasswordLength, "12", "company_subject_password_length = 12 (company 1)\n"},
		{portal.PrefSelfPayEnabled, "1", "applicant_self_pay_enabled = 1 (the default package of company 1)\n"},
		{portal.PrefSelfPayHoldAmount, "25", "applicant_self_pay_initial_hold_amount = 25.00 (the default package of company 1)\n"},
	} {
		if out := runPortal(t, "company", "set-pref", "--data", data, tt.name, tt.value); out != tt.want {
			t.Errorf("set-pref %s %s: %q; want %q", tt.name, tt.value, out, tt.want)
		}
	}
	// The company may be named, and flags may follow the arguments.
	if out := runPortal(t, "company", "set-pref", portal.PrefRequireSSN, "false", "--data", data, "--company", "1"); out != "company_require_ssn = false (company 1)\n" {
		t.Errorf("set-pref with --company: %q", out)
	}
	out := runPortal(t, "company", "show", "--data", data)
	for _, line := range []string{"Company 1:", "company_applicant_collection_site_selection true", "company_subject_chat true",
		"company_require_ssn false", "company_subject_password_length 12", "applicant_self_pay_enabled 1", "applicant_self_pay_initial_hold_amount 25.00"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), line) {
			t.Errorf("show lacks %q:\n%s", line, out)
		}
	}
	company, _ := db.FindCompanyByID(ctx, c.ID)
	pkg, _ := db.FindPackageByID(ctx, company.PackageID)
	if !company.Preferences.ApplicantCollectionSiteSelection || company.Preferences.SubjectPasswordLength != 12 || !pkg.PaymentRequired() {
		t.Errorf("stored: %+v %+v", company.Preferences, pkg)
	}

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"UnknownName", []string{"company_colour", "blue"}, `Unknown preference "company_colour"`},
		{"BadBool", []string{portal.PrefSubjectChat, "maybe"}, `company_subject_chat is true or false, not "maybe".`},
		{"ShortPassword", []string{portal.PrefSubjectPasswordLength, "11"}, "from 12 to 64"},
		{"BadAmount", []string{portal.PrefSelfPayHoldAmount, "ten"}, "an amount in dollars such as 25.00"},
		{"NoValue", []string{portal.PrefSubjectChat}, "give the preference's NAME and VALUE"},
		{"UnknownCompany", []string{"--company", "9", portal.PrefSubjectChat, "true"}, "company 9: Company not found."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if stderr := runPortalFails(t, append([]string{"company", "set-pref", "--data", data}, tt.args...)...); !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q; want it to say %q", stderr, tt.want)
			}
		})
	}
	t.Run("TwoCompaniesNeedTheFlag", func(t *testing.T) {
		if err := db.CreateCompany(ctx, &portal.Company{Name: "Other"}); err != nil {
			t.Fatal(err)
		}
		if stderr := runPortalFails(t, "company", "show", "--data", data); !strings.Contains(stderr, "the database holds 2 companies: say which with --company") {
			t.Errorf("stderr %q", stderr)
		}
		if out := runPortal(t, "company", "show", "--data", data, "--company", "2"); !strings.Contains(out, "no package") {
			t.Errorf("show of a company without a package: %q", out)
		}
	})
	if stderr := runPortalFails(t, "company", "rename", "--data", data); !strings.Contains(stderr, "say list or show or set-pref") {
		t.Errorf("unknown subcommand: %q", stderr)
	}
}

func TestCollectionCollected(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	c := &portal.Company{Name: "Acme", Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: true}}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePackage(ctx, &portal.Package{CompanyID: c.ID, Name: "Standard", Services: []portal.PackageService{{Code: "drug"}}}); err != nil {
		t.Fatal(err)
	}
	sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(sub.ID)
	if stderr := runPortalFails(t, "collection", "collected", "--data", data, "--subject", id); !strings.Contains(stderr, "has not chosen a collection site") {
		t.Errorf("before a site is chosen: %q", stderr)
	}
	if err := db.SetSubjectStatus(ctx, sub.ID, portal.StatusNew, portal.StatusMROSiteSelection); err != nil {
		t.Fatal(err)
	}
	res, err := sitesandbox.New().Search(ctx, portal.SiteQuery{ZIP: "10001", RadiusMiles: 5})
	if err != nil {
		t.Fatal(err)
	}
	sites := db.CollectionSites(sitesandbox.New())
	if _, err := sites.Choose(ctx, sub.ID, res.Sites[0].ID); err != nil {
		t.Fatal(err)
	}
	out := runPortal(t, "collection", "collected", "--data", data, "--subject", id)
	want := fmt.Sprintf("Specimen of applicant %d collected at %s (site %d) on ", sub.ID, res.Sites[0].Name, res.Sites[0].ID)
	if !strings.HasPrefix(out, want) {
		t.Errorf("output %q; want it to begin %q", out, want)
	}
	if again := runPortal(t, "collection", "collected", "--data", data, "--subject", id); again != out {
		t.Errorf("again: %q; want the first time kept: %q", again, out)
	}
	choice, err := sites.Choice(ctx, sub.ID)
	if err != nil || choice.CollectedAt == nil || choice.Changeable {
		t.Errorf("choice = %+v, %v", choice, err)
	}
	if stderr := runPortalFails(t, "collection", "collected", "--data", data); !strings.Contains(stderr, "give --subject") {
		t.Errorf("without --subject: %q", stderr)
	}
}
