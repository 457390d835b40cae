package httpapi_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

const (
	legalClientID     = "legal-test-client"
	legalClientSecret = "legal-test-secret"
	legalPassword     = "a-long-enough-password"
)

// legalAPI is a server over a database holding a company with the sample
// documents and a dynamic one, applicants with tokens, and another company.
type legalAPI struct {
	*harness
	company *portal.Company
	docs    map[string]int64 // document type -> id
	otherID int64            // another company's document
	tokens  map[string]string
	ids     map[string]int64
}

// eachLegalAPI runs a test against SQLite and, when PORTAL_TEST_DATABASE_URL
// is set, against a fresh PostgreSQL schema.
func eachLegalAPI(t *testing.T, run func(t *testing.T, a *legalAPI)) {
	t.Helper()
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) { run(t, newLegalAPI(t, db)) })
}

func newLegalAPI(t *testing.T, db *store.DB) *legalAPI {
	t.Helper()
	ctx := context.Background()
	a := &legalAPI{harness: newHarness(t, db, "192.0.2.1:4242"), docs: map[string]int64{}, tokens: map[string]string{}, ids: map[string]int64{}}
	if err := db.UpsertClient(ctx, legalClientID, legalClientSecret, "test"); err != nil {
		t.Fatal(err)
	}
	a.company = &portal.Company{Name: "Acme & Sons", AccountingCode: "ACC-1"}
	other := &portal.Company{Name: "Other Corp"}
	for _, c := range []*portal.Company{a.company, other} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range legaltext.Samples() {
		html, err := legaltext.RenderMarkdown(s.Markdown)
		if err != nil {
			t.Fatal(err)
		}
		a.save(&portal.LegalDocument{CompanyID: a.company.ID, Title: s.Title, Content: html,
			Type: portal.LegalDocumentType{DocumentType: s.DocumentType, Visibility: s.Visibility, Regions: s.Regions, Editable: true}})
	}
	a.save(&portal.LegalDocument{CompanyID: a.company.ID, Title: "Drug-free workplace policy",
		Content: "<h1>Drug-free workplace policy</h1><p>{{subjectName}}|{{firstName}}|{{lastName}}|{{clientName}}|{{accountingCode}}</p>",
		Type:    portal.LegalDocumentType{DocumentType: "drug_policy", Visibility: portal.VisibilityAll, Editable: true}})
	od := &portal.LegalDocument{CompanyID: other.ID, Title: "Other", Content: "<p>Other</p>",
		Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Visibility: portal.VisibilityAll, Editable: true}}
	if _, err := db.SaveLegalDocument(ctx, od); err != nil {
		t.Fatal(err)
	}
	a.otherID = od.ID

	for _, who := range []string{"jane", "john", "pat", "done", "submitted"} {
		a.addApplicant(who, &portal.Place{State: "US-CA", County: 6075})
	}
	for _, who := range []string{"done", "submitted"} {
		if err := db.SetSubjectStatus(ctx, a.ids[who], portal.StatusNew, portal.StatusSetupComplete); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SetSubjectStatus(ctx, a.ids["submitted"], portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
		t.Fatal(err)
	}
	a.serve(httpapi.Config{ClientID: legalClientID, ClientSecret: legalClientSecret}, nil, nil)
	return a
}

// addApplicant creates a logged-in applicant of the company named who,
// working where the operator says (nil: the operator said nothing).
func (a *legalAPI) addApplicant(who string, work *portal.Place) {
	a.t.Helper()
	ctx := context.Background()
	s, err := a.db.CreateSubject(ctx, portal.NewSubject{CompanyID: a.company.ID, Email: who + "@example.com",
		FirstName: strings.ToUpper(who[:1]) + who[1:], LastName: "Doe"})
	if err != nil {
		a.t.Fatal(err)
	}
	if work != nil {
		if err := a.db.SetEmploymentLocation(ctx, s.ID, *work); err != nil {
			a.t.Fatal(err)
		}
	}
	if err := a.db.Auth().SetInitialPassword(ctx, s.ID, legalPassword); err != nil {
		a.t.Fatal(err)
	}
	pair, err := a.db.Auth().Login(ctx, portal.Credentials{ClientID: legalClientID, ClientSecret: legalClientSecret,
		Username: s.Username, Password: legalPassword, IP: "192.0.2.1"})
	if err != nil {
		a.t.Fatal(err)
	}
	a.tokens[who], a.ids[who] = pair.AccessToken, s.ID
}

