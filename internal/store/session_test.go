package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// clock is a movable time for expiry and throttling tests.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                   { return &clock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)} }
func sessionConfig(t *testing.T, c *clock) store.Config {
	cfg := storetest.Config(t)
	cfg.Now = c.now
	return cfg
}

const (
	spaID     = "spa"
	spaSecret = "spa-secret"
	goodPass  = "a long enough passphrase"
)

// sessionWorld is a company (default preferences) with one applicant who
// has a password and one who is only invited.
type sessionWorld struct {
	db      *store.DB
	company *portal.Company
	jane    *portal.Subject // has a password
	invited *portal.Subject
}

func newSessionWorld(t *testing.T, db *store.DB) *sessionWorld {
	t.Helper()
	ctx := context.Background()
	w := &sessionWorld{db: db, company: &portal.Company{Name: "Acme"}}
	if err := db.CreateCompany(ctx, w.company); err != nil {
		t.Fatal(err)
	}
	if err := db.UpsertClient(ctx, spaID, spaSecret, "test"); err != nil {
		t.Fatal(err)
	}
	var err error
	if w.jane, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "Jane@Example.com", FirstName: "Jane", LastName: "Doe"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Auth().SetInitialPassword(ctx, w.jane.ID, goodPass); err != nil {
		t.Fatal(err)
	}
	if w.invited, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "pat@example.com", FirstName: "Pat", LastName: "Lee"}); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *sessionWorld) login(username, password, ip string) (*portal.TokenPair, error) {
	return w.db.Auth().Login(context.Background(), portal.Credentials{ClientID: spaID, ClientSecret: spaSecret, Username: username, Password: password, IP: ip})
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if err != want {
		t.Fatalf("err = %v; want %v", err, want)
	}
}

func wantCode(t *testing.T, err error, code string) *portal.Error {
	t.Helper()
	pe, ok := err.(*portal.Error)
	if !ok || pe.Code != code {
		t.Fatalf("err = %v; want code %s", err, code)
	}
	return pe
}

func TestLogin(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		t.Run("RightPasswordGivesTokens", func(t *testing.T) {
			pair, err := w.login("JANE@example.com ", goodPass, "192.0.2.1")
			if err != nil || pair.AccessToken == "" || pair.RefreshToken == "" || pair.Scope != portal.ScopeDefault || pair.ExpiresIn != time.Hour {
				t.Fatalf("login = %+v, %v", pair, err)
			}
			sess, err := db.Auth().Authenticate(ctx, pair.AccessToken)
			if err != nil || sess.SubjectID != w.jane.ID {
				t.Fatalf("Authenticate = %+v, %v", sess, err)
			}
		})
		t.Run("WrongPasswordIsBadCredentials", func(t *testing.T) {
			_, err := w.login("jane@example.com", "wrong", "192.0.2.1")
			wantErr(t, err, portal.ErrBadCredentials)
		})
		t.Run("UnknownUserIsBadCredentials", func(t *testing.T) {
			_, err := w.login("nobody@example.com", goodPass, "192.0.2.1")
			wantErr(t, err, portal.ErrBadCredentials)
		})
		t.Run("InvitedUserWithoutPasswordIsBadCredentials", func(t *testing.T) {
			_, err := w.login("pat@example.com", "", "192.0.2.1")
			wantErr(t, err, portal.ErrBadCredentials)
		})
		t.Run("WrongClientSecretIsInvalidClient", func(t *testing.T) {
			_, err := db.Auth().Login(ctx, portal.Credentials{ClientID: spaID, ClientSecret: "nope", Username: "jane@example.com", Password: goodPass})
			wantErr(t, err, portal.ErrInvalidClient)
		})
		t.Run("UnknownClientIsInvalidClient", func(t *testing.T) {
			_, err := db.Auth().Login(ctx, portal.Credentials{ClientID: "other", ClientSecret: spaSecret, Username: "jane@example.com", Password: goodPass})
			wantErr(t, err, portal.ErrInvalidClient)
		})
	})
}

