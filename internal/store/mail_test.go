package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

const portalURL = "https://portal.example.com"

// linkToken is the token of the one link under portalURL+path in body.
func linkToken(t *testing.T, body, path string) string {
	t.Helper()
	_, after, ok := strings.Cut(body, portalURL+path+"?token=")
	if !ok {
		t.Fatalf("no %s link in %q", path, body)
	}
	return strings.Fields(after)[0]
}

// mailsTo lists the outbox's mails to one address.
func mailsTo(t *testing.T, db *store.DB, to string) []store.Mail {
	t.Helper()
	all, err := db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Mail
	for _, m := range all {
		if m.To == to {
			out = append(out, m)
		}
	}
	return out
}

// mailWorld is a company and the operator services, on a clock tests move.
type mailWorld struct {
	db      *store.DB
	ops     portal.OperatorServices
	company *portal.Company
}

func newMailWorld(t *testing.T, db *store.DB) *mailWorld {
	t.Helper()
	c := &portal.Company{Name: "Acme Logistics"}
	if err := db.CreateCompany(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return &mailWorld{db: db, ops: db.Operator(), company: c}
}

func (w *mailWorld) invite(t *testing.T, email, baseURL string) *portal.InviteResult {
	t.Helper()
	res, err := w.ops.Invitations.InviteApplicant(context.Background(), portal.InviteRequest{BaseURL: baseURL,
		NewSubject: portal.NewSubject{CompanyID: w.company.ID, Email: email, FirstName: "Riley", LastName: "Stonebridge"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestInvitationAndResetMails(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newMailWorld(t, db)

		t.Run("InvitationMailedWithAWorkingLink", func(t *testing.T) {
			res := w.invite(t, "riley@example.com", portalURL+"/")
			mails := mailsTo(t, db, "riley@example.com")
			if len(mails) != 1 {
				t.Fatalf("%d mails to the applicant, want 1", len(mails))
			}
			m := mails[0]
			if m.Subject != "You're invited to complete your background check for Acme Logistics" {
				t.Errorf("subject %q", m.Subject)
			}
			if !strings.HasPrefix(m.Body, "Hello Riley,\n") || !strings.Contains(m.Body, "within 14 days") || strings.Contains(m.Body, "Stonebridge") {
				t.Errorf("body %q: want the first name only and the link's lifetime", m.Body)
			}
			token := linkToken(t, m.Body, "/setup")
			if token != res.Token {
				t.Errorf("mailed token differs from the invitation's")
			}
			if _, err := db.Auth().TokenLogin(ctx, token); err != nil {
				t.Errorf("the mailed link does not log in: %v", err)
			}
		})
		t.Run("NoBaseURLNoMail", func(t *testing.T) {
			w.invite(t, "quiet@example.com", "")
			if mails := mailsTo(t, db, "quiet@example.com"); len(mails) != 0 {
				t.Errorf("mails = %+v; want none without a base URL", mails)
			}
		})
		t.Run("RefusedInvitationMailsNothing", func(t *testing.T) {
			res := w.invite(t, "set@example.com", "")
			if err := db.Auth().SetInitialPassword(ctx, res.Subject.ID, goodPass); err != nil {
				t.Fatal(err)
			}
			_, err := w.ops.Invitations.InviteApplicant(ctx, portal.InviteRequest{BaseURL: portalURL,
				NewSubject: portal.NewSubject{CompanyID: w.company.ID, Email: "set@example.com", FirstName: "Riley", LastName: "Stonebridge"}})
			wantCode(t, err, portal.ECONFLICT)
			if mails := mailsTo(t, db, "set@example.com"); len(mails) != 0 {
				t.Errorf("mails = %+v; want none for a refused invitation", mails)
			}
		})
		t.Run("ResetMailedWithAWorkingLink", func(t *testing.T) {
			if err := db.Auth().RequestPasswordReset(ctx, "set@example.com", "", portalURL); err != nil {
				t.Fatal(err)
			}
			mails := mailsTo(t, db, "set@example.com")
			if len(mails) != 1 {
				t.Fatalf("%d mails, want the reset", len(mails))
			}
			m := mails[0]
			if m.Subject != "Reset your applicant portal password" || !strings.HasPrefix(m.Body, "Hello Riley,\n") ||
				!strings.Contains(m.Body, "within 1 hour") || strings.Contains(m.Body, "Stonebridge") {
				t.Errorf("mail %q: %q", m.Subject, m.Body)
			}
			if who, err := db.Auth().VerifyPasswordReset(ctx, linkToken(t, m.Body, "/reset")); err != nil || who != "set@example.com" {
				t.Errorf("the mailed link: %q, %v", who, err)
			}
		})
	})
}

// fakeMailer records what it is asked to send; sends to an address in
// failing fail.
type fakeMailer struct {
	mu      sync.Mutex
	sent    map[int64]int
	bodies  map[int64]string // what each sent mail said
	failing map[string]bool
	delay   time.Duration
}

func newFakeMailer() *fakeMailer {
	return &fakeMailer{sent: map[int64]int{}, bodies: map[int64]string{}, failing: map[string]bool{}}
}

func (f *fakeMailer) Send(ctx context.Context, m portal.Mail) error {
	time.Sleep(f.delay)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failing[m.To] {
		return errors.New("550 mailbox\nunavailable")
	}
	f.sent[m.ID]++
	f.bodies[m.ID] = m.Body
	return nil
}

func TestDeliverOutbox(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c.t = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		queue := func(t *testing.T, to string, n int) {
			t.Helper()
			for i := range n {
				if err := db.EnqueueMailForTest(ctx, to, fmt.Sprintf("Mail %d", i), "Hello"); err != nil {
					t.Fatal(err)
				}
			}
		}

		t.Run("ConcurrentDeliveriesSendEachMailOnce", func(t *testing.T) {
			queue(t, "many@example.com", 30)
			mailer := newFakeMailer()
			mailer.delay = time.Millisecond
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Go(func() {
					for range 10 {
						if _, _, err := db.DeliverOutbox(ctx, mailer, time.Minute, 4); err != nil {
							errs[i] = err
							return
						}
					}
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			if len(mailer.sent) != 30 {
				t.Errorf("%d distinct mails sent, want 30", len(mailer.sent))
			}
			for id, n := range mailer.sent {
				if n != 1 {
					t.Errorf("mail %d sent %d times", id, n)
				}
			}
			for _, m := range mailsTo(t, db, "many@example.com") {
				if m.SentAt == nil || m.Attempts != 0 {
					t.Errorf("mail %d: sent at %v, %d attempts", m.ID, m.SentAt, m.Attempts)
				}
			}
		})
		t.Run("SentMailIsNotSentAgain", func(t *testing.T) {
			mailer := newFakeMailer()
			sent, failed, err := db.DeliverOutbox(ctx, mailer, time.Minute, 100)
			if err != nil || sent != 0 || failed != 0 {
				t.Errorf("DeliverOutbox = %d, %d, %v; want nothing to send", sent, failed, err)
			}
		})
		t.Run("FailedSendRetriedLaterWithItsError", func(t *testing.T) {
			queue(t, "bounce@example.com", 1)
			mailer := newFakeMailer()
			mailer.failing["bounce@example.com"] = true
			if sent, failed, err := db.DeliverOutbox(ctx, mailer, time.Minute, 10); err != nil || sent != 0 || failed != 1 {
				t.Fatalf("DeliverOutbox = %d, %d, %v; want 1 failed", sent, failed, err)
			}
			m := mailsTo(t, db, "bounce@example.com")[0]
			if m.SentAt != nil || m.Attempts != 1 || m.LastError != "550 mailbox unavailable" {
				t.Errorf("after a failure: sent %v, %d attempts, error %q", m.SentAt, m.Attempts, m.LastError)
			}
			// Not before its backoff, even though its claim has run out.
			c.advance(store.MailBackoffForTest(1) - time.Second)
			if _, failed, _ := db.DeliverOutbox(ctx, mailer, time.Second, 10); failed != 0 {
				t.Error("retried before its backoff")
			}
			c.advance(time.Second)
			delete(mailer.failing, "bounce@example.com")
			if sent, _, err := db.DeliverOutbox(ctx, mailer, time.Minute, 10); err != nil || sent != 1 {
				t.Fatalf("retry = %d sent, %v", sent, err)
			}
			m = mailsTo(t, db, "bounce@example.com")[0]
			if m.SentAt == nil || m.Attempts != 1 || m.LastError != "" {
				t.Errorf("after the retry: sent %v, %d attempts, error %q", m.SentAt, m.Attempts, m.LastError)
			}
		})
		t.Run("GivenUpAfterTenAttempts", func(t *testing.T) {
			queue(t, "gone@example.com", 1)
			mailer := newFakeMailer()
			mailer.failing["gone@example.com"] = true
			for i := range 12 {
				db.DeliverOutbox(ctx, mailer, time.Minute, 10)
				c.advance(store.MailBackoffForTest(i + 1))
			}
			m := mailsTo(t, db, "gone@example.com")[0]
			if m.Attempts != store.MaxMailAttempts || m.LastError == "" || m.SentAt != nil {
				t.Errorf("mail after 12 tries: %d attempts, error %q", m.Attempts, m.LastError)
			}
		})
		t.Run("ClaimedMailWaitsForItsLease", func(t *testing.T) {
			queue(t, "slow@example.com", 1)
			// A sender stopped in the middle of sending: the mail is
			// neither sent nor failed, and nobody sends it until the
			// claim runs out.
			stopping, stop := context.WithCancel(ctx)
			if sent, failed, err := db.DeliverOutbox(stopping, shutdownMailer(stop), time.Minute, 10); err != nil || sent != 0 || failed != 0 {
				t.Fatalf("interrupted DeliverOutbox = %d, %d, %v", sent, failed, err)
			}
			if m := mailsTo(t, db, "slow@example.com")[0]; m.Attempts != 0 {
				t.Errorf("the interruption counted as %d failed attempts", m.Attempts)
			}
			mailer := newFakeMailer()
			if sent, _, _ := db.DeliverOutbox(ctx, mailer, time.Minute, 10); sent != 0 {
				t.Error("a claimed mail was sent by another sender")
			}
			c.advance(time.Minute)
			if sent, _, _ := db.DeliverOutbox(ctx, mailer, time.Minute, 10); sent != 1 {
				t.Error("the mail was not sent once its claim ran out")
			}
		})
	})
}

// shutdownMailer is a send interrupted by shutdown.
type shutdownMailer context.CancelFunc

func (stop shutdownMailer) Send(ctx context.Context, m portal.Mail) error {
	stop()
	return ctx.Err()
}

// TestNewInvitationRevokesEarlierLinks: every new invitation link (portal
// invite, the operator API, the reminder, the demo's link at each start)
// ends the subject's earlier unused ones, so a link in an old e-mail or
// an old log stops working.
func TestNewInvitationRevokesEarlierLinks(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newMailWorld(t, db)
		first := w.invite(t, "twice@example.com", portalURL)
		second := w.invite(t, "twice@example.com", portalURL)
		third, err := db.Auth().CreateInvitation(ctx, first.Subject.ID) // as the demo does at each start
		if err != nil {
			t.Fatal(err)
		}
		other := w.invite(t, "other@example.com", portalURL)
		for _, tc := range []struct {
			Name  string
			Token string
			Want  string
		}{
			{"FirstRevoked", first.Token, portal.EFORBIDDEN},
			{"SecondRevoked", second.Token, portal.EFORBIDDEN},
			{"NewestWorks", third, ""},
			{"OtherApplicantsLinkWorks", other.Token, ""},
		} {
			t.Run(tc.Name, func(t *testing.T) {
				if _, err := db.Auth().TokenLogin(ctx, tc.Token); portal.ErrorCode(err) != tc.Want {
					t.Errorf("TokenLogin = %v; want code %q", err, tc.Want)
				}
			})
		}
	})
}
