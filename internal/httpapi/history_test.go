package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// historyClock is "today" for the history tests: 7 years back is Nov 2019.
var historyClock = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// historyAPI is a company with a default package and two logged-in
// applicants, jane and bob.
type historyAPI struct {
	*harness
	ids    map[string]int64
	tokens map[string]string
}

func eachHistoryAPI(t *testing.T, run func(t *testing.T, a *historyAPI)) {
	t.Helper()
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return historyClock }
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) { run(t, newHistoryAPI(t, db)) })
}

func newHistoryAPI(t *testing.T, db *store.DB) *historyAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	pkg := &portal.Package{CompanyID: c.ID, Name: "Standard", Services: []portal.PackageService{{Code: "emps"}, {Code: "crim"}}}
	if err := db.CreatePackage(ctx, pkg); err != nil {
		t.Fatal(err)
	}
	a := &historyAPI{harness: newHarness(t, db, "192.0.2.1:1234"), ids: map[string]int64{}, tokens: map[string]string{}}
	for _, who := range []string{"jane", "bob"} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: who + "@example.com", FirstName: who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		token := logIn(t, db, s)
		a.ids[who], a.tokens[who] = s.ID, token
	}
	a.serve(httpapi.Config{}, nil, nil)
	return a
}

func (a *historyAPI) do(method, path, who string, body any) (int, map[string]any) {
	a.t.Helper()
	rec := a.send(request{Method: method, URL: path, Token: a.tokens[who], Body: body})
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		a.t.Fatalf("%s %s = %d, not JSON: %s", method, path, rec.Code, rec.Body)
	}
	return rec.Code, out
}

func payloadOf(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	p, ok := body["payload"].(map[string]any)
	if !ok {
		t.Fatalf("no payload in %v", body)
	}
	return p
}

var serverID = regexp.MustCompile(`^[0-9a-f]{16}$`)

func TestAliasesAPI(t *testing.T) {
	eachHistoryAPI(t, func(t *testing.T, a *historyAPI) {
		code, body := a.do("GET", "/api/v2/user/subject/alias", "jane", nil)
		if code != 200 || !reflect.DeepEqual(payloadOf(t, body), map[string]any{"aliases": []any{}, "saved": false}) {
			t.Fatalf("GET before saving = %d %v", code, body)
		}
		alias := map[string]any{"type": "maiden", "firstName": "Jane", "middleName": "", "lastName": "Smithson", "suffix": "", "from": "1999-01", "to": "2010-06"}
		code, body = a.do("PUT", "/api/v2/user/subject/alias", "jane", map[string]any{"aliases": []any{alias}})
		if code != 200 {
			t.Fatalf("PUT = %d %v", code, body)
		}
		p := payloadOf(t, body)
		list := p["aliases"].([]any)
		if p["saved"] != true || len(list) != 1 || !serverID.MatchString(list[0].(map[string]any)["id"].(string)) {
			t.Fatalf("PUT answer %v", p)
		}
		_, again := a.do("GET", "/api/v2/user/subject/alias", "jane", nil)
		if !reflect.DeepEqual(payloadOf(t, again), p) {
			t.Errorf("GET = %v, want the PUT's answer %v", again, p)
		}
		t.Run("AnotherApplicantSeesOnlyTheirOwn", func(t *testing.T) {
			_, body := a.do("GET", "/api/v2/user/subject/alias", "bob", nil)
			if !reflect.DeepEqual(payloadOf(t, body), map[string]any{"aliases": []any{}, "saved": false}) {
				t.Errorf("bob sees %v", body)
			}
		})
		t.Run("ValidationErrors", func(t *testing.T) {
			bad := []any{
				map[string]any{"type": "", "firstName": "", "lastName": "Doe", "from": "2030-01"},
				map[string]any{"type": "other", "firstName": "JANE", "lastName": "doe"},
				alias, alias,
			}
			code, body := a.do("PUT", "/api/v2/user/subject/alias", "jane", map[string]any{"aliases": bad})
			want := map[string]string{
				"aliases.0.type":      "Type of name is required.",
				"aliases.0.firstName": "First name is required.",
				"aliases.0.from":      "Used from cannot be in the future.",
				"aliases.1.firstName": "This is your current name; list only other names.",
				"aliases.3.firstName": "You listed this name twice.",
			}
			if code != 422 || body["errorMessage"] != "validation error" || !reflect.DeepEqual(fieldsOf(body), want) {
				t.Errorf("PUT = %d %v\nwant 422 with %v", code, body, want)
			}
			_, after := a.do("GET", "/api/v2/user/subject/alias", "jane", nil)
			if !reflect.DeepEqual(payloadOf(t, after), p) {
				t.Errorf("a refused save changed what was saved: %v", after)
			}
		})
		t.Run("ListRequired", func(t *testing.T) {
			code, body := a.do("PUT", "/api/v2/user/subject/alias", "jane", map[string]any{})
			if code != 422 || fieldsOf(body)["aliases"] != "aliases is required." {
				t.Errorf("PUT {} = %d %v", code, body)
			}
		})
		t.Run("EmptyListIsAnAnswer", func(t *testing.T) {
			code, body := a.do("PUT", "/api/v2/user/subject/alias", "bob", map[string]any{"aliases": []any{}})
			if code != 200 || !reflect.DeepEqual(payloadOf(t, body), map[string]any{"aliases": []any{}, "saved": true}) {
				t.Errorf("PUT [] = %d %v", code, body)
			}
		})
	})
}

