package bench_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/bench"
)

// journeyServer is a `portal serve --demo` of its own, with an operator API key of the demo
// company to invite applicants and read their status back.
type journeyServer struct {
	base   string
	apiKey string
}

// startJourneyServer starts the portal (bench.PortalForTest) on a free port with a data folder of its own.
// The sandbox's identity check answers at once
// (--idv-check-delay 0): the journey measures the portal, not a provider's wait. A password hash
// or check waits up to 30 s for a free slot (--password-check-wait, 2 s by default, then 503):
// eight journeys starting together queue eight argon2id hashes on two slots, which on a loaded
// 2-core machine takes longer than 2 s, and this test is about the journeys, not that limit.
func startJourneyServer(t *testing.T) *journeyServer {
	t.Helper()
	bin := bench.PortalForTest(t)
	data := t.TempDir()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data, "--demo", "--idv-check-delay", "0",
		"--password-check-wait", "30s")
	cmd.Env = append(os.Environ(), "PORTAL_LOG_LEVEL=warn")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	s := &journeyServer{}
	deadline := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Applicant portal listening on "); ok {
			s.base = rest
			break
		}
	}
	if s.base == "" {
		t.Fatalf("portal serve did not start: %s", stderr.String())
	}
	go io.Copy(io.Discard, out)

	key, err := exec.Command(bin, "apikey", "create", "--data", data, "--company", "1", "--name", "journey test").Output()
	if err != nil {
		t.Fatalf("portal apikey create: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(key)), "\n")
	s.apiKey = strings.TrimSpace(lines[len(lines)-1])
	return s
}

// operator calls the operator API.
func (s *journeyServer) operator(t *testing.T, method, path string, in, out any, want int) {
	t.Helper()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.apiKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s answered %d, want %d: %s", method, path, resp.StatusCode, want, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s %s: %v: %s", method, path, err, data)
	}
}

// Names vary per applicant, as they would (names take letters only, no digits).
var (
	firstNames = []string{"Morgan", "Avery", "Jordan", "Riley", "Casey", "Quinn", "Harper", "Rowan", "Emerson"}
	lastNames  = []string{"Ellis", "Blake", "Rivera", "Nguyen", "O'Brien", "Okafor", "Lindqvist", "Santos"}
)

// invite invites an applicant working in San Francisco (so the regional legal documents apply,
// as in the browser's demo journey) and answers their id and invitation link.
func (s *journeyServer) invite(t *testing.T, n int) (int64, string) {
	t.Helper()
	var invited struct {
		Applicant struct {
			ID int64 `json:"id"`
		} `json:"applicant"`
		InvitationURL string `json:"invitationUrl"`
	}
	s.operator(t, http.MethodPost, "/api/v2/operator/invitations", map[string]any{
		"email":     fmt.Sprintf("journey.%d.%d@example.com", time.Now().UnixNano(), n),
		"firstName": firstNames[n%len(firstNames)], "lastName": lastNames[n%len(lastNames)], "workState": "US-CA",
	}, &invited, http.StatusCreated)
	if invited.InvitationURL == "" {
		t.Fatal("the invitation has no link")
	}
	return invited.Applicant.ID, invited.InvitationURL
}

// wantFinished reads the applicant back through the operator API: Finalization Complete (2),
// nothing left to do.
func (s *journeyServer) wantFinished(t *testing.T, id int64) {
	t.Helper()
	var a struct {
		StatusID   int      `json:"statusId"`
		StatusText string   `json:"statusText"`
		Missing    []string `json:"missing"`
	}
	s.operator(t, http.MethodGet, fmt.Sprintf("/api/v2/operator/applicants/%d", id), nil, &a, http.StatusOK)
	if a.StatusID != 2 || len(a.Missing) > 0 {
		t.Errorf("applicant %d ended in status %d (%s), missing %q; want 2 (Finalization Complete), nothing missing",
			id, a.StatusID, a.StatusText, a.Missing)
	}
}

func TestRunJourney(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the portal and walks whole journeys (about 30 s): not with -short")
	}
	s := startJourneyServer(t)
	client := &http.Client{Timeout: time.Minute}

	t.Run("one applicant goes from the invitation to Finalization Complete", func(t *testing.T) {
		id, link := s.invite(t, 0)
		started := time.Now()
		stats, err := bench.RunJourney(context.Background(), client, s.base, link)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("one journey: %d requests, %d bytes, %v", stats.Requests, stats.Bytes, time.Since(started).Round(time.Millisecond))
		// The recorded browser journey makes about 200 requests besides its assets.
		if stats.Requests < 150 || stats.Bytes < 100_000 {
			t.Errorf("stats %+v: fewer requests or bytes than a whole journey makes", stats)
		}
		s.wantFinished(t, id)
	})

	t.Run("8 applicants at once all finish, with no error", func(t *testing.T) {
		const n = 8
		ids := make([]int64, n)
		links := make([]string, n)
		for i := range n {
			ids[i], links[i] = s.invite(t, i+1)
		}
		errs := make([]error, n)
		var wg sync.WaitGroup
		started := time.Now()
		for i := range n {
			wg.Go(func() {
				_, errs[i] = bench.RunJourney(context.Background(), client, s.base, links[i])
			})
		}
		wg.Wait()
		t.Logf("%d journeys at once: %v", n, time.Since(started).Round(time.Millisecond))
		for i, err := range errs {
			if err != nil {
				t.Errorf("journey %d: %v", i, err)
				continue
			}
			s.wantFinished(t, ids[i])
		}
	})

	t.Run("a used invitation fails at the invitation step", func(t *testing.T) {
		_, link := s.invite(t, 100)
		if _, err := bench.RunJourney(context.Background(), client, s.base, link); err != nil {
			t.Fatal(err)
		}
		_, err := bench.RunJourney(context.Background(), client, s.base, link)
		if err == nil || !strings.Contains(err.Error(), "journey: invitation:") || !strings.Contains(err.Error(), "403") {
			t.Errorf("second journey on one link: %v, want a 403 at the invitation step", err)
		}
	})
}
