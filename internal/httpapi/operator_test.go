package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// operatorAPI is two companies, Acme with a live and a revoked API key and
// its applicant jane (logged in), Other with its applicant olga and a
// banner of its own.
type operatorAPI struct {
	*harness
	ops          portal.OperatorServices
	acme, other  *portal.Company
	key, revoked string
	jane, olga   *portal.Subject
	janeToken    string
	otherBanner  int64
}

func newOperatorAPI(t *testing.T, db *store.DB) *operatorAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	a := &operatorAPI{harness: newHarness(t, db, "192.0.2.1:1234"), ops: db.Operator(),
		acme: &portal.Company{Name: "Acme"}, other: &portal.Company{Name: "Other"}}
	for _, c := range []*portal.Company{a.acme, a.other} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	if _, a.key, err = a.ops.APIKeys.CreateAPIKey(ctx, a.acme.ID, "HR system"); err != nil {
		t.Fatal(err)
	}
	old, revoked, err := a.ops.APIKeys.CreateAPIKey(ctx, a.acme.ID, "Old HR system")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.ops.APIKeys.RevokeAPIKey(ctx, old.ID); err != nil {
		t.Fatal(err)
	}
	a.revoked = revoked
	if a.jane, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: a.acme.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"}); err != nil {
		t.Fatal(err)
	}
	if a.olga, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: a.other.ID, Email: "olga@example.com", FirstName: "Olga", LastName: "Berg"}); err != nil {
		t.Fatal(err)
	}
	a.janeToken = logIn(t, db, a.jane)
	b, err := a.ops.Banners.PostBanner(ctx, portal.BannerRequest{Message: "Other's notice", CompanyID: a.other.ID})
	if err != nil {
		t.Fatal(err)
	}
	a.otherBanner = b.ID
	a.serve(httpapi.Config{BaseURL: "https://portal.example.com/"}, nil, nil)
	return a
}

// call sends a request with the given key and decodes the JSON answer.
func (a *operatorAPI) call(method, url, key string, body any) (int, map[string]any) {
	a.t.Helper()
	rec := a.send(request{Method: method, URL: url, Token: key, Body: body})
	var out map[string]any
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			a.t.Fatalf("%s %s: %d %q is not JSON", method, url, rec.Code, rec.Body)
		}
	}
	return rec.Code, out
}

