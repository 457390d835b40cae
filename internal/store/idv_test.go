package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

var idvSecret = []byte("idv test secret")

// fakeIDVProvider is a provider whose answers the test sets: the states of
// its sessions and a failure to create one. Callbacks are checked as the
// sandbox checks them.
type fakeIDVProvider struct {
	mu        sync.Mutex
	clock     *clock
	created   int
	failWith  error
	states    map[string]portal.IDVState
	stateErr  error
	verifier  *idvsandbox.Provider
	lastReq   portal.IDVSessionRequest
	createDur time.Duration
}

func newFakeIDVProvider(c *clock) *fakeIDVProvider {
	return &fakeIDVProvider{clock: c, states: map[string]portal.IDVState{},
		verifier: idvsandbox.New(idvsandbox.Config{Secret: idvSecret, Now: c.now})}
}

func (f *fakeIDVProvider) Env() string { return portal.IDVEnvSandbox }

func (f *fakeIDVProvider) CreateSession(ctx context.Context, req portal.IDVSessionRequest) (portal.IDVProviderSession, error) {
	time.Sleep(f.createDur) // lets concurrent starts overlap
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failWith != nil {
		return portal.IDVProviderSession{}, f.failWith
	}
	f.created++
	f.lastReq = req
	id := "idv_" + string(rune('a'+f.created)) + "aaaaaaaaaaaaaaaaaaa"
	f.states[id] = portal.IDVState{Status: portal.IDVActive}
	return portal.IDVProviderSession{ID: id, Token: "token-of-" + id, ExpiresAt: f.clock.now().Add(30 * time.Minute)}, nil
}

func (f *fakeIDVProvider) SessionState(ctx context.Context, id string) (portal.IDVState, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stateErr != nil {
		return portal.IDVState{}, f.stateErr
	}
	st, ok := f.states[id]
	if !ok {
		return portal.IDVState{}, portal.Errorf(portal.ENOTFOUND, "No such session.")
	}
	return st, nil
}

func (f *fakeIDVProvider) set(id string, st portal.IDVState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.states[id] = st
}

func (f *fakeIDVProvider) VerifyCallback(signature string, body []byte) (portal.IDVCallback, error) {
	return f.verifier.VerifyCallback(signature, body)
}

// idvWorld is a company with jane and bob in idv-started and amy only set
// up.
type idvWorld struct {
	db             *store.DB
	clock          *clock
	provider       *fakeIDVProvider
	svc            *store.IDVService
	jane, bob, amy int64
}

func newIDVWorld(t *testing.T, db *store.DB, c *clock) *idvWorld {
	t.Helper()
	ctx := context.Background()
	co := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, co); err != nil {
		t.Fatal(err)
	}
	w := &idvWorld{db: db, clock: c, provider: newFakeIDVProvider(c)}
	w.svc = db.IDV(store.IDVConfig{Provider: w.provider, ReturnURL: "https://portal.example.com/idv/success"})
	for _, p := range []struct {
		id  *int64
		who string
		to  portal.StatusID
	}{{&w.jane, "jane", portal.StatusIDVStarted}, {&w.bob, "bob", portal.StatusIDVStarted}, {&w.amy, "amy", portal.StatusSetupComplete}} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: co.ID, Email: p.who + "@example.com", FirstName: p.who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		*p.id = s.ID
		if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, p.to); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *idvWorld) start(t *testing.T, who int64) *portal.IDVSession {
	t.Helper()
	s, err := w.svc.StartSession(context.Background(), who)
	if err != nil {
		t.Fatalf("StartSession: %v", err)
	}
	return s
}

func (w *idvWorld) session(t *testing.T, who int64, id string) *portal.IDVSession {
	t.Helper()
	s, err := w.svc.Session(context.Background(), who, id)
	if err != nil {
		t.Fatalf("Session: %v", err)
	}
	return s
}

// callback signs and applies a provider notice.
func (w *idvWorld) callback(id string, st portal.IDVState) error {
	body := `{"sessionId":"` + id + `","status":` + string(rune('0'+st.Status)) + `,"decision":`
	if st.Decision == portal.IDVUndecided {
		body += `null}`
	} else {
		body += `"` + string(st.Decision) + `"}`
	}
	return w.svc.ApplyCallback(context.Background(), idvsandbox.Sign(idvSecret, w.clock.now(), []byte(body)), []byte(body))
}

func idvConfig(t *testing.T, c *clock) store.Config { return sessionConfig(t, c) }

