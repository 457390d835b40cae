package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The app frames the identity-verification page on /idv: its origin must be
// an allowed frame and receive the camera, and nothing else may.
func TestIDVPagePolicies(t *testing.T) {
	tests := []struct {
		name        string
		parties     OutsideParties
		frameSrc    string
		permissions string
		wantErr     string
	}{
		{name: "BuiltInSandboxPath", parties: OutsideParties{IDVPageURL: "/sandbox/idv/{id}?token={token}"},
			frameSrc: "frame-src 'self';", permissions: "camera=(self), microphone=(), geolocation=(), payment=()"},
		{name: "None", parties: OutsideParties{},
			frameSrc: "frame-src 'self';", permissions: "camera=(self), microphone=(), geolocation=(), payment=()"},
		{name: "AbsolutePageURL", parties: OutsideParties{IDVPageURL: "https://Verify.Example.com/s/{id}?t={token}"},
			frameSrc:    "frame-src 'self' https://verify.example.com;",
			permissions: `camera=(self "https://verify.example.com"), microphone=(), geolocation=(), payment=()`},
		{name: "FrameOriginAndPageURL", parties: OutsideParties{IDVFrameOrigin: "https://frames.example.com", IDVPageURL: "https://verify.example.com:8443/{id}"},
			frameSrc:    "frame-src 'self' https://frames.example.com https://verify.example.com:8443;",
			permissions: `camera=(self "https://frames.example.com" "https://verify.example.com:8443"), microphone=(), geolocation=(), payment=()`},
		{name: "SameOriginTwiceOnce", parties: OutsideParties{IDVFrameOrigin: "https://verify.example.com", IDVPageURL: "https://verify.example.com/{id}"},
			frameSrc:    "frame-src 'self' https://verify.example.com;",
			permissions: `camera=(self "https://verify.example.com"), microphone=(), geolocation=(), payment=()`},
		{name: "ChatWidgetGetsNoCamera", parties: OutsideParties{ChatWidgetURL: "https://chat.example.net/loader.js"},
			frameSrc: "frame-src 'self' https://chat.example.net;", permissions: "camera=(self), microphone=()"},
		{name: "LocalhostHTTP", parties: OutsideParties{IDVPageURL: "http://localhost:9000/{id}?token={token}"},
			frameSrc: "frame-src 'self' http://localhost:9000;", permissions: `camera=(self "http://localhost:9000")`},
		{name: "PlainHTTPRefused", parties: OutsideParties{IDVPageURL: "http://verify.example.com/{id}"}, wantErr: "use https"},
		{name: "ProtocolRelativeRefused", parties: OutsideParties{IDVPageURL: "//verify.example.com/{id}"}, wantErr: "identity-verification page URL"},
		{name: "PlaceholderInHostRefused", parties: OutsideParties{IDVPageURL: "https://{id}.example.com/"}, wantErr: "identity-verification page URL"},
		{name: "RelativeWithoutSlashRefused", parties: OutsideParties{IDVPageURL: "sandbox/idv/{id}"}, wantErr: "must start with /"},
		{name: "QuoteInHostRefused", parties: OutsideParties{IDVPageURL: "https://verify.example.com';/x"}, wantErr: "identity-verification page URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			csp, err := contentSecurityPolicy(tt.parties)
			perm, perr := permissionsPolicy(tt.parties)
			if tt.wantErr != "" {
				if err == nil || perr == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("errors %v, %v; want %q", err, perr, tt.wantErr)
				}
				return
			}
			if err != nil || perr != nil {
				t.Fatal(err, perr)
			}
			if !strings.Contains(csp+";", tt.frameSrc) || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("CSP = %s; want %s", csp, tt.frameSrc)
			}
			if !strings.HasPrefix(perm, tt.permissions) {
				t.Errorf("Permissions-Policy = %s; want %s", perm, tt.permissions)
			}
		})
	}
}

func TestSecurityHeadersWith(t *testing.T) {
	csp, _ := contentSecurityPolicy(OutsideParties{IDVPageURL: "https://verify.example.com/{id}"})
	perm, _ := permissionsPolicy(OutsideParties{IDVPageURL: "https://verify.example.com/{id}"})
	h := securityHeaders(csp, perm, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for path, want := range map[string][3]string{
		"/idv":                  {"DENY", "frame-ancestors 'none'", perm},
		"/sandbox/idv/idv_x":    {"SAMEORIGIN", "frame-ancestors 'self'", selfCameraPolicy},
		"/api/v2/idv/session/x": {"DENY", "frame-ancestors 'none'", perm},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		got := rec.Header()
		if got.Get("X-Frame-Options") != want[0] || !strings.HasSuffix(got.Get("Content-Security-Policy"), want[1]) ||
			got.Get("Permissions-Policy") != want[2] {
			t.Errorf("%s: X-Frame-Options %q, CSP %q, Permissions-Policy %q; want %v", path, got.Get("X-Frame-Options"),
				got.Get("Content-Security-Policy"), got.Get("Permissions-Policy"), want)
		}
		if strings.Contains(path, "sandbox") && !strings.Contains(got.Get("Content-Security-Policy"), "frame-src 'self' https://verify.example.com") {
			t.Errorf("the sandbox page's CSP lost the rest of the policy: %s", got.Get("Content-Security-Policy"))
		}
	}
}