func TestAddressesAPI(t *testing.T) {
	eachHistoryAPI(t, func(t *testing.T, a *historyAPI) {
		code, body := a.do("GET", "/api/v2/user/subject/address", "jane", nil)
		want := map[string]any{"addresses": []any{}, "saved": false, "requiredYears": 7.0, "coverageStart": "2019-11",
			"gaps": []any{map[string]any{"from": "2019-11", "to": "2026-11"}}, "releaseFormRequired": false}
		if code != 200 || !reflect.DeepEqual(payloadOf(t, body), want) {
			t.Fatalf("GET before saving = %d %v\nwant %v", code, body, want)
		}
		current := map[string]any{"country": "US", "street1": "150 N Capitol Blvd", "street2": "", "city": "Boise", "state": "US-ID",
			"zip": "83702", "from": "2021-06", "to": "", "current": true}
		past := map[string]any{"country": "CA", "street1": "301 Front St W", "street2": "", "city": "Toronto", "state": "ON",
			"zip": "M5V 2T6", "from": "2015-01", "to": "2021-06", "current": false}
		code, body = a.do("PUT", "/api/v2/user/subject/address", "jane", map[string]any{"addresses": []any{current, past}})
		if code != 200 {
			t.Fatalf("PUT = %d %v", code, body)
		}
		p := payloadOf(t, body)
		if p["saved"] != true || p["releaseFormRequired"] != true || len(p["gaps"].([]any)) != 0 || len(p["addresses"].([]any)) != 2 {
			t.Fatalf("PUT answer %v", p)
		}
		for _, x := range p["addresses"].([]any) {
			if !serverID.MatchString(x.(map[string]any)["id"].(string)) {
				t.Errorf("address without a server id: %v", x)
			}
		}
		_, again := a.do("GET", "/api/v2/user/subject/address", "jane", nil)
		if !reflect.DeepEqual(payloadOf(t, again), p) {
			t.Errorf("GET = %v, want the PUT's answer %v", again, p)
		}
		t.Run("AnotherApplicantSeesOnlyTheirOwn", func(t *testing.T) {
			_, body := a.do("GET", "/api/v2/user/subject/address", "bob", nil)
			if got := payloadOf(t, body); got["saved"] != false || len(got["addresses"].([]any)) != 0 {
				t.Errorf("bob sees %v", body)
			}
		})
		t.Run("ValidationErrors", func(t *testing.T) {
			gap := with(past, map[string]any{"to": "2020-12"})
			overlap := with(past, map[string]any{"street1": "9 Elm St", "from": "2016-01", "to": "2017-01"})
			noStreet := with(past, map[string]any{"street1": "", "from": "2014-01", "to": "2015-01"})
			code, body := a.do("PUT", "/api/v2/user/subject/address", "jane", map[string]any{"addresses": []any{current, gap, overlap, noStreet}})
			want := map[string]string{
				"addresses.gaps.0":    "Add the address where you lived from January 2021 to May 2021.",
				"addresses.2.from":    "This period overlaps your address at 301 Front St W.",
				"addresses.3.street1": "Street is required.",
			}
			if code != 422 || body["errorMessage"] != "validation error" || !reflect.DeepEqual(fieldsOf(body), want) {
				t.Errorf("PUT = %d %v\nwant 422 with %v", code, body, want)
			}
			code, body = a.do("PUT", "/api/v2/user/subject/address", "jane", map[string]any{"addresses": []any{with(current, map[string]any{"from": "2022-01"})}})
			if code != 422 || fieldsOf(body)["addresses.gaps.0"] != "Add the address where you lived from November 2019 to December 2021." {
				t.Errorf("PUT short history = %d %v", code, body)
			}
			code, body = a.do("PUT", "/api/v2/user/subject/address", "jane", map[string]any{"draft": "yes", "addresses": []any{current}})
			if code != 422 || fieldsOf(body)["draft"] == "" {
				t.Errorf("PUT with a draft that is not a boolean = %d %v; want 422 on draft", code, body)
			}
			_, after := a.do("GET", "/api/v2/user/subject/address", "jane", nil)
			if !reflect.DeepEqual(payloadOf(t, after), p) {
				t.Errorf("a refused save changed what was saved: %v", after)
			}
		})
		t.Run("DraftSavedHalfDone", func(t *testing.T) {
			code, body := a.do("PUT", "/api/v2/user/subject/address", "bob", map[string]any{"draft": true, "addresses": []any{current}})
			if code != 200 {
				t.Fatalf("draft PUT = %d %v; want 200", code, body)
			}
			if got := payloadOf(t, body); got["saved"] != true || len(got["gaps"].([]any)) == 0 {
				t.Errorf("draft answer %v; want saved, with its gaps", got)
			}
			code, body = a.do("PUT", "/api/v2/user/subject/address", "bob", map[string]any{"draft": true, "addresses": []any{with(current, map[string]any{"street1": ""})}})
			if code != 422 || fieldsOf(body)["addresses.0.street1"] != "Street is required." {
				t.Errorf("draft with a wrong address = %d %v; want 422 on its street", code, body)
			}
		})
	})
}