func TestIDVStartSession(t *testing.T) {
	storetest.Each(t, idvConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newIDVWorld(t, db, newClock())
		ctx := context.Background()

		t.Run("OpensASessionWithTheProvider", func(t *testing.T) {
			s := w.start(t, w.jane)
			if s.ID == "" || s.Token != "token-of-"+s.ID || s.Env != portal.IDVEnvSandbox || s.Status != portal.IDVActive ||
				s.Decision != portal.IDVUndecided || s.SubjectID != w.jane || !s.ExpiresAt.Equal(w.clock.now().Add(30*time.Minute)) {
				t.Errorf("StartSession = %+v", s)
			}
			if w.provider.lastReq.ReturnURL != "https://portal.example.com/idv/success" || w.provider.lastReq.Reference == "" {
				t.Errorf("provider was asked %+v", w.provider.lastReq)
			}
		})
		t.Run("ASecondStartAnswersTheActiveOne", func(t *testing.T) {
			first := w.start(t, w.bob)
			again := w.start(t, w.bob)
			if again.ID != first.ID || again.Token != first.Token {
				t.Errorf("second start = %s; want the active %s", again.ID, first.ID)
			}
		})
		t.Run("ErrConflictBeforeIDVStarted", func(t *testing.T) {
			_, err := w.svc.StartSession(ctx, w.amy)
			pe := wantCode(t, err, portal.ECONFLICT)
			if pe.Message == "" {
				t.Error("no message")
			}
		})
		t.Run("ErrUpstreamWhenTheProviderFails", func(t *testing.T) {
			w.provider.failWith = errors.New("connection refused")
			defer func() { w.provider.failWith = nil }()
			// amy reaches the provider once she may start.
			if err := db.SetSubjectStatus(ctx, w.amy, portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
				t.Fatal(err)
			}
			_, err := w.svc.StartSession(ctx, w.amy)
			if pe := wantCode(t, err, portal.EUPSTREAM); pe.Message != portal.IDVSessionFailedMessage {
				t.Errorf("message = %q; want the spec's", pe.Message)
			}
		})
	})
}

func TestIDVStartSessionConcurrentlyOpensOne(t *testing.T) {
	storetest.Each(t, idvConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newIDVWorld(t, db, newClock())
		w.provider.createDur = 20 * time.Millisecond
		var wg sync.WaitGroup
		ids := make([]string, 6)
		errs := make([]error, 6)
		for i := range ids {
			wg.Go(func() {
				s, err := w.svc.StartSession(context.Background(), w.jane)
				errs[i] = err
				if err == nil {
					ids[i] = s.ID
				}
			})
		}
		wg.Wait()
		for i := range ids {
			if errs[i] != nil || ids[i] != ids[0] {
				t.Fatalf("concurrent starts answered %v, %v; want one session", ids, errs)
			}
		}
		if w.provider.created != 1 {
			t.Errorf("the provider was asked %d times; want once", w.provider.created)
		}
	})
}

func TestIDVNewSessionAfterTheLastEnded(t *testing.T) {
	tests := []struct {
		name string
		end  func(w *idvWorld, s *portal.IDVSession) error
	}{
		{"Declined", func(w *idvWorld, s *portal.IDVSession) error {
			return w.callback(s.ID, portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVDeclined})
		}},
		{"Abandoned", func(w *idvWorld, s *portal.IDVSession) error {
			return w.callback(s.ID, portal.IDVState{Status: portal.IDVExpired})
		}},
		{"TimedOut", func(w *idvWorld, s *portal.IDVSession) error {
			w.clock.advance(31 * time.Minute)
			return nil
		}},
		{"DeclinedWithTheCallbackLost", func(w *idvWorld, s *portal.IDVSession) error {
			w.provider.set(s.ID, portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVDeclined})
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			storetest.Each(t, idvConfig(t, c), func(t *testing.T, db *store.DB) {
				w := newIDVWorld(t, db, c)
				first := w.start(t, w.jane)
				if err := tt.end(w, first); err != nil {
					t.Fatal(err)
				}
				second := w.start(t, w.jane)
				if second.ID == first.ID || second.Status != portal.IDVActive {
					t.Errorf("start after %s = %+v; want a new active session", tt.name, second)
				}
				if old := w.session(t, w.jane, first.ID); old.Status == portal.IDVActive {
					t.Errorf("the ended session is still active: %+v", old)
				}
			})
		})
	}
}