func TestLoginThrottling(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		for _, username := range []string{"jane@example.com", "ghost@example.com"} {
			t.Run("FiveFailuresThrottleTheUsernameFromThatIP_"+strings.Split(username, "@")[0], func(t *testing.T) {
				for i := 0; i < store.MaxFailuresPerUserAndIP; i++ {
					_, err := w.login(username, "wrong", "198.51.100.1")
					wantErr(t, err, portal.ErrBadCredentials)
					c.advance(time.Minute)
				}
				// Even the right password is refused while throttled, and an
				// unknown username gets the same answer as a known one.
				_, err := w.login(username, goodPass, "198.51.100.1")
				pe := wantCode(t, err, portal.ETHROTTLED)
				if pe.RetryAfter <= 0 || pe.RetryAfter > int(store.ThrottleWindow/time.Second) || !strings.Contains(pe.Message, "reset your password") {
					t.Fatalf("RetryAfter = %d, message %q", pe.RetryAfter, pe.Message)
				}
				// The guesser's address does not lock the applicant out
				// from everywhere else.
				_, err = w.login(username, goodPass, "198.51.100.99")
				if username == "jane@example.com" && err != nil {
					t.Fatalf("from another IP: %v", err)
				} else if username != "jane@example.com" {
					wantErr(t, err, portal.ErrBadCredentials)
				}
				c.advance(store.ThrottleWindow)
				if username == "jane@example.com" {
					if _, err := w.login(username, goodPass, "198.51.100.1"); err != nil {
						t.Fatalf("after the window: %v", err)
					}
				} else {
					_, err := w.login(username, goodPass, "198.51.100.1")
					wantErr(t, err, portal.ErrBadCredentials)
				}
			})
		}
		t.Run("SuccessClearsTheUsernamesFailures", func(t *testing.T) {
			for i := 0; i < store.MaxFailuresPerUserAndIP-1; i++ {
				w.login("jane@example.com", "wrong", "203.0.113.5")
			}
			if _, err := w.login("jane@example.com", goodPass, "203.0.113.5"); err != nil {
				t.Fatal(err)
			}
			w.login("jane@example.com", "wrong", "203.0.113.5")
			if _, err := w.login("jane@example.com", goodPass, "203.0.113.5"); err != nil {
				t.Fatalf("one failure after a success throttled: %v", err)
			}
		})
		t.Run("PerIPLimitThrottlesEveryUsernameFromThatIP", func(t *testing.T) {
			c.advance(store.ThrottleWindow)
			for i := 0; i < store.MaxFailuresPerIP; i++ {
				w.login(fmt.Sprintf("user%d@example.com", i), "wrong", "192.0.2.200")
			}
			_, err := w.login("jane@example.com", goodPass, "192.0.2.200")
			pe := wantCode(t, err, portal.ETHROTTLED)
			if strings.Contains(pe.Message, "reset") || !strings.Contains(pe.Message, "from your network") {
				t.Fatalf("message %q; a reset does not lift an IP's limit, so it must not say so", pe.Message)
			}
			if _, err := w.login("jane@example.com", goodPass, "192.0.2.201"); err != nil {
				t.Fatalf("another IP is throttled too: %v", err)
			}
		})
		t.Run("UsernameCeilingHoldsAcrossIPs", func(t *testing.T) {
			c.advance(store.ThrottleWindow)
			for i := 0; i < store.MaxFailuresPerUsername; i++ {
				_, err := w.login("jane@example.com", "wrong", fmt.Sprintf("203.0.113.%d", i/store.MaxFailuresPerUserAndIP))
				wantErr(t, err, portal.ErrBadCredentials)
			}
			_, err := w.login("jane@example.com", goodPass, "192.0.2.99")
			wantCode(t, err, portal.ETHROTTLED)
			c.advance(store.ThrottleWindow)
			if _, err := w.login("jane@example.com", goodPass, "192.0.2.99"); err != nil {
				t.Fatalf("after the window: %v", err)
			}
		})
	})
}

