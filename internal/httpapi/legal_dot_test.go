package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// eachDOTAPI is eachLegalAPI keeping the data key, so a test can write the
// sealed employment record the data pages save.
func eachDOTAPI(t *testing.T, run func(t *testing.T, a *legalAPI, sealer *seal.Sealer)) {
	t.Helper()
	cfg := storetest.Config(t)
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) { run(t, newLegalAPI(t, db), cfg.Sealer) })
}

// saveEmploymentRecord stores subject_records 'service:employment' as the
// data pages do (sealed, bound to its row; see the contract's Storage).
func saveEmploymentRecord(t *testing.T, db *store.DB, sealer *seal.Sealer, subjectID int64, rec any) {
	t.Helper()
	plain, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := sealer.SealFor(plain, fmt.Sprintf("subject_records.sealed/%d/%s", subjectID, portal.EmploymentRecordKind))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(context.Background(), `INSERT INTO subject_records (subject_id, kind, sealed, saved_at)
		VALUES ($1, $2, $3, 0) ON CONFLICT (subject_id, kind) DO UPDATE SET sealed = excluded.sealed`,
		subjectID, portal.EmploymentRecordKind, sealed); err != nil {
		t.Fatal(err)
	}
}

type releaseContent struct {
	docContent
	Instance     string `json:"instance"`
	EmployerName string `json:"employerName"`
}

