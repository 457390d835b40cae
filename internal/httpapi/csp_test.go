package httpapi_test

import (
	"encoding/json"
	"html"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"applicantportal/internal/httpapi"
)

// cspDirectives splits a policy into its directives by name.
func cspDirectives(t *testing.T, srv *httpapi.Server) map[string]string {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/login", nil))
	out := map[string]string{}
	for _, d := range strings.Split(rec.Header().Get("Content-Security-Policy"), ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		out[name] = value
	}
	return out
}

func TestContentSecurityPolicyFromOutsideParties(t *testing.T) {
	tests := []struct {
		name string
		cfg  httpapi.Config
		want map[string]string // directive -> exact sources
	}{
		{"NoPartiesAllowOnlyThePortal", httpapi.Config{}, map[string]string{
			"script-src": "'self'", "connect-src": "'self'", "frame-src": "'self'", "img-src": "'self' data: blob: https:",
			"default-src": "'self'", "object-src": "'none'", "frame-ancestors": "'none'", "base-uri": "'none'",
		}},
		{"IdentityVerificationFrame", httpapi.Config{IDVFrameOrigin: "https://verify.example.com"}, map[string]string{
			"frame-src": "'self' https://verify.example.com", "script-src": "'self'",
		}},
		{"ChatWidgetScriptItsOriginOnly", httpapi.Config{ChatWidgetURL: "https://widget.example.net/v2/loader.js"}, map[string]string{
			"script-src":  "'self' https://widget.example.net",
			"connect-src": "'self' https://widget.example.net",
			"frame-src":   "'self' https://widget.example.net",
		}},
		{"LogoSourcesNarrowImages", httpapi.Config{LogoSources: []string{"https://cdn.example.com"}}, map[string]string{
			"img-src": "'self' data: blob: https://cdn.example.com",
		}},
		{"BrandLogoHostJoinsNarrowedImages", httpapi.Config{LogoSources: []string{"https://cdn.example.com"},
			Brand: httpapi.Brand{Name: "Acme Checks", LogoURL: "https://static.acme.example/logo.svg"}}, map[string]string{
			"img-src": "'self' data: blob: https://cdn.example.com https://static.acme.example",
		}},
		{"LocalhostMayUseHTTP", httpapi.Config{IDVFrameOrigin: "http://localhost:9000"}, map[string]string{
			"frame-src": "'self' http://localhost:9000",
		}},
		{"APIOnAnotherOriginAndWidgetBothConnect", httpapi.Config{APIBaseURL: "https://api.example.com/", ChatWidgetURL: "https://widget.example.net/w.js"}, map[string]string{
			"connect-src": "'self' https://api.example.com https://widget.example.net",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newAppServer(t, tt.cfg)
			got := cspDirectives(t, srv)
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s = %q, want %q", name, got[name], want)
				}
			}
		})
	}
}

func TestOutsidePartiesRefusedAtStart(t *testing.T) {
	tests := []struct {
		name string
		cfg  httpapi.Config
	}{
		{"IDVOverHTTP", httpapi.Config{IDVFrameOrigin: "http://verify.example.com"}},
		{"IDVWithPath", httpapi.Config{IDVFrameOrigin: "https://verify.example.com/start"}},
		{"IDVWithoutScheme", httpapi.Config{IDVFrameOrigin: "verify.example.com"}},
		{"IDVInjectingADirective", httpapi.Config{IDVFrameOrigin: "https://a.example.com; script-src *"}},
		{"WidgetOverHTTP", httpapi.Config{ChatWidgetURL: "http://widget.example.net/w.js"}},
		{"WidgetJavaScriptURL", httpapi.Config{ChatWidgetURL: "javascript:alert(1)"}},
		{"LogoSourceWildcard", httpapi.Config{LogoSources: []string{"*"}}},
		{"LogoSourceHTTP", httpapi.Config{LogoSources: []string{"http:"}}},
		{"WidgetURLWithASpace", httpapi.Config{ChatWidgetURL: "https://widget.example.net/w.js 'unsafe-inline'"}},
		{"IDVWithALineBreak", httpapi.Config{IDVFrameOrigin: "https://verify.example.com\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := httpapi.New(tt.cfg, httpapi.Services{}, appFS(), nil); err == nil {
				t.Error("New succeeded; want an error")
			}
		})
	}
}