func TestHistoryRefusedAfterSubmission(t *testing.T) {
	eachHistoryAPI(t, func(t *testing.T, a *historyAPI) {
		ctx := context.Background()
		if err := a.db.SetSubjectStatus(ctx, a.ids["jane"], portal.StatusNew, portal.StatusSetupComplete); err != nil {
			t.Fatal(err)
		}
		if code, body := a.do("PUT", "/api/v2/user/subject/alias", "jane", map[string]any{"aliases": []any{}}); code != 200 {
			t.Fatalf("PUT after setup = %d %v; want it allowed", code, body)
		}
		if err := a.db.SetSubjectStatus(ctx, a.ids["jane"], portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/api/v2/user/subject/alias", "/api/v2/user/subject/address"} {
			body := map[string]any{"aliases": []any{}, "addresses": []any{}}
			code, out := a.do("PUT", path, "jane", body)
			if code != http.StatusConflict || out["errorMessage"] != "Your profile has been submitted; contact the employer to change it." {
				t.Errorf("PUT %s after idv-started = %d %v", path, code, out)
			}
		}
	})
}

func TestNotificationAPI(t *testing.T) {
	eachHistoryAPI(t, func(t *testing.T, a *historyAPI) {
		const path = "/api/v2/user/subject/notification"
		code, body := a.do("PUT", path, "jane", map[string]any{"type": "email", "email": "jane@example.com"})
		if code != http.StatusConflict || body["errorMessage"] != "Save your personal information first." {
			t.Fatalf("PUT before personal info = %d %v", code, body)
		}
		p := &portal.PersonalInfo{FirstName: "Jane", LastName: "Doe", NoSSN: true, DaytimeDialCode: "1", DaytimePhoneNumber: "2024561111",
			PrimaryNotificationMethod: portal.NotificationMethod{Type: "email", Email: "jane@example.com"}}
		if err := a.db.Personal().SavePersonalInfo(context.Background(), a.ids["jane"], p); err != nil {
			t.Fatal(err)
		}
		code, body = a.do("PUT", path, "jane", map[string]any{"type": "both", "email": "jane@example.org", "text": "(202) 456-1111"})
		want := map[string]any{"primaryNotificationMethod": map[string]any{"type": "both", "email": "jane@example.org", "text": "2024561111"}}
		if code != 200 || !reflect.DeepEqual(payloadOf(t, body), want) {
			t.Fatalf("PUT = %d %v\nwant %v", code, body, want)
		}
		code, body = a.do("PUT", path, "jane", map[string]any{"type": "text", "email": "", "text": ""})
		if code != 422 || !reflect.DeepEqual(fieldsOf(body), map[string]string{"text": "Mobile number is required for text notifications."}) {
			t.Errorf("PUT text without number = %d %v", code, body)
		}
		code, body = a.do("PUT", path, "jane", map[string]any{"type": "fax"})
		if code != 422 || fieldsOf(body)["type"] == "" {
			t.Errorf("PUT unknown type = %d %v", code, body)
		}
		stored, _ := a.db.Personal().FindPersonalInfo(context.Background(), a.ids["jane"])
		if stored.PrimaryNotificationMethod.Type != "both" || !stored.NoSSN {
			t.Errorf("stored %+v; want the last good change and the rest kept", stored)
		}
		t.Run("BobHasNoPersonalInfo", func(t *testing.T) {
			if code, _ := a.do("PUT", path, "bob", map[string]any{"type": "email", "email": "bob@example.com"}); code != http.StatusConflict {
				t.Errorf("bob's PUT = %d, want 409: jane's personal information is not his", code)
			}
		})
	})
}