func (a *legalAPI) save(d *portal.LegalDocument) {
	a.t.Helper()
	if _, err := a.db.SaveLegalDocument(context.Background(), d); err != nil {
		a.t.Fatal(err)
	}
	a.docs[d.Type.DocumentType] = d.ID
}

// do sends a request as a client at 192.0.2.1 would; a body goes as JSON.
func (a *legalAPI) do(method, path, token string, body any) *httptest.ResponseRecorder {
	a.t.Helper()
	return a.doWithHeader(method, path, token, body, nil)
}

// doWithHeader is do with request headers (a language: legal_language_test.go).
func (a *legalAPI) doWithHeader(method, path, token string, body any, header map[string]string) *httptest.ResponseRecorder {
	a.t.Helper()
	r := request{Method: method, URL: path, Token: token, Body: body, Header: header}
	if body != nil {
		r.ContentType = "application/json"
	}
	return a.send(r)
}

type docContent struct {
	ID            int64  `json:"id"`
	Title         string `json:"title"`
	Version       int    `json:"version"`
	DocumentType  string `json:"documentType"`
	Content       string `json:"content"`
	ContentSHA256 string `json:"contentSha256"`
}

func (a *legalAPI) content(who string, id int64) docContent {
	a.t.Helper()
	w := a.do("GET", fmt.Sprintf("/api/v2/document/%d", id), a.tokens[who], nil)
	if w.Code != http.StatusOK {
		a.t.Fatalf("GET document %d: %d %s", id, w.Code, w.Body)
	}
	var c docContent
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
		a.t.Fatal(err)
	}
	return c
}

type listEntry struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	Type  struct {
		DocumentType string          `json:"documentType"`
		Visibility   string          `json:"visibility"`
		Regions      []portal.Region `json:"regions"`
		Editable     bool            `json:"editable"`
	} `json:"type"`
	Signature *struct {
		SignatureData   string         `json:"signatureData"`
		SignatureUserIP string         `json:"signatureUserIp"`
		CreatedAt       time.Time      `json:"createdAt"`
		DocumentVersion int            `json:"documentVersion"`
		ContentSHA256   string         `json:"contentSha256"`
		Outcome         string         `json:"outcome"`
		Fields          map[string]any `json:"fields"`
	} `json:"signature"`
}

func (a *legalAPI) list(who, query string) []listEntry {
	a.t.Helper()
	w := a.do("GET", "/api/v2/user/document"+query, a.tokens[who], nil)
	if w.Code != http.StatusOK {
		a.t.Fatalf("list: %d %s", w.Code, w.Body)
	}
	var out []listEntry
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		a.t.Fatal(err)
	}
	return out
}

func listedAsSigned(list []listEntry, id int64) bool {
	for _, e := range list {
		if e.ID == id {
			return e.Signature != nil
		}
	}
	return false
}

// signAllButAuthorization signs, through the API, every step the
// authorization must wait for.
func (a *legalAPI) signAllButAuthorization(who string) {
	a.t.Helper()
	file, err := a.db.Legal().FindLegalDocuments(context.Background(), a.ids[who])
	if err != nil {
		a.t.Fatal(err)
	}
	everything := map[string]any{"firstName": file.Subject.FirstName, "lastName": file.Subject.LastName,
		"ackConsent": true, "ackNotices": true, "ackReceipt": true, "ackReceiptYourRights": true, "ackFed": true,
		"ackSf": true, "ackCaCredit": true, "lastFourSSN": "1234", "signature": pngDataURL(legalPNG(a.t, 300, 100, false))}
	for _, step := range file.PendingSteps() {
		if step.DocumentType == portal.DocAuthorization {
			continue
		}
		var ids []int64
		for _, d := range step.Documents {
			ids = append(ids, d.ID)
		}
		if w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", ids[0]), a.tokens[who], a.body(who, ids, everything)); w.Code != 201 {
			a.t.Fatalf("sign %s: %d %s", step.DocumentType, w.Code, w.Body)
		}
	}
}

