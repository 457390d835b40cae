package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// personalAPI is a server over a company without legal documents, so that
// the setup rule depends on the password and personal information only.
type personalAPI struct {
	*harness
	tokens map[string]string
}

func newPersonalAPI(t *testing.T, db *store.DB, requireSSN bool) *personalAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	c := &portal.Company{Name: "Acme", Preferences: portal.CompanyPreferences{RequireSSN: requireSSN}}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	a := &personalAPI{harness: newHarness(t, db, "192.0.2.1:1234"), tokens: map[string]string{}}
	for _, who := range []string{"jane", "full", "nopass"} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: who + "@example.com",
			FirstName: "Jane", LastName: "Doe", FullProfile: who == "full"})
		if err != nil {
			t.Fatal(err)
		}
		if who == "nopass" {
			continue
		}
		token := logIn(t, db, s)
		a.tokens[who] = token
	}
	a.serve(httpapi.Config{}, nil, nil)
	return a
}

func (a *personalAPI) do(method, path, who string, body any) (int, map[string]any, string) {
	a.t.Helper()
	r := request{Method: method, URL: path, ContentType: "application/json", Body: body}
	if who != "" {
		r.Token = a.tokens[who]
	}
	rec := a.send(r)
	var out map[string]any
	json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out, rec.Body.String()
}

// validPersonal is a complete, valid personal information form.
func validPersonal() map[string]any {
	return map[string]any{
		"firstName": "Jane", "noMiddleName": true, "lastName": "Doe",
		"ssn": "123-45-6789", "confirmSSN": "123-45-6789", "dob": "1990-04-12", "confirmDOB": "1990-04-12",
		"gender": "F", "nameSuffix": "", "daytimeDialCode": "1", "daytimePhoneNumber": "(202) 456-1111",
		"driversLicenseNumber": "D1234567", "driversLicenseState": "US-CA", "drugZip": "94103",
		"licenses":                  []any{},
		"primaryNotificationMethod": map[string]any{"type": "email", "email": "jane@example.com"},
	}
}

