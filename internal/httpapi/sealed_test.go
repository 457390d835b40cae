package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
)

// TestDOTReleasePIIShownAsBefore: the DOT release's last four SSN digits
// and identification number are sealed at rest (internal/store
// TestDOTReleasePIISealedAtRest), yet the signing answer, the document
// list and the signed PDF show them as they did before.
func TestDOTReleasePIIShownAsBefore(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		id := a.docs[portal.DocDOTRelease]
		sig := pngDataURL(legalPNG(t, 300, 100, false))
		for _, tc := range []struct {
			Name      string
			Who       string
			Fields    map[string]any
			WantField map[string]any
			WantPDF   []string
			NotInPDF  []string
		}{
			{"LastFourSSN", "jane", map[string]any{"firstName": "Jane", "lastName": "Doe", "lastFourSSN": "4321"},
				map[string]any{"lastFourSSN": "4321"}, []string{"Last four digits of SSN", "4321"}, nil},
			{"IdentificationNumber", "john", map[string]any{"firstName": "John", "lastName": "Doe", "noSSN": true,
				"identificationCountry": "Mexico", "identificationNumber": "MX55512345678"},
				map[string]any{"noSSN": true, "identificationCountry": "Mexico", "identificationNumber": "MX55512345678"},
				[]string{"Identification number", "*********5678", "Mexico"}, []string{"MX555"}},
		} {
			t.Run(tc.Name, func(t *testing.T) {
				tc.Fields["signature"] = sig
				w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", id), a.tokens[tc.Who], a.body(tc.Who, []int64{id}, tc.Fields))
				if w.Code != 201 {
					t.Fatalf("sign: %d %s", w.Code, w.Body)
				}
				var e *listEntry
				list := a.list(tc.Who, "")
				for i := range list {
					if list[i].ID == id {
						e = &list[i]
					}
				}
				if e == nil || e.Signature == nil {
					t.Fatal("the DOT release is not listed as signed")
				}
				for k, v := range tc.WantField {
					if e.Signature.Fields[k] != v {
						t.Errorf("listed fields[%s] = %v, want %v", k, e.Signature.Fields[k], v)
					}
				}
				w = a.do("GET", fmt.Sprintf("/api/v2/user/document/%d", id), a.tokens[tc.Who], nil)
				if w.Code != 200 {
					t.Fatalf("PDF: %d %s", w.Code, w.Body)
				}
				text := signedPDFText(t, w.Body.Bytes())
				for _, want := range tc.WantPDF {
					if !strings.Contains(text, want) {
						t.Errorf("PDF text lacks %q", want)
					}
				}
				for _, not := range tc.NotInPDF {
					if strings.Contains(text, not) {
						t.Errorf("PDF text shows %q", not)
					}
				}
			})
		}
	})
}

// TestCopiedSealedValueIsALoggedInternalError: an SSN sealed for one
// applicant and copied into another's row does not open; the API answers
// 500 with the generic message, and the log records the failure, neither
// naming the value.
func TestCopiedSealedValueIsALoggedInternalError(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		ctx := context.Background()
		for who, ssn := range map[string]string{"jane": "111223333", "john": "444556666"} {
			if err := a.db.Personal().SavePersonalInfo(ctx, a.ids[who], &portal.PersonalInfo{FirstName: "X", LastName: "Doe", SSN: ssn}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := a.db.SQL().Exec(`UPDATE personal_info SET sealed = (SELECT sealed FROM personal_info WHERE subject_id = $1) WHERE subject_id = $2`,
			a.ids["jane"], a.ids["john"]); err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		a.serve(httpapi.Config{ClientID: legalClientID, ClientSecret: legalClientSecret}, nil, slog.New(slog.NewJSONHandler(&logs, nil)))

		w := a.do("GET", "/api/v2/user", a.tokens["john"], nil)
		if w.Code != 500 {
			t.Fatalf("status %d, want 500: %s", w.Code, w.Body)
		}
		if !strings.Contains(logs.String(), "internal error") || !strings.Contains(logs.String(), "cannot open sealed value") {
			t.Errorf("the failure was not logged: %s", logs.String())
		}
		for _, secret := range []string{"111223333", "3333", "444556666"} {
			// Whole numbers only: a duration in the request log may hold the
			// same digits inside a longer number (333377 ns).
			leak := regexp.MustCompile(`(^|\D)` + secret + `(\D|$)`)
			if leak.MatchString(w.Body.String()) || leak.MatchString(logs.String()) {
				t.Errorf("%q leaked: body %s, log %s", secret, w.Body, logs.String())
			}
		}
		if w := a.do("GET", "/api/v2/user", a.tokens["jane"], nil); w.Code != 200 || !strings.Contains(w.Body.String(), "personalInformation") {
			t.Errorf("the owner's read: %d %s", w.Code, w.Body)
		}
	})
}
