package store_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// slowIDVCall is far longer than a poll or a callback should ever take
// (milliseconds), and shorter than SQLite's busy timeout (10 s), so a call
// that waits for a lock it cannot get fails the test instead of passing
// late. An e2e journey once seemed to hang in the poll under load.
const slowIDVCall = 5 * time.Second

// idvTimings keeps the longest poll and callback seen, and the first
// error, from many goroutines.
type idvTimings struct {
	mu                     sync.Mutex
	longestPoll, longestCB time.Duration
	err                    error
}

func (m *idvTimings) note(longest *time.Duration, d time.Duration, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	*longest = max(*longest, d)
	if err != nil && m.err == nil {
		m.err = err
	}
}

// callbackRelay is the portal's /api/v2/idv/callback (handleIDVCallback)
// over the service, counting what it was sent.
type callbackRelay struct {
	svc      *store.IDVService
	timings  *idvTimings
	received chan struct{}
}

func (c *callbackRelay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err == nil {
		started := time.Now()
		err = c.svc.ApplyCallback(r.Context(), r.Header.Get(idvsandbox.SignatureHeader), body)
		took := time.Since(started)
		if err != nil {
			err = fmt.Errorf("callback, after %v: %w", took.Round(time.Millisecond), err)
		}
		c.timings.note(&c.timings.longestCB, took, err)
	}
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
	} else {
		w.WriteHeader(http.StatusNoContent)
	}
	c.received <- struct{}{}
}

// TestIDVPollsRacingCallbacksDoNotWait is the sandbox's whole approval
// against the real service, many times at once: the applicant's page
// approves, the sandbox's callbacks (now, then at CheckDelay and twice it,
// from time.AfterFunc) record their statuses while the app polls the
// session, which asks the sandbox and records what is newer. Every poll
// and every callback must answer at once, and every session settle as
// approved and data-completed.
func TestIDVPollsRacingCallbacksDoNotWait(t *testing.T) {
	// The real clock: the sandbox's delayed statuses follow it.
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		co := &portal.Company{Name: "Acme"}
		if err := db.CreateCompany(ctx, co); err != nil {
			t.Fatal(err)
		}
		subjects := make([]int64, 6)
		for i := range subjects {
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: co.ID, Email: fmt.Sprintf("a%d@example.com", i),
				FirstName: "A", LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, portal.StatusIDVStarted); err != nil {
				t.Fatal(err)
			}
			subjects[i] = s.ID
		}

		timings := &idvTimings{}
		// Callbacks are only verified, which no delay changes: one
		// service for them all, as late ones of a round still arrive
		// during the next. The buffer outlasts every callback the test
		// causes, so none blocks its handler.
		verifier := idvsandbox.New(idvsandbox.Config{Secret: idvSecret})
		relay := &callbackRelay{svc: db.IDV(store.IDVConfig{Provider: verifier}), timings: timings,
			received: make(chan struct{}, 1000)}
		srv := httptest.NewServer(relay)
		defer srv.Close()

		// Three rounds at each delay keep every applicant within
		// MaxIDVSessionsPerDay (the clock is real here).
		const rounds = 3
		sessions := 0
		for _, delay := range []time.Duration{0, 3 * time.Millisecond, 15 * time.Millisecond} {
			sandbox := idvsandbox.New(idvsandbox.Config{Records: db.SandboxRecords(), Secret: idvSecret,
				CallbackURL: srv.URL, CheckDelay: delay, HTTPClient: srv.Client()})
			svc := db.IDV(store.IDVConfig{Provider: sandbox, ReturnURL: "https://portal.example.com/idv/success"})
			var wg sync.WaitGroup
			for _, who := range subjects {
				wg.Go(func() {
					for range rounds {
						if err := approveAndPoll(svc, sandbox.Handler(), who, timings); err != nil {
							timings.note(&timings.longestPoll, 0, err)
							return
						}
					}
				})
			}
			wg.Wait()
			sessions += len(subjects) * rounds
			if timings.err != nil {
				t.Fatalf("delay %v: %v", delay, timings.err)
			}
		}

		// Three callbacks a session; the last ones may still be on their way.
		waitFor := time.After(slowIDVCall)
		for n := range 3 * sessions {
			select {
			case <-relay.received:
			case <-waitFor:
				t.Fatalf("%d of %d callbacks arrived within %v", n, 3*sessions, slowIDVCall)
			}
		}
		t.Logf("%d sessions: longest poll %v, longest callback %v", sessions, timings.longestPoll, timings.longestCB)
		if timings.err != nil {
			t.Fatal(timings.err)
		}
		if timings.longestPoll >= slowIDVCall || timings.longestCB >= slowIDVCall {
			t.Errorf("longest poll %v, longest callback %v; want each under %v", timings.longestPoll, timings.longestCB, slowIDVCall)
		}
	})
}

// approveAndPoll opens a session for who, sends the sample document and
// selfie and approves on the sandbox's page, then polls the session as
// the app does until it is approved and data-completed.
func approveAndPoll(svc *store.IDVService, page http.Handler, who int64, timings *idvTimings) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*slowIDVCall)
	defer cancel()
	sess, err := svc.StartSession(ctx, who)
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	for _, action := range []string{"document", "selfie", "approve"} {
		form := url.Values{"token": {sess.Token}, "sample": {"1"}}
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/sandbox/idv/"+sess.ID+"/"+action, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		page.ServeHTTP(rec, req)
		if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || strings.Contains(loc, "error=") {
			return fmt.Errorf("sandbox %s answered %d to %q", action, rec.Code, loc)
		}
	}
	for {
		started := time.Now()
		got, err := svc.Session(ctx, who, sess.ID)
		took := time.Since(started)
		timings.note(&timings.longestPoll, took, nil)
		if err != nil {
			return fmt.Errorf("poll of %s, after %v: %w", sess.ID, took.Round(time.Millisecond), err)
		}
		if got.Status == portal.IDVDataCompleted {
			if got.Decision != portal.IDVApproved {
				return fmt.Errorf("session %s settled as %+v; want approved", sess.ID, got.IDVState)
			}
			return nil
		}
		time.Sleep(time.Millisecond)
	}
}