func TestRefreshRotationAndReuse(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		first, err := w.login("jane@example.com", goodPass, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		second, err := db.Auth().Refresh(ctx, spaID, spaSecret, first.RefreshToken)
		if err != nil || second.RefreshToken == first.RefreshToken || second.AccessToken == first.AccessToken {
			t.Fatalf("refresh = %+v, %v; want a new pair", second, err)
		}
		t.Run("WrongClientCannotRefresh", func(t *testing.T) {
			_, err := db.Auth().Refresh(ctx, spaID, "nope", second.RefreshToken)
			wantErr(t, err, portal.ErrInvalidClient)
		})
		t.Run("ReusingASpentRefreshTokenRevokesTheFamily", func(t *testing.T) {
			_, err := db.Auth().Refresh(ctx, spaID, spaSecret, first.RefreshToken)
			wantErr(t, err, portal.ErrInvalidRefresh)
			_, err = db.Auth().Authenticate(ctx, second.AccessToken)
			wantErr(t, err, portal.ErrInvalidToken)
			_, err = db.Auth().Refresh(ctx, spaID, spaSecret, second.RefreshToken)
			wantErr(t, err, portal.ErrInvalidRefresh)
		})
		t.Run("OtherLoginsSurvive", func(t *testing.T) {
			other, err := w.login("jane@example.com", goodPass, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Auth().Authenticate(ctx, other.AccessToken); err != nil {
				t.Fatalf("a separate login was revoked: %v", err)
			}
		})
		t.Run("ExpiredAccessTokenRejected", func(t *testing.T) {
			pair, _ := w.login("jane@example.com", goodPass, "192.0.2.1")
			c.advance(time.Hour)
			_, err := db.Auth().Authenticate(ctx, pair.AccessToken)
			wantErr(t, err, portal.ErrInvalidToken)
			// The refresh token outlives the access token.
			if _, err := db.Auth().Refresh(ctx, spaID, spaSecret, pair.RefreshToken); err != nil {
				t.Fatalf("refresh after the access token expired: %v", err)
			}
		})
		t.Run("RevokeEndsAccessAndRefresh", func(t *testing.T) {
			pair, _ := w.login("jane@example.com", goodPass, "192.0.2.1")
			if err := db.Auth().Revoke(ctx, pair.AccessToken); err != nil {
				t.Fatal(err)
			}
			_, err := db.Auth().Authenticate(ctx, pair.AccessToken)
			wantErr(t, err, portal.ErrInvalidToken)
			_, err = db.Auth().Refresh(ctx, spaID, spaSecret, pair.RefreshToken)
			wantErr(t, err, portal.ErrInvalidRefresh)
		})
	})
}

