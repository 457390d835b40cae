package httpapi_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// Valid entries of each demo page.
func employer(extra map[string]any) map[string]any {
	return with(map[string]any{
		"employer_name": "Acme Freight", "employer_city": "Reno", "employer_state": "US-NV", "employer_country": "US",
		"employer_phone_no": "(775) 555-0100", "job_title": "Driver", "start_date": "2019-04-01",
		"currently_employed": true, "may_contact": "yes", "supervisor_name": "Ann Lee", "employer_dot": false,
	}, extra)
}

func school() map[string]any {
	return map[string]any{"school_name": "Reno High School", "school_type": "high_school", "school_city": "Reno",
		"school_state": "US-NV", "school_country": "US", "attended_from": "2010-09", "attended_to": "2014-06",
		"graduated": "yes", "degree": "high_school_diploma", "graduation_date": "2014-06"}
}

func reference() map[string]any {
	return map[string]any{"reference_name": "Sam Park", "relationship": "supervisor", "reference_phone": "775 555 0199", "years_known": "4"}
}

func dataOf(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	p, _ := body["payload"].(map[string]any)
	d, _ := p["data"].(map[string]any)
	if d == nil {
		t.Fatalf("no payload.data in %v", body)
	}
	return d
}

func TestServiceDataSaves(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newServiceAPI(t, db)

		code, body, raw := a.do("GET", "/api/v2/user/data", "jane", nil)
		if code != 200 {
			t.Fatalf("GET = %d %s", code, raw)
		}
		if got, _ := json.Marshal(dataOf(t, body)["noDataAvailable"]); string(got) != `{"credential":false,"education":false,"employment":false}` {
			t.Errorf("noDataAvailable = %s", got)
		}
		if got, _ := json.Marshal(dataOf(t, body)["services"]); string(got) != `{}` {
			t.Errorf("services = %s", got)
		}

		t.Run("InFlightSaveKeepsADraft", func(t *testing.T) {
			code, body, raw := a.do("POST", "/api/v2/user/data", "jane", map[string]any{
				"services": map[string]any{"employment": []any{map[string]any{"employer_name": "Half done", "bogus": 1}}}})
			if code != 200 {
				t.Fatalf("%d %s", code, raw)
			}
			list := dataOf(t, body)["services"].(map[string]any)["employment"].([]any)
			e := list[0].(map[string]any)
			if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(e["id"].(string)) || e["employer_name"] != "Half done" || e["bogus"] != nil {
				t.Errorf("entry = %v", e)
			}
		})
		tests := []struct {
			name, path string
			body       any
			status     int
			message    string
			fields     map[string]string
		}{
			{"WrongValueType", "/api/v2/user/data", map[string]any{"services": map[string]any{"employment": []any{map[string]any{"employer_name": 7, "currently_employed": "yes"}}}},
				422, "validation error", map[string]string{"employment.0.employer_name": "Employer name is not valid.", "employment.0.currently_employed": "I currently work here is not valid."}},
			{"TooLongForTheField", "/api/v2/user/data", map[string]any{"services": map[string]any{"employment": []any{map[string]any{"reason_for_leaving": strings.Repeat("x", 1001)}}}},
				422, "validation error", map[string]string{"employment.0.reason_for_leaving": "Reason for leaving must be at most 1000 characters."}},
			{"UnknownAlias", "/api/v2/user/data", map[string]any{"services": map[string]any{"crim": []any{}}},
				422, "validation error", map[string]string{"services.crim": "Your profile has no crim page."}},
			{"TooManyEntries", "/api/v2/user/data", map[string]any{"services": map[string]any{"professional": make([]any, 21)}},
				422, "validation error", map[string]string{"services.professional": "You can list at most 20 entries."}},
			{"NoDataWithEntries", "/api/v2/user/profile", map[string]any{"noDataAvailable": map[string]any{"education": true}, "services": map[string]any{"education": []any{school()}}},
				422, portal.NoDataMessage, map[string]string{"services.education": portal.NoDataMessage}},
			{"NoDataNotForReferences", "/api/v2/user/profile", map[string]any{"noDataAvailable": map[string]any{"professional": true}},
				422, "validation error", map[string]string{"noDataAvailable.professional": "This page needs at least one entry."}},
			{"ProfileSaveValidatesEveryEntry", "/api/v2/user/profile", map[string]any{"services": map[string]any{"employment": []any{
				employer(nil),
				employer(map[string]any{"currently_employed": false, "start_date": "2030-01-01", "may_contact": "maybe"}),
			}}}, 422, "validation error", map[string]string{
				"employment.1.start_date": "Start date cannot be in the future.", "employment.1.end_date": "End date is required.",
				"employment.1.may_contact": "Choose May we contact this employer? from the list.", "employment.1.reason_for_leaving": "Reason for leaving is required.",
			}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				code, body, raw := a.do("POST", tt.path, "jane", tt.body)
				if code != tt.status || body["errorMessage"] != tt.message {
					t.Fatalf("%d %s", code, raw)
				}
				got := fieldsOf(body)
				if len(got) != len(tt.fields) {
					t.Errorf("fields = %v, want %v", got, tt.fields)
				}
				for k, v := range tt.fields {
					if got[k] != v {
						t.Errorf("%s = %q, want %q", k, got[k], v)
					}
				}
			})
		}
		t.Run("FailedSavesKeptTheDraft", func(t *testing.T) {
			_, body, _ := a.do("GET", "/api/v2/user/data", "jane", nil)
			list := dataOf(t, body)["services"].(map[string]any)["employment"].([]any)
			if len(list) != 1 || list[0].(map[string]any)["employer_name"] != "Half done" {
				t.Errorf("employment = %v", list)
			}
		})
		t.Run("NoDataAvailablePayload", func(t *testing.T) {
			code, body, raw := a.do("POST", "/api/v2/user/profile", "jane", map[string]any{
				"noDataAvailable": map[string]any{"credential": true},
				"services":        map[string]any{"credential": []any{map[string]any{"data_available": false}}}})
			if code != 200 {
				t.Fatalf("%d %s", code, raw)
			}
			for _, b := range []map[string]any{body, func() map[string]any { _, b, _ := a.do("GET", "/api/v2/user/data", "jane", nil); return b }()} {
				d := dataOf(t, b)
				got, _ := json.Marshal([]any{d["noDataAvailable"], d["services"].(map[string]any)["credential"]})
				if string(got) != `[{"credential":true,"education":false,"employment":false},[{"data_available":false}]]` {
					t.Errorf("answer = %s", got)
				}
			}
			// Back to entries: the marker goes.
			code, body, raw = a.do("POST", "/api/v2/user/data", "jane", map[string]any{"noDataAvailable": map[string]any{"credential": false}})
			if code != 200 || dataOf(t, body)["noDataAvailable"].(map[string]any)["credential"] != false ||
				len(dataOf(t, body)["services"].(map[string]any)["credential"].([]any)) != 0 {
				t.Errorf("%d %s", code, raw)
			}
		})
		t.Run("ScopedToTheCaller", func(t *testing.T) {
			_, body, _ := a.do("GET", "/api/v2/user/data", "john", nil)
			if got, _ := json.Marshal(dataOf(t, body)["services"]); string(got) != `{}` {
				t.Errorf("john sees %s", got)
			}
			code, body, _ := a.do("POST", "/api/v2/user/data", "nopkg", map[string]any{"services": map[string]any{"employment": []any{}}})
			if code != 422 || fieldsOf(body)["services.employment"] == "" {
				t.Errorf("a subject without the service: %d %v", code, body)
			}
		})
		t.Run("LocationStillSavedDuringSetup", func(t *testing.T) {
			code, body, raw := a.do("POST", "/api/v2/user/data", "john", map[string]any{"location": map[string]any{"residency": map[string]any{"state": "US-CA"}}})
			if code != 200 || dataOf(t, body)["location"].(map[string]any)["residency"].(map[string]any)["state"] != "US-CA" {
				t.Errorf("%d %s", code, raw)
			}
		})
	})
}

