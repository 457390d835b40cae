package store_test

import (
	"bytes"
	"context"
	"reflect"
	"regexp"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

// historyWorld is a company with a default package and two applicants.
type historyWorld struct {
	company   *portal.Company
	pkg       *portal.Package
	jane, bob *portal.Subject
}

func newHistoryWorld(t *testing.T, db *store.DB) *historyWorld {
	t.Helper()
	ctx := context.Background()
	w := &historyWorld{company: &portal.Company{Name: "Acme"}}
	if err := db.CreateCompany(ctx, w.company); err != nil {
		t.Fatal(err)
	}
	w.pkg = &portal.Package{CompanyID: w.company.ID, Name: "Standard", Services: []portal.PackageService{{Code: "emps"}, {Code: "edus"}, {Code: "crim"}}}
	if err := db.CreatePackage(ctx, w.pkg); err != nil {
		t.Fatal(err)
	}
	var err error
	if w.jane, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"}); err != nil {
		t.Fatal(err)
	}
	if w.bob, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "bob@example.com", FirstName: "Bob", LastName: "Roe"}); err != nil {
		t.Fatal(err)
	}
	return w
}

// Real addresses, so they also pass the full US and international checks.
var (
	currentAddress = portal.Address{Country: "US", Street1: "150 N Capitol Blvd", City: "Boise", State: "US-ID", Zip: "83702", From: "2021-06", Current: true}
	pastAddress    = portal.Address{Country: "CA", Street1: "301 Front St W", City: "Toronto", State: "ON", Zip: "M5V 2T6", From: "2015-01", To: "2021-06"}
)

