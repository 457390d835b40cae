package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// The operator API's adverse action acts for the key's company, and the
// applicant reads their own notice, null while there is none.
func TestAdverseActionAPI(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a := newChatAPI(t, db) // jane and bob at Acme, carl at Globex
		for _, who := range []string{"jane", "carl"} {
			if err := db.SetSubjectStatus(ctx, a.ids[who], portal.StatusNew, portal.StatusFinalizationComplete); err != nil {
				t.Fatal(err)
			}
		}
		jane, _ := db.Subjects().FindSubjectByID(ctx, a.ids["jane"])
		_, acmeKey, err := a.ops.APIKeys.CreateAPIKey(ctx, jane.CompanyID, "HR system")
		if err != nil {
			t.Fatal(err)
		}
		adverse := func(who, rest string) string {
			return fmt.Sprintf("/api/v2/operator/applicants/%d/adverse-action%s", a.ids[who], rest)
		}
		tests := []struct {
			name       string
			method     string
			url        string
			body       any
			token      string
			wantStatus int
			wantBody   string
		}{
			{"NoNoticeYetIsNull", "GET", "/api/v2/user/adverse-action", nil, a.tokens["jane"], http.StatusOK, "null"},
			{"OperatorShowBeforeIsNotFound", "GET", adverse("jane", ""), nil, acmeKey, http.StatusNotFound, `"errorMessage":"Adverse action not found."`},
			{"NoKey", "POST", adverse("jane", "/pre"), map[string]any{}, "", http.StatusUnauthorized, ""},
			{"ZeroDaysRefused", "POST", adverse("jane", "/pre"), map[string]any{"waitingDays": 0}, acmeKey, http.StatusUnprocessableEntity, `"field":"waitingDays"`},
			{"NotSubmitted", "POST", adverse("bob", "/pre"), map[string]any{}, acmeKey, http.StatusConflict, "has not submitted"},
			{"AnotherCompanysApplicant", "POST", adverse("carl", "/pre"), map[string]any{}, acmeKey, http.StatusNotFound, `"errorMessage":"Applicant not found."`},
			{"Pre", "POST", adverse("jane", "/pre"), map[string]any{"waitingDays": 3, "note": "The county record."}, acmeKey, http.StatusCreated,
				`"state":"pre","companyName":"Acme"`},
			{"SecondPre", "POST", adverse("jane", "/pre"), map[string]any{}, acmeKey, http.StatusConflict, "already has a pre-adverse notice"},
			{"FinalDuringTheWaitingPeriod", "POST", adverse("jane", "/final"), map[string]any{"note": "No."}, acmeKey, http.StatusConflict, "The waiting period ends on"},
			{"FinalOfAnotherCompanysApplicant", "POST", adverse("carl", "/final"), map[string]any{}, acmeKey, http.StatusNotFound, ""},
			{"OperatorShow", "GET", adverse("jane", ""), nil, acmeKey, http.StatusOK, `"waitingDays":3,`},
			{"OperatorShowOfAnotherCompanysApplicant", "GET", adverse("carl", ""), nil, acmeKey, http.StatusNotFound, ""},
			{"TheApplicantReadsTheNoticeAndTheirRights", "GET", "/api/v2/user/adverse-action", nil, a.tokens["jane"], http.StatusOK,
				`"businessDaysLeft":3,"note":"The county record.","basedOn":[],"finalAt":null,"finalNote":"","summaryOfRights":"\u003cp\u003e\u003cstrong\u003eSAMPLE TEXT`},
			{"AnotherApplicantSeesNone", "GET", "/api/v2/user/adverse-action", nil, a.tokens["bob"], http.StatusOK, "null"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := a.send(request{Method: tt.method, URL: tt.url, Body: tt.body, Token: tt.token})
				if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
					t.Errorf("%d %s; want %d with %s", rec.Code, rec.Body, tt.wantStatus, tt.wantBody)
				}
			})
		}
		trail, _ := a.ops.Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: a.ids["jane"]})
		trail = withoutSignIns(trail)
		if len(trail) != 1 || trail[0].Actor.Kind != portal.ActorAPIKey || trail[0].Actor.Address != "192.0.2.1" {
			t.Errorf("audit = %+v", trail)
		}
	})
}
