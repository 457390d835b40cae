package httpapi_test

import (
	"bytes"
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

type disputeOut struct {
	ID          int64  `json:"id"`
	Reason      string `json:"reason"`
	ServiceCode string `json:"serviceCode"`
	Explanation string `json:"explanation"`
	State       string `json:"state"`
	Outcome     string `json:"outcome"`
	Resolution  string `json:"resolution"`
	DueAt       string `json:"dueAt"`
	DaysLeft    int    `json:"daysLeft"`
	Extended    bool   `json:"extended"`
	Files       []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"files"`
	Messages []struct {
		Author  string `json:"author"`
		Message string `json:"message"`
	} `json:"messages"`
}

// disputesAPI is Acme (a package with crim) with Jane and Bob, submitted,
// and Globex with Carl; each logged in, and an API key per company.
type disputesAPI struct {
	*harness
	ids     map[string]int64
	tokens  map[string]string
	keys    map[string]string
	company map[string]int64
}

func newDisputesAPI(t *testing.T, db *store.DB) *disputesAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	a := &disputesAPI{harness: newHarness(t, db, "192.0.2.1:1234"), ids: map[string]int64{}, tokens: map[string]string{},
		keys: map[string]string{}, company: map[string]int64{}}
	for _, name := range []string{"Acme", "Globex"} {
		c := &portal.Company{Name: name}
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		if err := db.CreatePackage(ctx, &portal.Package{CompanyID: c.ID, Name: "Standard", Services: []portal.PackageService{{Code: "crim"}}}); err != nil {
			t.Fatal(err)
		}
		_, key, err := db.Operator().APIKeys.CreateAPIKey(ctx, c.ID, name+" HR")
		if err != nil {
			t.Fatal(err)
		}
		a.company[name], a.keys[name] = c.ID, key
	}
	for _, who := range []string{"jane", "bob", "carl"} {
		company := a.company["Acme"]
		if who == "carl" {
			company = a.company["Globex"]
		}
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: company, Email: who + "@example.com", FirstName: who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, portal.StatusFinalizationComplete); err != nil {
			t.Fatal(err)
		}
		a.ids[who], a.tokens[who] = s.ID, logIn(t, db, s)
	}
	a.serve(httpapi.Config{}, nil, nil)
	return a
}

var evidencePDF = []byte("%PDF-1.4\nthe county's letter\n%%EOF\n")

func TestDisputesAPI(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newDisputesAPI(t, db)
		jane := a.tokens["jane"]

		body, ct := multipartStream(textPart("reason", "inaccurate"), textPart("serviceCode", "crim"),
			textPart("explanation", "The record is of another person\nwith my name."),
			filePart("letter.pdf", "application/pdf", evidencePDF), filePart("court.pdf", "application/pdf", evidencePDF))
		rec := a.send(request{Method: "POST", URL: "/api/v2/user/disputes", Token: jane, Body: mustRead(t, body), ContentType: ct})
		if rec.Code != http.StatusCreated {
			t.Fatalf("open = %d %s", rec.Code, rec.Body)
		}
		d := decodeAs[disputeOut](t, rec)
		if d.State != "received" || d.DaysLeft != 30 || len(d.Files) != 2 || d.Files[1].Name != "court.pdf" ||
			d.Explanation != "The record is of another person\nwith my name." {
			t.Fatalf("opened %+v", d)
		}
		one := fmt.Sprintf("/api/v2/user/disputes/%d", d.ID)
		file := fmt.Sprintf("%s/files/%d", one, d.Files[0].ID)

		tooLong := strings.Repeat("a", portal.MaxDisputeText+1)
		tests := []struct {
			name       string
			method     string
			url        string
			token      string
			body       any
			wantStatus int
			wantBody   string
		}{
			{"List", "GET", "/api/v2/user/disputes", jane, nil, 200, `"state":"received"`},
			{"Show", "GET", one, jane, nil, 200, `"serviceCode":"crim"`},
			{"DownloadAFile", "GET", file, jane, nil, 200, "the county's letter"},
			{"ErrAnotherApplicantsDispute", "GET", one, a.tokens["bob"], nil, 404, "Dispute not found."},
			{"ErrAnotherApplicantsFile", "GET", file, a.tokens["bob"], nil, 404, "not found"},
			{"ErrAnotherApplicantAdds", "POST", one + "/information", a.tokens["bob"], map[string]any{"message": "Mine."}, 404, "Dispute not found."},
			{"ErrNoToken", "GET", "/api/v2/user/disputes", "", nil, 401, ""},
			{"ErrJSONReason", "POST", "/api/v2/user/disputes", jane, map[string]any{"reason": "unfair", "explanation": "x"}, 422, `"field":"reason"`},
			{"ErrJSONExplanationEmpty", "POST", "/api/v2/user/disputes", jane, map[string]any{"reason": "not-me", "explanation": ""}, 422, "Enter your explanation"},
			{"ErrJSONExplanationTooLong", "POST", "/api/v2/user/disputes", jane, map[string]any{"reason": "not-me", "explanation": tooLong}, 422, `"field":"explanation"`},
			{"ErrServiceNotInPackage", "POST", "/api/v2/user/disputes", jane, map[string]any{"reason": "not-me", "serviceCode": "drug", "explanation": "x"}, 422, `"field":"serviceCode"`},
			{"JSONTheWholeReport", "POST", "/api/v2/user/disputes", a.tokens["bob"], map[string]any{"reason": "outdated", "explanation": "Old."}, 201, `"serviceCode":""`},
			{"ErrInformationEmpty", "POST", one + "/information", jane, map[string]any{"message": " "}, 422, "Enter a message or attach a file"},
			{"InformationExtends", "POST", one + "/information", jane, map[string]any{"message": "The case number."}, 200, `"extended":true`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := a.send(request{Method: tt.method, URL: tt.url, Token: tt.token, Body: tt.body})
				if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
					t.Errorf("%s %s = %d %s; want %d with %q", tt.method, tt.url, rec.Code, rec.Body, tt.wantStatus, tt.wantBody)
				}
			})
		}

		multipartBad := []struct {
			name       string
			parts      []uploadPart
			wantStatus int
		}{
			{"ErrFileType", []uploadPart{textPart("reason", "not-me"), textPart("explanation", "x"),
				filePart("run.exe", "application/octet-stream", []byte("MZ\x90\x00 program"))}, http.StatusUnsupportedMediaType},
			{"ErrFieldAfterFiles", []uploadPart{textPart("reason", "not-me"), textPart("explanation", "x"),
				filePart("a.pdf", "application/pdf", evidencePDF), textPart("serviceCode", "crim")}, http.StatusBadRequest},
			{"ErrUnknownField", []uploadPart{textPart("mood", "angry")}, http.StatusBadRequest},
			{"ErrTooManyFiles", append([]uploadPart{textPart("reason", "not-me"), textPart("explanation", "x")},
				repeatParts(portal.MaxDisputeFiles+1)...), http.StatusUnprocessableEntity},
		}
		for _, tt := range multipartBad {
			t.Run(tt.name, func(t *testing.T) {
				var before int
				db.SQL().QueryRow(`SELECT COUNT(*) FROM files`).Scan(&before)
				body, ct := multipartStream(tt.parts...)
				rec := a.send(request{Method: "POST", URL: "/api/v2/user/disputes", Token: a.tokens["carl"], Body: mustRead(t, body), ContentType: ct})
				var after int
				db.SQL().QueryRow(`SELECT COUNT(*) FROM files`).Scan(&after)
				if rec.Code != tt.wantStatus || after != before {
					t.Errorf("= %d %s, %d files left; want %d", rec.Code, rec.Body, after-before, tt.wantStatus)
				}
			})
		}
	})
}

func repeatParts(n int) []uploadPart {
	out := make([]uploadPart, n)
	for i := range out {
		out[i] = filePart(fmt.Sprintf("e%d.pdf", i), "application/pdf", evidencePDF)
	}
	return out
}

// The operator API acts on the key's company's disputes only.
func TestOperatorAPIDisputes(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newDisputesAPI(t, db)
		body, ct := multipartStream(textPart("reason", "not-me"), textPart("explanation", "Not me."),
			filePart("id.pdf", "application/pdf", evidencePDF))
		rec := a.send(request{Method: "POST", URL: "/api/v2/user/disputes", Token: a.tokens["jane"], Body: mustRead(t, body), ContentType: ct})
		if rec.Code != http.StatusCreated {
			t.Fatalf("open = %d %s", rec.Code, rec.Body)
		}
		d := decodeAs[disputeOut](t, rec)
		one := fmt.Sprintf("/api/v2/operator/disputes/%d", d.ID)
		acme, globex := a.keys["Acme"], a.keys["Globex"]
		tests := []struct {
			name       string
			method     string
			url        string
			key        string
			body       any
			wantStatus int
			wantBody   string
		}{
			{"ListTheCompanys", "GET", "/api/v2/operator/disputes?state=received", acme, nil, 200, `"email":"jane@example.com"`},
			{"ErrOtherCompanyShow", "GET", one, globex, nil, 404, "Dispute not found."},
			{"ErrOtherCompanyAnswer", "POST", one + "/answer", globex, map[string]any{"message": "Hi."}, 404, ""},
			{"ErrOtherCompanyResolve", "POST", one + "/resolve", globex, map[string]any{"outcome": "verified", "message": "Ok."}, 404, ""},
			{"ErrOtherCompanyFile", "GET", fmt.Sprintf("%s/files/%d", one, d.Files[0].ID), globex, nil, 404, ""},
			{"Show", "GET", one, acme, nil, 200, `"explanation":"Not me."`},
			{"File", "GET", fmt.Sprintf("%s/files/%d", one, d.Files[0].ID), acme, nil, 200, "county"},
			{"ErrAnswerEmpty", "POST", one + "/answer", acme, map[string]any{"message": ""}, 422, `"field":"message"`},
			{"Answer", "POST", one + "/answer", acme, map[string]any{"message": "We asked the county.\nMore soon."}, 200, `"state":"reinvestigating"`},
			{"ErrResolveOutcome", "POST", one + "/resolve", acme, map[string]any{"outcome": "maybe", "message": "x"}, 422, `"field":"outcome"`},
			{"Resolve", "POST", one + "/resolve", acme, map[string]any{"outcome": "deleted", "message": "Removed."}, 200, `"outcome":"deleted"`},
			{"ErrResolveAgain", "POST", one + "/resolve", acme, map[string]any{"outcome": "deleted", "message": "Again."}, 409, "resolved"},
			{"GlobexListsNone", "GET", "/api/v2/operator/disputes", globex, nil, 200, `{"payload":[]}`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := a.send(request{Method: tt.method, URL: tt.url, Token: tt.key, Body: tt.body})
				if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
					t.Errorf("%s %s = %d %s; want %d with %q", tt.method, tt.url, rec.Code, rec.Body, tt.wantStatus, tt.wantBody)
				}
			})
		}
		rec = a.send(request{Method: "GET", URL: fmt.Sprintf("/api/v2/user/disputes/%d", d.ID), Token: a.tokens["jane"]})
		seen := decodeAs[disputeOut](t, rec)
		if seen.State != "resolved" || seen.Resolution != "Removed." || len(seen.Messages) != 1 || seen.Messages[0].Author != "operator" ||
			!bytes.Contains(rec.Body.Bytes(), []byte("We asked the county.\\nMore soon.")) {
			t.Errorf("jane sees %s", rec.Body)
		}
		trail, _ := db.Operator().Audit.FindAudit(context.Background(), portal.AuditFilter{SubjectID: a.ids["jane"]})
		trail = withoutSignIns(trail)
		// Opened by jane; the file downloaded, answered and resolved by the key.
		if len(trail) != 4 || trail[0].Actor.Kind != portal.ActorAPIKey || trail[2].Action != "dispute.file-downloaded" ||
			trail[3].Actor.Kind != portal.ActorApplicant || trail[3].Actor.Address != "192.0.2.1" {
			t.Errorf("audit %+v", trail)
		}
	})
}