func checklist(t *testing.T, h *store.HistoryService, subjectID int64) *store.HistoryChecklist {
	t.Helper()
	c, err := h.Checklist(context.Background(), subjectID)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var hexID = regexp.MustCompile(`^[0-9a-f]{16}$`)

func TestAliasesRoundTrip(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		h := db.History()
		got, err := h.FindAliases(ctx, w.jane.ID)
		if err != nil || got.Saved || got.Aliases == nil || len(got.Aliases) != 0 {
			t.Fatalf("before saving: %+v, %v; want an empty unsaved list", got, err)
		}
		saved, err := h.SaveAliases(ctx, w.jane.ID, []portal.Alias{
			{Type: "Maiden", FirstName: " Jane ", LastName: "Smithson", From: "1999-01", To: "2010-06"},
			{ID: "not-a-server-id", Type: "nickname", FirstName: "JJ", LastName: "Doe"},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range saved.Aliases {
			if !hexID.MatchString(a.ID) {
				t.Errorf("id %q is not 16 hex digits", a.ID)
			}
		}
		if saved.Aliases[0].FirstName != "Jane" || saved.Aliases[0].Type != "maiden" {
			t.Errorf("not normalized: %+v", saved.Aliases[0])
		}
		got, err = h.FindAliases(ctx, w.jane.ID)
		if err != nil || !got.Saved || !reflect.DeepEqual(got.Aliases, saved.Aliases) {
			t.Fatalf("read back %+v, %v; want %+v", got, err, saved.Aliases)
		}
		t.Run("GivenIDsKept", func(t *testing.T) {
			again, err := h.SaveAliases(ctx, w.jane.ID, []portal.Alias{saved.Aliases[1], saved.Aliases[1]})
			if err == nil {
				t.Fatalf("a name listed twice was saved: %+v", again)
			}
			again, err = h.SaveAliases(ctx, w.jane.ID, saved.Aliases[1:])
			if err != nil || again.Aliases[0].ID != saved.Aliases[1].ID {
				t.Fatalf("saved %+v, %v; want the id %s kept", again, err, saved.Aliases[1].ID)
			}
		})
		t.Run("EmptyListSaved", func(t *testing.T) {
			if _, err := h.SaveAliases(ctx, w.bob.ID, nil); err != nil {
				t.Fatal(err)
			}
			if c := checklist(t, h, w.bob.ID); !c.AliasesPage.Complete || c.AddressesPage.Complete {
				t.Errorf("checklist = %+v; want the aliases page complete", c)
			}
			got, err := h.FindAliases(ctx, w.bob.ID)
			if err != nil || !got.Saved || len(got.Aliases) != 0 {
				t.Fatalf("got %+v, %v; want a saved empty list", got, err)
			}
		})
		t.Run("CurrentNameRefused", func(t *testing.T) {
			_, err := h.SaveAliases(ctx, w.jane.ID, []portal.Alias{{Type: "other", FirstName: "JANE", LastName: "doe"}})
			wantLegalError(t, err, portal.EINVALID, "")
		})
		t.Run("SealedAtRest", func(t *testing.T) {
			var sealed []byte
			if err := db.SQL().QueryRow(`SELECT sealed FROM subject_records WHERE subject_id = $1 AND kind = 'aliases'`, w.jane.ID).Scan(&sealed); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(sealed, []byte("Doe")) || bytes.Contains(sealed, []byte("nickname")) {
				t.Error("the aliases row holds plaintext")
			}
		})
	})
}

func TestAddressesRoundTrip(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		h := db.History()
		got, err := h.FindAddresses(ctx, w.jane.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := portal.AddressCoverage{RequiredYears: 7, CoverageStart: "2019-11", Gaps: []portal.MonthRange{{From: "2019-11", To: "2026-11"}}}
		if got.Saved || len(got.Addresses) != 0 || !reflect.DeepEqual(got.AddressCoverage, want) {
			t.Fatalf("before saving: %+v, want nothing saved and %+v", got, want)
		}
		if c := checklist(t, h, w.jane.ID); c.AddressesPage.Complete || c.AliasesPage.Complete {
			t.Errorf("checklist before saving = %+v", c)
		}
		saved, err := h.SaveAddresses(ctx, w.jane.ID, []portal.Address{currentAddress, pastAddress}, false)
		if err != nil {
			t.Fatal(err)
		}
		if c := checklist(t, h, w.jane.ID); !c.AddressesPage.Complete || c.AliasesPage.Complete || !reflect.DeepEqual(c.Addresses, *saved) {
			t.Errorf("checklist after saving = %+v", c)
		}
		if len(saved.Gaps) != 0 || !saved.ReleaseFormRequired || !saved.Saved {
			t.Errorf("saved: %+v; want no gaps and Idaho's release form", saved)
		}
		got, err = h.FindAddresses(ctx, w.jane.ID)
		if err != nil || !reflect.DeepEqual(got, saved) {
			t.Fatalf("read back %+v, %v\nwant %+v", got, err, saved)
		}
		t.Run("SealedAtRest", func(t *testing.T) {
			var sealed []byte
			if err := db.SQL().QueryRow(`SELECT sealed FROM subject_records WHERE subject_id = $1 AND kind = 'addresses'`, w.jane.ID).Scan(&sealed); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(sealed, []byte("Capitol")) || bytes.Contains(sealed, []byte("Front St")) {
				t.Error("the addresses row holds a plaintext street")
			}
		})
		t.Run("FailedSaveKeepsWhatWasSaved", func(t *testing.T) {
			gap := pastAddress
			gap.To = "2020-01"
			_, err := h.SaveAddresses(ctx, w.jane.ID, []portal.Address{currentAddress, gap}, false)
			wantLegalError(t, err, portal.EINVALID, "")
			got, _ := h.FindAddresses(ctx, w.jane.ID)
			if !reflect.DeepEqual(got, saved) {
				t.Errorf("after a refused save: %+v, want %+v", got, saved)
			}
		})
		t.Run("DraftSavedButPageIncomplete", func(t *testing.T) {
			onlyCurrent := []portal.Address{currentAddress}
			_, err := h.SaveAddresses(ctx, w.bob.ID, onlyCurrent, false)
			wantLegalError(t, err, portal.EINVALID, "")
			got, err := h.SaveAddresses(ctx, w.bob.ID, onlyCurrent, true)
			if err != nil {
				t.Fatalf("draft save: %v", err)
			}
			if !got.Saved || len(got.Gaps) == 0 {
				t.Errorf("draft answer %+v; want saved with its gaps", got)
			}
			if c := checklist(t, h, w.bob.ID); c.AddressesPage.Complete {
				t.Errorf("checklist after a draft = %+v; want the page incomplete", c.AddressesPage)
			}
			bad := currentAddress
			bad.Street1 = ""
			_, err = h.SaveAddresses(ctx, w.bob.ID, []portal.Address{bad}, true)
			wantLegalError(t, err, portal.EINVALID, "")
		})
		t.Run("PackageYears", func(t *testing.T) {
			if err := db.SetAddressHistoryYears(ctx, w.pkg.ID, 12); err != nil {
				t.Fatal(err)
			}
			defer db.SetAddressHistoryYears(ctx, w.pkg.ID, 7)
			short := pastAddress
			short.From = "2018-01"
			_, err := h.SaveAddresses(ctx, w.bob.ID, []portal.Address{currentAddress, short}, false)
			wantLegalError(t, err, portal.EINVALID, "")
			got, _ := h.FindAddresses(ctx, w.bob.ID)
			if got.RequiredYears != 12 || got.CoverageStart != "2014-11" {
				t.Errorf("coverage %+v, want 12 years from 2014-11", got.AddressCoverage)
			}
			// Jane's history, complete for 7 years (back to 2015), is not complete for 12 complete.
			c := checklist(t, h, w.jane.ID)
			want := []string{"Add the address where you lived from November 2014 to December 2014."}
			if !c.Addresses.Saved || c.AddressesPage.Complete || !reflect.DeepEqual(c.AddressesPage.Missing, want) {
				t.Errorf("checklist under 12 years = %+v; want saved, not complete: %v", c, want)
			}
		})
	})
}

