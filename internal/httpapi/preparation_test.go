package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestPreparationAPI: the Welcome step's list answers the setup credential
// of an invitation link, a mark comes back in the answer and on the next
// read, and bad requests are clear JSON errors: an item not on the list 404,
// a body without a boolean "later" 422 on that field.
func TestPreparationAPI(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		rec := a.send(request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(a.invite)})
		setup, _ := decode(t, rec)["access_token"].(string)
		if setup == "" {
			t.Fatalf("token login = %d %s", rec.Code, rec.Body)
		}
		later := func(body map[string]any, id string) any {
			for _, it := range body["items"].([]any) {
				if item := it.(map[string]any); item["id"] == id {
					return item["later"]
				}
			}
			return nil
		}
		rec = a.send(request{Method: "GET", URL: "/api/v2/user/preparation", Token: setup})
		body := decode(t, rec)
		if rec.Code != http.StatusOK || later(body, "addresses") != false {
			t.Fatalf("GET = %d %s", rec.Code, rec.Body)
		}
		minutes := body["estimate"].(map[string]any)["minutes"].(map[string]any)
		if minutes["low"].(float64) < 5 || minutes["high"].(float64) <= minutes["low"].(float64) {
			t.Errorf("estimate minutes = %v", minutes)
		}
		rec = a.send(request{Method: "PUT", URL: "/api/v2/user/preparation/addresses", Token: setup, Body: map[string]any{"later": true}})
		if rec.Code != http.StatusOK || later(decode(t, rec), "addresses") != true {
			t.Fatalf("PUT = %d %s", rec.Code, rec.Body)
		}
		rec = a.send(request{Method: "GET", URL: "/api/v2/user/preparation", Token: setup})
		if later(decode(t, rec), "addresses") != true {
			t.Errorf("the mark is not kept: %s", rec.Body)
		}
		for _, tc := range []struct {
			name       string
			url        string
			body       any
			wantStatus int
			wantBody   string
		}{
			{"UnknownItem", "/api/v2/user/preparation/spaceship", map[string]any{"later": true}, http.StatusNotFound, `"errorMessage":"This item is not on your list."`},
			{"NoLater", "/api/v2/user/preparation/addresses", map[string]any{}, http.StatusUnprocessableEntity, `"field":"later"`},
			{"LaterNotBoolean", "/api/v2/user/preparation/addresses", map[string]any{"later": "yes"}, http.StatusUnprocessableEntity, `later`},
			{"MalformedJSON", "/api/v2/user/preparation/addresses", `{"later":`, http.StatusBadRequest, `errorMessage`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := a.send(request{Method: "PUT", URL: tc.url, Token: setup, Body: tc.body, ContentType: "application/json"})
				if rec.Code != tc.wantStatus || !strings.Contains(rec.Body.String(), tc.wantBody) {
					t.Errorf("PUT = %d %s, want %d with %s", rec.Code, rec.Body, tc.wantStatus, tc.wantBody)
				}
			})
		}
	})
}
