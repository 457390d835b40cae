package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"testing"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	sitesandbox "applicantportal/internal/sandbox/sites"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// sitesAPI is a company that lets applicants choose the collection site,
// with a drug test in its package.
type sitesAPI struct {
	*harness
	company int64
	n       int
}

func eachSitesAPI(t *testing.T, run func(t *testing.T, a *sitesAPI)) {
	t.Helper()
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
			t.Fatal(err)
		}
		c := &portal.Company{Name: "Acme", Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: true}}
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		if err := db.CreatePackage(ctx, &portal.Package{CompanyID: c.ID, Name: "Drivers", Services: []portal.PackageService{{Code: "drug"}}}); err != nil {
			t.Fatal(err)
		}
		a := &sitesAPI{harness: newHarness(t, db, "192.0.2.1:1234"), company: c.ID}
		svc := storeServices(db, nil)
		svc.CollectionSites = db.CollectionSites(sitesandbox.New())
		srv, err := httpapi.New(httpapi.Config{}, svc, testIndex, nil)
		if err != nil {
			t.Fatal(err)
		}
		a.handler = srv.Handler()
		run(t, a)
	})
}

// applicant logs in a new applicant in the status and answers its id and
// token.
func (a *sitesAPI) applicant(status portal.StatusID) (int64, string) {
	a.t.Helper()
	ctx := context.Background()
	a.n++
	s, err := a.db.CreateSubject(ctx, portal.NewSubject{CompanyID: a.company, Email: fmt.Sprintf("site%d@example.com", a.n), FirstName: "Sam", LastName: "Lee"})
	if err != nil {
		a.t.Fatal(err)
	}
	token := logIn(a.t, a.db, s)
	if status != portal.StatusNew {
		if err := a.db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, status); err != nil {
			a.t.Fatal(err)
		}
	}
	return s.ID, token
}

type siteAnswer struct {
	ID      int64 `json:"id"`
	Name    string
	Address struct{ Street, City, State, ZIP string }
	Phone   string
	Hours   []struct {
		Day    string `json:"day"`
		Opens  string `json:"opens"`
		Closes string `json:"closes"`
	} `json:"hours"`
	Services      []string `json:"services"`
	DistanceMiles *float64 `json:"distanceMiles"`
	OpenNow       *bool    `json:"openNow"`
}

type searchAnswer struct {
	Origin struct {
		ZIP, City, State string
		Lat, Lon         float64
	} `json:"origin"`
	Radius int          `json:"radius"`
	Sites  []siteAnswer `json:"sites"`
}

type choiceAnswer struct {
	Site        *siteAnswer `json:"site"`
	ChosenAt    *string     `json:"chosenAt"`
	CollectedAt *string     `json:"collectedAt"`
	Changeable  bool        `json:"changeable"`
}

type siteErrorAnswer struct {
	ErrorMessage string              `json:"errorMessage"`
	ErrorFields  []portal.FieldError `json:"errorFields"`
}

func decodeSite[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return v
}

