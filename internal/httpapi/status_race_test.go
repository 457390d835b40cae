package httpapi_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"applicantportal/internal/portal"
)

// TestSetupCompleteRaceOverHTTP sends, in parallel, the move to
// setup-complete, the deletion of a required signature and a residency
// change that adds a required notice. Whatever wins, a subject in
// setup-complete has every applicable document signed (the store test
// internal/store TestSetupCompleteNeverLacksASignature does the same on two
// instances).
func TestSetupCompleteRaceOverHTTP(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		ctx := context.Background()
		for i := range 12 {
			who := fmt.Sprintf("racer%d", i)
			s, err := a.db.CreateSubject(ctx, portal.NewSubject{CompanyID: a.company.ID, Email: who + "@example.com", FirstName: "Race", LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			if err := a.db.SetEmploymentLocation(ctx, s.ID, portal.Place{State: "US-CA", County: 6075}); err != nil {
				t.Fatal(err)
			}
			if err := a.db.Auth().SetInitialPassword(ctx, s.ID, legalPassword); err != nil {
				t.Fatal(err)
			}
			if err := a.db.Personal().SavePersonalInfo(ctx, s.ID, &portal.PersonalInfo{FirstName: "Race", LastName: "Doe", SSN: "123451234"}); err != nil {
				t.Fatal(err)
			}
			pair, err := a.db.Auth().Login(ctx, portal.Credentials{ClientID: legalClientID, ClientSecret: legalClientSecret,
				Username: s.Username, Password: legalPassword, IP: "192.0.2.1"})
			if err != nil {
				t.Fatal(err)
			}
			a.tokens[who], a.ids[who] = pair.AccessToken, s.ID
			a.signAllButAuthorization(who)
			auth := a.docs[portal.DocAuthorization]
			body := a.body(who, []int64{auth}, map[string]any{"firstName": "Race", "lastName": "Doe", "authConsent": true,
				"signature": pngDataURL(legalPNG(t, 300, 100, false))})
			if w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", auth), a.tokens[who], body); w.Code != 201 {
				t.Fatalf("sign the authorization: %d %s", w.Code, w.Body)
			}

			var wg sync.WaitGroup
			start := make(chan struct{})
			var moveCode int
			for _, req := range []struct {
				method, path string
				body         any
			}{
				{"POST", "/api/v2/user/subject/status", map[string]any{"statusId": 1}},
				{"DELETE", fmt.Sprintf("/api/v2/user/document/%d", a.docs[portal.DocDisclosure]), nil},
				{"POST", "/api/v2/user/data", map[string]any{"location": map[string]any{"residency": map[string]any{"state": "US-NJ"}}}},
			} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					w := a.do(req.method, req.path, a.tokens[who], req.body)
					if req.path == "/api/v2/user/subject/status" {
						moveCode = w.Code
					} else if w.Code >= 500 {
						t.Errorf("%s %s: %d %s", req.method, req.path, w.Code, w.Body)
					}
				}()
			}
			close(start)
			wg.Wait()

			file, err := a.db.Legal().FindLegalDocuments(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			complete := file.Subject.StatusID == portal.StatusSetupComplete
			if complete != (moveCode == 200) || (!complete && moveCode != 409) {
				t.Fatalf("round %d: move answered %d, setup complete %v", i, moveCode, complete)
			}
			if pending := file.PendingSteps(); complete && len(pending) > 0 {
				t.Errorf("round %d: setup complete with %d step(s) unsigned, first %q", i, len(pending), pending[0].Title())
			}
		}
	})
}