// legalPNG encodes an image; noise makes it incompressible.
func legalPNG(t *testing.T, w, h int, noise bool) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	if noise {
		rand.Read(img.Pix)
	} else {
		for x := 5; x < w-5; x++ {
			img.Set(x, h/2+(x%16)-8, color.NRGBA{A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func pngDataURL(b []byte) string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b)
}

// body is a signing body for the step of documentID with the hashes of what
// the applicant read.
func (a *legalAPI) body(who string, ids []int64, fields map[string]any) map[string]any {
	a.t.Helper()
	hashes := map[string]string{}
	for _, id := range ids {
		hashes[strconv.FormatInt(id, 10)] = a.content(who, id).ContentSHA256
	}
	b := map[string]any{"contentSha256": hashes}
	for k, v := range fields {
		b[k] = v
	}
	return b
}

func TestLegalDocumentList(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		all := len(legaltext.Samples()) + 1
		for _, tc := range []struct {
			name       string
			query      string
			token      string
			wantStatus int
			wantCount  int
		}{
			{"ListsEveryCompanyDocument", "", a.tokens["jane"], 200, all},
			{"FilterByType", "?filter=" + url.QueryEscape(`{"documentType":["e_sign"]}`), a.tokens["jane"], 200, 1},
			{"FilterByStepTypeRights", "?filter=" + url.QueryEscape(`{"documentType":"rights"}`), a.tokens["jane"], 200, 8},
			{"FilterBySigned", "?filter=" + url.QueryEscape(`{"signed":true}`), a.tokens["jane"], 200, 0},
			{"FilterByUnsigned", "?filter=" + url.QueryEscape(`{"signed":false}`), a.tokens["jane"], 200, all},
			{"ErrFilterNotJSON", "?filter=" + url.QueryEscape(`{documentType`), a.tokens["jane"], 400, -1},
			{"ErrNoToken", "", "", 401, -1},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := a.do("GET", "/api/v2/user/document"+tc.query, tc.token, nil)
				if w.Code != tc.wantStatus {
					t.Fatalf("status %d, want %d: %s", w.Code, tc.wantStatus, w.Body)
				}
				if tc.wantCount < 0 {
					var e struct{ ErrorMessage string }
					if json.Unmarshal(w.Body.Bytes(), &e); e.ErrorMessage == "" {
						t.Errorf("no errorMessage: %s", w.Body)
					}
					return
				}
				var list []listEntry
				if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil {
					t.Fatal(err)
				}
				if len(list) != tc.wantCount {
					t.Errorf("%d documents, want %d", len(list), tc.wantCount)
				}
			})
		}
		t.Run("TypeCarriesVisibilityAndRegions", func(t *testing.T) {
			for _, e := range a.list("jane", "") {
				if e.Type.DocumentType == portal.DocRightsSF {
					if e.Type.Visibility != "regional" || len(e.Type.Regions) != 1 || e.Type.Regions[0].CountyID != 6075 {
						t.Errorf("rights_sf type = %+v", e.Type)
					}
					return
				}
			}
			t.Error("rights_sf not listed")
		})
	})
}

