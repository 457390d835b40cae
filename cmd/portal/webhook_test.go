package main_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/webhook"
)

// TestWebhookCommandsDeliverThroughTheRealBinary registers a local
// receiver with `portal webhook add`, invites an applicant, and watches
// serve's worker deliver the signed event, which `portal webhook
// deliveries` then lists.
func TestWebhookCommandsDeliverThroughTheRealBinary(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []*http.Request
	var bodies [][]byte
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, b)
		mu.Unlock()
	}))
	defer recv.Close()
	srv := startServer(t, "--demo", "--webhook-allow-insecure", "--webhook-interval", "100ms")

	if stderr := runPortalFails(t, "webhook", "add", "--data", srv.data, "--company", "1", "--url", recv.URL+"/hook"); !strings.Contains(stderr, "must start https://") {
		t.Errorf("http without --webhook-allow-insecure: %q", stderr)
	}
	out := runPortal(t, "webhook", "add", "--data", srv.data, "--company", "1", "--url", recv.URL+"/hook", "--webhook-allow-insecure")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	secret := lines[len(lines)-1]
	m := regexp.MustCompile(`^Webhook endpoint (\d+) added for company 1: `).FindStringSubmatch(lines[0])
	if m == nil || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("add: %q", out)
	}
	runPortal(t, "invite", "--data", srv.data, "--email", "hook@example.com", "--first-name", "Hal", "--last-name", "Hook")

	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	if len(got) != 1 || got[0].Header.Get(webhook.EventTypeHeader) != "applicant.invited" ||
		webhook.Verify(secret, got[0].Header.Get(webhook.SignatureHeader), bodies[0], time.Now(), webhook.ReplayWindow) != nil {
		t.Fatalf("received %d requests: %v", len(got), got)
	}
	mu.Unlock()

	if out := runPortal(t, "webhook", "list", "--data", srv.data, "--company", "1"); !strings.Contains(out, "active") || !strings.Contains(out, recv.URL) || strings.Contains(out, "whsec_") {
		t.Errorf("list: %q", out)
	}
	if out := runPortal(t, "webhook", "deliveries", "--data", srv.data, "--endpoint", m[1]); !regexp.MustCompile(`applicant\.invited\s+\d+\s+delivered\s+1\s+200`).MatchString(out) {
		t.Errorf("deliveries: %q", out)
	}
	if out := runPortal(t, "webhook", "remove", "--data", srv.data, "--id", m[1]); out != "Webhook endpoint "+m[1]+" removed.\n" {
		t.Errorf("remove: %q", out)
	}
	if out := runPortal(t, "sms", "outbox", "--data", srv.data); out == "" {
		t.Errorf("sms outbox printed nothing")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"add", "--company", "1"}, "give --company and --url"},
		{[]string{"add", "--company", "1", "--url", "https://10.0.0.1/x"}, "not a private or local one"},
		{[]string{"remove", "--id", "999"}, "webhook endpoint 999: Webhook endpoint not found."},
		{[]string{"retry", "--delivery", "999"}, "webhook delivery 999: Webhook delivery not found."},
		{[]string{"send"}, "say add or list or deliveries or remove or retry"},
	} {
		if stderr := runPortalFails(t, append(append([]string{"webhook"}, tc.args...), "--data", srv.data)...); !strings.Contains(stderr, tc.want) {
			t.Errorf("webhook %v: stderr %q; want %q", tc.args, stderr, tc.want)
		}
	}
}
