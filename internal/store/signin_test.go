package store_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

const portalBase = "https://portal.example.com"

// mailsFor lists the outbox's mails to address, oldest first.
func mailsFor(t *testing.T, db *store.DB, address string) []store.Mail {
	t.Helper()
	mails, err := db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Mail
	for _, m := range mails {
		if strings.EqualFold(m.To, address) {
			out = append(out, m)
		}
	}
	return out
}

// linkIn is the token of the path's link in body.
func linkIn(t *testing.T, body, path string) string {
	t.Helper()
	_, after, ok := strings.Cut(body, portalBase+path+"?token=")
	if !ok {
		t.Fatalf("no %s link in %q", path, body)
	}
	return strings.Fields(after)[0]
}

var sixDigits = regexp.MustCompile(`\b\d{6}\b`)

// codeIn is the sign-in code in a mail or text body.
func codeIn(t *testing.T, body string) string {
	t.Helper()
	code := sixDigits.FindString(body)
	if code == "" {
		t.Fatalf("no code in %q", body)
	}
	return code
}

func TestRenewLink(t *testing.T) {
	c := newClock()
	cfg := sessionConfig(t, c)
	cfg.InvitationTTL = 72 * time.Hour
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		signIn := db.SignIn()
		renew := func(t *testing.T, r portal.LinkRenewal) {
			t.Helper()
			r.BaseURL = portalBase
			if r.IP == "" {
				r.IP = "192.0.2.7"
			}
			if err := signIn.RenewLink(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		state := func(t *testing.T, kind, token string) string {
			t.Helper()
			s, err := signIn.LinkState(ctx, kind, token)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}

		t.Run("ExpiredInvitationGetsANewInvitationThatWorks", func(t *testing.T) {
			old, err := db.Auth().CreateInvitation(ctx, w.invited.ID)
			if err != nil {
				t.Fatal(err)
			}
			c.advance(73 * time.Hour)
			if got := state(t, portal.LinkInvitation, old); got != portal.LinkExpired {
				t.Fatalf("state = %q; want expired", got)
			}
			renew(t, portal.LinkRenewal{Kind: portal.LinkInvitation, Token: old})
			mails := mailsFor(t, db, "pat@example.com")
			if len(mails) != 1 || !strings.Contains(mails[0].Subject, "invited") {
				t.Fatalf("mails = %+v", mails)
			}
			token := linkIn(t, mails[0].Body, "/setup")
			if got := state(t, portal.LinkInvitation, token); got != portal.LinkValid {
				t.Fatalf("new link state = %q", got)
			}
			if _, err := db.Auth().TokenLogin(ctx, token); err != nil {
				t.Fatalf("token login with the new link: %v", err)
			}
			if _, err := db.Auth().TokenLogin(ctx, old); !errors.Is(err, portal.ErrInvitation) {
				t.Fatalf("old link: %v", err)
			}
		})

		t.Run("UsedInvitationGetsAResetLink", func(t *testing.T) {
			token, err := db.Auth().CreateInvitation(ctx, w.invited.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Auth().SetInitialPassword(ctx, w.invited.ID, goodPass); err != nil {
				t.Fatal(err)
			}
			if got := state(t, portal.LinkInvitation, token); got != portal.LinkUsed {
				t.Fatalf("state = %q; want used", got)
			}
			before := len(mailsFor(t, db, "pat@example.com"))
			renew(t, portal.LinkRenewal{Kind: portal.LinkInvitation, Token: token})
			mails := mailsFor(t, db, "pat@example.com")
			if len(mails) != before+1 {
				t.Fatalf("mails = %d; want %d", len(mails), before+1)
			}
			reset := linkIn(t, mails[len(mails)-1].Body, "/reset")
			if err := db.Auth().ConfirmPasswordReset(ctx, reset, "a fresh new passphrase"); err != nil {
				t.Fatalf("the reset link: %v", err)
			}
			if got := state(t, portal.LinkReset, reset); got != portal.LinkUsed {
				t.Fatalf("spent reset state = %q", got)
			}

			t.Run("SpentResetGetsANewReset", func(t *testing.T) {
				renew(t, portal.LinkRenewal{Kind: portal.LinkReset, Token: reset})
				mails := mailsFor(t, db, "pat@example.com")
				again := linkIn(t, mails[len(mails)-1].Body, "/reset")
				if again == reset {
					t.Fatal("the same link again")
				}
				if got := state(t, portal.LinkReset, again); got != portal.LinkValid {
					t.Fatalf("new reset state = %q", got)
				}
			})
		})

		t.Run("TheMailGoesToTheAddressOnFileOnly", func(t *testing.T) {
			before := len(mailsFor(t, db, "jane@example.com"))
			// A token of Jane's with someone else's address beside it: the
			// token decides whose, and the mail goes to Jane's address.
			if err := db.Auth().RequestPasswordReset(ctx, "jane@example.com", "203.0.113.50", portalBase); err != nil {
				t.Fatal(err)
			}
			token := linkIn(t, mailsFor(t, db, "jane@example.com")[before].Body, "/reset")
			renew(t, portal.LinkRenewal{Kind: portal.LinkReset, Token: token, Email: "attacker@example.net"})
			if n := len(mailsFor(t, db, "attacker@example.net")); n != 0 {
				t.Fatalf("%d mails to the address in the request", n)
			}
			if n := len(mailsFor(t, db, "jane@example.com")); n != before+2 {
				t.Fatalf("mails to Jane = %d; want %d", n, before+2)
			}
		})

		t.Run("UnknownAddressOrTokenQueuesNothing", func(t *testing.T) {
			mails, _ := db.Outbox(ctx)
			renew(t, portal.LinkRenewal{Kind: portal.LinkInvitation, Email: "ghost@example.com"})
			renew(t, portal.LinkRenewal{Kind: portal.LinkReset, Token: "bm90LWEtcmVhbC10b2tlbi1qdXN0LWEtZ3Vlc3MtMTIzNDU2Nzg5"})
			if after, _ := db.Outbox(ctx); len(after) != len(mails) {
				t.Fatalf("outbox grew from %d to %d", len(mails), len(after))
			}
			if got := state(t, portal.LinkReset, "bm90LWEtcmVhbC10b2tlbi1qdXN0LWEtZ3Vlc3MtMTIzNDU2Nzg5"); got != portal.LinkUnknown {
				t.Fatalf("unknown token state = %q", got)
			}
		})

		t.Run("NeitherTokenNorEmailIsAFieldError", func(t *testing.T) {
			pe := wantCode(t, signIn.RenewLink(ctx, portal.LinkRenewal{Kind: portal.LinkInvitation}), portal.EINVALID)
			if pe.Fields[0].Field != "email" {
				t.Fatalf("fields = %v", pe.Fields)
			}
			wantCode(t, signIn.RenewLink(ctx, portal.LinkRenewal{Kind: "other", Email: "jane@example.com"}), portal.EINVALID)
		})

		t.Run("ThrottledPerAddressAndPerIP", func(t *testing.T) {
			c.advance(2 * time.Hour) // the earlier subtests' requests leave the window
			before := len(mailsFor(t, db, "jane@example.com"))
			for i := 0; i < store.MaxResetsPerUser+3; i++ {
				renew(t, portal.LinkRenewal{Kind: portal.LinkReset, Email: "Jane@Example.com", IP: "198.51.100.9"})
			}
			if n := len(mailsFor(t, db, "jane@example.com")) - before; n != store.MaxResetsPerUser {
				t.Fatalf("mails = %d; want %d", n, store.MaxResetsPerUser)
			}
			// One IP asking for many addresses meets the IP's limit.
			c.advance(2 * time.Hour)
			total, _ := db.Outbox(ctx)
			for i := 0; i < store.MaxResetsPerIP+5; i++ {
				who := []string{"jane@example.com", "pat@example.com"}[i%2]
				if i%4 >= 2 {
					who = "ghost" + string(rune('a'+i)) + "@example.com"
				}
				renew(t, portal.LinkRenewal{Kind: portal.LinkReset, Email: who, IP: "198.51.100.10"})
			}
			after, _ := db.Outbox(ctx)
			if n := len(after) - len(total); n > store.MaxResetsPerUser*2 || n == 0 {
				t.Fatalf("mails from one IP = %d", n)
			}
			c.advance(time.Hour + time.Minute)
			renew(t, portal.LinkRenewal{Kind: portal.LinkReset, Email: "jane@example.com", IP: "198.51.100.10"})
			if final, _ := db.Outbox(ctx); len(final) != len(after)+1 {
				t.Fatal("no mail after the window passed")
			}
		})
	})
}

func TestLoginCode(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		signIn := db.SignIn()
		request := func(t *testing.T, username, channel string) {
			t.Helper()
			if err := signIn.RequestLoginCode(ctx, portal.LoginCodeRequest{Username: username, Channel: channel, IP: "192.0.2.20"}); err != nil {
				t.Fatal(err)
			}
		}
		lastCode := func(t *testing.T) string {
			t.Helper()
			mails := mailsFor(t, db, "jane@example.com")
			if len(mails) == 0 {
				t.Fatal("no mail")
			}
			return codeIn(t, mails[len(mails)-1].Body)
		}
		login := func(username, code, ip string) (*portal.TokenPair, error) {
			return signIn.LoginWithCode(ctx, portal.CodeCredentials{ClientID: spaID, ClientSecret: spaSecret, Username: username, Code: code, IP: ip})
		}

		t.Run("SingleUse", func(t *testing.T) {
			request(t, "Jane@Example.com", portal.SendByEmail)
			code := lastCode(t)
			pair, err := login("jane@example.com", code[:3]+" "+code[3:], "192.0.2.20")
			if err != nil {
				t.Fatal(err)
			}
			if pair.Scope != portal.ScopeDefault || pair.RefreshToken == "" {
				t.Fatalf("pair = %+v", pair)
			}
			if _, err := db.Auth().Authenticate(ctx, pair.AccessToken); err != nil {
				t.Fatal(err)
			}
			_, err = login("jane@example.com", code, "192.0.2.20")
			wantErr(t, err, portal.ErrBadCode)
		})

		t.Run("ParallelReplayOnlyOneWins", func(t *testing.T) {
			request(t, "jane@example.com", portal.SendByEmail)
			code := lastCode(t)
			errs := parallel(8, func(i int) error {
				_, err := login("jane@example.com", code, "192.0.2.30")
				return err
			})
			won := 0
			for _, err := range errs {
				switch {
				case err == nil:
					won++
				case errors.Is(err, portal.ErrBadCode), portal.ErrorCode(err) == portal.ETHROTTLED:
					// the losers are wrong tries, and past five the throttle answers
				default:
					t.Fatalf("err = %v", err)
				}
			}
			if won != 1 {
				t.Fatalf("%d logins with one code; want 1", won)
			}
		})

		t.Run("ExpiresAfterTenMinutes", func(t *testing.T) {
			request(t, "jane@example.com", portal.SendByEmail)
			code := lastCode(t)
			c.advance(portal.LoginCodeTTL)
			_, err := login("jane@example.com", code, "192.0.2.40")
			wantErr(t, err, portal.ErrBadCode)
		})

		t.Run("ANewCodeEndsTheOlder", func(t *testing.T) {
			request(t, "jane@example.com", portal.SendByEmail)
			first := lastCode(t)
			request(t, "jane@example.com", portal.SendByEmail)
			second := lastCode(t)
			if first != second {
				_, err := login("jane@example.com", first, "192.0.2.41")
				wantErr(t, err, portal.ErrBadCode)
			}
			if _, err := login("jane@example.com", second, "192.0.2.41"); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("FiveWrongTriesSpendTheCode", func(t *testing.T) {
			c.advance(2 * time.Hour) // the requests above leave their window
			request(t, "jane@example.com", portal.SendByEmail)
			code := lastCode(t)
			wrong := "000000"
			if code == wrong {
				wrong = "111111"
			}
			// From five addresses, so the throttle (5 per user and IP) is
			// not what refuses the right code after.
			for i := 0; i < portal.MaxCodeAttempts; i++ {
				_, err := login("jane@example.com", wrong, "192.0.2."+string(rune('a'+i)))
				wantErr(t, err, portal.ErrBadCode)
			}
			_, err := login("jane@example.com", code, "192.0.2.50")
			wantErr(t, err, portal.ErrBadCode)
		})

		t.Run("WrongCodesCountInThePasswordThrottle", func(t *testing.T) {
			c.advance(time.Hour)
			request(t, "jane@example.com", portal.SendByEmail)
			for i := 0; i < store.MaxFailuresPerUserAndIP; i++ {
				_, err := login("jane@example.com", "12345", "192.0.2.60")
				wantErr(t, err, portal.ErrBadCode)
			}
			_, err := login("jane@example.com", lastCode(t), "192.0.2.60")
			wantCode(t, err, portal.ETHROTTLED)
			_, err = w.login("jane@example.com", goodPass, "192.0.2.60")
			wantCode(t, err, portal.ETHROTTLED)
		})

		t.Run("UnknownOrPasswordlessUserIsSilent", func(t *testing.T) {
			before, _ := db.Outbox(ctx)
			request(t, "ghost@example.com", portal.SendByEmail)
			request(t, "pat@example.com", portal.SendByEmail) // invited, no password yet
			if after, _ := db.Outbox(ctx); len(after) != len(before) {
				t.Fatalf("outbox grew from %d to %d", len(before), len(after))
			}
			_, err := login("ghost@example.com", "123456", "192.0.2.70")
			wantErr(t, err, portal.ErrBadCode)
		})

		t.Run("RequestsThrottled", func(t *testing.T) {
			c.advance(2 * time.Hour)
			before := len(mailsFor(t, db, "jane@example.com"))
			for i := 0; i < store.MaxResetsPerUser+2; i++ {
				request(t, "jane@example.com", portal.SendByEmail)
			}
			if n := len(mailsFor(t, db, "jane@example.com")) - before; n != store.MaxResetsPerUser {
				t.Fatalf("codes sent = %d; want %d", n, store.MaxResetsPerUser)
			}
		})

		t.Run("ChannelSMS", func(t *testing.T) {
			c.advance(2 * time.Hour)
			sam, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "sam@example.com", FirstName: "Sam", LastName: "Roe", Phone: "(202) 555-0143"})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Auth().SetInitialPassword(ctx, sam.ID, goodPass); err != nil {
				t.Fatal(err)
			}
			request(t, "sam@example.com", portal.SendByText)
			texts, err := db.Operator().Maintenance.TextOutbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(texts) != 1 || texts[0].To != "+12025550143" {
				t.Fatalf("texts = %+v", texts)
			}
			if n := len(mailsFor(t, db, "sam@example.com")); n != 0 {
				t.Fatalf("%d mails for a text", n)
			}
			if _, err := login("sam@example.com", codeIn(t, texts[0].Body), "192.0.2.80"); err != nil {
				t.Fatal(err)
			}
			// Without a number on file, a text request sends an e-mail.
			request(t, "jane@example.com", portal.SendByText)
			if texts, _ := db.Operator().Maintenance.TextOutbox(ctx); len(texts) != 1 {
				t.Fatalf("texts = %d", len(texts))
			}
			if _, err := login("jane@example.com", lastCode(t), "192.0.2.81"); err != nil {
				t.Fatal(err)
			}
		})
	})
}
