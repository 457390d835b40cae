package store_test

import (
	"context"
	"slices"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func prepIDs(p *portal.Preparation) []string {
	var ids []string
	for _, it := range p.Items {
		ids = append(ids, it.ID)
	}
	return ids
}

func prepItem(p *portal.Preparation, id string) *portal.PreparationItem {
	for i := range p.Items {
		if p.Items[i].ID == id {
			return &p.Items[i]
		}
	}
	return nil
}

// TestFindPreparationFollowsThePackage: the Welcome step's list holds only
// what the subject's package asks for, with its facts, and the estimate
// grows with what the package asks for.
func TestFindPreparationFollowsThePackage(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		prep := db.Preparation()
		newSubject := func(name string, prefs portal.CompanyPreferences, pkg *portal.Package, years int) *portal.Subject {
			t.Helper()
			c := &portal.Company{Name: name, Preferences: prefs}
			if err := db.CreateCompany(ctx, c); err != nil {
				t.Fatal(err)
			}
			if pkg != nil {
				pkg.CompanyID = c.ID
				if err := db.CreatePackage(ctx, pkg); err != nil {
					t.Fatal(err)
				}
				if years > 0 {
					if err := db.SetAddressHistoryYears(ctx, pkg.ID, years); err != nil {
						t.Fatal(err)
					}
				}
			}
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: name + "@example.com", FirstName: "Jo", LastName: "Lee"})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		svc := func(code string) portal.PackageService {
			return portal.PackageService{Code: code, Fields: servicedefs.Standard(code)}
		}
		full := &portal.Package{Name: "Full", SelfPayEnabled: true, SelfPayInitialHoldAmt: "25",
			Services: []portal.PackageService{svc("edus"), svc("emps"), svc("cred"), svc("prof"), svc("mvrs"), svc("drug")},
			DocumentTypes: []portal.DocumentType{{Type: "drivers_license", Title: "Driver's license", Required: true},
				{Type: "resume", Title: "Resume"}}}
		bare := &portal.Package{Name: "Bare", Services: []portal.PackageService{svc("crim")}}
		fullSubject := newSubject("full", portal.CompanyPreferences{RequireSSN: true, ApplicantCollectionSiteSelection: true}, full, 10)
		bareSubject := newSubject("bare", portal.CompanyPreferences{}, bare, 0)
		noPackage := newSubject("none", portal.CompanyPreferences{ApplicantCollectionSiteSelection: true}, nil, 0)

		tests := []struct {
			name    string
			subject *portal.Subject
			want    []string
		}{
			{"EveryKindOfService", fullSubject, []string{portal.PrepSSNAndBirthDate, portal.PrepOtherNames, portal.PrepAddresses,
				portal.PrepDriversLicence, portal.PrepSchools, portal.PrepEmployers, portal.PrepLicences, portal.PrepReferences,
				portal.PrepDocuments, portal.PrepPhotoID, portal.PrepCollectionSite, portal.PrepPaymentCard}},
			{"NoServicePages", bareSubject, []string{portal.PrepSSNAndBirthDate, portal.PrepOtherNames, portal.PrepAddresses, portal.PrepPhotoID}},
			// The site choice needs an MRO service as well as the company's setting.
			{"NoPackage", noPackage, []string{portal.PrepSSNAndBirthDate, portal.PrepOtherNames, portal.PrepAddresses, portal.PrepPhotoID}},
		}
		got := map[string]*portal.Preparation{}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				p, err := prep.FindPreparation(ctx, tt.subject.ID)
				if err != nil {
					t.Fatal(err)
				}
				if ids := prepIDs(p); !slices.Equal(ids, tt.want) {
					t.Errorf("items = %v, want %v", ids, tt.want)
				}
				got[tt.name] = p
			})
		}
		full1 := got["EveryKindOfService"]
		bare1 := got["NoServicePages"]
		if full1 == nil || bare1 == nil {
			t.Fatal("lists missing")
		}
		t.Run("Facts", func(t *testing.T) {
			if it := prepItem(full1, portal.PrepAddresses); it.Years != 10 {
				t.Errorf("addresses years = %d, want the package's 10", it.Years)
			}
			if it := prepItem(bare1, portal.PrepAddresses); it.Years != portal.DefaultAddressHistoryYears {
				t.Errorf("addresses years = %d, want the default %d", it.Years, portal.DefaultAddressHistoryYears)
			}
			if it := prepItem(full1, portal.PrepPaymentCard); it.Amount != "25.00" || it.Currency != "USD" {
				t.Errorf("payment = %+v, want 25.00 USD", it)
			}
			if it := prepItem(full1, portal.PrepDocuments); it.Count != 2 || !slices.Equal(it.Names, []string{"Driver's license", "Resume"}) {
				t.Errorf("documents = %+v", it)
			}
			if !prepItem(full1, portal.PrepEmployers).Phones || !prepItem(full1, portal.PrepReferences).Phones {
				t.Error("employers and references should say phone numbers are asked for")
			}
			if !prepItem(full1, portal.PrepSSNAndBirthDate).SSNRequired || prepItem(bare1, portal.PrepSSNAndBirthDate).SSNRequired {
				t.Error("ssnRequired should follow company_require_ssn")
			}
		})
		t.Run("EstimateGrowsWithThePackage", func(t *testing.T) {
			f, b := full1.Estimate, bare1.Estimate
			if f.Minutes.Low <= b.Minutes.Low || f.Minutes.High <= b.Minutes.High {
				t.Errorf("full estimate %+v should be longer than bare %+v", f.Minutes, b.Minutes)
			}
			if f.Minutes.Low >= f.Minutes.High || f.Minutes.Low%5 != 0 || f.Minutes.High%5 != 0 {
				t.Errorf("estimate %+v should be a range in fives", f.Minutes)
			}
			parts := func(e portal.TimeEstimate) (ids []string) {
				for _, p := range e.Parts {
					ids = append(ids, p.ID)
				}
				return ids
			}
			wantFull := []string{"account", "legal", "personal", "otherNames", "addresses", "education", "employment", "credential",
				"professional", "documents", "review", "identity", "collectionSite", "payment"}
			if !slices.Equal(parts(f), wantFull) {
				t.Errorf("full parts = %v, want %v", parts(f), wantFull)
			}
			wantBare := []string{"account", "legal", "personal", "otherNames", "addresses", "review", "identity"}
			if !slices.Equal(parts(b), wantBare) {
				t.Errorf("bare parts = %v, want %v", parts(b), wantBare)
			}
		})
		t.Run("MarksAreTheSubjectsOwn", func(t *testing.T) {
			p, err := prep.MarkPreparationItem(ctx, fullSubject.ID, portal.PrepEmployers, true)
			if err != nil {
				t.Fatal(err)
			}
			if !prepItem(p, portal.PrepEmployers).Later {
				t.Error("the answer should show the new mark")
			}
			// Marking twice is no error: the mark is a state, not an event.
			if _, err := prep.MarkPreparationItem(ctx, fullSubject.ID, portal.PrepEmployers, true); err != nil {
				t.Fatal(err)
			}
			again, _ := prep.FindPreparation(ctx, fullSubject.ID)
			if !prepItem(again, portal.PrepEmployers).Later || prepItem(again, portal.PrepSchools).Later {
				t.Errorf("after reading again: %+v", again.Items)
			}
			other, _ := prep.FindPreparation(ctx, bareSubject.ID)
			for _, it := range other.Items {
				if it.Later {
					t.Errorf("another subject's item %s is marked", it.ID)
				}
			}
			p, err = prep.MarkPreparationItem(ctx, fullSubject.ID, portal.PrepEmployers, false)
			if err != nil || prepItem(p, portal.PrepEmployers).Later {
				t.Errorf("clearing the mark = %v, %+v", err, p)
			}
		})
		t.Run("ErrNotOnList", func(t *testing.T) {
			for _, tc := range []struct {
				name    string
				subject int64
				id      string
			}{
				{"UnknownID", fullSubject.ID, "spaceship"},
				{"NotInThePackage", bareSubject.ID, portal.PrepEmployers},
				{"UnknownSubject", 999999, portal.PrepAddresses},
			} {
				t.Run(tc.name, func(t *testing.T) {
					_, err := prep.MarkPreparationItem(ctx, tc.subject, tc.id, true)
					if portal.ErrorCode(err) != portal.ENOTFOUND {
						t.Errorf("err = %v, want ENOTFOUND", err)
					}
				})
			}
		})
	})
}
