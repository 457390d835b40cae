package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

const handoffBase = "https://portal.example.com/"

// handoffApplicant is an applicant of their own with a password, signed
// in: each case gets one, so the cases' links and throttles stay apart.
type handoffApplicant struct {
	subject *portal.Subject
	sess    portal.Session
}

var handoffApplicants atomic.Int64

func newHandoffApplicant(t *testing.T, db *store.DB) handoffApplicant {
	t.Helper()
	ctx := context.Background()
	n := handoffApplicants.Add(1)
	company := &portal.Company{Name: fmt.Sprintf("Acme %d", n)}
	if err := db.CreateCompany(ctx, company); err != nil {
		t.Fatal(err)
	}
	if err := db.UpsertClient(ctx, spaID, spaSecret, "test"); err != nil {
		t.Fatal(err)
	}
	email := fmt.Sprintf("jane%d@example.com", n)
	sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: company.ID, Email: email, FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Auth().SetInitialPassword(ctx, sub.ID, goodPass); err != nil {
		t.Fatal(err)
	}
	pair, err := db.Auth().Login(ctx, portal.Credentials{ClientID: spaID, ClientSecret: spaSecret, Username: email, Password: goodPass, IP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := db.Auth().Authenticate(ctx, pair.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	return handoffApplicant{subject: sub, sess: *sess}
}

// handoffToken is the token of a handoff link.
func handoffToken(t *testing.T, link string) string {
	t.Helper()
	_, token, ok := strings.Cut(link, "/continue?token=")
	if !ok || token == "" {
		t.Fatalf("link %q is not BASE/continue?token=...", link)
	}
	return token
}

func TestHandoff(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		h := db.Handoffs()
		create := func(t *testing.T, a handoffApplicant, path, send string) *portal.Handoff {
			t.Helper()
			out, err := h.CreateHandoff(ctx, a.sess, portal.HandoffRequest{Path: path, Send: send, BaseURL: handoffBase})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		redeem := func(token string) (*portal.HandoffRedemption, error) {
			return h.RedeemHandoff(ctx, spaID, spaSecret, token, "198.51.100.7")
		}

		t.Run("RedeemSignsInOnTheSamePage", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			link := create(t, a, "/addresses?step=2", "")
			if !strings.HasPrefix(link.URL, "https://portal.example.com/continue?token=") {
				t.Fatalf("url = %q", link.URL)
			}
			if want := c.t.Add(10 * time.Minute); !link.ExpiresAt.Equal(want) {
				t.Errorf("expiresAt = %v; want %v", link.ExpiresAt, want)
			}
			red, err := redeem(handoffToken(t, link.URL))
			if err != nil {
				t.Fatal(err)
			}
			if red.Path != "/addresses?step=2" {
				t.Errorf("path = %q; want /addresses?step=2", red.Path)
			}
			sess, err := db.Auth().Authenticate(ctx, red.Tokens.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			if sess.SubjectID != a.subject.ID || sess.Scope != portal.ScopeDefault || sess.FamilyID == a.sess.FamilyID {
				t.Errorf("session = %+v; want subject %d, scope default, a new family", sess, a.subject.ID)
			}
			if red.Tokens.RefreshToken == "" {
				t.Error("no refresh token: the other device's login could not be renewed")
			}
			trail, err := db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: a.subject.ID})
			if err != nil {
				t.Fatal(err)
			}
			var actions []string
			for _, e := range trail {
				actions = append(actions, e.Action)
				if strings.Contains(e.Detail, handoffToken(t, link.URL)) {
					t.Errorf("the audit trail holds the token: %q", e.Detail)
				}
			}
			// Before them, the password and sign-in of the first device.
			if want := "handoff.used,handoff.created,login.succeeded,password.set"; strings.Join(actions, ",") != want {
				t.Errorf("audit = %s; want %s", strings.Join(actions, ","), want)
			}
			if trail[0].Actor.Address != "198.51.100.7" || trail[0].Actor.ID != a.subject.ID {
				t.Errorf("the use is recorded as %+v; want the applicant from the other device", trail[0].Actor)
			}
		})

		t.Run("SecondUseRefused", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			token := handoffToken(t, create(t, a, "/personal", "").URL)
			if _, err := redeem(token); err != nil {
				t.Fatal(err)
			}
			_, err := redeem(token)
			wantErr(t, err, portal.ErrHandoffUsed)
		})

		t.Run("ParallelReplayOnlyOneWins", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			token := handoffToken(t, create(t, a, "/personal", "").URL)
			const n = 8
			errs := make(chan error, n)
			for range n {
				go func() {
					_, err := redeem(token)
					errs <- err
				}()
			}
			ok := 0
			for range n {
				if err := <-errs; err == nil {
					ok++
				} else if err != portal.ErrHandoffUsed {
					t.Errorf("a losing use = %v; want %v", err, portal.ErrHandoffUsed)
				}
			}
			if ok != 1 {
				t.Fatalf("%d uses succeeded; want exactly 1", ok)
			}
			var families int
			if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM token_families WHERE subject_id = $1`, a.subject.ID).Scan(&families); err != nil {
				t.Fatal(err)
			}
			if families != 2 {
				t.Errorf("%d logins; want 2 (the first device's and one from the link)", families)
			}
		})

		t.Run("ExpiresAfterTenMinutes", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			early := handoffToken(t, create(t, a, "/personal", "").URL)
			late := handoffToken(t, create(t, a, "/personal", "").URL)
			c.advance(10*time.Minute - time.Second)
			if _, err := redeem(early); err != nil {
				t.Fatalf("a link 9m59s old: %v", err)
			}
			c.advance(time.Second)
			_, err := redeem(late)
			wantErr(t, err, portal.ErrHandoffExpired)
		})

		t.Run("UnknownTokenRefused", func(t *testing.T) {
			for _, token := range []string{"", "nope", strings.Repeat("x", 200), "a b"} {
				_, err := redeem(token)
				wantErr(t, err, portal.ErrHandoffInvalid)
			}
		})

		t.Run("WrongClientRefused", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			token := handoffToken(t, create(t, a, "/personal", "").URL)
			_, err := h.RedeemHandoff(ctx, spaID, "wrong", token, "198.51.100.7")
			wantErr(t, err, portal.ErrInvalidClient)
			if _, err := redeem(token); err != nil {
				t.Fatalf("a refused client spent the link: %v", err)
			}
		})

		t.Run("PathValidation", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			for _, tc := range []struct{ path, want string }{
				{"/addresses", "/addresses"},
				{"/Addresses/", "/Addresses"},
				{"/employment?add=1&x=%20y", "/employment?add=1&x=%20y"},
				{"/print/summary", "/print/summary"},
				{"/", "/"},
			} {
				out := create(t, a, tc.path, "")
				red, err := redeem(handoffToken(t, out.URL))
				if err != nil {
					t.Fatal(err)
				}
				if red.Path != tc.want {
					t.Errorf("path %q opens %q; want %q", tc.path, red.Path, tc.want)
				}
			}
			for _, bad := range []string{"", "https://evil.example/addresses", "//evil.example/addresses", "/\\evil.example",
				"addresses", "/nowhere", "/continue?token=x", "/login", "/reset?token=x", "/setup?token=abc", "/register/abc",
				"/addresses#x", "javascript:alert(1)", "/addresses/../../etc", "/add resses", "/addresses\n", "/" + strings.Repeat("a", 2100)} {
				_, err := h.CreateHandoff(ctx, a.sess, portal.HandoffRequest{Path: bad, BaseURL: handoffBase})
				pe := wantCode(t, err, portal.EINVALID)
				if len(pe.Fields) != 1 || pe.Fields[0].Field != "path" {
					t.Errorf("path %q: fields = %+v; want one on path", bad, pe.Fields)
				}
			}
			_, err := h.CreateHandoff(ctx, a.sess, portal.HandoffRequest{Path: "/personal", Send: "fax", BaseURL: handoffBase})
			wantCode(t, err, portal.EINVALID)
		})

		t.Run("SetupCredentialRefused", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			setup := a.sess
			setup.Scope = portal.ScopeSetup
			_, err := h.CreateHandoff(ctx, setup, portal.HandoffRequest{Path: "/personal", BaseURL: handoffBase})
			wantCode(t, err, portal.EFORBIDDEN)
		})

		t.Run("EmailedToTheAddressOnFile", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			link := create(t, a, "/addresses", portal.SendByEmail)
			if link.SentTo != a.subject.Email {
				t.Errorf("sentTo = %q; want %q", link.SentTo, a.subject.Email)
			}
			mails, err := db.Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []store.Mail
			for _, m := range mails {
				if m.To == a.subject.Email {
					got = append(got, m)
				}
			}
			if len(got) != 1 {
				t.Fatalf("%d mails to %s; want 1", len(got), a.subject.Email)
			}
			m := got[0]
			if m.Subject != "Continue your application on another device" || !strings.Contains(m.Body, link.URL+"\n") ||
				!strings.Contains(m.Body, "10 minutes") {
				t.Errorf("mail = %q / %q; want the link and its lifetime", m.Subject, m.Body)
			}
			if strings.Count(m.Body, "token=") != 1 || strings.Contains(m.Body, a.sess.ClientID) {
				t.Errorf("the mail holds more than its link: %q", m.Body)
			}
		})

		t.Run("TextedOnlyToAPhoneOnFile", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			_, err := h.CreateHandoff(ctx, a.sess, portal.HandoffRequest{Path: "/addresses", Send: portal.SendByText, BaseURL: handoffBase})
			pe := wantCode(t, err, portal.EINVALID)
			if len(pe.Fields) != 1 || pe.Fields[0].Field != "send" || !strings.Contains(pe.Fields[0].Message, "no mobile phone number") {
				t.Errorf("fields = %+v; want the missing phone on send", pe.Fields)
			}
			ch, err := h.HandoffChannels(ctx, a.subject.ID)
			if err != nil || ch.PhoneEnding != "" || ch.Email != a.subject.Email {
				t.Fatalf("channels = %+v, %v; want the e-mail and no phone", ch, err)
			}
			phone := "202 456 1111"
			if _, err := db.Subjects().UpdateSubject(ctx, a.subject.ID, portal.SubjectUpdate{Phone: &phone}); err != nil {
				t.Fatal(err)
			}
			if ch, _ := h.HandoffChannels(ctx, a.subject.ID); ch.PhoneEnding != "1111" {
				t.Errorf("phone ending = %q; want 1111", ch.PhoneEnding)
			}
			link := create(t, a, "/addresses", portal.SendByText)
			if link.SentTo != "1111" {
				t.Errorf("sentTo = %q; want the number's last digits", link.SentTo)
			}
			texts, err := db.TextOutbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var mine []portal.TextMessage
			for _, m := range texts {
				if m.SubjectID == a.subject.ID {
					mine = append(mine, m)
				}
			}
			if len(mine) != 1 || mine[0].To != "+12024561111" || !strings.HasSuffix(mine[0].Body, " "+link.URL) ||
				strings.Count(mine[0].Body, "token=") != 1 {
				t.Fatalf("texts = %+v; want one to +12024561111 ending with the link", mine)
			}
		})

		t.Run("Throttled", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			other := newHandoffApplicant(t, db)
			for range portal.MaxHandoffsPerWindow {
				create(t, a, "/personal", "")
			}
			_, err := h.CreateHandoff(ctx, a.sess, portal.HandoffRequest{Path: "/personal", BaseURL: handoffBase})
			pe := wantCode(t, err, portal.ETHROTTLED)
			if pe.RetryAfter <= 0 || !strings.Contains(pe.Message, "Please wait") {
				t.Errorf("throttle = %+v; want a wait and Retry-After", pe)
			}
			create(t, other, "/personal", "") // another applicant is not held back
			c.advance(time.Hour)
			create(t, a, "/personal", "")
		})

		t.Run("NewPasswordEndsOutstandingLinks", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			token := handoffToken(t, create(t, a, "/personal", "").URL)
			if err := db.Auth().ChangePassword(ctx, a.sess, "192.0.2.1", goodPass, "a brand new passphrase"); err != nil {
				t.Fatal(err)
			}
			_, err := redeem(token)
			wantErr(t, err, portal.ErrHandoffExpired)
		})

		t.Run("SweptAnHourAfterExpiry", func(t *testing.T) {
			a := newHandoffApplicant(t, db)
			create(t, a, "/personal", "")
			c.advance(portal.HandoffTTL + portal.HandoffWindow + time.Minute)
			res, err := db.Sweep(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Handoffs < 1 {
				t.Errorf("swept %d handoffs; want at least 1", res.Handoffs)
			}
			var left int
			if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM handoffs WHERE expires_at < $1`,
				c.t.Add(-portal.HandoffWindow).UnixMilli()).Scan(&left); err != nil {
				t.Fatal(err)
			}
			if left != 0 {
				t.Errorf("%d expired handoffs left", left)
			}
		})
	})
}