func TestIDVSession(t *testing.T) {
	c := newClock()
	storetest.Each(t, idvConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newIDVWorld(t, db, c)
		ctx := context.Background()
		s := w.start(t, w.jane)

		t.Run("AnotherApplicantsIsNotFound", func(t *testing.T) {
			_, err := w.svc.Session(ctx, w.bob, s.ID)
			wantCode(t, err, portal.ENOTFOUND)
			_, err = w.svc.Session(ctx, w.jane, "idv_nothing")
			wantCode(t, err, portal.ENOTFOUND)
		})
		t.Run("ActiveWithoutAToken", func(t *testing.T) {
			got := w.session(t, w.jane, s.ID)
			if got.Status != portal.IDVActive || got.Token != "" || got.ID != s.ID {
				t.Errorf("Session = %+v; want active, without its token", got)
			}
		})
		t.Run("ProviderDownKeepsTheRecordedState", func(t *testing.T) {
			w.provider.stateErr = errors.New("provider down")
			defer func() { w.provider.stateErr = nil }()
			if got := w.session(t, w.jane, s.ID); got.Status != portal.IDVActive {
				t.Errorf("Session = %+v; want active", got)
			}
		})
		t.Run("PollingCoversALostCallback", func(t *testing.T) {
			w.provider.set(s.ID, portal.IDVState{Status: portal.IDVCompletedByUser})
			if got := w.session(t, w.jane, s.ID); got.Status != portal.IDVCompletedByUser {
				t.Errorf("Session = %+v; want completedByUser from the provider", got)
			}
			facts, err := db.FindStatusFacts(ctx, w.jane)
			if err != nil || !facts.IDVFinished {
				t.Errorf("facts = %+v, %v; want IDVFinished", facts, err)
			}
		})
		t.Run("AFinishedSessionNeverExpires", func(t *testing.T) {
			c.advance(time.Hour)
			defer c.advance(-time.Hour)
			if got := w.session(t, w.jane, s.ID); got.Status != portal.IDVCompletedByUser {
				t.Errorf("Session = %+v; want still completedByUser", got)
			}
		})
	})
}

func TestIDVExpiry(t *testing.T) {
	c := newClock()
	storetest.Each(t, idvConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newIDVWorld(t, db, c)
		s := w.start(t, w.bob)
		// The provider has forgotten nothing but says active; past the
		// expiry the portal answers expired all the same.
		c.advance(30 * time.Minute)
		defer c.advance(-30 * time.Minute)
		if got := w.session(t, w.bob, s.ID); got.Status != portal.IDVExpired || got.Status.Text() != "expired" {
			t.Errorf("Session past its expiry = %+v; want expired", got)
		}
		// A late notice of an earlier state does not revive it.
		if err := w.callback(s.ID, portal.IDVState{Status: portal.IDVActive}); err != nil {
			t.Fatal(err)
		}
		if got := w.session(t, w.bob, s.ID); got.Status != portal.IDVExpired {
			t.Errorf("Session after a late callback = %+v; want expired", got)
		}
	})
}

func TestIDVApplyCallback(t *testing.T) {
	c := newClock()
	storetest.Each(t, idvConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newIDVWorld(t, db, c)
		ctx := context.Background()
		s := w.start(t, w.jane)
		body := []byte(`{"sessionId":"` + s.ID + `","status":1,"decision":null}`)

		t.Run("BadSignaturesAreUnauthorized", func(t *testing.T) {
			for name, sig := range map[string]string{
				"Missing":    "",
				"Wrong":      idvsandbox.Sign([]byte("not the secret"), c.now(), body),
				"Stale":      idvsandbox.Sign(idvSecret, c.now().Add(-10*time.Minute), body),
				"OtherBody":  idvsandbox.Sign(idvSecret, c.now(), []byte(`{"sessionId":"`+s.ID+`","status":2,"decision":"declined"}`)),
				"NoTimeSpec": "v1=00",
			} {
				err := w.svc.ApplyCallback(ctx, sig, body)
				if portal.ErrorCode(err) != portal.EUNAUTHORIZED {
					t.Errorf("%s: err = %v; want unauthorized", name, err)
				}
			}
			if got := w.session(t, w.jane, s.ID); got.Status != portal.IDVActive {
				t.Errorf("a refused callback changed the session: %+v", got)
			}
		})
		t.Run("UnknownSessionIsNotFound", func(t *testing.T) {
			wantCode(t, w.callback("idv_unknown", portal.IDVState{Status: portal.IDVCompletedByUser}), portal.ENOTFOUND)
		})
		t.Run("CallbacksOutOfOrderKeepTheLatest", func(t *testing.T) {
			steps := []struct {
				send portal.IDVState
				want portal.IDVState
			}{
				{portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}, portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}},
				{portal.IDVState{Status: portal.IDVCompletedByUser}, portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}},
				{portal.IDVState{Status: portal.IDVExpired}, portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}},
				{portal.IDVState{Status: portal.IDVDataCompleted, Decision: portal.IDVDeclined}, portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}},
				{portal.IDVState{Status: portal.IDVDataCompleted, Decision: portal.IDVApproved}, portal.IDVState{Status: portal.IDVDataCompleted, Decision: portal.IDVApproved}},
				{portal.IDVState{Status: portal.IDVActive}, portal.IDVState{Status: portal.IDVDataCompleted, Decision: portal.IDVApproved}},
			}
			for i, step := range steps {
				if err := w.callback(s.ID, step.send); err != nil {
					t.Fatalf("callback %d: %v", i, err)
				}
				if got := w.session(t, w.jane, s.ID); got.IDVState != step.want {
					t.Errorf("after callback %d (%+v) the session is %+v; want %+v", i, step.send, got.IDVState, step.want)
				}
			}
		})
	})
}