func TestOperatorAPIKeys(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		for _, tc := range []struct {
			name, key, want string
		}{
			{"NoKey", "", "Give an operator API key: Authorization: Bearer pk_..."},
			{"UnknownKey", "pk_" + strings.Repeat("x", 43), "Unknown API key."},
			{"ApplicantsAccessToken", a.janeToken, "Unknown API key."},
			{"RevokedKey", a.revoked, "This API key was revoked."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := a.send(request{Method: "GET", URL: "/api/v2/operator/applicants", Token: tc.key})
				var body map[string]any
				json.Unmarshal(rec.Body.Bytes(), &body)
				if rec.Code != http.StatusUnauthorized || body["errorMessage"] != tc.want ||
					!strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("%d %v %q; want 401 %q with WWW-Authenticate: Bearer", rec.Code, body, rec.Header().Get("WWW-Authenticate"), tc.want)
				}
			})
		}
		t.Run("KeysAreStoredHashed", func(t *testing.T) {
			for _, secret := range []string{a.key, a.revoked} {
				var n int
				if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM api_keys WHERE key_hash = $1 OR prefix = $1 OR name = $1
					OR key_hash LIKE '%' || $2 || '%'`, secret, secret[3:]).Scan(&n); err != nil || n != 0 {
					t.Errorf("the secret is in api_keys (%d rows, %v)", n, err)
				}
			}
		})
	})
}

func TestOperatorAPIApplicants(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		t.Run("ListIsTheKeysCompanyOnly", func(t *testing.T) {
			code, body := a.call("GET", "/api/v2/operator/applicants", a.key, nil)
			list, _ := body["payload"].([]any)
			if code != http.StatusOK || len(list) != 1 {
				t.Fatalf("%d %v; want jane only", code, body)
			}
			j := list[0].(map[string]any)
			if j["email"] != "jane@example.com" || j["statusId"] != 0.0 || j["statusText"] != "New" || j["hasPassword"] != true {
				t.Errorf("jane = %v", j)
			}
			if _, err := time.Parse(time.RFC3339, j["createdAt"].(string)); err != nil || !strings.HasSuffix(j["createdAt"].(string), "Z") {
				t.Errorf("createdAt %q is not RFC 3339 UTC", j["createdAt"])
			}
		})
		t.Run("DetailSaysWhatIsMissing", func(t *testing.T) {
			code, body := a.call("GET", fmt.Sprintf("/api/v2/operator/applicants/%d", a.jane.ID), a.key, nil)
			missing, _ := body["missing"].([]any)
			if code != http.StatusOK || body["id"] != float64(a.jane.ID) || body["companyName"] != "Acme" || body["unreadChat"] != 0.0 ||
				len(missing) == 0 || missing[len(missing)-1] != "verify their identity" {
				t.Errorf("%d %v", code, body)
			}
		})
		for name, path := range map[string]string{
			"OtherCompanysApplicant": fmt.Sprint(a.olga.ID),
			"UnknownApplicant":       "99999",
			"NotAnID":                "jane",
		} {
			t.Run(name+"IsNotFound", func(t *testing.T) {
				if code, body := a.call("GET", "/api/v2/operator/applicants/"+path, a.key, nil); code != http.StatusNotFound || body["errorMessage"] != "Applicant not found." {
					t.Errorf("%d %v; want 404", code, body)
				}
			})
		}
	})
}

func TestOperatorAPIInvitations(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		t.Run("InvitationGivesTheLink", func(t *testing.T) {
			code, body := a.call("POST", "/api/v2/operator/invitations", a.key, map[string]any{
				"email": "riley@example.com", "firstName": "Riley", "lastName": "Stone", "workState": "US-CA", "fullProfile": true})
			app, _ := body["applicant"].(map[string]any)
			link, _ := body["invitationUrl"].(string)
			if code != http.StatusCreated || app["email"] != "riley@example.com" || app["fullProfile"] != true ||
				!strings.HasPrefix(link, "https://portal.example.com/setup?token=") {
				t.Fatalf("%d %v", code, body)
			}
			sub, err := db.Subjects().FindSubjectByID(context.Background(), int64(app["id"].(float64)))
			if err != nil || sub.CompanyID != a.acme.ID {
				t.Errorf("invited into company %+v, %v; want the key's", sub, err)
			}
			token := strings.TrimPrefix(link, "https://portal.example.com/setup?token=")
			if rec := a.send(request{Method: "GET", URL: "/api/user?token=" + token}); rec.Code != http.StatusOK {
				t.Errorf("token login with the link: %d %s", rec.Code, rec.Body)
			}
		})
		for _, tc := range []struct {
			name   string
			body   map[string]any
			code   int
			fields []string
		}{
			{"NoEmailOrName", map[string]any{"email": "", "firstName": "Riley"}, http.StatusUnprocessableEntity, []string{"email", "lastName"}},
			{"UnknownWorkState", map[string]any{"email": "sam@example.com", "firstName": "Sam", "lastName": "Lee", "workState": "US-ZZ"},
				http.StatusUnprocessableEntity, []string{"workState"}},
			{"OtherCompanysApplicant", map[string]any{"email": "olga@example.com", "firstName": "Olga", "lastName": "Berg"}, http.StatusConflict, nil},
			{"ApplicantWithAPassword", map[string]any{"email": "jane@example.com", "firstName": "Jane", "lastName": "Doe"}, http.StatusConflict, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, body := a.call("POST", "/api/v2/operator/invitations", a.key, tc.body)
				got := fieldsOf(body)
				if code != tc.code {
					t.Fatalf("%d %v; want %d", code, body, tc.code)
				}
				for _, f := range tc.fields {
					if _, ok := got[f]; !ok {
						t.Errorf("fields %q; want %s among them", got, f)
					}
				}
			})
		}
	})
}

func TestOperatorAPIBanners(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		ends := time.Now().Add(2 * time.Hour).UTC().Truncate(time.Second).Format(time.RFC3339)
		code, posted := a.call("POST", "/api/v2/operator/banners", a.key, map[string]any{"message": " Offices closed Friday ", "endsAt": ends})
		if code != http.StatusCreated || posted["message"] != "Offices closed Friday" || posted["endsAt"] != ends {
			t.Fatalf("post: %d %v", code, posted)
		}
		id := int64(posted["id"].(float64))
		t.Run("ItsApplicantsSeeIt", func(t *testing.T) {
			rec := a.send(request{Method: "GET", URL: "/api/v2/banner/active", Token: a.janeToken})
			if !strings.Contains(rec.Body.String(), "Offices closed Friday") {
				t.Errorf("jane's banner: %s", rec.Body)
			}
			code, body := a.call("GET", "/api/v2/operator/banners", a.key, nil)
			list, _ := body["payload"].([]any)
			if code != http.StatusOK || len(list) != 1 || list[0].(map[string]any)["id"] != float64(id) {
				t.Errorf("list: %d %v; want the posted banner only", code, body)
			}
		})
		for _, tc := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"EmptyMessage", map[string]any{"message": "   "}, "message"},
			{"LongMessage", map[string]any{"message": strings.Repeat("x", portal.MaxBannerLength+1)}, "message"},
			{"EndInThePast", map[string]any{"message": "Late", "endsAt": "2020-01-01T00:00:00Z"}, "endsAt"},
			{"EndNotATime", map[string]any{"message": "Late", "endsAt": "tomorrow"}, "endsAt"},
			{"EndAfterYear9999InUTC", map[string]any{"message": "Late", "endsAt": "9999-12-31T23:59:59-14:00"}, "endsAt"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, body := a.call("POST", "/api/v2/operator/banners", a.key, tc.body)
				if _, ok := fieldsOf(body)[tc.field]; code != http.StatusUnprocessableEntity || len(fieldsOf(body)) != 1 || !ok {
					t.Errorf("%d %v; want 422 on %s", code, body, tc.field)
				}
			})
		}
		for name, path := range map[string]string{"Unknown": "99999", "OtherCompanys": fmt.Sprint(a.otherBanner), "NotAnID": "x"} {
			t.Run("Delete"+name+"IsNotFound", func(t *testing.T) {
				if code, body := a.call("DELETE", "/api/v2/operator/banners/"+path, a.key, nil); code != http.StatusNotFound {
					t.Errorf("%d %v; want 404", code, body)
				}
			})
		}
		t.Run("DeleteEndsIt", func(t *testing.T) {
			if code, body := a.call("DELETE", fmt.Sprintf("/api/v2/operator/banners/%d", id), a.key, nil); code != http.StatusNoContent {
				t.Fatalf("%d %v", code, body)
			}
			if _, body := a.call("GET", "/api/v2/operator/banners", a.key, nil); len(body["payload"].([]any)) != 0 {
				t.Errorf("after delete: %v", body)
			}
			if rec := a.send(request{Method: "GET", URL: "/api/v2/banner/active", Token: a.janeToken}); strings.Contains(rec.Body.String(), "Offices") {
				t.Errorf("jane still sees it: %s", rec.Body)
			}
			if others, _ := a.ops.Banners.FindBanners(context.Background(), a.other.ID); len(others) != 1 {
				t.Errorf("other's banner was touched: %+v", others)
			}
		})
	})
}

// TestReinvitingRevokesTheEarlierLink: inviting an address again (through
// the operator API, as portal invite does through the same service) leaves
// only the newest link working; the earlier one answers 403.
func TestReinvitingRevokesTheEarlierLink(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newOperatorAPI(t, db)
		invite := func() string {
			t.Helper()
			code, body := a.call("POST", "/api/v2/operator/invitations", a.key, map[string]any{
				"email": "again@example.com", "firstName": "Avery", "lastName": "Stone"})
			link, _ := body["invitationUrl"].(string)
			if code != http.StatusCreated || link == "" {
				t.Fatalf("invite = %d %v", code, body)
			}
			return strings.TrimPrefix(link, "https://portal.example.com/setup?token=")
		}
		first, second := invite(), invite()
		if rec := a.send(request{Method: "GET", URL: "/api/user?token=" + first}); rec.Code != http.StatusForbidden {
			t.Errorf("the first link after a second invitation = %d %s; want 403", rec.Code, rec.Body)
		}
		if rec := a.send(request{Method: "GET", URL: "/api/user?token=" + second}); rec.Code != http.StatusOK {
			t.Errorf("the second link = %d %s; want 200", rec.Code, rec.Body)
		}
	})
}
