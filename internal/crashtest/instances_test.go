package crashtest_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/demo"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// revocationSlack is what a revocation seen by another instance may take
// beyond the documented token cache window (docs/security.md, "Access token
// checks cached for 5 seconds"): the polling interval and a loaded machine.
const revocationSlack = 2 * time.Second

// TestTwoInstancesShareOneApplicant runs two `portal serve` processes on
// one PostgreSQL database with one data key, as behind a load balancer,
// and alternates one applicant's requests between them: a login on A
// refreshed on B, the old refresh token reused on A (the family revoked on
// both), an upload on A downloaded on B, a chat message sent on A arriving
// on B's event stream, and a logout on B refusing the token on A.
func TestTwoInstancesShareOneApplicant(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two real binaries: not with -short")
	}
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip(storetest.EnvURL + " is not set; the two instances need PostgreSQL")
	}
	// Beside the crash test: it spends most of its time waiting out the
	// token cache window, not on the machine's cores.
	t.Parallel()
	d := postgresDeployment(t, storetest.Database(t, os.Getenv(storetest.EnvURL)))
	a := newAPI(d.start(t).base)
	b := newAPI(d.start(t).base)
	ctx := context.Background()

	var first tokens
	a.must(t, "POST", "/oauth/access_token", "", passwordGrant(demo.LoginEmail, demo.LoginPass), 200, &first)
	b.must(t, "GET", "/api/v2/user", first.AccessToken, nil, 200, nil)

	t.Run("a refresh token reused on one instance revokes the family on both", func(t *testing.T) {
		var rotated tokens
		b.must(t, "POST", "/oauth/access_token", "", refreshGrant(first.RefreshToken), 200, &rotated)
		if rotated.RefreshToken == "" || rotated.RefreshToken == first.RefreshToken {
			t.Fatalf("refresh on B answered refresh token %q: want a new one", rotated.RefreshToken)
		}
		// Both instances now hold the new access token as checked.
		b.must(t, "GET", "/api/v2/user", rotated.AccessToken, nil, 200, nil)
		a.must(t, "GET", "/api/v2/user", rotated.AccessToken, nil, 200, nil)

		a.must(t, "POST", "/oauth/access_token", "", refreshGrant(first.RefreshToken), 401, nil)
		// A revoked the family itself: refused at once there.
		for _, tok := range []string{rotated.AccessToken, first.AccessToken} {
			if status, _, err := a.do(ctx, "GET", "/api/v2/user", tok, nil); err != nil || status != 401 {
				t.Errorf("a token of the revoked family on A, right after the reuse: %d %v; want 401", status, err)
			}
		}
		took := waitRefused(t, b, rotated.AccessToken)
		t.Logf("B refused the revoked family's access token after %v", took.Round(time.Millisecond))
		b.must(t, "POST", "/oauth/access_token", "", refreshGrant(rotated.RefreshToken), 401, nil)
	})

	var again tokens
	a.must(t, "POST", "/oauth/access_token", "", passwordGrant(demo.LoginEmail, demo.LoginPass), 200, &again)

	t.Run("an upload on A downloads whole on B", func(t *testing.T) {
		content := pngWithTag("uploaded on A")
		var up struct {
			ID int64 `json:"id"`
		}
		a.must(t, "POST", "/api/v2/user/profile/documents", again.AccessToken,
			newUpload([][2]string{{"documentType", "drivers_license"}}, "licence.png", "image/png", content), 201, &up)
		status, body, err := b.do(ctx, "GET", fmt.Sprintf("/api/v2/user/profile/documents/%d", up.ID), again.AccessToken, nil)
		if err != nil || status != 200 || !bytes.Equal(body, content) {
			t.Fatalf("download on B: %d %v, %d bytes; want 200 and the %d bytes uploaded on A", status, err, len(body), len(content))
		}
	})

	t.Run("a chat message sent on A arrives on B's event stream", func(t *testing.T) {
		profile := profileID(t, a, again.AccessToken)
		events := openEvents(t, b, again.AccessToken)
		if data := events.next(t, "ready"); !strings.Contains(data, `"chat":true`) {
			t.Fatalf("B's stream opened with %q; want chat on", data)
		}
		var sent struct {
			ID int64 `json:"id"`
		}
		a.must(t, "POST", chatPath(profile), again.AccessToken, map[string]string{"message": "Sent on A, seen on B"}, 201, &sent)
		want := fmt.Sprintf(`"messageId":%d`, sent.ID)
		for {
			if data := events.next(t, "chat"); strings.Contains(data, want) {
				break
			}
		}
	})

	t.Run("a logout on B refuses the token on A within the token cache window", func(t *testing.T) {
		a.must(t, "GET", "/api/v2/user", again.AccessToken, nil, 200, nil) // A holds it as checked
		b.must(t, "DELETE", "/oauth/access_token", again.AccessToken, nil, 204, nil)
		if status, _, err := b.do(ctx, "GET", "/api/v2/user", again.AccessToken, nil); err != nil || status != 401 {
			t.Errorf("the token on B right after B's logout: %d %v; want 401", status, err)
		}
		took := waitRefused(t, a, again.AccessToken)
		t.Logf("A refused the logged-out token after %v", took.Round(time.Millisecond))
	})
}

// waitRefused waits until the instance refuses the access token, at most
// the token cache window and a little slack, and answers how long it took.
func waitRefused(t *testing.T, c api, token string) time.Duration {
	t.Helper()
	started := time.Now()
	deadline := started.Add(store.DefaultTokenCacheTTL + revocationSlack)
	for {
		// A request sent in time whose answer comes late (a loaded
		// machine) is no broken promise: the deadline is the sending's.
		sent := time.Now()
		status, body, err := c.do(context.Background(), "GET", "/api/v2/user", token, nil)
		if err != nil {
			t.Fatal(err)
		}
		if status == 401 {
			return time.Since(started)
		}
		if status != 200 {
			t.Fatalf("GET /api/v2/user answered %d: %.300s", status, body)
		}
		if sent.After(deadline) {
			t.Fatalf("%s still takes a revoked access token %v later; docs/security.md promises %v",
				c.base, time.Since(started).Round(time.Millisecond), store.DefaultTokenCacheTTL)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// eventStream is an open GET /api/v2/user/events, read line by line.
type eventStream struct {
	events chan [2]string // event name, data
}

func openEvents(t *testing.T, c api, token string) *eventStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+"/api/v2/user/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	// The stream stays open: the API's client would time it out.
	resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		t.Fatalf("GET /api/v2/user/events answered %d", resp.StatusCode)
	}
	s := &eventStream{events: make(chan [2]string, 16)}
	go func() {
		defer resp.Body.Close()
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		var name string
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				name = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				s.events <- [2]string{name, v}
			}
		}
	}()
	return s
}

// eventWait is how long an event may take to cross from one instance to
// another (PostgreSQL NOTIFY, then the stream).
const eventWait = 10 * time.Second

// next answers the data of the next event named name, skipping others.
func (s *eventStream) next(t *testing.T, name string) string {
	t.Helper()
	deadline := time.After(eventWait)
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatalf("the event stream ended before a %q event", name)
			}
			if ev[0] == name {
				return ev[1]
			}
		case <-deadline:
			t.Fatalf("no %q event within %v", name, eventWait)
		}
	}
}