func TestDOTReleaseAfterSetup(t *testing.T) {
	eachDOTAPI(t, func(t *testing.T, a *legalAPI, sealer *seal.Sealer) {
		release := a.docs[portal.DocDOTRelease]
		saveEmploymentRecord(t, a.db, sealer, a.ids["done"], map[string]any{"noDataAvailable": false, "entries": []map[string]any{
			{"id": "a1a1a1a1a1a1a1a1", "employer_name": "Road & Rail Freight", "employer_dot": true},
			{"id": "b2b2b2b2b2b2b2b2", "employer_name": "Corner Bakery", "employer_dot": false},
			{"id": "c3c3c3c3c3c3c3c3", "employer_name": "Blue Line Transit", "employer_dot": true},
		}})
		token := a.tokens["done"]
		contentOf := func(t *testing.T, query string) (int, releaseContent) {
			t.Helper()
			w := a.do("GET", fmt.Sprintf("/api/v2/document/%d?%s", release, query), token, nil)
			var c releaseContent
			if w.Code == 200 {
				if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
					t.Fatal(err)
				}
			}
			return w.Code, c
		}
		sign := func(instance string, fields map[string]any) (int, string) {
			_, c := contentOf(t, "instance="+instance)
			body := map[string]any{"contentSha256": map[string]string{strconv.FormatInt(release, 10): c.ContentSHA256},
				"instance": instance, "firstName": "Done", "lastName": "Doe", "lastFourSSN": "1234",
				"signature": pngDataURL(legalPNG(t, 300, 100, false))}
			for k, v := range fields {
				body[k] = v
			}
			w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", release), token, body)
			return w.Code, w.Body.String()
		}

		t.Run("ContentNamesTheEmployer", func(t *testing.T) {
			code, c := contentOf(t, "instance=a1a1a1a1a1a1a1a1")
			if code != 200 || !strings.Contains(c.Content, "Road &amp; Rail Freight") || c.EmployerName != "Road & Rail Freight" ||
				c.Instance != "a1a1a1a1a1a1a1a1" || c.ContentSHA256 != legalSHA256(c.Content) {
				t.Errorf("%d %+v", code, c)
			}
			if _, other := contentOf(t, "instance=c3c3c3c3c3c3c3c3"); other.ContentSHA256 == c.ContentSHA256 {
				t.Error("two employers' releases have the same content")
			}
		})
		for _, tc := range []struct{ name, path string }{
			{"ErrContentOfAnUnknownInstance", fmt.Sprintf("/api/v2/document/%d?instance=ffffffffffffffff", release)},
			{"ErrContentOfANonDOTEntry", fmt.Sprintf("/api/v2/document/%d?instance=b2b2b2b2b2b2b2b2", release)},
			{"ErrContentOfAnotherDocument", fmt.Sprintf("/api/v2/document/%d?instance=a1a1a1a1a1a1a1a1", a.docs[portal.DocDisclosure])},
			{"ErrUnsignedInstanceAsSigned", fmt.Sprintf("/api/v2/document/%d?instance=a1a1a1a1a1a1a1a1&signed=true", release)},
			{"ErrPDFOfAnUnsignedInstance", fmt.Sprintf("/api/v2/user/document/%d?instance=a1a1a1a1a1a1a1a1", release)},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if w := a.do("GET", tc.path, token, nil); w.Code != http.StatusNotFound {
					t.Errorf("status %d, want 404: %s", w.Code, w.Body)
				}
			})
		}
		for _, tc := range []struct {
			name      string
			instance  string
			fields    map[string]any
			code      int
			wantField string
		}{
			{"ErrAnswerMissing", "a1a1a1a1a1a1a1a1", nil, 422, "testedPositiveOrRefused"},
			{"ErrAnswerNotYesOrNo", "a1a1a1a1a1a1a1a1", map[string]any{"testedPositiveOrRefused": "sometimes"}, 422, "testedPositiveOrRefused"},
			{"ErrUnknownInstance", "ffffffffffffffff", map[string]any{"testedPositiveOrRefused": "no"}, 404, ""},
			{"ErrNonDOTEntry", "b2b2b2b2b2b2b2b2", map[string]any{"testedPositiveOrRefused": "no"}, 404, ""},
			{"ErrNoSignatureImage", "a1a1a1a1a1a1a1a1", map[string]any{"testedPositiveOrRefused": "no", "signature": ""}, 422, "signature"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, body := sign(tc.instance, tc.fields)
				if code != tc.code || (tc.wantField != "" && !strings.Contains(body, `"field":"`+tc.wantField+`"`)) {
					t.Errorf("status %d %s, want %d naming %q", code, body, tc.code, tc.wantField)
				}
			})
		}
		t.Run("SignedAfterSetup", func(t *testing.T) {
			if code, body := sign("a1a1a1a1a1a1a1a1", map[string]any{"testedPositiveOrRefused": "yes"}); code != 201 {
				t.Fatalf("status %d %s", code, body)
			}
			if code, _ := sign("a1a1a1a1a1a1a1a1", map[string]any{"testedPositiveOrRefused": "no"}); code != 409 {
				t.Errorf("signing again: status %d, want 409", code)
			}
		})
		t.Run("ListShowsEachInstance", func(t *testing.T) {
			w := a.do("GET", "/api/v2/user/document", token, nil)
			var list []struct {
				ID        int64 `json:"id"`
				Instances []struct {
					Instance     string `json:"instance"`
					EmployerName string `json:"employerName"`
					Signature    *struct {
						SignatureUserIP string         `json:"signatureUserIp"`
						ContentSHA256   string         `json:"contentSha256"`
						Fields          map[string]any `json:"fields"`
					} `json:"signature"`
				} `json:"instances"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil {
				t.Fatal(err)
			}
			for _, d := range list {
				if d.ID != release {
					if d.Instances != nil {
						t.Errorf("document %d lists instances", d.ID)
					}
					continue
				}
				if len(d.Instances) != 2 || d.Instances[0].Instance != "a1a1a1a1a1a1a1a1" || d.Instances[1].EmployerName != "Blue Line Transit" {
					t.Fatalf("instances = %+v", d.Instances)
				}
				s := d.Instances[0].Signature
				if s == nil || s.SignatureUserIP != "192.0.2.1" || s.Fields["testedPositiveOrRefused"] != "yes" ||
					s.Fields["employerName"] != "Road & Rail Freight" || d.Instances[1].Signature != nil {
					t.Errorf("instances = %+v", d.Instances)
				}
				return
			}
			t.Error("the release document is not listed")
		})
		t.Run("SignedTextAndPDF", func(t *testing.T) {
			code, signed := contentOf(t, "instance=a1a1a1a1a1a1a1a1&signed=true")
			if code != 200 || !strings.Contains(signed.Content, "Road &amp; Rail Freight") || signed.EmployerName != "Road & Rail Freight" {
				t.Fatalf("%d %+v", code, signed)
			}
			w := a.do("GET", fmt.Sprintf("/api/v2/user/document/%d?instance=a1a1a1a1a1a1a1a1", release), token, nil)
			if w.Code != 200 || !strings.Contains(w.Header().Get("Content-Disposition"), "a1a1a1a1a1a1a1a1") {
				t.Fatalf("status %d, headers %v", w.Code, w.Header())
			}
			text := signedPDFText(t, w.Body.Bytes())
			for _, want := range []string{"Road & Rail Freight", signed.ContentSHA256, "192.0.2.1", "test positive", "Yes"} {
				if !strings.Contains(text, want) {
					t.Errorf("PDF text lacks %q", want)
				}
			}
			// The setup signature of the same document is another one.
			if w := a.do("GET", fmt.Sprintf("/api/v2/user/document/%d", release), token, nil); w.Code != 404 {
				t.Errorf("the setup PDF: status %d, want 404", w.Code)
			}
		})
		t.Run("ErrAnotherApplicantsEntry", func(t *testing.T) {
			w := a.do("GET", fmt.Sprintf("/api/v2/document/%d?instance=a1a1a1a1a1a1a1a1", release), a.tokens["john"], nil)
			if w.Code != 404 {
				t.Errorf("status %d, want 404", w.Code)
			}
		})
	})
}
