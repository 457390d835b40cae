package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestDraftsAPI(t *testing.T) {
	eachHistoryAPI(t, func(t *testing.T, a *historyAPI) {
		jane, bob := a.tokens["jane"], a.tokens["bob"]
		steps := []struct {
			Name       string
			Method     string
			URL        string
			Body       any
			Token      string
			WantStatus int
			WantBody   string
		}{
			{"NoTokenRefused", "GET", "/api/v2/user/drafts", nil, "", http.StatusUnauthorized, ""},
			{"EmptyList", "GET", "/api/v2/user/drafts", nil, jane, http.StatusOK, `{"payload":{"drafts":[]}}`},
			{"SaveChangedFields", "PUT", "/api/v2/user/drafts/personal", map[string]any{"fields": map[string]any{"firstName": "Janet", "ssn": "123-45-6789"}}, jane, http.StatusOK, `"updatedAt":"2026-11-22T10:00:00Z","expiresAt":"2026-12-22T10:00:00Z"`},
			{"MergeAndRemove", "PUT", "/api/v2/user/drafts/personal", map[string]any{"fields": map[string]any{"ssn": nil, "lastName": "Doe-Smith"}}, jane, http.StatusOK, `"form":"personal"`},
			{"Restore", "GET", "/api/v2/user/drafts/personal", nil, jane, http.StatusOK, `"fields":{"firstName":"Janet","lastName":"Doe-Smith"}`},
			{"ListHasIt", "GET", "/api/v2/user/drafts", nil, jane, http.StatusOK, `"form":"personal","fields":{"firstName":"Janet","lastName":"Doe-Smith"}`},
			{"AnotherSubjectSeesNothing", "GET", "/api/v2/user/drafts/personal", nil, bob, http.StatusNotFound, `There is no draft of this form.`},
			{"ServicePageOfThePackage", "PUT", "/api/v2/user/drafts/service:employment", map[string]any{"fields": map[string]any{"entries.0.employer_name": "Acme"}}, jane, http.StatusOK, `"form":"service:employment"`},
			{"ServicePageNotInPackage", "PUT", "/api/v2/user/drafts/service:education", map[string]any{"fields": map[string]any{"a": "b"}}, jane, http.StatusNotFound, `No such form`},
			{"UnknownForm", "PUT", "/api/v2/user/drafts/password", map[string]any{"fields": map[string]any{"a": "b"}}, jane, http.StatusNotFound, `No such form`},
			{"FieldsMissing", "PUT", "/api/v2/user/drafts/personal", map[string]any{}, jane, http.StatusUnprocessableEntity, `"field":"fields"`},
			{"FieldsNotAnObject", "PUT", "/api/v2/user/drafts/personal", map[string]any{"fields": []string{"a"}}, jane, http.StatusUnprocessableEntity, ``},
			{"NotJSON", "PUT", "/api/v2/user/drafts/personal", "fields=1", jane, http.StatusUnsupportedMediaType, ``},
			{"TooLarge", "PUT", "/api/v2/user/drafts/personal", map[string]any{"fields": manyFields(160, 400)}, jane, http.StatusRequestEntityTooLarge, `larger than 64 KiB`},
			{"Discard", "DELETE", "/api/v2/user/drafts/personal", nil, jane, http.StatusNoContent, ``},
			{"DiscardedIsGone", "GET", "/api/v2/user/drafts/personal", nil, jane, http.StatusNotFound, ``},
		}
		for _, st := range steps {
			t.Run(st.Name, func(t *testing.T) {
				rec := a.send(request{Method: st.Method, URL: st.URL, Body: st.Body, Token: st.Token})
				if rec.Code != st.WantStatus {
					t.Fatalf("%s %s = %d %s; want %d", st.Method, st.URL, rec.Code, rec.Body, st.WantStatus)
				}
				if st.WantBody != "" && !strings.Contains(rec.Body.String(), st.WantBody) {
					t.Errorf("body %s; want it to contain %s", rec.Body, st.WantBody)
				}
			})
		}
		t.Run("SaveDeletesTheDraft", func(t *testing.T) {
			rec := a.send(request{Method: "PUT", URL: "/api/v2/user/drafts/aliases", Token: jane, Body: map[string]any{"fields": map[string]any{"aliases": []any{}}}})
			if rec.Code != http.StatusOK {
				t.Fatalf("draft = %d %s", rec.Code, rec.Body)
			}
			rec = a.send(request{Method: "PUT", URL: "/api/v2/user/subject/alias", Token: jane, Body: map[string]any{"aliases": []any{}}})
			if rec.Code != http.StatusOK {
				t.Fatalf("save = %d %s", rec.Code, rec.Body)
			}
			if rec := a.send(request{Method: "GET", URL: "/api/v2/user/drafts/aliases", Token: jane}); rec.Code != http.StatusNotFound {
				t.Errorf("draft after the save = %d %s; want 404", rec.Code, rec.Body)
			}
		})
	})
}

// manyFields is n fields of size characters each: a draft over 64 KiB in
// values short enough for the API's per-value limit.
func manyFields(n, size int) map[string]any {
	out := map[string]any{}
	for i := 0; i < n; i++ {
		out[fmt.Sprintf("addresses.%d.street2", i)] = strings.Repeat("x", size)
	}
	return out
}

// TestPersonalSaveDeletesItsDraft: PUT /api/v2/user deletes the personal
// draft with the save; a refused save keeps it.
func TestPersonalSaveDeletesItsDraft(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newPersonalAPI(t, db, true)
		draft := func() int {
			code, _, _ := a.do("GET", "/api/v2/user/drafts/personal", "jane", nil)
			return code
		}
		if code, _, body := a.do("PUT", "/api/v2/user/drafts/personal", "jane", map[string]any{"fields": map[string]any{"ssn": "123-45-6789"}}); code != http.StatusOK {
			t.Fatalf("draft = %d %s", code, body)
		}
		if code, _, _ := a.do("PUT", "/api/v2/user", "jane", with(validPersonal(), map[string]any{"dob": "not a date"})); code != http.StatusUnprocessableEntity {
			t.Fatalf("invalid save = %d; want 422", code)
		}
		if draft() != http.StatusOK {
			t.Fatal("a refused save deleted the draft")
		}
		if code, _, body := a.do("PUT", "/api/v2/user", "jane", validPersonal()); code != http.StatusOK {
			t.Fatalf("save = %d %s", code, body)
		}
		if got := draft(); got != http.StatusNotFound {
			t.Errorf("draft after the save = %d; want 404", got)
		}
	})
}
