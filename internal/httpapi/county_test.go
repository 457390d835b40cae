package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

// TestCountyNotices: a county notice (the San Francisco Fair Chance
// Ordinance, county 6075) follows the county of residency or of employment
// the applicant gives (spec section 5), through the API and the store on
// both databases; a county that is not in the state given is refused on its
// field and stores nothing.
func TestCountyNotices(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		newYork := &portal.Place{State: "US-NY", County: 36061}
		for i, tc := range []struct {
			name       string
			work       *portal.Place // the operator's word; nil: none
			body       string        // POST /api/v2/user/data
			wantStatus int
			wantField  string // the field refused (422)
			wantSaved  portal.Location
			wantSF     bool // the SF notice is one of the applicant's legal steps
		}{
			{name: "SanFranciscoResidentWorkingInNewYorkSeesIt", work: newYork,
				body:       `{"location":{"residency":{"nonUs":false,"state":"US-CA","county":6075}}}`,
				wantStatus: 200, wantSF: true,
				wantSaved: portal.Location{Residency: portal.Place{State: "US-CA", County: 6075}, Employment: *newYork}},
			{name: "LosAngelesResidentWorkingInNewYorkDoesNot", work: newYork,
				body:       `{"location":{"residency":{"nonUs":false,"state":"US-CA","county":6037}}}`,
				wantStatus: 200, wantSF: false,
				wantSaved: portal.Location{Residency: portal.Place{State: "US-CA", County: 6037}, Employment: *newYork}},
			{name: "CaliforniaResidentOfAnotherCountyDoesNot", work: newYork,
				body:       `{"location":{"residency":{"nonUs":false,"state":"US-CA","county":0}}}`,
				wantStatus: 200, wantSF: false,
				wantSaved: portal.Location{Residency: portal.Place{State: "US-CA"}, Employment: *newYork}},
			{name: "TexasResidentWorkingInSanFranciscoSeesIt", work: &portal.Place{State: "US-CA", County: 6075},
				body:       `{"location":{"residency":{"nonUs":false,"state":"US-TX","county":0}}}`,
				wantStatus: 200, wantSF: true,
				wantSaved: portal.Location{Residency: portal.Place{State: "US-TX"}, Employment: portal.Place{State: "US-CA", County: 6075}}},
			{name: "EmploymentCountyGivenByTheApplicantWhenTheEmployerSaidNothing",
				body:       `{"location":{"residency":{"state":"US-NV"},"employment":{"state":"US-CA","county":6075}}}`,
				wantStatus: 200, wantSF: true,
				wantSaved: portal.Location{Residency: portal.Place{State: "US-NV"}, Employment: portal.Place{State: "US-CA", County: 6075}}},
			{name: "EmploymentInLosAngelesDoesNot",
				body:       `{"location":{"residency":{"state":"US-NV"},"employment":{"state":"US-CA","county":6037}}}`,
				wantStatus: 200, wantSF: false,
				wantSaved: portal.Location{Residency: portal.Place{State: "US-NV"}, Employment: portal.Place{State: "US-CA", County: 6037}}},
			{name: "OutsideTheUSKeepsNoCounty", work: newYork,
				body:       `{"location":{"residency":{"nonUs":true,"state":"US-CA","county":6075}}}`,
				wantStatus: 200, wantSF: false,
				wantSaved: portal.Location{Residency: portal.Place{NonUS: true}, Employment: *newYork}},
			{name: "ErrResidencyCountyOfAnotherState", work: newYork,
				body:       `{"location":{"residency":{"state":"US-NY","county":6075}}}`,
				wantStatus: 422, wantField: "location.residency.county",
				wantSaved: portal.Location{Employment: *newYork}},
			{name: "ErrResidencyCountyWithoutState", work: newYork,
				body:       `{"location":{"residency":{"county":6075}}}`,
				wantStatus: 422, wantField: "location.residency.county",
				wantSaved: portal.Location{Employment: *newYork}},
			{name: "ErrResidencyCountyUnknown", work: newYork,
				body:       `{"location":{"residency":{"state":"US-CA","county":6000}}}`,
				wantStatus: 422, wantField: "location.residency.county",
				wantSaved: portal.Location{Employment: *newYork}},
			{name: "ErrEmploymentCountyOfAnotherState",
				body:       `{"location":{"residency":{"state":"US-NV"},"employment":{"state":"US-TX","county":6075}}}`,
				wantStatus: 422, wantField: "location.employment.county"},
		} {
			who := "county" + string(rune('a'+i)) // a name: letters only
			t.Run(tc.name, func(t *testing.T) {
				a.addApplicant(who, tc.work)
				w := a.do("POST", "/api/v2/user/data", a.tokens[who], tc.body)
				if w.Code != tc.wantStatus || !strings.Contains(w.Body.String(), `"field":"`+tc.wantField+`"`) && tc.wantField != "" {
					t.Fatalf("status %d, want %d on %q: %s", w.Code, tc.wantStatus, tc.wantField, w.Body)
				}
				if got := a.savedLocation(who); got != tc.wantSaved {
					t.Errorf("saved %+v, want %+v", got, tc.wantSaved)
				}
				a.checkSFNotice(who, tc.wantSF)
			})
		}
	})
}

// savedLocation is the location GET /api/v2/user/data answers.
func (a *legalAPI) savedLocation(who string) portal.Location {
	a.t.Helper()
	w := a.do("GET", "/api/v2/user/data", a.tokens[who], nil)
	var out struct {
		Payload struct {
			Data struct {
				Location portal.Location `json:"location"`
			} `json:"data"`
		} `json:"payload"`
	}
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &out) != nil {
		a.t.Fatalf("GET data: %d %s", w.Code, w.Body)
	}
	return out.Payload.Data.Location
}

// checkSFNotice checks that the store counts the SF notice among the
// applicant's legal steps exactly when want, and that the API lets them
// sign it exactly then.
func (a *legalAPI) checkSFNotice(who string, want bool) {
	a.t.Helper()
	sf := a.docs[portal.DocRightsSF]
	file, err := a.db.Legal().FindLegalDocuments(context.Background(), a.ids[who])
	if err != nil {
		a.t.Fatal(err)
	}
	step, found := portal.StepFor(file.Steps(), sf)
	if found != want {
		a.t.Fatalf("SF notice among the steps: %v, want %v (location %+v)", found, want, file.Location)
	}
	ids := []int64{sf}
	for _, d := range step.Documents {
		if d.ID != sf {
			ids = append(ids, d.ID)
		}
	}
	acks := map[string]any{}
	for _, f := range step.AckFlags {
		acks[f] = true
	}
	w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", sf), a.tokens[who], a.body(who, ids, acks))
	switch {
	case want && w.Code != 201:
		a.t.Errorf("signing the SF notice: %d %s", w.Code, w.Body)
	case !want && (w.Code != 409 || !strings.Contains(w.Body.String(), "does not apply to you")):
		a.t.Errorf("signing the SF notice that does not apply: %d %s", w.Code, w.Body)
	}
}
