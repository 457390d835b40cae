package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// Every operator screening call acts within the key's company: another
// company's applicant is 404, as one that does not exist. The applicant's
// order then shows what was set.
func TestOperatorAPIScreening(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, db, "192.0.2.1:1234")
		ops := db.Operator()
		subjects := map[string]*portal.Subject{}
		keys := map[string]string{}
		for _, name := range []string{"Acme", "Globex"} {
			c := &portal.Company{Name: name}
			if err := db.CreateCompany(ctx, c); err != nil {
				t.Fatal(err)
			}
			if err := db.CreatePackage(ctx, &portal.Package{CompanyID: c.ID, Name: "Standard",
				Services: []portal.PackageService{{Code: "crim"}, {Code: "emps"}}}); err != nil {
				t.Fatal(err)
			}
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: strings.ToLower(name) + "@example.com", FirstName: "Jane", LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			subjects[name] = s
			if _, keys[name], err = ops.APIKeys.CreateAPIKey(ctx, c.ID, name+" HR"); err != nil {
				t.Fatal(err)
			}
		}
		token := logIn(t, db, subjects["Acme"])
		h.serve(httpapi.Config{}, nil, nil)
		jane := fmt.Sprintf("/api/v2/operator/applicants/%d", subjects["Acme"].ID)
		body := map[string]any{"reason": "employer-not-responding", "note": "called twice"}
		tests := []struct {
			name       string
			method     string
			url        string
			key        string
			body       any
			wantStatus int
			wantBody   string
		}{
			{"ListOfAnotherCompany", "GET", jane + "/services", "Globex", nil, http.StatusNotFound, "Applicant not found."},
			{"SetOfAnotherCompany", "PUT", jane + "/services/emps", "Globex", body, http.StatusNotFound, "Applicant not found."},
			{"OrderOfAnotherCompany", "PUT", jane + "/order-status", "Globex", map[string]any{"statusId": 5}, http.StatusNotFound, ""},
			{"ProfileOfAnotherCompany", "PUT", jane + "/profile-status", "Globex", map[string]any{"statusId": 36}, http.StatusNotFound, ""},
			{"NoKey", "GET", jane + "/services", "", nil, http.StatusUnauthorized, ""},
			{"Set", "PUT", jane + "/services/emps", "Acme", body, http.StatusOK, `"state":"waiting-applicant","reason":"employer-not-responding","note":"called twice"`},
			{"UnknownService", "PUT", jane + "/services/drug", "Acme", body, http.StatusUnprocessableEntity, `"field":"service"`},
			{"UnknownState", "PUT", jane + "/services/crim", "Acme", map[string]any{"state": "done"}, http.StatusUnprocessableEntity, `"field":"state"`},
			{"List", "GET", jane + "/services", "Acme", nil, http.StatusOK, `"code":"crim","name":"Criminal","state":"pending","reason":null`},
			{"OrderStatusMissing", "PUT", jane + "/order-status", "Acme", map[string]any{}, http.StatusUnprocessableEntity, `"field":"statusId"`},
			{"OrderStatusUnknown", "PUT", jane + "/order-status", "Acme", map[string]any{"statusId": 9}, http.StatusUnprocessableEntity, "4 Complete, 5 QA"},
			{"ProfileStatus", "PUT", jane + "/profile-status", "Acme", map[string]any{"statusId": 65}, http.StatusOK, `"status":"PRE_ADVERSE_ACTION","shown":"complete"`},
			{"ProfileStatusUnknown", "PUT", jane + "/profile-status", "Acme", map[string]any{"statusId": 64}, http.StatusUnprocessableEntity, "PRE_ADVERSE_ACTION (65)"},
			{"Reasons", "GET", "/api/v2/operator/service-reasons", "Acme", nil, http.StatusOK, `"code":"court-closed"`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := h.send(request{Method: tt.method, URL: tt.url, Token: keys[tt.key], Body: tt.body})
				if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
					t.Fatalf("%d %s; want %d with %s", rec.Code, rec.Body, tt.wantStatus, tt.wantBody)
				}
			})
		}
		profile, err := db.Subjects().FindProfile(ctx, subjects["Acme"].ID)
		if err != nil {
			t.Fatal(err)
		}
		var orderID int64
		if err := db.SQL().QueryRow(`SELECT id FROM orders WHERE profile_id = $1`, profile.ID).Scan(&orderID); err != nil {
			t.Fatal(err)
		}
		rec := h.send(request{Method: "GET", URL: fmt.Sprintf("/api/v2/user/order/%d", orderID), Token: token})
		got := rec.Body.String()
		for _, want := range []string{
			`"code":"emps","name":"Employment","alias":"employment","status":"pending","hasError":true,"state":"waiting-applicant",` +
				`"reason":{"code":"employer-not-responding","text":"Your former employer has not answered yet. Uploading a W-2 or pay stub can speed this up.",` +
				`"action":{"label":"Upload a W-2 or pay stub","path":"/#documents"}},"estimate":{"earliest":"`,
			`"code":"crim","name":"Criminal","alias":"crim","status":"pending","hasError":false,"state":"pending","reason":null,"estimate":null,"updatedAt":null`,
		} {
			if rec.Code != http.StatusOK || !strings.Contains(got, want) {
				t.Fatalf("order: %d %s\nwant %s", rec.Code, got, want)
			}
		}
		if strings.Contains(got, "called twice") {
			t.Fatalf("the staff's note reached the applicant: %s", got)
		}
		// In Spanish to a Spanish request.
		rec = h.send(request{Method: "GET", URL: fmt.Sprintf("/api/v2/user/order/%d", orderID), Token: token,
			Header: map[string]string{"Accept-Language": "es-US"}})
		if want := `"reason":{"code":"employer-not-responding","text":"Su empleador anterior todavía no ha respondido.`; !strings.Contains(rec.Body.String(), want) ||
			!strings.Contains(rec.Body.String(), `"action":{"label":"Subir un formulario W-2 o un talón de pago"`) {
			t.Errorf("order in Spanish: %s\nwant %s and the Spanish action", rec.Body, want)
		}
		if rec := h.send(request{Method: "PUT", URL: jane + "/order-status", Token: keys["Acme"], Body: map[string]any{"statusId": 4}}); rec.Code != http.StatusOK {
			t.Fatalf("order status: %d %s", rec.Code, rec.Body)
		}
		rec = h.send(request{Method: "GET", URL: fmt.Sprintf("/api/v2/user/order/%d", orderID), Token: token})
		if !strings.Contains(rec.Body.String(), `"status":"complete","hasError":false,"state":"complete","reason":null,"estimate":null`) {
			t.Fatalf("after completion: %s", rec.Body)
		}
	})
}