// The operator reads the refusal in a terminal: it names the setting and
// gives an example of what that setting takes.
func TestOutsidePartyRefusalSaysWhatToGive(t *testing.T) {
	tests := []struct {
		name string
		cfg  httpapi.Config
		want []string
	}{
		{"IDVFrame", httpapi.Config{IDVFrameOrigin: "https://verify.example.com/start"},
			[]string{"identity-verification frame origin", "https://verify.example.com"}},
		{"ChatWidgetIsAScriptAddress", httpapi.Config{ChatWidgetURL: "javascript:alert(1)"},
			[]string{"chat widget URL", "address of the script", "https://widget.example.net/loader.js"}},
		{"LogoSource", httpapi.Config{LogoSources: []string{"*"}},
			[]string{"logo source", "https://cdn.example.com", "https: for any https address"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := httpapi.New(tt.cfg, httpapi.Services{}, appFS(), nil)
			if err == nil {
				t.Fatal("New succeeded; want an error")
			}
			for _, part := range tt.want {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q lacks %q", err, part)
				}
			}
		})
	}
}

func TestBrandReachesTheApp(t *testing.T) {
	appBrand := func(t *testing.T, srv *httpapi.Server) map[string]any {
		t.Helper()
		m := regexp.MustCompile(`name="portal-config" content="([^"]*)"`).FindStringSubmatch(indexConfig(t, srv))
		if m == nil {
			t.Fatal("no portal-config meta")
		}
		var cfg struct {
			Brand map[string]any `json:"brand"`
		}
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &cfg); err != nil {
			t.Fatal(err)
		}
		return cfg.Brand
	}
	t.Run("DemoBrandByDefault", func(t *testing.T) {
		srv, _ := newAppServer(t, httpapi.Config{})
		want := map[string]any{"name": "ClearPath Screening", "logoUrl": "", "supportEmail": "support@clearpath.example",
			"supportPhone": "+1 (555) 010-0199", "privacyPolicyUrl": "/privacy"}
		if got := appBrand(t, srv); !equalJSON(got, want) {
			t.Errorf("brand = %v, want %v", got, want)
		}
	})
	t.Run("ConfiguredBrand", func(t *testing.T) {
		b := httpapi.Brand{Name: `Acme "Checks"`, LogoURL: "/brand/logo.svg", SupportEmail: "help@acme.example",
			SupportPhone: "+44 20 7946 0000", PrivacyPolicyURL: "https://acme.example/privacy"}
		srv, _ := newAppServer(t, httpapi.Config{Brand: b})
		want := map[string]any{"name": `Acme "Checks"`, "logoUrl": "/brand/logo.svg", "supportEmail": "help@acme.example",
			"supportPhone": "+44 20 7946 0000", "privacyPolicyUrl": "https://acme.example/privacy"}
		if got := appBrand(t, srv); !equalJSON(got, want) {
			t.Errorf("brand = %v, want %v", got, want)
		}
	})
	refused := []struct {
		name  string
		brand httpapi.Brand
	}{
		{"EmptyName", httpapi.Brand{SupportEmail: "help@acme.example"}},
		{"MalformedEmail", httpapi.Brand{Name: "Acme", SupportEmail: "help at acme"}},
		{"LogoOverHTTP", httpapi.Brand{Name: "Acme", LogoURL: "http://acme.example/logo.svg"}},
		{"PrivacyJavaScriptURL", httpapi.Brand{Name: "Acme", PrivacyPolicyURL: "javascript:alert(1)"}},
		{"PrivacyProtocolRelative", httpapi.Brand{Name: "Acme", PrivacyPolicyURL: "//evil.example/privacy"}},
		{"PrivacyRelativeWithoutSlash", httpapi.Brand{Name: "Acme", PrivacyPolicyURL: "privacy.html"}},
		// Browsers read "/\host" and "/<tab>/host" as "//host".
		{"PrivacyBackslashProtocolRelative", httpapi.Brand{Name: "Acme", PrivacyPolicyURL: `/\evil.example/privacy`}},
		{"PrivacyTabProtocolRelative", httpapi.Brand{Name: "Acme", PrivacyPolicyURL: "/\t/evil.example/privacy"}},
		{"LogoBackslashProtocolRelative", httpapi.Brand{Name: "Acme", LogoURL: `/\evil.example/logo.svg`}},
		{"NameWithALineBreak", httpapi.Brand{Name: "Acme\nChecks"}},
		{"NameWithDEL", httpapi.Brand{Name: "Acme\x7f"}},
		{"PhoneWithAC1Control", httpapi.Brand{Name: "Acme", SupportPhone: "+1 555\u0085 0100"}},
	}
	for _, tt := range refused {
		t.Run("Refuses"+tt.name, func(t *testing.T) {
			if _, err := httpapi.New(httpapi.Config{Brand: tt.brand}, httpapi.Services{}, appFS(), nil); err == nil {
				t.Error("New succeeded; want an error")
			}
		})
	}
}

func equalJSON(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// appFS is the smallest app New accepts.
func appFS() fstest.MapFS { return fstest.MapFS{"index.html": {Data: []byte(appIndex)}} }
