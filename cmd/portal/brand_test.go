package main_test

import (
	"bytes"
	"html"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

// TestBrandAndOutsidePartiesReachTheApp: the brand settings, from flags and
// from PORTAL_ variables, land in the app's run-time configuration, and the
// outside parties in the Content-Security-Policy.
func TestBrandAndOutsidePartiesReachTheApp(t *testing.T) {
	t.Setenv("PORTAL_BRAND_NAME", "Acme Checks")
	t.Setenv("PORTAL_IDV_FRAME_ORIGIN", "https://verify.example.com")
	s := startServer(t, "--brand-support-email", "help@acme.example", "--brand-privacy-url", "https://acme.example/privacy")
	defer s.stop(t)
	res, err := http.Get(s.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	page := html.UnescapeString(string(body))
	want := `"brand":{"name":"Acme Checks","logoUrl":"","supportEmail":"help@acme.example","supportPhone":"+1 (555) 010-0199","privacyPolicyUrl":"https://acme.example/privacy"}`
	if !strings.Contains(page, want) {
		t.Errorf("index.html lacks %s:\n%s", want, page)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src 'self' https://verify.example.com;") {
		t.Errorf("CSP = %q; want the identity-verification frame allowed", csp)
	}
}

func TestServeRefusesBadBrandOrParties(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--brand-support-email", "support at example"},
		{"--brand-logo-url", "http://cdn.example.com/logo.svg"},
		{"--brand-privacy-url", "javascript:alert(1)"},
		{"--idv-frame-origin", "http://verify.example.com"},
		{"--chat-widget-url", "ftp://widget.example.net/w.js"},
		{"--logo-sources", "https://cdn.example.com/logos/"},
	} {
		out, err := exec.Command(portalBin, append([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, args...)...).CombinedOutput()
		if err == nil || bytes.Contains(out, []byte("listening")) {
			t.Errorf("serve %v = %v %s; want a refusal before it listens", args, err, out)
		}
	}
}

func TestServeHelpListsBrandAndParties(t *testing.T) {
	t.Parallel()
	out, _ := exec.Command(portalBin, "serve", "--help").CombinedOutput()
	for _, want := range []string{"--brand-name, PORTAL_BRAND_NAME", "--brand-logo-url, PORTAL_BRAND_LOGO_URL",
		"--brand-support-email, PORTAL_BRAND_SUPPORT_EMAIL", "--brand-support-phone, PORTAL_BRAND_SUPPORT_PHONE",
		"--brand-privacy-url, PORTAL_BRAND_PRIVACY_URL", "--idv-frame-origin, PORTAL_IDV_FRAME_ORIGIN",
		"--chat-widget-url, PORTAL_CHAT_WIDGET_URL", "--logo-sources, PORTAL_LOGO_SOURCES"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
}
