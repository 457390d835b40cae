package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestAddressValidation: the two address checks answer 200 with the check's
// result, valid or not, to an applicant or a setup credential, and 401
// without a credential.
func TestAddressValidation(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		jane := a.tokens("jane@example.com", janePass)["access_token"].(string)
		rec := a.send(request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(a.invite)})
		setup, _ := decode(t, rec)["access_token"].(string)
		if setup == "" {
			t.Fatalf("token login = %d %s", rec.Code, rec.Body)
		}
		us := func(street, city, state, zip string) string {
			return "/api/v2/validation/address?" + url.Values{
				"street": {street}, "city": {city}, "state": {state}, "zip": {zip}}.Encode()
		}
		intl := func(country, street, locality, area, postal string) string {
			return "/api/v2/validation/internationaladdress?" + url.Values{"country": {country}, "street": {street},
				"locality": {locality}, "administrative_area": {area}, "postal_code": {postal}}.Encode()
		}
		for _, tc := range []struct {
			name, url, token string
			status           int
			body             string // the exact answer, for a 200
		}{
			{"US valid", us("9336 Civic Center Dr", "Beverly Hills", "US-CA", "90210"), jane, 200,
				`{"payload":{"valid":true,"errorFields":[],"releaseFormRequired":false,"military":false}}`},
			{"US valid to the setup credential", us("9336 Civic Center Dr", "Beverly Hills", "US-CA", "90210"), setup, 200,
				`{"payload":{"valid":true,"errorFields":[],"releaseFormRequired":false,"military":false}}`},
			{"US ZIP of another state", us("1 Main St", "Portland", "US-OR", "90210"), jane, 200,
				`{"payload":{"valid":false,"errorFields":[{"field":"zip","message":"ZIP code 90210 is not in Oregon.","code":"address.zip_not_in_state"}],"releaseFormRequired":false,"military":false}}`},
			{"US without parameters", "/api/v2/validation/address", jane, 200,
				`{"payload":{"valid":false,"errorFields":[{"field":"street","message":"Street is required.","code":"field.required"},{"field":"city","message":"City is required.","code":"field.required"},{"field":"state","message":"State is required.","code":"field.required"},{"field":"zip","message":"ZIP code is required.","code":"field.required"}],"releaseFormRequired":false,"military":false}}`},
			{"Idaho", us("1 Capitol Blvd", "Boise", "US-ID", "83702-1234"), jane, 200,
				`{"payload":{"valid":true,"errorFields":[],"releaseFormRequired":true,"military":false}}`},
			{"military", us("Unit 2050 Box 4190", "Berlin", "US-AE", "09045"), jane, 200,
				`{"payload":{"valid":false,"errorFields":[{"field":"city","message":"City must be APO, FPO or DPO for a military address.","code":"address.military_city"}],"releaseFormRequired":false,"military":true}}`},
			{"international valid", intl("GB", "10 Downing St", "London", "", "SW1A 2AA"), jane, 200,
				`{"payload":{"valid":true,"errorFields":[],"releaseFormRequired":false,"military":false}}`},
			{"international to the setup credential", intl("DE", "Platz der Republik 1", "Berlin", "", "1101"), setup, 200,
				`{"payload":{"valid":false,"errorFields":[{"field":"postal_code","message":"Postal code is not valid for Germany.","code":"address.postal_code_invalid"}],"releaseFormRequired":false,"military":false}}`},
			{"international missing parts", intl("CA", "24 Sussex Dr", "", "", "K1M 1M4"), jane, 200,
				`{"payload":{"valid":false,"errorFields":[{"field":"locality","message":"City is required.","code":"field.required"},{"field":"administrative_area","message":"Province is required.","code":"field.required"}],"releaseFormRequired":false,"military":false}}`},
			{"international without a country", intl("", "1 Main St", "", "", ""), jane, 200,
				`{"payload":{"valid":false,"errorFields":[{"field":"country","message":"Country is required.","code":"address.country_required"}],"releaseFormRequired":false,"military":false}}`},
			{"US anonymous", us("9336 Civic Center Dr", "Beverly Hills", "US-CA", "90210"), "", 401, ""},
			{"international anonymous", intl("GB", "10 Downing St", "London", "", "SW1A 2AA"), "", 401, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := a.send(request{Method: "GET", URL: tc.url, Token: tc.token})
				if rec.Code != tc.status {
					t.Fatalf("= %d %s; want %d", rec.Code, rec.Body, tc.status)
				}
				if tc.body != "" && strings.TrimSpace(rec.Body.String()) != tc.body {
					t.Errorf("body = %s\nwant   %s", rec.Body, tc.body)
				}
			})
		}
		t.Run("US missing parts in Spanish", func(t *testing.T) {
			rec := a.send(request{Method: "GET", URL: us("", "", "", ""), Token: jane, Header: map[string]string{"Accept-Language": "es-US"}})
			want := `{"payload":{"valid":false,"errorFields":[{"field":"street","message":"Calle es un dato obligatorio.","code":"field.required"},` +
				`{"field":"city","message":"Ciudad es un dato obligatorio.","code":"field.required"},{"field":"state","message":"Estado es un dato obligatorio.","code":"field.required"},` +
				`{"field":"zip","message":"Código postal es un dato obligatorio.","code":"field.required"}],"releaseFormRequired":false,"military":false}}`
			if got := strings.TrimSpace(rec.Body.String()); rec.Code != 200 || got != want {
				t.Errorf("= %d %s\nwant %s", rec.Code, got, want)
			}
		})
		for _, path := range []string{"/api/v2/validation/address", "/api/v2/validation/internationaladdress"} {
			if rec := a.send(request{Method: "POST", URL: path, Token: jane, Body: map[string]any{}}); rec.Code != http.StatusMethodNotAllowed {
				t.Errorf("POST %s = %d; want 405", path, rec.Code)
			}
		}
	})
}