func TestLegalDocumentContent(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		t.Run("TokensReplaced", func(t *testing.T) {
			c := a.content("jane", a.docs["drug_policy"])
			if !strings.Contains(c.Content, "<p>Jane Doe|Jane|Doe|Acme &amp; Sons|ACC-1</p>") {
				t.Errorf("content = %s", c.Content)
			}
			if c.Title != "Drug-free workplace policy" || c.Version != 1 || c.DocumentType != "drug_policy" {
				t.Errorf("answer = %+v", c)
			}
		})
		t.Run("HashIsOfTheContentServed", func(t *testing.T) {
			c := a.content("jane", a.docs[portal.DocDisclosure])
			sum := legalSHA256(c.Content)
			if c.ContentSHA256 != sum {
				t.Errorf("contentSha256 = %s, want %s", c.ContentSHA256, sum)
			}
		})
		t.Run("NoTokenOrScriptLeft", func(t *testing.T) {
			for typ, id := range a.docs {
				c := a.content("jane", id)
				if strings.Contains(c.Content, "{{") || strings.Contains(strings.ToLower(c.Content), "<script") {
					t.Errorf("%s content keeps a token or script: %.200s", typ, c.Content)
				}
			}
		})
		t.Run("ErrAnotherCompanysDocument", func(t *testing.T) {
			if w := a.do("GET", fmt.Sprintf("/api/v2/document/%d", a.otherID), a.tokens["jane"], nil); w.Code != 404 {
				t.Errorf("status %d, want 404", w.Code)
			}
		})
		t.Run("ErrNotANumber", func(t *testing.T) {
			if w := a.do("GET", "/api/v2/document/abc", a.tokens["jane"], nil); w.Code != 404 {
				t.Errorf("status %d, want 404", w.Code)
			}
		})
	})
}

// legalSHA256 is signedpdf.ContentHash written out, so the test does not
// trust the code it checks.
func legalSHA256(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestSignEachDocumentType(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		sig := pngDataURL(legalPNG(t, 300, 100, false))
		names := map[string]any{"firstName": "Jane", "lastName": "Doe"}
		with := func(m map[string]any, more map[string]any) map[string]any {
			out := map[string]any{}
			for k, v := range m {
				out[k] = v
			}
			for k, v := range more {
				out[k] = v
			}
			return out
		}
		rights := []int64{a.docs[portal.DocRightsFed], a.docs[portal.DocRightsSF], a.docs[portal.DocRightsCACredit]}
		for _, tc := range []struct {
			name   string
			id     int64
			ids    []int64
			fields map[string]any
			want   map[string]any // recorded fields
		}{
			{"ESign", a.docs[portal.DocESign], nil, with(names, map[string]any{"ackConsent": true, "ackNotices": true}),
				map[string]any{"firstName": "Jane", "ackConsent": true}},
			{"Disclosure", a.docs[portal.DocDisclosure], nil, map[string]any{"ackReceipt": true, "signature": sig}, map[string]any{"ackReceipt": true}},
			{"Investigative", a.docs[portal.DocInvestigative], nil, map[string]any{"ackReceipt": true, "signature": sig}, map[string]any{"ackReceipt": true}},
			{"CaliforniaDisclosure", a.docs[portal.DocCaliforniaDisclosure], nil, map[string]any{"ackReceipt": true, "signature": sig}, map[string]any{"ackReceipt": true}},
			{"RightsStepWithItsNotices", a.docs[portal.DocRightsSF], rights,
				map[string]any{"ackReceiptYourRights": true, "ackFed": true, "ackSf": true, "ackCaCredit": true, "ackNj": true},
				map[string]any{"ackReceiptYourRights": true, "ackSf": true}},
			{"DOTRelease", a.docs[portal.DocDOTRelease], nil, with(names, map[string]any{"lastFourSSN": "1234", "signature": sig}),
				map[string]any{"lastFourSSN": "1234"}},
			{"DynamicType", a.docs["drug_policy"], nil, map[string]any{"signature": sig}, map[string]any{}},
			{"AuthorizationLast", a.docs[portal.DocAuthorization], nil, with(names, map[string]any{"authConsent": true, "freeReportCopy": true, "signature": sig}),
				map[string]any{"authConsent": true, "freeReportCopy": true}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ids := tc.ids
				if ids == nil {
					ids = []int64{tc.id}
				}
				w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", tc.id), a.tokens["jane"], a.body("jane", ids, tc.fields))
				if w.Code != http.StatusCreated {
					t.Fatalf("status %d, want 201: %s", w.Code, w.Body)
				}
				var list []listEntry
				if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil {
					t.Fatal(err)
				}
				for _, id := range ids {
					var e *listEntry
					for i := range list {
						if list[i].ID == id {
							e = &list[i]
						}
					}
					if e == nil || e.Signature == nil {
						t.Fatalf("document %d not signed in the answer", id)
					}
					s := e.Signature
					if s.SignatureUserIP != "192.0.2.1" || s.DocumentVersion != 1 || s.Outcome != "signed" ||
						s.ContentSHA256 != a.content("jane", id).ContentSHA256 || s.CreatedAt.IsZero() {
						t.Errorf("signature = %+v", s)
					}
					if _, ok := tc.fields["signature"]; ok != (s.SignatureData != "") {
						t.Errorf("signatureData = %.40q, sent an image: %v", s.SignatureData, ok)
					}
					for k, v := range tc.want {
						if s.Fields[k] != v {
							t.Errorf("fields[%s] = %v, want %v (fields %v)", k, s.Fields[k], v, s.Fields)
						}
					}
					if _, ok := s.Fields["ackNj"]; ok {
						t.Error("the New Jersey acknowledgement was recorded although that notice does not apply")
					}
				}
			})
		}
		t.Run("SetupCompletesOnceEverythingIsSigned", func(t *testing.T) {
			w := a.do("POST", "/api/v2/user/subject/status", a.tokens["jane"], map[string]any{"statusId": 1})
			// Only the personal information, which this test does not save,
			// is still missing.
			if w.Code != http.StatusConflict || strings.Contains(w.Body.String(), "sign ") || !strings.Contains(w.Body.String(), "personal information") {
				t.Errorf("status %d: %s", w.Code, w.Body)
			}
		})
	})
}

