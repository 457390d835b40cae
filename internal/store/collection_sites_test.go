package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"applicantportal/internal/portal"
	sitesandbox "applicantportal/internal/sandbox/sites"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// renamingNetwork is the sandbox with sites that may be renamed meanwhile,
// to show that a choice keeps the site as it was.
type renamingNetwork struct {
	*sitesandbox.Network
	names map[int64]string
}

func (n *renamingNetwork) Site(ctx context.Context, id int64) (*portal.Site, error) {
	s, err := n.Network.Site(ctx, id)
	if err == nil && n.names[id] != "" {
		s.Name = n.names[id]
	}
	return s, err
}

type sitesWorld struct {
	db             *store.DB
	svc            *store.CollectionSiteService
	network        *renamingNetwork
	allowed, fixed int64 // companies: applicants choose the site, or not
	siteA, siteB   int64
}

func newSitesWorld(t *testing.T, db *store.DB) *sitesWorld {
	t.Helper()
	ctx := context.Background()
	w := &sitesWorld{db: db, network: &renamingNetwork{sitesandbox.New(), map[int64]string{}}}
	w.svc = db.CollectionSites(w.network)
	for _, c := range []struct {
		id    *int64
		allow bool
	}{{&w.allowed, true}, {&w.fixed, false}} {
		co := &portal.Company{Name: "Acme", Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: c.allow}}
		if err := db.CreateCompany(ctx, co); err != nil {
			t.Fatal(err)
		}
		if err := db.CreatePackage(ctx, &portal.Package{CompanyID: co.ID, Name: "Drivers",
			Services: []portal.PackageService{{Code: "drug"}, {Code: "crim"}}}); err != nil {
			t.Fatal(err)
		}
		*c.id = co.ID
	}
	res, err := sitesandbox.New().Search(ctx, portal.SiteQuery{ZIP: "94103", RadiusMiles: 5})
	if err != nil || len(res.Sites) < 2 {
		t.Fatalf("search: %v, %v", res, err)
	}
	w.siteA, w.siteB = res.Sites[0].ID, res.Sites[1].ID
	return w
}

// subjectCount numbers the applicants' e-mail addresses.
var subjectCount int

// applicant creates an applicant of the company in the status.
func (w *sitesWorld) applicant(t *testing.T, companyID int64, status portal.StatusID) int64 {
	t.Helper()
	subjectCount++
	s, err := w.db.CreateSubject(context.Background(), portal.NewSubject{CompanyID: companyID,
		Email: fmt.Sprintf("sites%d@example.com", subjectCount), FirstName: "Sam", LastName: "Lee"})
	if err != nil {
		t.Fatal(err)
	}
	if status != portal.StatusNew {
		if err := w.db.SetSubjectStatus(context.Background(), s.ID, portal.StatusNew, status); err != nil {
			t.Fatal(err)
		}
	}
	return s.ID
}

func (w *sitesWorld) move(t *testing.T, subjectID int64, from, to portal.StatusID) {
	t.Helper()
	if err := w.db.SetSubjectStatus(context.Background(), subjectID, from, to); err != nil {
		t.Fatal(err)
	}
}

func TestCollectionSiteSearch(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newSitesWorld(t, db)
		q := portal.SiteQuery{ZIP: "94103", RadiusMiles: 10}
		for _, status := range []portal.StatusID{portal.StatusMROSiteSelection, portal.StatusFinalizationComplete} {
			res, err := w.svc.Search(ctx, w.applicant(t, w.allowed, status), q)
			if err != nil || len(res.Sites) == 0 || res.Origin.ZIP != "94103" {
				t.Errorf("status %d: %+v, %v", status, res, err)
			}
		}
		for _, status := range []portal.StatusID{portal.StatusNew, portal.StatusSetupComplete, portal.StatusIDVStarted, portal.StatusSelfPayRequired, portal.StatusComplete} {
			_, err := w.svc.Search(ctx, w.applicant(t, w.allowed, status), q)
			wantCode(t, err, portal.ECONFLICT)
		}
		_, err := w.svc.Search(ctx, w.applicant(t, w.allowed, portal.StatusMROSiteSelection), portal.SiteQuery{ZIP: "00000", RadiusMiles: 10})
		if pe := wantCode(t, err, portal.EINVALID); len(pe.Fields) != 1 || pe.Fields[0].Field != "zip" {
			t.Errorf("fields = %v", pe.Fields)
		}
	})
}