func TestHistoryWritesRefusedAfterSubmission(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		h := db.History()
		if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
			t.Fatal(err)
		}
		if _, err := h.SaveAliases(ctx, w.jane.ID, nil); err != nil {
			t.Fatalf("setup complete: %v, want the save allowed", err)
		}
		if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
			t.Fatal(err)
		}
		_, err := h.SaveAliases(ctx, w.jane.ID, nil)
		wantLegalError(t, err, portal.ECONFLICT, "Your profile has been submitted; contact the employer to change it.")
		_, err = h.SaveAddresses(ctx, w.jane.ID, []portal.Address{currentAddress, pastAddress}, false)
		wantLegalError(t, err, portal.ECONFLICT, "Your profile has been submitted")
	})
}

func TestSaveNotificationMethod(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		h := db.History()
		_, err := h.SaveNotificationMethod(ctx, w.jane.ID, portal.NotificationMethod{Type: "email", Email: "jane@example.com"})
		wantLegalError(t, err, portal.ECONFLICT, "Save your personal information first.")

		p := &portal.PersonalInfo{FirstName: "Jane", LastName: "Doe", SSN: "123456789", DaytimeDialCode: "1", DaytimePhoneNumber: "2025550143",
			PrimaryNotificationMethod: portal.NotificationMethod{Type: "email", Email: "jane@example.com"}}
		if err := db.Personal().SavePersonalInfo(ctx, w.jane.ID, p); err != nil {
			t.Fatal(err)
		}
		m, err := h.SaveNotificationMethod(ctx, w.jane.ID, portal.NotificationMethod{Type: " BOTH ", Email: " jane@example.org ", Text: "(202) 555-0143"})
		want := portal.NotificationMethod{Type: "both", Email: "jane@example.org", Text: "2025550143"}
		if err != nil || m != want {
			t.Fatalf("saved %+v, %v; want %+v", m, err, want)
		}
		stored, err := db.Personal().FindPersonalInfo(ctx, w.jane.ID)
		if err != nil || stored.PrimaryNotificationMethod != want || stored.SSN != "123456789" {
			t.Fatalf("stored %+v, %v; want the method changed and the rest kept", stored, err)
		}
		_, err = h.SaveNotificationMethod(ctx, w.jane.ID, portal.NotificationMethod{Type: "pigeon"})
		wantLegalError(t, err, portal.EINVALID, "")
		var pe *portal.Error
		if e, ok := err.(*portal.Error); ok {
			pe = e
		}
		if pe == nil || len(pe.Fields) != 1 || pe.Fields[0].Field != "type" {
			t.Errorf("fields = %+v, want only type", pe)
		}
	})
}

func TestFindOrder(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newHistoryWorld(t, db)
		prof, err := db.Subjects().FindProfile(ctx, w.jane.ID)
		if err != nil || len(prof.Orders) != 1 {
			t.Fatalf("profile %+v, %v", prof, err)
		}
		id := prof.Orders[0].ID
		o, err := db.Orders().FindOrder(ctx, w.jane.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		if o.PackageName != "Standard" || len(o.Services) != 3 || !o.CreatedAt.Equal(legalClock) {
			t.Fatalf("order %+v", o)
		}
		if s := o.Services[0]; s.Code != "emps" || s.Alias != "employment" || s.Name != "Employment" || s.Complete || !s.HasError {
			t.Errorf("service %+v", s)
		}
		t.Run("AnotherSubjectsOrderIsNotFound", func(t *testing.T) {
			_, err := db.Orders().FindOrder(ctx, w.bob.ID, id)
			wantLegalError(t, err, portal.ENOTFOUND, "")
		})
		t.Run("CompleteOnlyAtStatus4", func(t *testing.T) {
			for _, step := range [][2]portal.StatusID{{0, 1}, {1, 3}, {3, 4}} {
				if err := db.SetSubjectStatus(ctx, w.jane.ID, step[0], step[1]); err != nil {
					t.Fatal(err)
				}
				o, err := db.Orders().FindOrder(ctx, w.jane.ID, id)
				if err != nil {
					t.Fatal(err)
				}
				if o.Services[0].Complete != (step[1] == portal.StatusComplete) {
					t.Errorf("status %d: complete = %v", step[1], o.Services[0].Complete)
				}
			}
		})
	})
}
