package store_test

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestOperatorInviteApplicant(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ops := db.Operator()
		acme, other := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Other"}
		for _, c := range []*portal.Company{acme, other} {
			if err := db.CreateCompany(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		invite := func(email string, change func(*portal.InviteRequest)) (*portal.InviteResult, error) {
			req := portal.InviteRequest{NewSubject: portal.NewSubject{CompanyID: acme.ID, Email: email, FirstName: "Riley", LastName: "Stone"}}
			if change != nil {
				change(&req)
			}
			return ops.Invitations.InviteApplicant(ctx, req)
		}
		subjects := func() int {
			var n int
			db.SQL().QueryRow(`SELECT COUNT(*) FROM subjects`).Scan(&n)
			return n
		}

		t.Run("NewApplicantGetsALink", func(t *testing.T) {
			res, err := invite("riley@example.com", func(r *portal.InviteRequest) { r.Work = portal.Place{State: "US-CA", County: 6075} })
			if err != nil {
				t.Fatal(err)
			}
			if res.Token == "" || res.Subject.Username != "riley@example.com" || res.Subject.CompanyID != acme.ID {
				t.Errorf("result = %+v", res)
			}
			data, err := db.SubjectData().FindSubjectData(ctx, res.Subject.ID)
			if err != nil {
				t.Fatal(err)
			}
			loc := data.Location
			if loc.Employment.State != "US-CA" || loc.Employment.County != 6075 {
				t.Errorf("employment location = %+v, want US-CA 6075", loc.Employment)
			}
		})
		t.Run("InvitingAgainGivesANewLinkToTheSameApplicant", func(t *testing.T) {
			first, err := invite("again@example.com", nil)
			if err != nil {
				t.Fatal(err)
			}
			second, err := invite("Again@Example.com", nil)
			if err != nil {
				t.Fatal(err)
			}
			if second.Subject.ID != first.Subject.ID || second.Token == first.Token {
				t.Errorf("second invitation: subject %d token same %v; want subject %d and a new token", second.Subject.ID, second.Token == first.Token, first.Subject.ID)
			}
		})
		t.Run("ApplicantWithAPasswordIsAConflict", func(t *testing.T) {
			res, err := invite("haspassword@example.com", nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Auth().SetInitialPassword(ctx, res.Subject.ID, "a long enough passphrase"); err != nil {
				t.Fatal(err)
			}
			_, err = invite("haspassword@example.com", nil)
			if pe := wantCode(t, err, portal.ECONFLICT); pe.Message != "haspassword@example.com already has an account with a password; they can log in or reset their password" {
				t.Errorf("message = %q", pe.Message)
			}
		})
		t.Run("ApplicantOfAnotherCompanyIsAConflict", func(t *testing.T) {
			if _, err := invite("elsewhere@example.com", nil); err != nil {
				t.Fatal(err)
			}
			_, err := invite("elsewhere@example.com", func(r *portal.InviteRequest) { r.CompanyID = other.ID })
			if pe := wantCode(t, err, portal.ECONFLICT); pe.Message != "elsewhere@example.com is already in use by another account and cannot be invited" {
				t.Errorf("message = %q", pe.Message)
			}
		})
		t.Run("AnotherCompanysApplicantWithAPasswordIsNotToldApart", func(t *testing.T) {
			// The other employer's applicant set a password: the answer
			// must not say so, nor that they applied there.
			_, err := invite("haspassword@example.com", func(r *portal.InviteRequest) { r.CompanyID = other.ID })
			if pe := wantCode(t, err, portal.ECONFLICT); pe.Message != "haspassword@example.com is already in use by another account and cannot be invited" {
				t.Errorf("message = %q", pe.Message)
			}
		})
		invalid := []struct {
			name   string
			change func(*portal.InviteRequest)
			field  string
		}{
			{"MalformedEmailRefused", func(r *portal.InviteRequest) { r.Email = "riley at example" }, "email"},
			{"NameWithDigitsRefused", func(r *portal.InviteRequest) { r.FirstName = "R1ley" }, "firstName"},
			{"UnknownWorkStateRefused", func(r *portal.InviteRequest) { r.Work = portal.Place{State: "US-XX"} }, "work.state"},
			{"WorkCountyOfAnotherStateRefused", func(r *portal.InviteRequest) { r.Work = portal.Place{State: "US-NY", County: 6075} }, "work.county"},
		}
		for _, tt := range invalid {
			t.Run(tt.name, func(t *testing.T) {
				before := subjects()
				_, err := invite("invalid@example.com", tt.change)
				pe := wantCode(t, err, portal.EINVALID)
				if len(pe.Fields) == 0 || pe.Fields[0].Field != tt.field {
					t.Errorf("fields = %+v, want %s", pe.Fields, tt.field)
				}
				if subjects() != before {
					t.Error("a refused invitation created an applicant")
				}
			})
		}
		t.Run("ConcurrentInvitationsOfOneAddressGiveOneApplicant", func(t *testing.T) {
			var wg sync.WaitGroup
			ids := make([]int64, 4)
			errs := make([]error, 4)
			for i := range ids {
				wg.Go(func() {
					res, err := invite("twice@example.com", nil)
					if errs[i] = err; err == nil {
						ids[i] = res.Subject.ID
					}
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			for _, id := range ids[1:] {
				if id != ids[0] {
					t.Fatalf("subjects %v; want one applicant", ids)
				}
			}
		})
	})
}

func TestOperatorListsBannerOutboxSweep(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ops := db.Operator()
		a, b := &portal.Company{Name: "A"}, &portal.Company{Name: "B"}
		for _, c := range []*portal.Company{a, b} {
			if err := db.CreateCompany(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		for i, c := range []int64{a.ID, b.ID, a.ID} {
			req := portal.InviteRequest{NewSubject: portal.NewSubject{CompanyID: c, Email: string(rune('a'+i)) + "@example.com", FirstName: "Ann", LastName: "Lee"}}
			if _, err := ops.Invitations.InviteApplicant(ctx, req); err != nil {
				t.Fatal(err)
			}
		}
		t.Run("ApplicantsOfOneCompany", func(t *testing.T) {
			list, err := ops.Applicants.FindApplicants(ctx, portal.ApplicantFilter{CompanyID: a.ID})
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 2 || list[0].Username != "a@example.com" || list[1].Username != "c@example.com" {
				t.Errorf("applicants of A = %+v", list)
			}
			all, _ := ops.Applicants.FindApplicants(ctx, portal.ApplicantFilter{})
			if len(all) != 3 {
				t.Errorf("%d applicants in all, want 3", len(all))
			}
		})
		t.Run("Companies", func(t *testing.T) {
			list, err := ops.Companies.FindCompanies(ctx)
			if err != nil || len(list) != 2 || list[0].Name != "A" {
				t.Errorf("companies = %+v, %v", list, err)
			}
		})
		t.Run("BannerSetTrimmedAndCleared", func(t *testing.T) {
			bn, err := ops.Banners.SetBanner(ctx, "  Maintenance tonight  ")
			if err != nil || bn == nil || bn.Message != "Maintenance tonight" {
				t.Fatalf("SetBanner = %+v, %v", bn, err)
			}
			if bn, err := ops.Banners.SetBanner(ctx, "   "); err != nil || bn != nil {
				t.Errorf("clearing = %+v, %v; want nil", bn, err)
			}
		})
		t.Run("OutboxAndSweep", func(t *testing.T) {
			if _, err := ops.Maintenance.Outbox(ctx); err != nil {
				t.Error(err)
			}
			if res, err := ops.Maintenance.Sweep(ctx); err != nil || res.Total() != 0 {
				t.Errorf("Sweep = %+v, %v; want nothing to delete", res, err)
			}
		})
	})
}

func TestOperatorCompanyPreferences(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ops := db.Operator()
		acme, bare := &portal.Company{Name: "Acme"}, &portal.Company{Name: "No package"}
		for _, c := range []*portal.Company{acme, bare} {
			if err := db.CreateCompany(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.CreatePackage(ctx, &portal.Package{CompanyID: acme.ID, Name: "Standard"}); err != nil {
			t.Fatal(err)
		}
		show := func(id int64) map[string]string {
			t.Helper()
			prefs, err := ops.Companies.CompanyPreferences(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			m := map[string]string{}
			for _, p := range prefs {
				m[p.Name] = p.Value
			}
			return m
		}
		want := map[string]string{
			portal.PrefCollectionSiteSelection: "false", portal.PrefSubjectChat: "false", portal.PrefRequireSSN: "false",
			portal.PrefSubjectPasswordLength: "15", portal.PrefSelfPayEnabled: "0", portal.PrefSelfPayHoldAmount: "0.00",
			portal.PrefAdverseWaitingDays: "5",
		}
		if got := show(acme.ID); !reflect.DeepEqual(got, want) {
			t.Errorf("defaults = %v; want %v", got, want)
		}
		for _, c := range []struct{ name, value, stored string }{
			{portal.PrefCollectionSiteSelection, "true", "true"},
			{portal.PrefSubjectChat, "1", "true"},
			{portal.PrefRequireSSN, " TRUE ", "true"},
			{portal.PrefSubjectPasswordLength, "12", "12"},
			{portal.PrefSubjectPasswordLength, "64", "64"},
			{portal.PrefSelfPayEnabled, "1", "1"},
			{portal.PrefSelfPayHoldAmount, "25", "25.00"},
			{portal.PrefSelfPayHoldAmount, "19.5", "19.50"},
			{portal.PrefRequireSSN, "false", "false"},
			{portal.PrefAdverseWaitingDays, " 10 ", "10"},
		} {
			p, err := ops.Companies.SetCompanyPreference(ctx, acme.ID, c.name, c.value)
			if err != nil || p.Value != c.stored {
				t.Errorf("set %s %q = %+v, %v; want %q", c.name, c.value, p, err, c.stored)
				continue
			}
			want[c.name] = c.stored
			if got := show(acme.ID); !reflect.DeepEqual(got, want) {
				t.Errorf("after %s %q: %v; want %v", c.name, c.value, got, want)
			}
		}
		// What the applicant's flow reads.
		company, _ := db.FindCompanyByID(ctx, acme.ID)
		pkg, _ := db.FindPackageByID(ctx, company.PackageID)
		if !company.Preferences.ApplicantCollectionSiteSelection || !company.Preferences.SubjectChat || company.Preferences.SubjectPasswordLength != 64 ||
			!pkg.SelfPayEnabled || pkg.SelfPayInitialHoldAmt != "19.50" || !pkg.PaymentRequired() {
			t.Errorf("company %+v package %+v", company.Preferences, pkg)
		}
		for _, c := range []struct{ name, value string }{
			{"company_colour", "blue"},
			{portal.PrefSubjectChat, "maybe"},
			{portal.PrefSubjectPasswordLength, "7"},
			{portal.PrefSubjectPasswordLength, "11"},
			{portal.PrefSubjectPasswordLength, "65"},
			{portal.PrefSubjectPasswordLength, "12.5"},
			{portal.PrefSelfPayEnabled, "2"},
			{portal.PrefSelfPayHoldAmount, "-5"},
			{portal.PrefSelfPayHoldAmount, "1.234"},
			{portal.PrefSelfPayHoldAmount, "$5"},
			{portal.PrefAdverseWaitingDays, "0"},
			{portal.PrefAdverseWaitingDays, "31"},
		} {
			_, err := ops.Companies.SetCompanyPreference(ctx, acme.ID, c.name, c.value)
			wantCode(t, err, portal.EINVALID)
		}
		if got := show(acme.ID); !reflect.DeepEqual(got, want) {
			t.Errorf("after refused changes: %v; want %v", got, want)
		}
		_, err := ops.Companies.SetCompanyPreference(ctx, bare.ID, portal.PrefSelfPayEnabled, "1")
		wantCode(t, err, portal.ECONFLICT)
		if _, err := ops.Companies.SetCompanyPreference(ctx, bare.ID, portal.PrefSubjectChat, "true"); err != nil {
			t.Error(err)
		}
		if got := len(show(bare.ID)); got != 5 {
			t.Errorf("a company without a package shows %d preferences; want its 5", got)
		}
		_, err = ops.Companies.SetCompanyPreference(ctx, 987654, portal.PrefSubjectChat, "true")
		wantCode(t, err, portal.ENOTFOUND)
		_, err = ops.Companies.CompanyPreferences(ctx, 987654)
		wantCode(t, err, portal.ENOTFOUND)
	})
}
