package main_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
)

func TestBannerSetListClear(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	acme, other := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Other"}
	for _, c := range []*portal.Company{acme, other} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	jane, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	olga, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: other.ID, Email: "olga@example.com", FirstName: "Olga", LastName: "Berg"})
	if err != nil {
		t.Fatal(err)
	}
	sees := func(s *portal.Subject) string {
		b, err := db.Banners().ActiveBanner(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return ""
		}
		return b.Message
	}

	// A company's banner posted after everyone's shows to its applicants
	// first: the newest wins.
	if out := runPortal(t, "banner", "set", "--data", data, "--message", "Upgrade on Sunday", "--ends-at", "2099-01-01T00:00:00Z"); !strings.HasSuffix(out,
		" set for everyone, until 2099-01-01T00:00:00Z: Upgrade on Sunday\n") {
		t.Errorf("set --ends-at: %q", out)
	}
	before := time.Now()
	out := runPortal(t, "banner", "set", "--data", data, "--message", "Acme closes early", "--for", "2h", "--company", fmt.Sprint(acme.ID))
	m := regexp.MustCompile(`^Maintenance banner (\d+) set for company 1, until (\S+): Acme closes early\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("set --for: %q", out)
	}
	if end, err := time.Parse(time.RFC3339, m[2]); err != nil || end.Before(before.Add(2*time.Hour-time.Second)) || end.After(time.Now().Add(2*time.Hour)) {
		t.Errorf("ends at %q; want two hours from now", m[2])
	}
	acmeID := m[1]
	if sees(jane) != "Acme closes early" || sees(olga) != "Upgrade on Sunday" {
		t.Errorf("jane sees %q, olga %q", sees(jane), sees(olga))
	}
	if out := runPortal(t, "banner", "list", "--data", data); strings.Count(out, "\n") != 2 ||
		!strings.Contains(out, "company 1     until "+m[2]+"      Acme closes early\n") || !strings.Contains(out, "everyone      until 2099-01-01T00:00:00Z") {
		t.Errorf("list: %q", out)
	}
	if out := runPortal(t, "banner", "list", "--data", data, "--company", "1"); strings.Count(out, "\n") != 1 || !strings.Contains(out, "Acme closes early") {
		t.Errorf("list --company 1: %q", out)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"NoMessage", []string{"set", "--message", " "}, "message: Write the banner's message."},
		{"EndPassed", []string{"set", "--message", "Late", "--ends-at", "2020-01-01T00:00:00Z"}, "endsAt: The end time has passed"},
		{"EndNotATime", []string{"set", "--message", "Late", "--ends-at", "tomorrow"}, `--ends-at "tomorrow" is not an RFC 3339 time`},
		{"BothEnds", []string{"set", "--message", "Late", "--for", "1h", "--ends-at", "2099-01-01T00:00:00Z"}, "give --ends-at or --for, not both"},
		{"UnknownCompany", []string{"set", "--message", "Late", "--company", "9"}, "Company not found."},
		{"OtherCompanysBanner", []string{"clear", "--id", acmeID, "--company", "2"}, "banner " + acmeID + ": Banner not found."},
		{"UnknownWord", []string{"show"}, "say set or clear or list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if stderr := runPortalFails(t, append(append([]string{"banner"}, tc.args...), "--data", data)...); !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q; want it to say %q", stderr, tc.want)
			}
		})
	}

	if out := runPortal(t, "banner", "clear", "--data", data, "--id", acmeID); out != "Maintenance banner "+acmeID+" cleared.\n" {
		t.Errorf("clear --id: %q", out)
	}
	if sees(jane) != "Upgrade on Sunday" {
		t.Errorf("after clearing acme's, jane sees %q", sees(jane))
	}
	if out := runPortal(t, "banner", "clear", "--data", data); out != "Every maintenance banner cleared.\n" {
		t.Errorf("clear: %q", out)
	}
	if sees(jane) != "" || sees(olga) != "" {
		t.Error("a banner still shows after clearing every banner")
	}
	if out := runPortal(t, "banner", "list", "--data", data); out != "No maintenance banner is showing.\n" {
		t.Errorf("list after clearing: %q", out)
	}
}