// TestIDVWithTheSandboxProvider runs the real sandbox over the same
// database: the provider writes its records outside the service's
// transactions, which on SQLite would otherwise wait for each other.
func TestIDVWithTheSandboxProvider(t *testing.T) {
	c := newClock()
	storetest.Each(t, idvConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newIDVWorld(t, db, c)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		sandbox := idvsandbox.New(idvsandbox.Config{Records: db.SandboxRecords(), Secret: idvSecret, Now: c.now,
			SessionTTL: 10 * time.Minute, CheckDelay: time.Second})
		svc := db.IDV(store.IDVConfig{Provider: sandbox, ReturnURL: "https://portal.example.com/idv/success"})
		s, err := svc.StartSession(ctx, w.jane)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.ID) != 24 || s.Token == "" || !s.ExpiresAt.Equal(c.now().Add(10*time.Minute)) {
			t.Errorf("StartSession = %+v", s)
		}
		again, err := svc.StartSession(ctx, w.jane)
		if err != nil || again.ID != s.ID || again.Token != s.Token {
			t.Errorf("second start = %+v, %v; want %s", again, err, s.ID)
		}
		got, err := svc.Session(ctx, w.jane, s.ID)
		if err != nil || got.Status != portal.IDVActive {
			t.Errorf("Session = %+v, %v; want active", got, err)
		}
	})
}

// TestIDVIncoherentProviderStateIsIgnored: a provider answer pairing a
// decision with an active session (a bug or a forged, validly signed
// callback) is not recorded, so the session is still the applicant's open
// one (no second session beside it) and still expires.
func TestIDVIncoherentProviderStateIsIgnored(t *testing.T) {
	c := newClock()
	storetest.Each(t, idvConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newIDVWorld(t, db, c)
		s := w.start(t, w.bob)
		activeApproved := portal.IDVState{Status: portal.IDVActive, Decision: portal.IDVApproved}
		wantCode(t, w.callback(s.ID, activeApproved), portal.EMALFORMED)
		w.provider.set(s.ID, activeApproved)
		if got := w.session(t, w.bob, s.ID); got.IDVState != (portal.IDVState{Status: portal.IDVActive}) {
			t.Errorf("Session after an active-and-approved answer = %+v; want active, undecided", got.IDVState)
		}
		if again := w.start(t, w.bob); again.ID != s.ID {
			t.Errorf("StartSession opened %s beside the active %s", again.ID, s.ID)
		}
		c.advance(30 * time.Minute)
		defer c.advance(-30 * time.Minute)
		if got := w.session(t, w.bob, s.ID); got.Status != portal.IDVExpired {
			t.Errorf("Session past its expiry = %+v; want expired", got)
		}
	})
}

// TestIDVSessionsPerDayAreLimited: every new session is one the provider
// bills and keeps photos for, so an applicant who abandons session after
// session is stopped after store.MaxIDVSessionsPerDay in a day, told when
// to come back; answering the open session again costs nothing.
func TestIDVSessionsPerDayAreLimited(t *testing.T) {
	c := newClock()
	storetest.Each(t, idvConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newIDVWorld(t, db, c)
		ctx := context.Background()
		for i := 0; i < store.MaxIDVSessionsPerDay; i++ {
			s := w.start(t, w.jane)
			if again := w.start(t, w.jane); again.ID != s.ID {
				t.Fatalf("start %d answered %s, then %s", i, s.ID, again.ID)
			}
			if err := w.callback(s.ID, portal.IDVState{Status: portal.IDVExpired}); err != nil {
				t.Fatal(err)
			}
			c.advance(time.Minute)
		}
		_, err := w.svc.StartSession(ctx, w.jane)
		wantCode(t, err, portal.ETHROTTLED)
		var pe *portal.Error
		if errors.As(err, &pe) && (pe.RetryAfter <= 0 || pe.RetryAfter > 24*3600) {
			t.Errorf("RetryAfter = %d; want within a day", pe.RetryAfter)
		}
		w.start(t, w.bob) // another applicant is not held back
		c.advance(24 * time.Hour)
		defer c.advance(-24 * time.Hour)
		w.start(t, w.jane)
	})
}