func TestInvitationsAndPasswords(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		token, err := db.Auth().CreateInvitation(ctx, w.invited.ID)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("ValidInvitationGivesASetupCredential", func(t *testing.T) {
			pair, err := db.Auth().TokenLogin(ctx, token)
			if err != nil || pair.Scope != portal.ScopeSetup || pair.RefreshToken != "" || pair.SubjectID != w.invited.ID {
				t.Fatalf("TokenLogin = %+v, %v", pair, err)
			}
		})
		t.Run("UnknownInvitationForbidden", func(t *testing.T) {
			_, err := db.Auth().TokenLogin(ctx, "not-a-token")
			wantErr(t, err, portal.ErrInvitation)
		})
		t.Run("ExpiredInvitationForbidden", func(t *testing.T) {
			old, _ := db.Auth().CreateInvitation(ctx, w.invited.ID)
			c.advance(14*24*time.Hour + time.Second)
			_, err := db.Auth().TokenLogin(ctx, old)
			wantErr(t, err, portal.ErrInvitation)
			token, _ = db.Auth().CreateInvitation(ctx, w.invited.ID) // a fresh one for the next steps
		})
		t.Run("PasswordBelowTheCompanyMinimumRejected", func(t *testing.T) {
			err := db.Auth().SetInitialPassword(ctx, w.invited.ID, "fourteen chars")
			pe := wantCode(t, err, portal.EINVALID)
			if pe.Fields[0].Field != "password" || !strings.Contains(pe.Fields[0].Message, "15") {
				t.Fatalf("fields = %v", pe.Fields)
			}
		})
		t.Run("CreatingThePasswordConsumesTheInvitation", func(t *testing.T) {
			if err := db.Auth().SetInitialPassword(ctx, w.invited.ID, goodPass); err != nil {
				t.Fatal(err)
			}
			_, err := db.Auth().TokenLogin(ctx, token)
			wantErr(t, err, portal.ErrInvitation)
			wantCode(t, db.Auth().SetInitialPassword(ctx, w.invited.ID, goodPass+"!"), portal.ECONFLICT)
		})
		t.Run("ChangePasswordNeedsTheCurrentOneAndEndsOtherSessions", func(t *testing.T) {
			pair, _ := w.login("pat@example.com", goodPass, "192.0.2.1")
			pe := wantCode(t, db.Auth().ChangePassword(ctx, portal.Session{SubjectID: w.invited.ID}, "", "wrong", "another long passphrase"), portal.EINVALID)
			if pe.Fields[0].Field != "currentPassword" {
				t.Fatalf("fields = %v", pe.Fields)
			}
			if err := db.Auth().ChangePassword(ctx, portal.Session{SubjectID: w.invited.ID}, "", goodPass, "another long passphrase"); err != nil {
				t.Fatal(err)
			}
			_, err := db.Auth().Authenticate(ctx, pair.AccessToken)
			wantErr(t, err, portal.ErrInvalidToken)
			if _, err := w.login("pat@example.com", "another long passphrase", "192.0.2.1"); err != nil {
				t.Fatalf("login with the new password: %v", err)
			}
		})
	})
}

func TestPasswordReset(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		resetToken := func(t *testing.T) string {
			t.Helper()
			if err := db.Auth().RequestPasswordReset(ctx, "jane@example.com", "", "https://portal.example.com/"); err != nil {
				t.Fatal(err)
			}
			mails, _ := db.Outbox(ctx)
			body := mails[len(mails)-1].Body
			_, after, ok := strings.Cut(body, "https://portal.example.com/reset?token=")
			if !ok {
				t.Fatalf("no reset link in %q", body)
			}
			return strings.Fields(after)[0]
		}
		t.Run("UnknownUsernameQueuesNothing", func(t *testing.T) {
			if err := db.Auth().RequestPasswordReset(ctx, "ghost@example.com", "", "https://portal.example.com"); err != nil {
				t.Fatal(err)
			}
			if mails, _ := db.Outbox(ctx); len(mails) != 0 {
				t.Fatalf("outbox = %v", mails)
			}
		})
		t.Run("LinkSetsThePasswordOnce", func(t *testing.T) {
			token := resetToken(t)
			pe := wantCode(t, db.Auth().ConfirmPasswordReset(ctx, token, "short"), portal.EINVALID)
			if pe.Fields[0].Field != "password" {
				t.Fatalf("fields = %v", pe.Fields)
			}
			if err := db.Auth().ConfirmPasswordReset(ctx, token, "a brand new passphrase"); err != nil {
				t.Fatal(err)
			}
			if _, err := w.login("jane@example.com", "a brand new passphrase", "192.0.2.1"); err != nil {
				t.Fatalf("login with the reset password: %v", err)
			}
			pe = wantCode(t, db.Auth().ConfirmPasswordReset(ctx, token, "yet another passphrase"), portal.EINVALID)
			if pe.Fields[0].Field != "token" {
				t.Fatalf("second use fields = %v", pe.Fields)
			}
		})
		t.Run("ExpiredLinkRejected", func(t *testing.T) {
			token := resetToken(t)
			c.advance(time.Hour)
			wantCode(t, db.Auth().ConfirmPasswordReset(ctx, token, "a brand new passphrase"), portal.EINVALID)
		})
		t.Run("NoPlaintextTokensStored", func(t *testing.T) {
			token := resetToken(t)
			invite, _ := db.Auth().CreateInvitation(ctx, w.invited.ID)
			pair, _ := w.login("jane@example.com", "a brand new passphrase", "192.0.2.1")
			for _, q := range []string{`SELECT token_hash FROM tokens`, `SELECT token_hash FROM invitations`, `SELECT token_hash FROM password_resets`} {
				rows, err := db.SQL().Query(q)
				if err != nil {
					t.Fatal(err)
				}
				for rows.Next() {
					var h string
					rows.Scan(&h)
					for _, secret := range []string{token, invite, pair.AccessToken, pair.RefreshToken} {
						if h == secret || strings.Contains(h, secret) {
							t.Fatalf("%s holds a plaintext token", q)
						}
					}
				}
				rows.Close()
			}
		})
	})
}