func with(base map[string]any, changes map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

func fieldsOf(body map[string]any) map[string]string {
	out := map[string]string{}
	list, _ := body["errorFields"].([]any)
	for _, f := range list {
		m := f.(map[string]any)
		out[m["field"].(string)] = m["message"].(string)
	}
	return out
}

func TestPersonalInformationPut(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newPersonalAPI(t, db, true)
		tests := []struct {
			name       string
			body       map[string]any
			wantStatus int
			wantFields []string
		}{
			{"SSNRequiredWhenTheCompanyRequiresIt", with(validPersonal(), map[string]any{"ssn": "", "confirmSSN": ""}), 422, []string{"ssn"}},
			{"NoSSNNeedsIdentificationCountryAndNumber", with(validPersonal(), map[string]any{"ssn": "", "confirmSSN": "", "noSSN": true}), 422, []string{"identificationCountry", "countryIdentificationNumber"}},
			{"ApplicantUnder14Rejected", with(validPersonal(), map[string]any{"dob": time.Now().AddDate(-10, 0, 0).Format("2006-01-02"), "confirmDOB": time.Now().AddDate(-10, 0, 0).Format("2006-01-02")}), 422, []string{"dob"}},
			{"ImpossibleDateRejected", with(validPersonal(), map[string]any{"dob": "1990-02-30", "confirmDOB": "1990-02-30"}), 422, []string{"dob"}},
			{"FakePhoneNumberRejected", with(validPersonal(), map[string]any{"daytimePhoneNumber": "123"}), 422, []string{"daytimePhoneNumber"}},
			{"UnknownGenderRejected", with(validPersonal(), map[string]any{"gender": "Q"}), 422, []string{"gender"}},
			{"ValidFormSaved", validPersonal(), 200, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				status, body, raw := a.do("PUT", "/api/v2/user", "jane", tt.body)
				if status != tt.wantStatus {
					t.Fatalf("status = %d; want %d; body %s", status, tt.wantStatus, raw)
				}
				if tt.wantStatus == 422 {
					if body["errorMessage"] != "validation error" {
						t.Fatalf("errorMessage = %v", body["errorMessage"])
					}
					got := fieldsOf(body)
					for _, f := range tt.wantFields {
						if got[f] == "" {
							t.Errorf("no message for field %s in %v", f, got)
						}
					}
				}
			})
		}

		t.Run("AnswerShowsOnlyTheLastFourOfTheSSN", func(t *testing.T) {
			status, body, raw := a.do("GET", "/api/v2/user", "jane", nil)
			if status != 200 || strings.Contains(raw, "123456789") || strings.Contains(raw, "123-45-6789") {
				t.Fatalf("GET user = %d, holds the full SSN or failed: %s", status, raw)
			}
			pi := body["subject"].(map[string]any)["personalInformation"].(map[string]any)
			if pi["ssnLastFour"] != "6789" || pi["eveningPhoneNumber"] != "2024561111" {
				t.Fatalf("snapshot = %v; want ssnLastFour 6789 and the evening phone falling back to daytime", pi)
			}
		})
		t.Run("AnswersOnlyThePersonalInformationAsGETShowsIt", func(t *testing.T) {
			// The empty SSN keeps the one on file: the answer shows the
			// saved digits, not what was sent.
			status, put, raw := a.do("PUT", "/api/v2/user", "jane", with(validPersonal(), map[string]any{"ssn": "", "confirmSSN": "", "middleName": " Q ", "noMiddleName": false}))
			if status != 200 {
				t.Fatalf("status %d: %s", status, raw)
			}
			subject, _ := put["subject"].(map[string]any)
			if len(put) != 1 || len(subject) != 1 {
				t.Fatalf("answer = %s; want only subject.personalInformation", raw)
			}
			_, got, _ := a.do("GET", "/api/v2/user", "jane", nil)
			want := got["subject"].(map[string]any)["personalInformation"]
			if !reflect.DeepEqual(subject["personalInformation"], want) {
				t.Errorf("PUT answered %v;\nGET shows %v", subject["personalInformation"], want)
			}
			if pi := subject["personalInformation"].(map[string]any); pi["ssnLastFour"] != "6789" || pi["middleName"] != "Q" {
				t.Errorf("snapshot = %v; want the SSN on file and the name trimmed", pi)
			}
		})
		t.Run("LicenceRegionNamedFromTheLookup", func(t *testing.T) {
			body := with(validPersonal(), map[string]any{"licenses": []any{map[string]any{"number": "RN-1", "regionId": 6, "regionName": "made up"}}})
			status, out, raw := a.do("PUT", "/api/v2/user", "jane", body)
			if status != 200 {
				t.Fatalf("status %d: %s", status, raw)
			}
			pi := out["subject"].(map[string]any)["personalInformation"].(map[string]any)
			l := pi["licenses"].([]any)[0].(map[string]any)
			if l["regionId"] != float64(6) || l["regionName"] != "California" {
				t.Errorf("licence = %v, want region 6 named California", l)
			}
		})
		t.Run("EmptySSNKeepsTheOneOnFile", func(t *testing.T) {
			status, _, raw := a.do("PUT", "/api/v2/user", "jane", with(validPersonal(), map[string]any{"ssn": "", "confirmSSN": "", "drugZip": "94110"}))
			if status != 200 {
				t.Fatalf("re-save without SSN = %d %s", status, raw)
			}
			p, err := db.Personal().FindPersonalInfo(context.Background(), subjectID(t, db, "jane@example.com"))
			if err != nil || p.SSN != "123456789" || p.DrugZip != "94110" {
				t.Fatalf("stored = %+v, %v; want the SSN kept and the ZIP changed", p, err)
			}
		})
		t.Run("NotYoursWithoutAToken", func(t *testing.T) {
			if status, _, _ := a.do("PUT", "/api/v2/user", "", validPersonal()); status != 401 {
				t.Fatalf("PUT without token = %d; want 401", status)
			}
		})
	})
}