func TestCollectionSiteSearchAPI(t *testing.T) {
	eachSitesAPI(t, func(t *testing.T, a *sitesAPI) {
		_, token := a.applicant(portal.StatusMROSiteSelection)
		get := func(query string) (int, []byte) {
			rec := a.send(request{Method: "GET", URL: "/api/v2/collection-sites?" + query, Token: token})
			return rec.Code, rec.Body.Bytes()
		}
		t.Run("NearestFirstWithTheDefaultRadius", func(t *testing.T) {
			code, body := get("zip=94103")
			if code != http.StatusOK {
				t.Fatalf("%d %s", code, body)
			}
			res := decodeSite[searchAnswer](t, body)
			if res.Radius != 25 || res.Origin.ZIP != "94103" || res.Origin.State != "US-CA" || len(res.Sites) != portal.MaxSites {
				t.Fatalf("origin %+v radius %d sites %d", res.Origin, res.Radius, len(res.Sites))
			}
			prev := 0.0
			for _, s := range res.Sites {
				d := *s.DistanceMiles
				if d < prev || d > 25 || d != math.Round(d*10)/10 || s.OpenNow == nil {
					t.Errorf("site %d distance %v after %v", s.ID, d, prev)
				}
				prev = d
				if len(s.Hours) == 0 || s.Hours[0].Day != "Monday" || len(s.Hours[0].Opens) != 5 || s.Services[0] != "urine" {
					t.Errorf("site %d hours %+v services %v", s.ID, s.Hours, s.Services)
				}
			}
		})
		t.Run("Filters", func(t *testing.T) {
			for _, q := range []string{"dot=true", "dot=1", "weekends=true", "weekends=true&dot=true"} {
				code, body := get("zip=94103&radius=10&" + q)
				if code != http.StatusOK {
					t.Fatalf("%s: %d %s", q, code, body)
				}
				for _, s := range decodeSite[searchAnswer](t, body).Sites {
					hasDOT, weekend := false, false
					for _, svc := range s.Services {
						hasDOT = hasDOT || svc == "dot"
					}
					for _, h := range s.Hours {
						weekend = weekend || h.Day == "Saturday" || h.Day == "Sunday"
					}
					if (q != "weekends=true" && !hasDOT) || (q[0] == 'w' && !weekend) {
						t.Errorf("%s: site %d services %v hours %v", q, s.ID, s.Services, s.Hours)
					}
				}
			}
			code, body := get("zip=94103&radius=10&openNow=true")
			for _, s := range decodeSite[searchAnswer](t, body).Sites {
				if code != http.StatusOK || !*s.OpenNow {
					t.Errorf("openNow: %d site %d", code, s.ID)
				}
			}
		})
		t.Run("BadInputIsAFieldError", func(t *testing.T) {
			for _, c := range []struct{ query, field, message string }{
				{"", "zip", "Enter a 5-digit ZIP code."},
				{"zip=941", "zip", "Enter a 5-digit ZIP code."},
				{"zip=00000", "zip", "We could not find ZIP code 00000."},
				{"zip=94103&radius=7", "radius", "Choose a radius of 5, 10, 25, 50 or 100 miles."},
				{"zip=94103&radius=ten", "radius", "Choose a radius of 5, 10, 25, 50 or 100 miles."},
				{"zip=94103&radius=1e9", "radius", "Choose a radius of 5, 10, 25, 50 or 100 miles."},
			} {
				code, body := get(c.query)
				e := decodeSite[siteErrorAnswer](t, body)
				if code != http.StatusUnprocessableEntity || len(e.ErrorFields) != 1 || e.ErrorFields[0].Field != c.field || e.ErrorFields[0].Message != c.message {
					t.Errorf("%q: %d %s", c.query, code, body)
				}
			}
		})
		t.Run("OnlyWhileChoosing", func(t *testing.T) {
			for _, status := range []portal.StatusID{portal.StatusSetupComplete, portal.StatusIDVStarted, portal.StatusSelfPayRequired} {
				_, other := a.applicant(status)
				if rec := a.send(request{Method: "GET", URL: "/api/v2/collection-sites?zip=94103", Token: other}); rec.Code != http.StatusConflict {
					t.Errorf("status %d: %d %s", status, rec.Code, rec.Body)
				}
			}
			_, done := a.applicant(portal.StatusFinalizationComplete)
			if rec := a.send(request{Method: "GET", URL: "/api/v2/collection-sites?zip=94103", Token: done}); rec.Code != http.StatusOK {
				t.Errorf("finalization-complete: %d %s", rec.Code, rec.Body)
			}
		})
		t.Run("NeedsAToken", func(t *testing.T) {
			if rec := a.send(request{Method: "GET", URL: "/api/v2/collection-sites?zip=94103"}); rec.Code != http.StatusUnauthorized {
				t.Errorf("%d", rec.Code)
			}
		})
	})
}