func TestCollectionSiteChoose(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newSitesWorld(t, db)

		t.Run("NoChoiceYetIsNotFound", func(t *testing.T) {
			_, err := w.svc.Choice(ctx, w.applicant(t, w.allowed, portal.StatusMROSiteSelection))
			wantCode(t, err, portal.ENOTFOUND)
		})
		t.Run("AllowedWhileChoosing", func(t *testing.T) {
			for _, company := range []int64{w.allowed, w.fixed} {
				id := w.applicant(t, company, portal.StatusMROSiteSelection)
				c, err := w.svc.Choose(ctx, id, w.siteA)
				if err != nil {
					t.Fatal(err)
				}
				if c.Site.ID != w.siteA || c.ChosenAt.IsZero() || c.CollectedAt != nil || !c.Changeable {
					t.Errorf("choice = %+v", c)
				}
				facts, _ := db.FindStatusFacts(ctx, id)
				if !facts.SiteChosen {
					t.Error("the status facts do not see the chosen site")
				}
			}
		})
		t.Run("RefusedInOtherStatuses", func(t *testing.T) {
			for _, status := range []portal.StatusID{portal.StatusNew, portal.StatusSetupComplete, portal.StatusIDVStarted,
				portal.StatusSelfPayRequired, portal.StatusComplete, portal.StatusQA} {
				_, err := w.svc.Choose(ctx, w.applicant(t, w.allowed, status), w.siteA)
				wantCode(t, err, portal.ECONFLICT)
				// The status is checked before the site: no hint about ids.
				_, err = w.svc.Choose(ctx, w.applicant(t, w.allowed, status), 1)
				wantCode(t, err, portal.ECONFLICT)
			}
		})
		t.Run("AfterFinalizationOnlyWhenTheCompanyAllows", func(t *testing.T) {
			_, err := w.svc.Choose(ctx, w.applicant(t, w.fixed, portal.StatusFinalizationComplete), w.siteA)
			wantCode(t, err, portal.ECONFLICT)
			c, err := w.svc.Choose(ctx, w.applicant(t, w.allowed, portal.StatusFinalizationComplete), w.siteA)
			if err != nil || c.Site.ID != w.siteA {
				t.Errorf("choose = %+v, %v", c, err)
			}
		})
		t.Run("UnknownSiteIsInvalid", func(t *testing.T) {
			id := w.applicant(t, w.allowed, portal.StatusMROSiteSelection)
			for _, site := range []int64{0, -1, 1, 9, w.siteA/10*10 + 9, 1 << 40} {
				_, err := w.svc.Choose(ctx, id, site)
				pe := wantCode(t, err, portal.EINVALID)
				if len(pe.Fields) != 1 || pe.Fields[0].Field != "siteId" ||
					pe.Fields[0].Message != "This collection site does not exist. Search again and choose one from the list." {
					t.Errorf("site %d: fields = %v", site, pe.Fields)
				}
			}
			_, err := w.svc.Choice(ctx, id)
			wantCode(t, err, portal.ENOTFOUND)
		})
		t.Run("ChangeableAfterFinalizationUntilCollected", func(t *testing.T) {
			ops := db.Operator()
			id := w.applicant(t, w.allowed, portal.StatusMROSiteSelection)
			if _, err := w.svc.Choose(ctx, id, w.siteA); err != nil {
				t.Fatal(err)
			}
			w.move(t, id, portal.StatusMROSiteSelection, portal.StatusFinalizationComplete)
			c, err := w.svc.Choose(ctx, id, w.siteB)
			if err != nil || c.Site.ID != w.siteB || !c.Changeable {
				t.Fatalf("change = %+v, %v", c, err)
			}
			marked, err := ops.Orders.MarkSpecimenCollected(ctx, id)
			if err != nil || marked.CollectedAt == nil || marked.Changeable || marked.Site.ID != w.siteB {
				t.Fatalf("MarkSpecimenCollected = %+v, %v", marked, err)
			}
			again, err := ops.Orders.MarkSpecimenCollected(ctx, id)
			if err != nil || !again.CollectedAt.Equal(*marked.CollectedAt) {
				t.Errorf("marking again = %+v, %v; want the first time kept", again, err)
			}
			_, err = w.svc.Choose(ctx, id, w.siteA)
			if pe := wantCode(t, err, portal.ECONFLICT); pe.Message != "Your specimen has already been collected; the site can no longer change." {
				t.Errorf("message = %q", pe.Message)
			}
			c, err = w.svc.Choice(ctx, id)
			if err != nil || c.Site.ID != w.siteB || c.Changeable || c.CollectedAt == nil {
				t.Errorf("choice = %+v, %v", c, err)
			}
		})
		t.Run("NotChangeableWhenTheCompanyDoesNotAllow", func(t *testing.T) {
			id := w.applicant(t, w.fixed, portal.StatusMROSiteSelection)
			if _, err := w.svc.Choose(ctx, id, w.siteA); err != nil {
				t.Fatal(err)
			}
			w.move(t, id, portal.StatusMROSiteSelection, portal.StatusFinalizationComplete)
			if c, err := w.svc.Choice(ctx, id); err != nil || c.Changeable {
				t.Errorf("choice = %+v, %v", c, err)
			}
		})
		t.Run("ChoiceKeepsTheSiteAsItWas", func(t *testing.T) {
			id := w.applicant(t, w.allowed, portal.StatusMROSiteSelection)
			chosen, err := w.svc.Choose(ctx, id, w.siteA)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := sitesandbox.New().Site(ctx, w.siteA)
			if !reflect.DeepEqual(chosen.Site, *want) {
				t.Errorf("chosen site = %+v; want %+v", chosen.Site, *want)
			}
			w.network.names[w.siteA] = "Renamed Clinic"
			defer delete(w.network.names, w.siteA)
			c, err := w.svc.Choice(ctx, id)
			if err != nil || !reflect.DeepEqual(c.Site, *want) || !c.ChosenAt.Equal(chosen.ChosenAt) {
				t.Errorf("choice = %+v, %v; want the site as chosen", c, err)
			}
		})
	})
}

func TestOperatorMarkSpecimenCollectedWithoutASiteIsNotFound(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newSitesWorld(t, db)
		ops := db.Operator()
		for _, id := range []int64{w.applicant(t, w.allowed, portal.StatusFinalizationComplete), 987654} {
			_, err := ops.Orders.MarkSpecimenCollected(context.Background(), id)
			wantCode(t, err, portal.ENOTFOUND)
		}
	})
}
