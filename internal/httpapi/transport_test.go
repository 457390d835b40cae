package httpapi_test

import (
	"context"
	"fmt"
	"testing"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/store"
)

// TestHSTSOnlyOverHTTPS: Strict-Transport-Security goes with every answer
// to a request that reached the portal over HTTPS, directly (TLS) or
// through a trusted proxy that says so (X-Forwarded-Proto), and never with
// one over plain HTTP or one whose peer merely claims HTTPS. The harness
// trusts 10.0.0.0/8.
func TestHSTSOnlyOverHTTPS(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		for _, tt := range []struct {
			name, url, remote, proto string
			want                     bool
		}{
			{"PlainHTTP", "/healthz", "192.0.2.10:5555", "", false},
			{"DirectTLS", "https://portal.example.com/healthz", "192.0.2.10:5555", "", true},
			{"DirectTLSApp", "https://portal.example.com/login", "192.0.2.10:5555", "", true},
			{"DirectTLSError", "https://portal.example.com/api/v2/nothing", "192.0.2.10:5555", "", true},
			{"ForwardedHTTPSFromUntrustedPeer", "/healthz", "192.0.2.10:5555", "https", false},
			{"ForwardedHTTPSFromTrustedProxy", "/healthz", "10.1.2.3:443", "https", true},
			{"ForwardedHTTPSAnyCaseFromTrustedProxy", "/healthz", "10.1.2.3:443", "HTTPS", true},
			{"ForwardedHTTPFromTrustedProxy", "/healthz", "10.1.2.3:443", "http", false},
			{"TrustedProxyWithoutProto", "/healthz", "10.1.2.3:443", "", false},
			// A proxy that appends to the client's header: its own value,
			// the last, counts.
			{"ClientsForgedHTTPSBeforeProxysHTTP", "/healthz", "10.1.2.3:443", "https, http", false},
			{"ProxysHTTPSAfterClientsValue", "/healthz", "10.1.2.3:443", "http, https", true},
			{"ProxysHTTPSOnItsOwnLine", "/healthz", "10.1.2.3:443", "http\nhttps", true},
		} {
			t.Run(tt.name, func(t *testing.T) {
				h := map[string]string{"RemoteAddr": tt.remote}
				if tt.proto != "" {
					h["X-Forwarded-Proto"] = tt.proto
				}
				rec := a.send(request{Method: "GET", URL: tt.url, Header: h})
				got := rec.Header().Get("Strict-Transport-Security")
				want := ""
				if tt.want {
					want = httpapi.HSTS
				}
				if got != want {
					t.Fatalf("Strict-Transport-Security = %q; want %q", got, want)
				}
			})
		}
		if httpapi.HSTS != "max-age=31536000; includeSubDomains" {
			t.Errorf("HSTS = %q", httpapi.HSTS)
		}
	})
}

// TestForwardedForFromUntrustedPeerDoesNotEscapeThrottle: a client that
// sends a new X-Forwarded-For with each request is still one address to
// the reset throttle, unless its peer is a trusted proxy.
func TestForwardedForFromUntrustedPeerDoesNotEscapeThrottle(t *testing.T) {
	eachOAuthAPI(t, func(t *testing.T, a *oauthAPI) {
		queued := func() int {
			mails, err := a.db.Outbox(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return len(mails)
		}
		reset := func(i int, remote string) {
			t.Helper()
			rec := a.send(request{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": fmt.Sprintf("ghost%d@example.com", i)},
				Header: map[string]string{"RemoteAddr": remote, "X-Forwarded-For": fmt.Sprintf("203.0.113.%d", i)}})
			if rec.Code != 200 {
				t.Fatalf("reset = %d %s", rec.Code, rec.Body)
			}
		}
		t.Run("UntrustedPeer", func(t *testing.T) {
			for i := 0; i < store.MaxResetsPerIP; i++ {
				reset(i, "198.51.100.4:5555")
			}
			before := queued()
			// Over the per-IP bound: jane's reset is held back although
			// the forged address is new.
			rec := a.send(request{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": "jane@example.com"},
				Header: map[string]string{"RemoteAddr": "198.51.100.4:5555", "X-Forwarded-For": "203.0.113.250"}})
			if rec.Code != 200 || queued() != before {
				t.Fatalf("a reset past the per-IP bound with a forged X-Forwarded-For was sent (%d, %d mails)", rec.Code, queued()-before)
			}
		})
		t.Run("TrustedProxy", func(t *testing.T) {
			for i := 0; i < store.MaxResetsPerIP; i++ {
				reset(100+i, "10.9.9.9:443")
			}
			before := queued()
			// Behind a trusted proxy each forwarded address counts for
			// itself: this one has made no request yet.
			rec := a.send(request{Method: "POST", URL: "/api/user/password/reset", Body: map[string]any{"username": "jane@example.com"},
				Header: map[string]string{"RemoteAddr": "10.9.9.9:443", "X-Forwarded-For": "203.0.113.251"}})
			if rec.Code != 200 || queued() != before+1 {
				t.Fatalf("a reset from a new client behind a trusted proxy was held back (%d, %d mails)", rec.Code, queued()-before)
			}
		})
	})
}
