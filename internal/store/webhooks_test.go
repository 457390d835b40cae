package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
	"applicantportal/internal/webhook"
)

// receiver is an employer's endpoint on a local port that the test takes
// down (Down: connections refused) and brings back (Up), answering each
// POST with status and keeping what it received.
type receiver struct {
	t      *testing.T
	addr   string
	mu     sync.Mutex
	status int
	got    []received
	srv    *http.Server
}

type received struct {
	header http.Header
	body   []byte
	path   string
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	r := &receiver{t: t, status: http.StatusOK}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	r.serve(ln)
	t.Cleanup(r.Down)
	return r
}

func (r *receiver) serve(ln net.Listener) {
	r.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{req.Header.Clone(), body, req.URL.Path})
		status := r.status
		r.mu.Unlock()
		w.WriteHeader(status)
	})}
	go r.srv.Serve(ln)
}

func (r *receiver) url(path string) string { return "http://" + r.addr + path }

// Down closes the port: the next connection is refused.
func (r *receiver) Down() {
	if r.srv != nil {
		r.srv.Close()
		r.srv = nil
	}
}

// Up listens again on the same port.
func (r *receiver) Up() {
	r.t.Helper()
	var ln net.Listener
	var err error
	for range 50 {
		if ln, err = net.Listen("tcp", r.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		r.t.Fatalf("receiver: listen again on %s: %v", r.addr, err)
	}
	r.serve(ln)
}

func (r *receiver) answer(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status = status
}

func (r *receiver) received() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

func webhookConfig(t *testing.T, c *clock) store.Config {
	cfg := storetest.Config(t)
	cfg.Now, cfg.WebhookAllowInsecure = c.now, true
	return cfg
}

// webhookWorld is two companies, Acme and Other, on a database whose
// endpoints may be local (WebhookAllowInsecure).
type webhookWorld struct {
	db          *store.DB
	ops         portal.OperatorServices
	acme, other *portal.Company
}

func newWebhookWorld(t *testing.T, db *store.DB) *webhookWorld {
	t.Helper()
	w := &webhookWorld{db: db, ops: db.Operator(), acme: &portal.Company{Name: "Acme"}, other: &portal.Company{Name: "Other"}}
	for _, c := range []*portal.Company{w.acme, w.other} {
		if err := db.CreateCompany(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *webhookWorld) endpoint(t *testing.T, company *portal.Company, url string) (*portal.WebhookEndpoint, string) {
	t.Helper()
	e, secret, err := w.ops.Webhooks.CreateWebhookEndpoint(context.Background(), company.ID, url)
	if err != nil {
		t.Fatal(err)
	}
	return e, secret
}

func (w *webhookWorld) invite(t *testing.T, company *portal.Company, email string) *portal.Subject {
	t.Helper()
	res, err := w.ops.Invitations.InviteApplicant(context.Background(), portal.InviteRequest{
		NewSubject: portal.NewSubject{CompanyID: company.ID, Email: email, FirstName: "Riley", LastName: "Stone", FullProfile: true}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Subject
}

func (w *webhookWorld) deliveries(t *testing.T, f portal.WebhookDeliveryFilter) []portal.WebhookDelivery {
	t.Helper()
	list, err := w.ops.Webhooks.FindWebhookDeliveries(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func sender(c *clock) *webhook.Sender {
	return webhook.New(webhook.Config{Timeout: 2 * time.Second, AllowInsecure: true, Now: c.now})
}

func deliver(t *testing.T, db *store.DB, s portal.WebhookSender) (sent, failed int) {
	t.Helper()
	sent, failed, err := db.DeliverWebhooks(context.Background(), s, time.Minute, 50)
	if err != nil {
		t.Fatal(err)
	}
	return sent, failed
}

func TestWebhookEventsGoToTheCompanysActiveEndpointsOnly(t *testing.T) {
	c := newClock()
	storetest.Each(t, webhookConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newWebhookWorld(t, db)
		r := newReceiver(t)
		first, _ := w.endpoint(t, w.acme, r.url("/first"))
		second, _ := w.endpoint(t, w.acme, r.url("/second"))
		removed, _ := w.endpoint(t, w.acme, r.url("/removed"))
		otherEnd, _ := w.endpoint(t, w.other, r.url("/other"))
		if err := w.ops.Webhooks.RemoveWebhookEndpoint(ctx, 0, removed.ID); err != nil {
			t.Fatal(err)
		}
		jane := w.invite(t, w.acme, "jane@example.com")
		if err := db.Auth().SetInitialPassword(ctx, jane.ID, "a-long-enough-password"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.History().SaveAliases(ctx, jane.ID, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := db.History().SaveAddresses(ctx, jane.ID, []portal.Address{currentAddress, pastAddress}, false); err != nil {
			t.Fatal(err)
		}
		for _, to := range []portal.StatusID{portal.StatusSetupComplete, portal.StatusIDVStarted} {
			if err := db.Subjects().MoveSubjectStatus(ctx, jane.ID, portal.StatusMove{To: to, Declared: true}); err != nil {
				t.Fatal(err)
			}
		}
		want := []string{portal.WebhookSubmitted, portal.WebhookSetupCompleted, portal.WebhookApplicantInvited}
		for _, tc := range []struct {
			name     string
			endpoint int64
			want     []string
		}{
			{"First", first.ID, want},
			{"Second", second.ID, want},
			{"RemovedGetsNothing", removed.ID, nil},
			{"OtherCompanyGetsNothing", otherEnd.ID, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var got []string
				for _, d := range w.deliveries(t, portal.WebhookDeliveryFilter{EndpointID: tc.endpoint}) {
					if d.SubjectID != jane.ID || d.State != portal.WebhookPending {
						t.Errorf("delivery %+v", d)
					}
					got = append(got, d.EventType)
				}
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Errorf("events %v, want %v", got, tc.want)
				}
			})
		}
		t.Run("EndpointChangesAreAudited", func(t *testing.T) {
			list, err := w.ops.Audit.FindAudit(ctx, portal.AuditFilter{CompanyID: w.acme.ID})
			var got []string
			for _, e := range list {
				if e.SubjectID == 0 {
					got = append(got, e.Action+" "+e.Detail)
				}
			}
			want := fmt.Sprintf("[webhook.removed endpoint %d webhook.added endpoint %d: %s webhook.added endpoint %d: %s webhook.added endpoint %d: %s company.created company %d]",
				removed.ID, removed.ID, r.url("/removed"), second.ID, r.url("/second"), first.ID, r.url("/first"), w.acme.ID)
			if err != nil || fmt.Sprint(got) != want {
				t.Errorf("audit %v, %v; want %s", got, err, want)
			}
		})
		t.Run("AnotherCompanysEndpointIsNotFound", func(t *testing.T) {
			_, err := w.ops.Webhooks.FindWebhookDeliveries(ctx, portal.WebhookDeliveryFilter{CompanyID: w.other.ID, EndpointID: first.ID})
			if portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("err %v, want ENOTFOUND", err)
			}
			if err := w.ops.Webhooks.RemoveWebhookEndpoint(ctx, w.other.ID, first.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("remove: err %v, want ENOTFOUND", err)
			}
		})
		t.Run("TheBodySentIsSigned", func(t *testing.T) {
			if sent, failed := deliver(t, db, sender(c)); sent != 6 || failed != 0 {
				t.Fatalf("sent %d, failed %d; want 6, 0", sent, failed)
			}
			got := r.received()
			if len(got) != 6 {
				t.Fatalf("%d requests", len(got))
			}
			var body struct {
				ID          string          `json:"id"`
				Type        string          `json:"type"`
				CreatedAt   string          `json:"createdAt"`
				ApplicantID int64           `json:"applicantId"`
				Data        json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(got[0].body, &body); err != nil {
				t.Fatal(err)
			}
			if body.Type != portal.WebhookApplicantInvited || body.ApplicantID != jane.ID || body.CreatedAt != "2026-11-22T10:00:00Z" ||
				string(body.Data) != `{"statusId":0}` || got[0].header.Get(webhook.EventIDHeader) != body.ID ||
				got[0].header.Get(webhook.EventTypeHeader) != body.Type {
				t.Errorf("body %s, headers %v", got[0].body, got[0].header)
			}
		})
	})
}

func TestWebhookSecretsAreSealed(t *testing.T) {
	c := newClock()
	storetest.Each(t, webhookConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newWebhookWorld(t, db)
		e, secret := w.endpoint(t, w.acme, "https://hr.example.com/events")
		var sealed []byte
		if err := db.SQL().QueryRow(`SELECT sealed_secret FROM webhook_endpoints WHERE id = $1`, e.ID).Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		if len(secret) < 40 || len(sealed) == 0 || string(sealed) == secret || bytes.Contains(sealed, []byte(secret[6:])) {
			t.Errorf("secret %q stored as %x", secret, sealed)
		}
	})
}

func TestWebhookURLs(t *testing.T) {
	for _, tc := range []struct {
		name, url string
		insecure  bool
		ok        bool
	}{
		{"HTTPS", "https://hr.example.com/events", false, true},
		{"HTTP", "http://hr.example.com/events", false, false},
		{"Localhost", "https://localhost/events", false, false},
		{"Loopback", "https://127.0.0.1:8443/events", false, false},
		{"Private", "https://10.1.2.3/events", false, false},
		{"LinkLocalMetadata", "https://169.254.169.254/latest", false, false},
		{"IPv6Loopback", "https://[::1]/events", false, false},
		{"MappedPrivate", "https://[::ffff:192.168.1.1]/events", false, false},
		{"NotAURL", "hr.example.com", false, false},
		{"Credentials", "https://user:pw@hr.example.com/", false, false},
		{"LoopbackAllowedInDevelopment", "http://127.0.0.1:9000/hook", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := portal.CheckWebhookURL(tc.url, tc.insecure)
			if (err == nil) != tc.ok {
				t.Errorf("CheckWebhookURL(%q) = %v, want ok %v", tc.url, err, tc.ok)
			}
		})
	}
}

func TestWebhookRetriesBackOffUntilTheReceiverComesBack(t *testing.T) {
	c := newClock()
	storetest.Each(t, webhookConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newWebhookWorld(t, db)
		r := newReceiver(t)
		e, secret := w.endpoint(t, w.acme, r.url("/hook"))
		w.invite(t, w.acme, "jane@example.com")
		s := sender(c)
		last := func() portal.WebhookDelivery {
			t.Helper()
			list := w.deliveries(t, portal.WebhookDeliveryFilter{EndpointID: e.ID})
			if len(list) != 1 {
				t.Fatalf("%d deliveries", len(list))
			}
			return list[0]
		}
		steps := []struct {
			name       string
			advance    time.Duration
			setup      func()
			sent, fail int
			attempts   int
			status     int
			state      string
			wait       time.Duration // the least the next attempt waits
		}{
			{"ServerErrorWaitsTenSeconds", 0, func() { r.answer(500) }, 0, 1, 1, 500, portal.WebhookPending, 10 * time.Second},
			{"NotDueYet", 5 * time.Second, nil, 0, 0, 1, 500, portal.WebhookPending, 0},
			{"DownWaitsAMinute", 8 * time.Second, r.Down, 0, 1, 2, 0, portal.WebhookPending, time.Minute},
			{"StillDownWaitsFiveMinutes", 73 * time.Second, nil, 0, 1, 3, 0, portal.WebhookPending, 5 * time.Minute},
			{"BackAndDelivered", 6 * time.Minute, func() { r.Up(); r.answer(204) }, 1, 0, 4, 204, portal.WebhookDelivered, 0},
			{"DeliveredOnce", time.Hour, nil, 0, 0, 4, 204, portal.WebhookDelivered, 0},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				c.advance(st.advance)
				if st.setup != nil {
					st.setup()
				}
				sent, failed := deliver(t, db, s)
				d := last()
				if sent != st.sent || failed != st.fail || len(d.Attempts) != st.attempts || d.LastStatus != st.status || d.State != st.state {
					t.Fatalf("sent %d failed %d; delivery %+v", sent, failed, d)
				}
				if st.wait > 0 {
					if wait := d.NextAttemptAt.Sub(c.now()); wait < st.wait || wait > st.wait*6/5+time.Millisecond {
						t.Errorf("next attempt in %s, want %s plus up to a fifth of jitter", wait, st.wait)
					}
					if a := d.Attempts[len(d.Attempts)-1]; a.Error == "" || !a.At.Equal(c.now()) {
						t.Errorf("attempt %+v: want its time and error", a)
					}
				}
			})
		}
		got := r.received()
		if len(got) != 2 {
			t.Fatalf("the receiver got %d requests, want 2 (the 500 and the delivery)", len(got))
		}
		if err := webhook.Verify(secret, got[1].header.Get(webhook.SignatureHeader), got[1].body, c.now().Add(-time.Hour), webhook.ReplayWindow); err != nil {
			t.Errorf("the delivery's signature: %v", err)
		}
		if string(got[0].body) != string(got[1].body) || got[0].header.Get(webhook.EventIDHeader) != got[1].header.Get(webhook.EventIDHeader) {
			t.Errorf("a retry sends the same event: %s / %s", got[0].body, got[1].body)
		}
	})
}

func TestWebhookDeliveryFailsAfterItsLastAttempt(t *testing.T) {
	c := newClock()
	storetest.Each(t, webhookConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newWebhookWorld(t, db)
		r := newReceiver(t)
		r.answer(503)
		e, _ := w.endpoint(t, w.acme, r.url("/hook"))
		w.invite(t, w.acme, "jane@example.com")
		for range portal.MaxWebhookAttempts + 2 {
			deliver(t, db, sender(c))
			c.advance(30 * time.Hour)
		}
		d := w.deliveries(t, portal.WebhookDeliveryFilter{EndpointID: e.ID})[0]
		if d.State != portal.WebhookFailed || len(d.Attempts) != portal.MaxWebhookAttempts || d.NextAttemptAt != nil {
			t.Fatalf("delivery %+v after %d attempts", d, len(d.Attempts))
		}
		t.Run("RetriedByHandOnce", func(t *testing.T) {
			r.answer(200)
			if err := w.ops.Webhooks.RetryWebhookDelivery(ctx, w.other.ID, d.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("another company's retry: %v, want ENOTFOUND", err)
			}
			if err := w.ops.Webhooks.RetryWebhookDelivery(ctx, 0, d.ID); err != nil {
				t.Fatal(err)
			}
			if sent, _ := deliver(t, db, sender(c)); sent != 1 {
				t.Errorf("sent %d, want 1", sent)
			}
			if err := w.ops.Webhooks.RetryWebhookDelivery(ctx, 0, d.ID); portal.ErrorCode(err) != portal.ECONFLICT {
				t.Errorf("retrying a delivered one: %v, want ECONFLICT", err)
			}
		})
	})
}