func subjectID(t *testing.T, db *store.DB, username string) int64 {
	t.Helper()
	s, err := db.Subjects().FindSubjectByUsername(context.Background(), username)
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func TestSetupCompletionRule(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newPersonalAPI(t, db, false)
		complete := map[string]any{"statusId": 1}

		status, body, _ := a.do("POST", "/api/v2/user/subject/status", "jane", complete)
		if status != 409 || !strings.Contains(body["errorMessage"].(string), "save your personal information") {
			t.Fatalf("complete before personal info = %d %v; want 409 naming personal information", status, body)
		}
		if status, _, raw := a.do("PUT", "/api/v2/user", "jane", validPersonal()); status != 200 {
			t.Fatalf("save personal = %d %s", status, raw)
		}
		status, body, raw := a.do("POST", "/api/v2/user/subject/status", "jane", complete)
		if status != 200 || body["subject"].(map[string]any)["status"].(map[string]any)["statusId"] != float64(1) {
			t.Fatalf("complete after personal info = %d %s; want setup-complete", status, raw)
		}
		if status, _, _ := a.do("POST", "/api/v2/user/subject/status", "jane", complete); status != 409 {
			t.Fatalf("completing twice = %d; want 409", status)
		}
		if status, _, raw := a.do("POST", "/api/v2/user/subject/status", "full", complete); status != 200 {
			t.Fatalf("full-profile applicant with a password = %d %s; want 200", status, raw)
		}
	})
}

func TestLookups(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	a := newPersonalAPI(t, db, false)
	tests := []struct {
		name, path string
		wantStatus int
		wantIn     string
	}{
		{"GendersServed", "/api/v2/lookup/genders", 200, `"code":"F"`},
		{"CountriesStartWithTheUnitedStates", "/api/v2/lookup/countries", 200, `[{"countryId":1,"countryName":"United States","countryCode":"US"}`},
		{"StatesDefaultToTheUnitedStates", "/api/v2/lookup/statesByCountryId", 200, `"code":"US-CA"`},
		{"ArmedForcesCodesAreStates", "/api/v2/lookup/statesByCountryId?countryId=1", 200, `"code":"US-AE"`},
		{"UnknownCountryGivesNoStates", "/api/v2/lookup/statesByCountryId?countryId=9999", 200, `[]`},
		{"NonNumericCountryRejected", "/api/v2/lookup/statesByCountryId?countryId=abc", 422, `countryId`},
		{"UnknownLookupIs404", "/api/v2/lookup/planets", 404, `No lookup named`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, raw := a.do("GET", tt.path, "", nil)
			if status != tt.wantStatus || !strings.Contains(raw, tt.wantIn) {
				t.Fatalf("GET %s = %d %.200s; want %d containing %s", tt.path, status, raw, tt.wantStatus, tt.wantIn)
			}
		})
	}
}

// TestSSNMustMatchTheLastFourSigned proves the SSN check of spec section 5
// holds when personal information is saved after the DOT release was signed.
func TestSSNMustMatchTheLastFourSigned(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		id := a.docs[portal.DocDOTRelease]
		sign := a.body("jane", []int64{id}, map[string]any{"firstName": "Jane", "lastName": "Doe", "lastFourSSN": "1234",
			"signature": pngDataURL(legalPNG(t, 300, 100, false))})
		if w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", id), a.tokens["jane"], sign); w.Code != http.StatusCreated {
			t.Fatalf("sign DOT release = %d %s", w.Code, w.Body)
		}
		mismatch := a.do("PUT", "/api/v2/user", a.tokens["jane"], validPersonal())
		if mismatch.Code != 422 || !strings.Contains(mismatch.Body.String(), `"field":"ssn"`) || !strings.Contains(mismatch.Body.String(), "1234") {
			t.Fatalf("SSN ending 6789 after signing 1234 = %d %s; want 422 on ssn", mismatch.Code, mismatch.Body)
		}
		match := a.do("PUT", "/api/v2/user", a.tokens["jane"], with(validPersonal(), map[string]any{"ssn": "123-45-1234", "confirmSSN": "123451234"}))
		if match.Code != 200 {
			t.Fatalf("SSN ending 1234 = %d %s; want 200", match.Code, match.Body)
		}
	})
}