func TestSubjectReadModelAndReadiness(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newServiceAPI(t, db)
		ctx := context.Background()
		jane := subjectID(t, db, "jane@example.com")

		view := func() map[string]any {
			t.Helper()
			code, body, raw := a.do("GET", "/api/v2/user/subject", "jane", nil)
			if code != 200 {
				t.Fatalf("GET subject = %d %s", code, raw)
			}
			return body["payload"].(map[string]any)
		}
		pages := func(v map[string]any) string {
			var out []string
			for _, p := range v["pages"].([]any) {
				m := p.(map[string]any)
				s := m["id"].(string) + "(" + m["path"].(string) + "," + m["title"].(string) + ")"
				if m["complete"] == true {
					s += "+"
				}
				out = append(out, s)
			}
			return strings.Join(out, " ")
		}
		v := view()
		for _, key := range []string{"location", "noDataAvailable", "insufficientDataBypass", "bypassNotes", "services", "serviceStatuses", "aliases", "addresses", "pages", "dotReleases", "readyToSubmit"} {
			if _, ok := v[key]; !ok {
				t.Errorf("no %s", key)
			}
		}
		if got := pages(v); got != "personal(/personal,Personal Information) aliases(/aliases,Other Names) addresses(/addresses,Address History) education(/education,Education) employment(/employment,Employment) credential(/credential,Licenses and Credentials) professional(/professional,Professional References)" {
			t.Errorf("pages = %s", got)
		}
		if v["readyToSubmit"] != false {
			t.Error("ready with nothing entered")
		}
		st := v["serviceStatuses"].(map[string]any)
		if crim := st["crim"].(map[string]any); crim["status"] != "pending" || crim["hasError"] != false {
			t.Errorf("crim = %v", crim)
		}
		if emp := st["employment"].(map[string]any); emp["status"] != "pending" || emp["hasError"] != true {
			t.Errorf("employment = %v", emp)
		}

		// An invalid saved entry is named among what is missing.
		a.do("POST", "/api/v2/user/data", "jane", map[string]any{"services": map[string]any{"employment": []any{employer(map[string]any{"job_title": ""})}}})
		for _, p := range view()["pages"].([]any) {
			if m := p.(map[string]any); m["id"] == "employment" {
				if got, _ := json.Marshal(m["missing"]); string(got) != `["Entry 1: Job title is required."]` || m["complete"] != false {
					t.Errorf("employment page = %v", m)
				}
			}
		}

		if code, _, raw := a.do("PUT", "/api/v2/user", "jane", validPersonal()); code != 200 {
			t.Fatalf("personal = %d %s", code, raw)
		}
		if err := db.SetSubjectStatus(ctx, jane, portal.StatusNew, portal.StatusSetupComplete); err != nil {
			t.Fatal(err)
		}
		idv := map[string]any{"statusId": 3}
		code, body, _ := a.do("POST", "/api/v2/user/subject/status", "jane", idv)
		if code != 409 || body["errorMessage"] != "Your profile is not complete yet: Other Names, Address History, Education, Employment, Licenses and Credentials, Professional References." {
			t.Fatalf("IDV before the profile = %d %v", code, body)
		}

		code, _, raw := a.do("POST", "/api/v2/user/profile", "jane", map[string]any{
			"noDataAvailable": map[string]any{"credential": true},
			"services": map[string]any{
				"credential":   []any{map[string]any{"data_available": false}},
				"education":    []any{school()},
				"employment":   []any{employer(nil), employer(map[string]any{"currently_employed": false, "end_date": "2019-03-01", "start_date": "2015-01-05", "reason_for_leaving": "Contract ended", "employer_dot": true, "dot_agency": "fmcsa"})},
				"professional": []any{reference()},
			}})
		if code != 200 {
			t.Fatalf("profile save = %d %s", code, raw)
		}
		// Other names (none) and seven years of addresses complete the checklist.
		if code, _, raw := a.do("PUT", "/api/v2/user/subject/alias", "jane", map[string]any{"aliases": []any{}}); code != 200 {
			t.Fatalf("aliases = %d %s", code, raw)
		}
		home := map[string]any{"country": "US", "street1": "1 Main St", "street2": "", "city": "Austin", "state": "US-TX",
			"zip": "78701", "from": "2015-01", "to": "", "current": true}
		if code, _, raw := a.do("PUT", "/api/v2/user/subject/address", "jane", map[string]any{"addresses": []any{home}}); code != 200 {
			t.Fatalf("addresses = %d %s", code, raw)
		}
		v = view()
		if got := pages(v); strings.Count(got, "+") != 7 || v["readyToSubmit"] != true {
			t.Errorf("after the profile: %s ready=%v", got, v["readyToSubmit"])
		}
		if n := len(v["services"].(map[string]any)["employment"].([]any)); n != 2 {
			t.Errorf("%d employers", n)
		}
		// The submission records when the applicant declared their answers true and complete.
		code, _, raw = a.do("POST", "/api/v2/user/subject/status", "jane", map[string]any{"statusId": 3, "declaration": true})
		if code != 200 {
			t.Fatalf("IDV once complete = %d %s", code, raw)
		}
		if d, err := db.Operator().Applicants.ApplicantDetail(ctx, 0, jane); err != nil || d.DeclaredAt == nil {
			t.Fatalf("the declaration is not recorded: %+v %v", d, err)
		}
		code, body, _ = a.do("POST", "/api/v2/user/data", "jane", map[string]any{"services": map[string]any{"professional": []any{}}})
		if code != 409 || body["errorMessage"] != "Your profile has been submitted; contact the employer to change it." {
			t.Errorf("save after IDV started = %d %v", code, body)
		}
		code, _, _ = a.do("POST", "/api/v2/user/profile", "jane", map[string]any{"noDataAvailable": map[string]any{"education": true}})
		if code != 409 {
			t.Errorf("profile save after IDV started = %d", code)
		}
		if code, _, _ := a.do("GET", "/api/v2/user/subject", "", nil); code != 401 {
			t.Errorf("without a token: %d", code)
		}
	})
}

func TestSubjectPagesAreNamedInTheRequestsLanguage(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newServiceAPI(t, db)
		titles := func(header map[string]string) map[string]string {
			t.Helper()
			rec := a.send(request{Method: "GET", URL: "/api/v2/user/subject", Token: a.tokens["jane"], Header: header})
			if rec.Code != 200 {
				t.Fatalf("GET subject = %d %s", rec.Code, rec.Body)
			}
			var body struct {
				Payload struct {
					Pages []struct{ ID, Title string } `json:"pages"`
				} `json:"payload"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			out := map[string]string{}
			for _, p := range body.Payload.Pages {
				out[p.ID] = p.Title
			}
			return out
		}
		english, spanish := titles(nil), titles(map[string]string{"Accept-Language": "es-US"})
		for id, want := range map[string][2]string{
			"personal":  {"Personal Information", "Información personal"},
			"aliases":   {"Other Names", "Otros nombres"},
			"addresses": {"Address History", "Historial de direcciones"},
		} {
			if english[id] != want[0] || spanish[id] != want[1] {
				t.Errorf("page %s is named %q in English and %q in Spanish, want %q and %q", id, english[id], spanish[id], want[0], want[1])
			}
		}
	})
}