func TestSubjectsAndStatus(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		t.Run("DuplicateEmailConflicts", func(t *testing.T) {
			_, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "JANE@example.com", FirstName: "J", LastName: "D"})
			wantCode(t, err, portal.ECONFLICT)
		})
		t.Run("NewSubjectHasAProfileAndAnOrder", func(t *testing.T) {
			p, err := db.Subjects().FindProfile(ctx, w.jane.ID)
			if err != nil || len(p.Orders) != 1 || p.Orders[0].StatusID != portal.StatusNew {
				t.Fatalf("profile = %+v, %v", p, err)
			}
		})
		t.Run("PartialUpdateKeepsTheRest", func(t *testing.T) {
			phone := "2024561111"
			s, err := db.Subjects().UpdateSubject(ctx, w.jane.ID, portal.SubjectUpdate{Phone: &phone})
			if err != nil || s.Phone != phone || s.FirstName != "Jane" || s.Email != "Jane@Example.com" {
				t.Fatalf("UpdateSubject = %+v, %v", s, err)
			}
		})
		t.Run("StatusMovesSubjectAndOrders", func(t *testing.T) {
			if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
			p, _ := db.Subjects().FindProfile(ctx, w.jane.ID)
			if p.Orders[0].StatusID != portal.StatusSetupComplete {
				t.Fatalf("order status = %d", p.Orders[0].StatusID)
			}
			// A move from a status the subject is no longer in loses.
			wantCode(t, db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusNew, portal.StatusSetupComplete), portal.ECONFLICT)
		})
		t.Run("BannerShowsUntilDismissed", func(t *testing.T) {
			b, err := db.SetBanner(ctx, "Maintenance tonight")
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := db.Banners().ActiveBanner(ctx, w.jane.ID); got == nil || got.ID != b.ID {
				t.Fatalf("active = %v", got)
			}
			if err := db.Banners().DismissBanner(ctx, w.jane.ID, b.ID); err != nil {
				t.Fatal(err)
			}
			if got, _ := db.Banners().ActiveBanner(ctx, w.jane.ID); got != nil {
				t.Fatalf("dismissed banner still active: %v", got)
			}
			if got, _ := db.Banners().ActiveBanner(ctx, w.invited.ID); got == nil {
				t.Fatal("dismissal hid the banner from another applicant")
			}
			db.SetBanner(ctx, "")
			if got, _ := db.Banners().ActiveBanner(ctx, w.invited.ID); got != nil {
				t.Fatalf("cleared banner still active: %v", got)
			}
		})
	})
}

func TestMigrationsApplyAgain(t *testing.T) {
	cfg := storetest.Config(t)
	cfg.DataDir = t.TempDir()
	for i := 0; i < 2; i++ {
		db, err := store.Open(context.Background(), cfg)
		if err != nil {
			t.Fatalf("open %d: %v", i+1, err)
		}
		db.Close()
	}
}
