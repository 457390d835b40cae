package portal_test

import (
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

func TestCheckHandoffPath(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"/addresses", "/addresses"},
		{"/addresses/", "/addresses"},
		{"/employment?add=1", "/employment?add=1"},
		{"/disputes/12", "/disputes/12"},
		{"/", "/"},
	} {
		got, err := portal.CheckHandoffPath(tc.path)
		if err != nil || got != tc.want {
			t.Errorf("CheckHandoffPath(%q) = %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "https://evil.example/addresses", "//evil.example/addresses", `/\evil.example`,
		"addresses", "/nowhere", "/continue?token=x", "/login", "/reset?token=x", "/setup?token=abc", "/setup?TOKEN=abc",
		"/register/abc", "/addresses#x", "javascript:alert(1)", "/addresses/../../etc", "/add resses", "/addresses\n",
		" /addresses", "/addresses?a=%zz", "/" + strings.Repeat("a", portal.MaxHandoffPathLength)} {
		if got, err := portal.CheckHandoffPath(bad); err == nil || portal.ErrorCode(err) != portal.EINVALID {
			t.Errorf("CheckHandoffPath(%q) = %q, %v; want a field error", bad, got, err)
		}
	}
}