// cutShort is a sender whose process stops while sending: the claim stays
// until its lease ends.
type cutShort struct{ cancel context.CancelFunc }

func (s cutShort) SendWebhook(ctx context.Context, _ portal.WebhookMessage) (int, error) {
	s.cancel()
	return 0, context.Canceled
}

func TestWebhookDeliveriesSurviveARestart(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		c := newClock()
		cfg := webhookConfig(t, c)
		first := open(cfg)
		w := newWebhookWorld(t, first)
		r := newReceiver(t)
		e, _ := w.endpoint(t, w.acme, r.url("/hook"))
		w.invite(t, w.acme, "jane@example.com")
		w.invite(t, w.acme, "carl@example.com")
		// The first process claims the batch and stops mid-send.
		ctx, cancel := context.WithCancel(context.Background())
		if _, _, err := first.DeliverWebhooks(ctx, cutShort{cancel}, time.Minute, 10); err != nil {
			t.Fatal(err)
		}
		first.Close()

		second := open(cfg)
		if sent, _ := deliver(t, second, sender(c)); sent != 0 {
			t.Errorf("sent %d while the first process's claim holds", sent)
		}
		c.advance(61 * time.Second)
		if sent, failed := deliver(t, second, sender(c)); sent != 2 || failed != 0 {
			t.Errorf("after the claim ran out: sent %d, failed %d; want 2, 0", sent, failed)
		}
		list, err := second.Operator().Webhooks.FindWebhookDeliveries(context.Background(), portal.WebhookDeliveryFilter{EndpointID: e.ID})
		if err != nil || len(list) != 2 || list[0].State != portal.WebhookDelivered || len(list[0].Attempts) != 1 {
			t.Errorf("deliveries %+v, %v; want both delivered at the first counted attempt", list, err)
		}
	})
}

func TestTwoWorkersNeverDeliverOneDeliveryTwice(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		c := newClock()
		cfg := webhookConfig(t, c)
		a, b := open(cfg), open(cfg)
		w := newWebhookWorld(t, a)
		r := newReceiver(t)
		for i := range 3 {
			w.endpoint(t, w.acme, r.url(fmt.Sprintf("/hook%d", i)))
		}
		for i := range 10 {
			w.invite(t, w.acme, fmt.Sprintf("applicant%d@example.com", i))
		}
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for _, db := range []*store.DB{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					sent, failed, err := db.DeliverWebhooks(context.Background(), sender(c), time.Minute, 4)
					if err != nil {
						errs <- err
						return
					}
					if sent+failed == 0 {
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, g := range r.received() {
			seen[g.path+" "+g.header.Get(webhook.EventIDHeader)]++
		}
		if len(seen) != 30 {
			t.Errorf("%d distinct deliveries received, want 30", len(seen))
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("%s received %d times", k, n)
			}
		}
	})
}
