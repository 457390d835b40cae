package httpapi_test

import (
	"context"
	"encoding/json"
	"testing"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// serviceAPI is a company whose package has the data-page services (with
// the demo definitions) and a criminal search, with applicants jane and
// john; nopkg belongs to a company without a package.
type serviceAPI struct {
	*personalAPI
	pkg *portal.Package
}

func newServiceAPI(t *testing.T, db *store.DB) *serviceAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	a := &serviceAPI{personalAPI: &personalAPI{harness: newHarness(t, db, "192.0.2.1:1234"), tokens: map[string]string{}}}
	withPkg := &portal.Company{Name: "Acme"}
	bare := &portal.Company{Name: "Bare"}
	for _, c := range []*portal.Company{withPkg, bare} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	a.pkg = &portal.Package{CompanyID: withPkg.ID, Name: "Drivers"}
	for _, code := range []string{"pers", "edus", "emps", "dots", "cred", "prof", "crim"} {
		a.pkg.Services = append(a.pkg.Services, portal.PackageService{Code: code, Fields: servicedefs.Standard(code)})
	}
	if err := db.CreatePackage(ctx, a.pkg); err != nil {
		t.Fatal(err)
	}
	for who, c := range map[string]*portal.Company{"jane": withPkg, "john": withPkg, "nopkg": bare} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: who + "@example.com", FirstName: "Jane", LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		token := logIn(t, db, s)
		a.tokens[who] = token
	}
	a.serve(httpapi.Config{}, nil, nil)
	return a
}

func TestServiceList(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newServiceAPI(t, db)
		code, _, raw := a.do("GET", "/api/v2/user/service", "jane", nil)
		if code != 200 {
			t.Fatalf("status %d: %s", code, raw)
		}
		var out struct {
			Payload []struct {
				Alias   string `json:"alias"`
				Service struct {
					ID     int64            `json:"id"`
					Code   string           `json:"code"`
					Name   string           `json:"name"`
					Fields []map[string]any `json:"fields"`
				} `json:"service"`
			} `json:"payload"`
		}
		if err := json.Unmarshal([]byte(raw), &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Payload) != len(a.pkg.Services) {
			t.Fatalf("%d services, want %d", len(out.Payload), len(a.pkg.Services))
		}
		byCode := map[string]int{}
		for i, p := range out.Payload {
			byCode[p.Service.Code] = i
			last := -1
			for _, f := range p.Service.Fields {
				rank := int(f["rank"].(float64))
				if rank < last {
					t.Errorf("%s: fields not sorted by rank", p.Service.Code)
				}
				last = rank
				for _, key := range []string{"id", "api", "name", "type", "format", "options", "requiredFlag", "rank", "reference", "flag", "requiredWhen", "visibleWhen"} {
					if _, ok := f[key]; !ok {
						t.Errorf("%s.%v lacks %s", p.Service.Code, f["api"], key)
					}
				}
			}
		}
		emps := out.Payload[byCode["emps"]]
		if emps.Alias != "employment" || emps.Service.Name != "Employment" {
			t.Errorf("emps = %+v", emps)
		}
		if crim := out.Payload[byCode["crim"]]; crim.Service.Fields == nil || len(crim.Service.Fields) != 0 {
			t.Errorf("crim fields = %v, want []", crim.Service.Fields)
		}
		// The end date's rules arrive in the wire form the app evaluates (keys
		// re-sorted by the map).
		for _, f := range emps.Service.Fields {
			if f["api"] == "end_date" {
				b, _ := json.Marshal([]any{f["requiredWhen"], f["visibleWhen"], f["after"], f["notFuture"]})
				if string(b) != `[{"equals":false,"field":"currently_employed"},{"not":{"equals":true,"field":"currently_employed"}},"start_date",true]` {
					t.Errorf("end_date rules = %s", b)
				}
			}
		}
		dots := out.Payload[byCode["dots"]]
		if dots.Service.Fields[0]["api"] != "employer_dot" || dots.Service.Fields[0]["flag"] != "dot" {
			t.Errorf("dots fields = %v", dots.Service.Fields)
		}

		code, body, _ := a.do("GET", "/api/v2/user/service", "nopkg", nil)
		if code != 200 || len(body["payload"].([]any)) != 0 {
			t.Errorf("without a package: %d %v", code, body)
		}
		if code, _, _ := a.do("GET", "/api/v2/user/service", "", nil); code != 401 {
			t.Errorf("without a token: %d", code)
		}
	})
}

func TestRequiredFields(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newServiceAPI(t, db)
		code, body, raw := a.do("GET", "/api/v2/user/subject/required-fields", "jane", nil)
		if code != 200 {
			t.Fatalf("status %d: %s", code, raw)
		}
		p := body["payload"].(map[string]any)
		for _, page := range []string{"personal", "education", "employment", "credential", "professional"} {
			if _, ok := p[page]; !ok {
				t.Errorf("no %s in %v", page, p)
			}
		}
		emp, _ := json.Marshal(p["employment"])
		if string(emp) != `["employer_name","employer_country","employer_city","employer_state","employer_phone_no","job_title","start_date","may_contact"]` {
			t.Errorf("employment required = %s", emp)
		}
		if _, ok := p["crim"]; ok {
			t.Error("crim has no page")
		}
	})
}