func TestSignBadInput(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		disclosure := a.docs[portal.DocDisclosure]
		sig := pngDataURL(legalPNG(t, 300, 100, false))
		big := legalPNG(t, 262, 262, true)
		if len(big) <= portal.MaxSignatureBytes || len(pngDataURL(big)) > httpapi.MaxSignatureBody-2000 {
			t.Fatalf("test image of %d bytes does not fit the case", len(big))
		}
		// John signed the disclosure already; Jane's disclosure is used for
		// the cases that must fail before anything is stored.
		if w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", disclosure), a.tokens["john"],
			a.body("john", []int64{disclosure}, map[string]any{"ackReceipt": true, "signature": sig})); w.Code != 201 {
			t.Fatalf("john signs: %d %s", w.Code, w.Body)
		}
		ok := map[string]any{"ackReceipt": true, "signature": sig}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for kk, vv := range ok {
				m[kk] = vv
			}
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
			return m
		}
		signURL := func(id int64) string { return fmt.Sprintf("/api/v2/user/document/%d/signature", id) }
		for _, tc := range []struct {
			name       string
			who        string
			id         int64
			body       any
			wantStatus int
			wantText   string
			wantField  string
		}{
			{"ErrDoesNotApply", "jane", a.docs[portal.DocRightsNJ], a.body("jane", []int64{a.docs[portal.DocRightsNJ]}, map[string]any{"ackReceiptYourRights": true, "ackNj": true}), 409, "does not apply", ""},
			{"ErrSignedTwice", "john", disclosure, a.body("john", []int64{disclosure}, ok), 409, "already signed", ""},
			{"ErrEmptySignature", "jane", disclosure, a.body("jane", []int64{disclosure}, with("signature", "")), 422, "validation error", "signature"},
			{"ErrSignatureMissing", "jane", disclosure, a.body("jane", []int64{disclosure}, with("signature", nil)), 422, "validation error", "signature"},
			{"ErrNotAPNG", "jane", disclosure, a.body("jane", []int64{disclosure}, with("signature", "data:image/png;base64,"+base64.StdEncoding.EncodeToString([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")))), 422, "validation error", "signature"},
			{"ErrSignatureOver200KB", "jane", disclosure, a.body("jane", []int64{disclosure}, with("signature", pngDataURL(big))), 422, "validation error", "signature"},
			{"ErrBodyOver400KB", "jane", disclosure, a.body("jane", []int64{disclosure}, with("signature", "data:image/png;base64,"+strings.Repeat("A", 410000))), 413, "too large", ""},
			{"ErrAckMissing", "jane", disclosure, a.body("jane", []int64{disclosure}, with("ackReceipt", nil)), 422, "validation error", "ackReceipt"},
			{"ErrNamesDoNotMatch", "jane", a.docs[portal.DocESign], a.body("jane", []int64{a.docs[portal.DocESign]}, map[string]any{"firstName": "Janet", "lastName": "Doe", "ackConsent": true, "ackNotices": true}), 422, "validation error", "firstName"},
			{"ErrAuthorizationBeforeTheRest", "jane", a.docs[portal.DocAuthorization], a.body("jane", []int64{a.docs[portal.DocAuthorization]}, map[string]any{"firstName": "Jane", "lastName": "Doe", "authConsent": true, "signature": sig}), 409, "the authorization comes after every other document", ""},
			{"ErrAfterSubmission", "submitted", disclosure, a.body("submitted", []int64{disclosure}, ok), 409, "has been submitted", ""},
			{"ErrAnotherCompanysDocument", "jane", a.otherID, map[string]any{"ackReceipt": true, "signature": sig, "contentSha256": map[string]string{strconv.FormatInt(a.otherID, 10): "x"}}, 404, "", ""},
			{"ErrUnknownDocument", "jane", 999999, ok, 404, "", ""},
			{"ErrHashMismatch", "jane", disclosure, with("contentSha256", map[string]string{strconv.FormatInt(disclosure, 10): strings.Repeat("0", 64)}), 409, "changed since you opened it", ""},
			{"ErrHashMissing", "jane", disclosure, ok, 422, "validation error", "contentSha256." + strconv.FormatInt(disclosure, 10)},
			{"ErrNotJSON", "jane", disclosure, "{", 400, "", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := a.do("POST", signURL(tc.id), a.tokens[tc.who], tc.body)
				if w.Code != tc.wantStatus {
					t.Fatalf("status %d, want %d: %s", w.Code, tc.wantStatus, w.Body)
				}
				var e struct {
					ErrorMessage string              `json:"errorMessage"`
					ErrorFields  []portal.FieldError `json:"errorFields"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
					t.Fatalf("error answer is not JSON: %s", w.Body)
				}
				if !strings.Contains(e.ErrorMessage, tc.wantText) {
					t.Errorf("errorMessage %q lacks %q", e.ErrorMessage, tc.wantText)
				}
				if tc.wantField != "" {
					found := false
					for _, f := range e.ErrorFields {
						found = found || f.Field == tc.wantField
					}
					if !found {
						t.Errorf("errorFields %v lack %s", e.ErrorFields, tc.wantField)
					}
				}
			})
		}
		t.Run("NothingStoredByTheFailures", func(t *testing.T) {
			if list := a.list("jane", "?filter="+url.QueryEscape(`{"signed":true}`)); len(list) != 0 {
				t.Errorf("jane has %d signatures after failed calls", len(list))
			}
		})
	})
}

func TestSignedDocumentPDF(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		id := a.docs[portal.DocAuthorization]
		a.signAllButAuthorization("jane")
		body := a.body("jane", []int64{id}, map[string]any{"firstName": "Jane", "lastName": "Doe", "authConsent": true,
			"signature": pngDataURL(legalPNG(t, 300, 100, false))})
		if w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", id), a.tokens["jane"], body); w.Code != 201 {
			t.Fatalf("sign: %d %s", w.Code, w.Body)
		}
		hash := a.content("jane", id).ContentSHA256
		t.Run("PDFNamesSignerIPAndHash", func(t *testing.T) {
			w := a.do("GET", fmt.Sprintf("/api/v2/user/document/%d", id), a.tokens["jane"], nil)
			if w.Code != 200 || w.Header().Get("Content-Type") != "application/pdf" ||
				!strings.HasPrefix(w.Header().Get("Content-Disposition"), "attachment;") {
				t.Fatalf("status %d, headers %v", w.Code, w.Header())
			}
			text := signedPDFText(t, w.Body.Bytes())
			for _, want := range []string{"Jane Doe", hash, "192.0.2.1", "Authorization for Background Check", "Acme & Sons", "UTC"} {
				if !strings.Contains(text, want) {
					t.Errorf("PDF text lacks %q", want)
				}
			}
		})
		t.Run("ErrAnotherSubjectsSignature", func(t *testing.T) {
			if w := a.do("GET", fmt.Sprintf("/api/v2/user/document/%d", id), a.tokens["john"], nil); w.Code != 404 {
				t.Errorf("status %d, want 404", w.Code)
			}
		})
		t.Run("SignedTextKeptWhenTheDocumentChanges", func(t *testing.T) {
			before := a.content("jane", id)
			d := &portal.LegalDocument{CompanyID: a.company.ID, Title: before.Title, Content: "<h1>Authorization, version 2</h1>",
				Type: portal.LegalDocumentType{DocumentType: portal.DocAuthorization, Visibility: portal.VisibilityAll, Editable: true}}
			a.save(d)
			if now := a.content("jane", id); now.Version != 2 || now.ContentSHA256 == hash {
				t.Fatalf("current text = %+v", now)
			}
			w := a.do("GET", fmt.Sprintf("/api/v2/document/%d?signed=true", id), a.tokens["jane"], nil)
			var signed docContent
			if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &signed) != nil {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if signed.Version != 1 || signed.ContentSHA256 != hash || signed.Content != before.Content {
				t.Errorf("signed text = v%d %s, want v1 %s", signed.Version, signed.ContentSHA256, hash)
			}
			if w := a.do("GET", fmt.Sprintf("/api/v2/document/%d?signed=true", id), a.tokens["john"], nil); w.Code != 404 {
				t.Errorf("unsigned: status %d, want 404", w.Code)
			}
		})
		t.Run("ErrNotSigned", func(t *testing.T) {
			if w := a.do("GET", fmt.Sprintf("/api/v2/user/document/%d", a.docs[portal.DocDisclosure]), a.tokens["john"], nil); w.Code != 404 {
				t.Errorf("status %d, want 404", w.Code)
			}
		})
	})
}

func signedPDFText(t *testing.T, b []byte) string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("parse PDF: %v", err)
	}
	rd, err := r.GetPlainText()
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

func TestDeleteSignature(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		id := a.docs[portal.DocDisclosure]
		body := a.body("jane", []int64{id}, map[string]any{"ackReceipt": true, "signature": pngDataURL(legalPNG(t, 300, 100, false))})
		if w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", id), a.tokens["jane"], body); w.Code != 201 {
			t.Fatalf("sign: %d %s", w.Code, w.Body)
		}
		path := fmt.Sprintf("/api/v2/user/document/%d", id)
		for _, tc := range []struct {
			name       string
			who        string
			wantStatus int
		}{
			{"ErrAnotherSubjectsSignature", "john", 404},
			{"Deleted", "jane", 204},
			{"ErrAlreadyDeleted", "jane", 404},
			{"ErrNeverSigned", "done", 404},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if w := a.do("DELETE", path, a.tokens[tc.who], nil); w.Code != tc.wantStatus {
					t.Fatalf("status %d, want %d: %s", w.Code, tc.wantStatus, w.Body)
				}
			})
		}
		t.Run("ListShowsNoSignature", func(t *testing.T) {
			if listedAsSigned(a.list("jane", ""), id) {
				t.Error("the deleted signature is still listed")
			}
		})
		t.Run("ErrAfterSetupComplete", func(t *testing.T) {
			// Sign as jane, complete setup behind the API's back, then try.
			if w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", id), a.tokens["jane"], body); w.Code != 201 {
				t.Fatalf("sign again: %d %s", w.Code, w.Body)
			}
			if err := a.db.SetSubjectStatus(context.Background(), a.ids["jane"], portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
			if w := a.do("DELETE", path, a.tokens["jane"], nil); w.Code != 409 {
				t.Fatalf("status %d, want 409: %s", w.Code, w.Body)
			}
		})
	})
}

func TestPaperForms(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		id := a.docs[portal.DocESign]
		w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", id), a.tokens["pat"],
			a.body("pat", []int64{id}, map[string]any{"declineESign": true}))
		if w.Code != 201 {
			t.Fatalf("decline: %d %s", w.Code, w.Body)
		}
		t.Run("OutcomeRecorded", func(t *testing.T) {
			for _, e := range a.list("pat", "") {
				if e.ID == id && (e.Signature == nil || e.Signature.Outcome != "paper_forms" || e.Signature.Fields["declineESign"] != true) {
					t.Errorf("e_sign entry = %+v", e.Signature)
				}
			}
		})
		t.Run("OrderHeld", func(t *testing.T) {
			list, err := a.db.FindApplicants(context.Background(), a.company.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, ap := range list {
				if want := map[bool]string{true: portal.HoldPaperForms, false: ""}[ap.ID == a.ids["pat"]]; ap.HoldReason != want {
					t.Errorf("%s hold = %q, want %q", ap.Username, ap.HoldReason, want)
				}
			}
		})
		t.Run("ErrESigningOtherDocuments", func(t *testing.T) {
			d := a.docs[portal.DocDisclosure]
			w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", d), a.tokens["pat"],
				a.body("pat", []int64{d}, map[string]any{"ackReceipt": true, "signature": pngDataURL(legalPNG(t, 300, 100, false))}))
			if w.Code != 409 {
				t.Errorf("status %d, want 409: %s", w.Code, w.Body)
			}
		})
	})
}

func TestSubjectDataLocation(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		for _, tc := range []struct {
			name       string
			who        string
			body       string
			wantStatus int
			wantText   string
		}{
			{"ResidencySavedEmploymentKept", "jane", `{"location":{"residency":{"nonUs":false,"state":"US-TX","county":0},"employment":{"state":"US-NV"}}}`, 200,
				`"residency":{"nonUs":false,"state":"US-TX","county":0,"signed":false},"employment":{"nonUs":false,"state":"US-CA","county":6075,"signed":false}`},
			{"ErrUnknownState", "jane", `{"location":{"residency":{"state":"US-XX"}}}`, 422, `"field":"location.residency.state"`},
			{"ErrSetupComplete", "done", `{"location":{"residency":{"state":"US-TX"}}}`, 409, "setup is complete"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := a.do("POST", "/api/v2/user/data", a.tokens[tc.who], tc.body)
				if w.Code != tc.wantStatus || !strings.Contains(w.Body.String(), tc.wantText) {
					t.Fatalf("status %d, want %d with %s: %s", w.Code, tc.wantStatus, tc.wantText, w.Body)
				}
			})
		}
		t.Run("GetAnswersPayloadData", func(t *testing.T) {
			w := a.do("GET", "/api/v2/user/data", a.tokens["jane"], nil)
			if w.Code != 200 || !strings.Contains(w.Body.String(), `{"payload":{"data":{"location":{"residency":{"nonUs":false,"state":"US-TX"`) ||
				!strings.Contains(w.Body.String(), `"noDataAvailable":{"credential":false,"education":false,"employment":false}`) {
				t.Errorf("status %d: %s", w.Code, w.Body)
			}
		})
	})
}