func TestCollectionSiteChoiceAPI(t *testing.T) {
	eachSitesAPI(t, func(t *testing.T, a *sitesAPI) {
		id, token := a.applicant(portal.StatusMROSiteSelection)
		res, _ := sitesandbox.New().Search(context.Background(), portal.SiteQuery{ZIP: "94103", RadiusMiles: 5})
		siteA, siteB := res.Sites[0].ID, res.Sites[1].ID
		choice := func(method string, body any) (int, choiceAnswer, []byte) {
			rec := a.send(request{Method: method, URL: "/api/v2/user/collection-site", Token: token, Body: body})
			var c choiceAnswer
			json.Unmarshal(rec.Body.Bytes(), &c)
			return rec.Code, c, rec.Body.Bytes()
		}

		code, c, body := choice("GET", nil)
		if code != http.StatusOK || c.Site != nil || c.ChosenAt != nil || !c.Changeable {
			t.Fatalf("before choosing: %d %s", code, body)
		}
		for _, bad := range []any{map[string]any{"siteId": 9}, map[string]any{"siteId": -1}, map[string]any{"siteId": siteA/10*10 + 9}, map[string]any{}} {
			code, _, body := choice("PUT", bad)
			e := decodeSite[siteErrorAnswer](t, body)
			if code != http.StatusUnprocessableEntity || len(e.ErrorFields) != 1 || e.ErrorFields[0].Field != "siteId" {
				t.Errorf("%v: %d %s", bad, code, body)
			}
		}
		code, c, body = choice("PUT", map[string]any{"siteId": siteA})
		if code != http.StatusOK || c.Site == nil || c.Site.ID != siteA || c.ChosenAt == nil || c.CollectedAt != nil || !c.Changeable || c.Site.DistanceMiles != nil {
			t.Fatalf("choose: %d %s", code, body)
		}
		if err := a.db.SetSubjectStatus(context.Background(), id, portal.StatusMROSiteSelection, portal.StatusFinalizationComplete); err != nil {
			t.Fatal(err)
		}
		if code, c, body = choice("PUT", map[string]any{"siteId": siteB}); code != http.StatusOK || c.Site.ID != siteB || !c.Changeable {
			t.Fatalf("change after finalization: %d %s", code, body)
		}
		if _, err := a.db.Operator().Orders.MarkSpecimenCollected(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		if code, c, body = choice("GET", nil); code != http.StatusOK || c.Site.ID != siteB || c.CollectedAt == nil || c.Changeable {
			t.Fatalf("after collection: %d %s", code, body)
		}
		code, _, body = choice("PUT", map[string]any{"siteId": siteA})
		if e := decodeSite[siteErrorAnswer](t, body); code != http.StatusConflict || e.ErrorMessage != "Your specimen has already been collected; the site can no longer change." {
			t.Errorf("change after collection: %d %s", code, body)
		}

		_, early := a.applicant(portal.StatusIDVStarted)
		if rec := a.send(request{Method: "PUT", URL: "/api/v2/user/collection-site", Token: early, Body: map[string]any{"siteId": siteA}}); rec.Code != http.StatusConflict {
			t.Errorf("before verification: %d %s", rec.Code, rec.Body)
		}
		if rec := a.send(request{Method: "GET", URL: "/api/v2/user/collection-site", Token: early}); rec.Code != http.StatusOK ||
			decodeSite[choiceAnswer](t, rec.Body.Bytes()).Changeable {
			t.Errorf("GET before verification: %d %s", rec.Code, rec.Body)
		}
	})
}

// TestCollectionSiteChangeableIsWhatPutAllows: for every status, with no
// site, a site or a collected specimen, under a company that lets
// applicants choose the site or one that does not, GET's changeable is
// true exactly when PUT takes a site.
func TestCollectionSiteChangeableIsWhatPutAllows(t *testing.T) {
	eachSitesAPI(t, func(t *testing.T, a *sitesAPI) {
		ctx := context.Background()
		allowed := a.company
		fixed := &portal.Company{Name: "Fixed", Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: false}}
		if err := a.db.CreateCompany(ctx, fixed); err != nil {
			t.Fatal(err)
		}
		if err := a.db.CreatePackage(ctx, &portal.Package{CompanyID: fixed.ID, Name: "Drivers", Services: []portal.PackageService{{Code: "drug"}}}); err != nil {
			t.Fatal(err)
		}
		defer func() { a.company = allowed }()
		res, _ := sitesandbox.New().Search(ctx, portal.SiteQuery{ZIP: "94103", RadiusMiles: 5})
		siteA, siteB := res.Sites[0].ID, res.Sites[1].ID
		statuses := []portal.StatusID{portal.StatusNew, portal.StatusSetupComplete, portal.StatusFinalizationComplete, portal.StatusIDVStarted,
			portal.StatusComplete, portal.StatusQA, portal.StatusMROSiteSelection, portal.StatusSelfPayRequired}
		for _, company := range []int64{allowed, fixed.ID} {
			for _, status := range statuses {
				for _, site := range []string{"none", "chosen", "collected"} {
					a.company = company
					id, token := a.applicant(portal.StatusMROSiteSelection)
					if site != "none" {
						if _, err := a.db.CollectionSites(sitesandbox.New()).Choose(ctx, id, siteA); err != nil {
							t.Fatal(err)
						}
					}
					if site == "collected" {
						if _, err := a.db.Operator().Orders.MarkSpecimenCollected(ctx, id); err != nil {
							t.Fatal(err)
						}
					}
					if status != portal.StatusMROSiteSelection {
						if err := a.db.SetSubjectStatus(ctx, id, portal.StatusMROSiteSelection, status); err != nil {
							t.Fatal(err)
						}
					}
					name := fmt.Sprintf("company %d, %s, site %s", company, status.Text(), site)
					get := a.send(request{Method: "GET", URL: "/api/v2/user/collection-site", Token: token})
					if get.Code != http.StatusOK {
						t.Fatalf("%s: GET %d %s", name, get.Code, get.Body)
					}
					changeable := decodeSite[choiceAnswer](t, get.Body.Bytes()).Changeable
					put := a.send(request{Method: "PUT", URL: "/api/v2/user/collection-site", Token: token, Body: map[string]any{"siteId": siteB}})
					if took := put.Code == http.StatusOK; took != changeable || !took && put.Code != http.StatusConflict {
						t.Errorf("%s: GET changeable %v, PUT %d %s", name, changeable, put.Code, put.Body)
					}
				}
			}
		}
	})
}
