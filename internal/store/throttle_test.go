package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/password"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// slowVerify makes the password check take as long as a real argon2id
// check does, which is the gap parallel guesses used to slip through.
func slowVerify(cfg store.Config) store.Config {
	verify := cfg.VerifyPassword
	cfg.VerifyPassword = func(p, h string) (bool, error) {
		time.Sleep(50 * time.Millisecond)
		return verify(p, h)
	}
	return cfg
}

// parallel runs n calls of fn at once and returns their errors.
func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := 0; i < n; i++ {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			errs[i] = fn(i)
		}()
	}
	start.Done()
	done.Wait()
	return errs
}

func TestParallelWrongPasswordsStayWithinTheThrottle(t *testing.T) {
	c := newClock()
	storetest.Each(t, slowVerify(sessionConfig(t, c)), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		for _, username := range []string{"jane@example.com", "ghost@example.com"} {
			t.Run(strings.Split(username, "@")[0], func(t *testing.T) {
				// One party guessing from one address.
				errs := parallel(12, func(i int) error {
					_, err := w.login(username, "wrong", "198.51.100.1")
					return err
				})
				bad, throttled := 0, 0
				for _, err := range errs {
					switch {
					case err == portal.ErrBadCredentials:
						bad++
					case portal.ErrorCode(err) == portal.ETHROTTLED:
						throttled++
					default:
						t.Fatalf("unexpected answer %v", err)
					}
				}
				if bad > store.MaxFailuresPerUserAndIP || bad+throttled != 12 {
					t.Fatalf("%d wrong passwords checked, %d throttled; want at most %d checked", bad, throttled, store.MaxFailuresPerUserAndIP)
				}
				_, err := w.login(username, goodPass, "198.51.100.1")
				wantCode(t, err, portal.ETHROTTLED)
				c.advance(store.ThrottleWindow)
			})
		}
	})
}

func TestChangePasswordKeepsTheCallersSession(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		session := func(t *testing.T, pass string) (*portal.TokenPair, *portal.Session) {
			t.Helper()
			pair, err := w.login("jane@example.com", pass, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			sess, err := db.Auth().Authenticate(ctx, pair.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			return pair, sess
		}
		t.Run("KeepsTheCallersSessionAndEndsTheOthers", func(t *testing.T) {
			mine, sess := session(t, goodPass)
			other, _ := session(t, goodPass)
			if err := db.Auth().ChangePassword(ctx, *sess, "192.0.2.1", goodPass, "another long passphrase"); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Auth().Authenticate(ctx, mine.AccessToken); err != nil {
				t.Fatalf("the caller's session ended: %v", err)
			}
			if _, err := db.Auth().Refresh(ctx, spaID, spaSecret, mine.RefreshToken); err != nil {
				t.Fatalf("the caller's refresh token ended: %v", err)
			}
			_, err := db.Auth().Authenticate(ctx, other.AccessToken)
			wantErr(t, err, portal.ErrInvalidToken)
			_, err = db.Auth().Refresh(ctx, spaID, spaSecret, other.RefreshToken)
			wantErr(t, err, portal.ErrInvalidRefresh)
		})
		t.Run("WrongCurrentPasswordCountsAsAFailedLogin", func(t *testing.T) {
			_, sess := session(t, "another long passphrase")
			for i := 0; i < store.MaxFailuresPerUserAndIP; i++ {
				pe := wantCode(t, db.Auth().ChangePassword(ctx, *sess, "192.0.2.1", "wrong", "a third long passphrase"), portal.EINVALID)
				if pe.Fields[0].Field != "currentPassword" {
					t.Fatalf("fields = %v", pe.Fields)
				}
			}
			wantCode(t, db.Auth().ChangePassword(ctx, *sess, "192.0.2.1", "another long passphrase", "a third long passphrase"), portal.ETHROTTLED)
			_, err := w.login("jane@example.com", "another long passphrase", "192.0.2.1")
			wantCode(t, err, portal.ETHROTTLED)
			// The count is per address: the applicant elsewhere logs in.
			if _, err := w.login("jane@example.com", "another long passphrase", "192.0.2.7"); err != nil {
				t.Fatalf("login from another IP: %v", err)
			}
			c.advance(store.ThrottleWindow)
			if err := db.Auth().ChangePassword(ctx, *sess, "192.0.2.1", "another long passphrase", "a third long passphrase"); err != nil {
				t.Fatalf("after the window: %v", err)
			}
		})
	})
}

func TestCreatingThePasswordEndsTheSetupCredential(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		invite, err := db.Auth().CreateInvitation(ctx, w.invited.ID)
		if err != nil {
			t.Fatal(err)
		}
		setup, err := db.Auth().TokenLogin(ctx, invite)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Auth().SetInitialPassword(ctx, w.invited.ID, goodPass); err != nil {
			t.Fatal(err)
		}
		_, err = db.Auth().Authenticate(ctx, setup.AccessToken)
		wantErr(t, err, portal.ErrInvalidToken)
		if _, err := w.login("pat@example.com", goodPass, "192.0.2.1"); err != nil {
			t.Fatalf("login with the new password: %v", err)
		}
	})
}

// TestResetLinkSurvivesAFailedPasswordChange proves spending the link and
// setting the password are one transaction: when setting fails, the link
// still works.
func TestResetLinkSurvivesAFailedPasswordChange(t *testing.T) {
	cfg := sessionConfig(t, newClock())
	hash := cfg.HashPassword
	cfg.HashPassword = func(p string) (string, error) {
		if strings.HasPrefix(p, "unhashable") {
			return "", errors.New("hash failed")
		}
		return hash(p)
	}
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		newSessionWorld(t, db)
		ctx := context.Background()
		if err := db.Auth().RequestPasswordReset(ctx, "jane@example.com", "", "https://portal.example.com"); err != nil {
			t.Fatal(err)
		}
		mails, _ := db.Outbox(ctx)
		_, after, _ := strings.Cut(mails[0].Body, "reset?token=")
		token := strings.Fields(after)[0]
		if err := db.Auth().ConfirmPasswordReset(ctx, token, "unhashable passphrase"); err == nil {
			t.Fatal("confirm with a failing hash succeeded")
		}
		if err := db.Auth().ConfirmPasswordReset(ctx, token, "a brand new passphrase"); err != nil {
			t.Fatalf("the link was spent by the failed change: %v", err)
		}
	})
}

func TestPasswordResetRequestsThrottled(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		newSessionWorld(t, db)
		ctx := context.Background()
		mailsTo := func(to string) int {
			mails, err := db.Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range mails {
				if strings.EqualFold(m.To, to) {
					n++
				}
			}
			return n
		}
		request := func(username, ip string) {
			t.Helper()
			if err := db.Auth().RequestPasswordReset(ctx, username, ip, "https://portal.example.com"); err != nil {
				t.Fatalf("over the limit the answer must not change: %v", err)
			}
		}
		t.Run("PerUsername", func(t *testing.T) {
			for i := 0; i < store.MaxResetsPerUser+3; i++ {
				request("jane@example.com", fmt.Sprintf("198.51.100.%d", i))
			}
			if n := mailsTo("jane@example.com"); n != store.MaxResetsPerUser {
				t.Fatalf("%d mails queued; want %d", n, store.MaxResetsPerUser)
			}
			c.advance(store.ResetWindow)
			request("jane@example.com", "198.51.100.1")
			if n := mailsTo("jane@example.com"); n != store.MaxResetsPerUser+1 {
				t.Fatalf("after the window: %d mails; want %d", n, store.MaxResetsPerUser+1)
			}
		})
		t.Run("PerIPAlsoCountsUnknownUsernames", func(t *testing.T) {
			c.advance(store.ResetWindow)
			for i := 0; i < store.MaxResetsPerIP; i++ {
				request(fmt.Sprintf("ghost%d@example.com", i), "203.0.113.9")
			}
			request("pat@example.com", "203.0.113.9")
			if n := mailsTo("pat@example.com"); n != 0 {
				t.Fatalf("a throttled IP queued %d mails", n)
			}
			request("pat@example.com", "203.0.113.10")
			if n := mailsTo("pat@example.com"); n != 1 {
				t.Fatalf("another IP queued %d mails; want 1", n)
			}
		})
	})
}

// TestClientSecretIsNotAPasswordHash proves the client check costs no
// password hashing: the secret is public, handed to the browser app.
func TestClientSecretIsNotAPasswordHash(t *testing.T) {
	cfg := sessionConfig(t, newClock())
	var mu sync.Mutex
	var verified []string
	verify := cfg.VerifyPassword
	cfg.VerifyPassword = func(p, h string) (bool, error) {
		mu.Lock()
		verified = append(verified, p)
		mu.Unlock()
		return verify(p, h)
	}
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		newSessionWorld(t, db)
		ctx := context.Background()
		mu.Lock()
		verified = nil
		mu.Unlock()
		pair, err := db.Auth().Login(ctx, portal.Credentials{ClientID: spaID, ClientSecret: spaSecret, Username: "jane@example.com", Password: goodPass, IP: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Auth().Refresh(ctx, spaID, spaSecret, pair.RefreshToken); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if len(verified) != 1 || verified[0] != goodPass {
			t.Fatalf("password checks %q; want only the user's password", verified)
		}
		mu.Unlock()
		var stored string
		db.SQL().QueryRow(`SELECT secret_hash FROM oauth_clients WHERE id = 'spa'`).Scan(&stored)
		if !strings.HasPrefix(stored, "sha256:") || strings.Contains(stored, spaSecret) {
			t.Fatalf("stored secret %q; want a sha256: digest", stored)
		}
		t.Run("OldFormatRefusedUntilRegisteredAgain", func(t *testing.T) {
			if _, err := db.SQL().Exec(`UPDATE oauth_clients SET secret_hash = 'plain:spa-secret' WHERE id = 'spa'`); err != nil {
				t.Fatal(err)
			}
			_, err := db.Auth().Refresh(ctx, spaID, spaSecret, "whatever")
			wantErr(t, err, portal.ErrInvalidClient)
			if err := db.UpsertClient(ctx, spaID, spaSecret, "test"); err != nil {
				t.Fatal(err)
			}
			_, err = db.Auth().Refresh(ctx, spaID, spaSecret, "whatever")
			wantErr(t, err, portal.ErrInvalidRefresh)
		})
	})
}

// TestParallelCorrectLoginsAllSucceed proves an attempt counts as a failure
// only once it failed: correct logins in parallel do not throttle each
// other (they used to be pre-counted, and 8 of them met 429s).
func TestParallelCorrectLoginsAllSucceed(t *testing.T) {
	storetest.Each(t, slowVerify(sessionConfig(t, newClock())), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		for i, err := range parallel(8, func(int) error {
			_, err := w.login("jane@example.com", goodPass, "192.0.2.1")
			return err
		}) {
			if err != nil {
				t.Errorf("login %d: %v", i, err)
			}
		}
	})
}

// TestParallelGuessesFromManyIPsStayWithinTheUsernameCeiling: guesses spread
// over many addresses meet the per-username ceiling, exactly, in parallel.
func TestParallelGuessesFromManyIPsStayWithinTheUsernameCeiling(t *testing.T) {
	cfg := sessionConfig(t, newClock())
	verify := cfg.VerifyPassword
	cfg.VerifyPassword = func(p, h string) (bool, error) {
		time.Sleep(2 * time.Millisecond)
		return verify(p, h)
	}
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		const n = store.MaxFailuresPerUsername + 10
		bad := 0
		for _, err := range parallel(n, func(i int) error {
			_, err := w.login("jane@example.com", "wrong", fmt.Sprintf("198.51.%d.%d", i/200, i%200))
			return err
		}) {
			switch {
			case err == portal.ErrBadCredentials:
				bad++
			case portal.ErrorCode(err) != portal.ETHROTTLED:
				t.Fatalf("unexpected answer %v", err)
			}
		}
		if bad != store.MaxFailuresPerUsername {
			t.Fatalf("%d wrong passwords checked; want exactly %d", bad, store.MaxFailuresPerUsername)
		}
	})
}

// TestUsernameCeilingAllowsAtMost100FailuresAnHour (ASVS 2.2.1): a guesser
// who tries every minute for two hours, from a new address each time, gets
// at most MaxFailuresPerUsername passwords checked in any 15 minutes and at
// most 100 in any hour, and reaches both: the ceiling is the limit.
func TestUsernameCeilingAllowsAtMost100FailuresAnHour(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		const minutes = 120
		var checked [minutes]int // wrong passwords checked in each minute
		ip := 0
		for m := range minutes {
			for range store.MaxFailuresPerUsername + 5 {
				ip++
				_, err := w.login("jane@example.com", "wrong", fmt.Sprintf("198.51.%d.%d", ip/250, ip%250))
				if portal.ErrorCode(err) == portal.ETHROTTLED {
					break
				}
				wantErr(t, err, portal.ErrBadCredentials)
				checked[m]++
			}
			c.advance(time.Minute)
		}
		for _, tt := range []struct {
			name   string
			window int // minutes
			most   int
		}{
			{"AnyQuarterHour", 15, store.MaxFailuresPerUsername},
			{"AnyHour", 60, 100},
		} {
			t.Run(tt.name, func(t *testing.T) {
				highest := 0
				for start := 0; start+tt.window <= minutes; start++ {
					n := 0
					for _, k := range checked[start : start+tt.window] {
						n += k
					}
					highest = max(highest, n)
				}
				if highest != tt.most {
					t.Fatalf("at most %d wrong passwords checked in %d minutes; want %d", highest, tt.window, tt.most)
				}
			})
		}
	})
}

// TestPasswordResetLiftsTheLockout: the 429 says to reset the password, so
// a completed reset clears the username's failures, from every address.
func TestPasswordResetLiftsTheLockout(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		for i := 0; i < store.MaxFailuresPerUsername; i++ {
			w.login("jane@example.com", "wrong", fmt.Sprintf("203.0.113.%d", i/store.MaxFailuresPerUserAndIP))
		}
		_, err := w.login("jane@example.com", goodPass, "203.0.113.0")
		wantCode(t, err, portal.ETHROTTLED)
		token := resetLink(t, db, "jane@example.com")
		if err := db.Auth().ConfirmPasswordReset(ctx, token, "a brand new passphrase"); err != nil {
			t.Fatal(err)
		}
		for _, ip := range []string{"203.0.113.0", "192.0.2.50"} {
			if _, err := w.login("jane@example.com", "a brand new passphrase", ip); err != nil {
				t.Fatalf("login from %s after the reset: %v", ip, err)
			}
		}
	})
}

// resetLink asks for a reset of username and returns the newest link's token.
func resetLink(t *testing.T, db *store.DB, username string) string {
	t.Helper()
	ctx := context.Background()
	if err := db.Auth().RequestPasswordReset(ctx, username, "", "https://portal.example.com"); err != nil {
		t.Fatal(err)
	}
	mails, _ := db.Outbox(ctx)
	_, after, ok := strings.Cut(mails[len(mails)-1].Body, "reset?token=")
	if !ok {
		t.Fatalf("no reset link in %q", mails[len(mails)-1].Body)
	}
	return strings.Fields(after)[0]
}

// TestPasswordChecksBeyondTheGateAnswer503: with every password-check slot
// busy, a login, a password change or a new password waits at most
// PasswordCheckWait and then answers EUNAVAILABLE with a Retry-After.
func TestPasswordChecksBeyondTheGateAnswer503(t *testing.T) {
	cfg := sessionConfig(t, newClock())
	cfg.PasswordChecks, cfg.PasswordCheckWait = 1, 20*time.Millisecond
	entered, release := make(chan struct{}), make(chan struct{})
	verify := cfg.VerifyPassword
	cfg.VerifyPassword = func(p, h string) (bool, error) {
		if p == "blocking passphrase" {
			entered <- struct{}{}
			<-release
		}
		return verify(p, h)
	}
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		first := make(chan error)
		go func() {
			_, err := w.login("jane@example.com", "blocking passphrase", "192.0.2.1")
			first <- err
		}()
		<-entered
		busy := map[string]error{}
		_, busy["Login"] = w.login("pat@example.com", goodPass, "192.0.2.2")
		_, busy["LoginOfTheSameUsername"] = w.login("jane@example.com", goodPass, "192.0.2.3")
		busy["SetInitialPassword"] = db.Auth().SetInitialPassword(ctx, w.invited.ID, goodPass)
		busy["ConfirmPasswordReset"] = db.Auth().ConfirmPasswordReset(ctx, resetLink(t, db, "jane@example.com"), "a brand new passphrase")
		for name, err := range busy {
			if pe := wantCode(t, err, portal.EUNAVAILABLE); pe.RetryAfter < 1 {
				t.Errorf("%s: RetryAfter = %d", name, pe.RetryAfter)
			}
		}
		close(release)
		wantErr(t, <-first, portal.ErrBadCredentials)
		release = make(chan struct{})
		// The refused attempts were not counted as failures.
		var n int
		db.SQL().QueryRow(`SELECT COUNT(*) FROM login_failures WHERE username = 'pat@example.com'`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d failures recorded for refused checks", n)
		}
		if _, err := w.login("jane@example.com", goodPass, "192.0.2.1"); err != nil {
			t.Fatalf("after the gate frees: %v", err)
		}
	})
}

// TestSettingAPasswordSpendsEveryResetLink: once the password is set,
// changed or reset, no older reset link can set it again.
func TestSettingAPasswordSpendsEveryResetLink(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		spent := func(t *testing.T, token string) {
			t.Helper()
			pe := wantCode(t, second(db.Auth().VerifyPasswordReset(ctx, token)), portal.EINVALID)
			if pe.Fields[0].Field != "token" {
				t.Fatalf("fields = %v", pe.Fields)
			}
			wantCode(t, db.Auth().ConfirmPasswordReset(ctx, token, "an attackers passphrase"), portal.EINVALID)
		}
		t.Run("ACompletedReset", func(t *testing.T) {
			older, used := resetLink(t, db, "jane@example.com"), resetLink(t, db, "jane@example.com")
			if err := db.Auth().ConfirmPasswordReset(ctx, used, "a brand new passphrase"); err != nil {
				t.Fatal(err)
			}
			spent(t, older)
		})
		t.Run("APasswordChange", func(t *testing.T) {
			link := resetLink(t, db, "jane@example.com")
			if err := db.Auth().ChangePassword(ctx, portal.Session{SubjectID: w.jane.ID}, "192.0.2.1", "a brand new passphrase", "another long passphrase"); err != nil {
				t.Fatal(err)
			}
			spent(t, link)
		})
		t.Run("TheInitialPassword", func(t *testing.T) {
			link := resetLink(t, db, "pat@example.com")
			if err := db.Auth().SetInitialPassword(ctx, w.invited.ID, goodPass); err != nil {
				t.Fatal(err)
			}
			spent(t, link)
		})
	})
}

// TestVerifyPasswordResetDoesNotSpendTheLink: the reset page checks its link
// before the form is filled; checking leaves the link usable.
func TestVerifyPasswordResetDoesNotSpendTheLink(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		newSessionWorld(t, db)
		ctx := context.Background()
		token := resetLink(t, db, "jane@example.com")
		for i := 0; i < 2; i++ {
			if username, err := db.Auth().VerifyPasswordReset(ctx, token); err != nil || username != "jane@example.com" {
				t.Fatalf("check %d = %q, %v; want jane@example.com", i, username, err)
			}
		}
		for _, bad := range []string{"", "not-a-token", "x\x00y"} {
			wantCode(t, second(db.Auth().VerifyPasswordReset(ctx, bad)), portal.EINVALID)
		}
		expiring := resetLink(t, db, "jane@example.com")
		if err := db.Auth().ConfirmPasswordReset(ctx, token, "a brand new passphrase"); err != nil {
			t.Fatalf("confirm after checks: %v", err)
		}
		wantCode(t, second(db.Auth().VerifyPasswordReset(ctx, token)), portal.EINVALID)
		wantCode(t, second(db.Auth().VerifyPasswordReset(ctx, expiring)), portal.EINVALID) // spent by the reset
		late := resetLink(t, db, "jane@example.com")
		c.advance(time.Hour)
		wantCode(t, second(db.Auth().VerifyPasswordReset(ctx, late)), portal.EINVALID)
	})
}

// TestPasswordsAreNormalized: NFKC before hashing and before verifying, so
// a password typed in another Unicode form still matches; hashes stored
// before normalization keep working.
func TestPasswordsAreNormalized(t *testing.T) {
	composed, decomposed := "caf\u00e9 au lait, s'il vous pla\u00eet", "cafe\u0301 au lait, s'il vous plai\u0302t"
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		if err := db.Auth().SetInitialPassword(ctx, w.invited.ID, decomposed); err != nil {
			t.Fatal(err)
		}
		for _, typed := range []string{composed, decomposed} {
			if _, err := w.login("pat@example.com", typed, "192.0.2.1"); err != nil {
				t.Fatalf("login typed %q: %v", typed, err)
			}
		}
		if _, err := db.SQL().Exec(`UPDATE subjects SET password_hash = $1 WHERE id = $2`, "plain:"+decomposed, w.jane.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := w.login("jane@example.com", decomposed, "192.0.2.1"); err != nil {
			t.Fatalf("a hash stored before normalization: %v", err)
		}
	})
}

// TestNewPasswordsFollowThePolicy: every way of setting a password applies
// the same rules, with the subject's own username and e-mail address.
func TestNewPasswordsFollowThePolicy(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		for _, tt := range []struct{ pw, want string }{
			{"pat@example.com and more", password.MsgIdentity},
			{strings.Repeat(" ", 15), password.MsgVariety},
			{strings.Repeat("\x00", 15), password.MsgControl},
			{"1qaz2wsx3edc4rfv", password.MsgCommon},
		} {
			for name, err := range map[string]error{
				"SetInitialPassword":   db.Auth().SetInitialPassword(ctx, w.invited.ID, tt.pw),
				"ChangePassword":       db.Auth().ChangePassword(ctx, portal.Session{SubjectID: w.jane.ID}, "192.0.2.1", goodPass, strings.ReplaceAll(tt.pw, "pat@", "jane@")),
				"ConfirmPasswordReset": db.Auth().ConfirmPasswordReset(ctx, resetLink(t, db, "jane@example.com"), strings.ReplaceAll(tt.pw, "pat@", "jane@")),
			} {
				pe := wantCode(t, err, portal.EINVALID)
				if pe.Fields[0].Field != "password" || pe.Fields[0].Message != tt.want {
					t.Errorf("%s(%q) fields = %v; want %q", name, tt.pw, pe.Fields, tt.want)
				}
			}
		}
	})
}

// TestImpossibleInputNeverReachesTheDatabase: a NUL byte or a huge username
// or client id fails like any wrong one, on PostgreSQL too (where it used
// to be a database error, a 500).
func TestImpossibleInputNeverReachesTheDatabase(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		long := strings.Repeat("a", 3000) + "@example.com"
		for _, u := range []string{"jane\x00@example.com", long} {
			_, err := w.login(u, goodPass, "192.0.2.1")
			wantErr(t, err, portal.ErrBadCredentials)
			if err := db.Auth().RequestPasswordReset(ctx, u, "192.0.2.1", "https://portal.example.com"); err != nil {
				t.Fatalf("reset request for %.20q: %v", u, err)
			}
		}
		for _, id := range []string{"spa\x00", strings.Repeat("c", 3000)} {
			_, err := db.Auth().Login(ctx, portal.Credentials{ClientID: id, ClientSecret: spaSecret, Username: "jane@example.com", Password: goodPass, IP: "192.0.2.1"})
			wantErr(t, err, portal.ErrInvalidClient)
		}
	})
}

// TestTwoInstancesShareTheThrottleExactly: two stores on one PostgreSQL
// database (two instances, each with its own in-process locks) still
// serialise the checks of one username through the advisory lock.
func TestTwoInstancesShareTheThrottleExactly(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip(storetest.EnvURL + " is not set; PostgreSQL tests skipped")
	}
	cfg := slowVerify(sessionConfig(t, newClock()))
	cfg.DatabaseURL = storetest.Database(t, os.Getenv(storetest.EnvURL))
	var instances [2]*store.DB
	for i := range instances {
		db, err := store.Open(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		instances[i] = db
	}
	newSessionWorld(t, instances[0])
	bad := 0
	for _, err := range parallel(12, func(i int) error {
		_, err := instances[i%2].Auth().Login(context.Background(), portal.Credentials{ClientID: spaID, ClientSecret: spaSecret,
			Username: "jane@example.com", Password: "wrong", IP: "198.51.100.1"})
		return err
	}) {
		switch {
		case err == portal.ErrBadCredentials:
			bad++
		case portal.ErrorCode(err) != portal.ETHROTTLED:
			t.Fatalf("unexpected answer %v", err)
		}
	}
	if bad > store.MaxFailuresPerUserAndIP {
		t.Fatalf("%d wrong passwords checked over two instances; want at most %d", bad, store.MaxFailuresPerUserAndIP)
	}
}

// TestPasswordChangeLosesToWhatCommittedMeanwhile: a password change checks
// the current password and hashes the new one before its transaction. A
// reset, or an e-mail change that ends every session, committing in that
// gap must win; before, the change overwrote the reset an applicant used to
// take a hijacked account back.
func TestPasswordChangeLosesToWhatCommittedMeanwhile(t *testing.T) {
	const attackerPass = "the attacker's new passphrase"
	hashing := make(chan struct{})
	release := make(chan struct{})
	cfg := sessionConfig(t, newClock())
	hash := cfg.HashPassword
	cfg.HashPassword = func(p string) (string, error) {
		if p == attackerPass {
			hashing <- struct{}{}
			<-release
		}
		return hash(p)
	}
	ctx := context.Background()
	for _, tt := range []struct {
		name      string
		meanwhile func(t *testing.T, db *store.DB, sess *portal.Session)
		wantLogin string // the password that logs in afterwards
	}{
		{"ErrResetWins", func(t *testing.T, db *store.DB, _ *portal.Session) {
			if err := db.Auth().RequestPasswordReset(ctx, "jane@example.com", "", "https://portal.example.com"); err != nil {
				t.Fatal(err)
			}
			mails, _ := db.Outbox(ctx)
			_, after, _ := strings.Cut(mails[len(mails)-1].Body, "reset?token=")
			if err := db.Auth().ConfirmPasswordReset(ctx, strings.Fields(after)[0], "the applicant's reset passphrase"); err != nil {
				t.Fatal(err)
			}
		}, "the applicant's reset passphrase"},
		{"ErrSessionEndedByEmailChange", func(t *testing.T, db *store.DB, _ *portal.Session) {
			// Another session of the applicant changes the e-mail address,
			// which ends every session, the changing one included.
			pair, err := db.Auth().Login(ctx, portal.Credentials{ClientID: spaID, ClientSecret: spaSecret, Username: "jane@example.com", Password: goodPass, IP: "192.0.2.9"})
			if err != nil {
				t.Fatal(err)
			}
			other, err := db.Auth().Authenticate(ctx, pair.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Auth().RequestEmailChange(ctx, *other, "192.0.2.9", goodPass, "jane.new@example.com", "https://portal.example.com"); err != nil {
				t.Fatal(err)
			}
			if err := db.Auth().ConfirmEmailChange(ctx, confirmLink(t, db, "jane.new@example.com")); err != nil {
				t.Fatal(err)
			}
		}, goodPass},
	} {
		t.Run(tt.name, func(t *testing.T) {
			storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
				w := newSessionWorld(t, db)
				pair, err := w.login("jane@example.com", goodPass, "192.0.2.1")
				if err != nil {
					t.Fatal(err)
				}
				sess, err := db.Auth().Authenticate(ctx, pair.AccessToken)
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- db.Auth().ChangePassword(ctx, *sess, "192.0.2.1", goodPass, attackerPass) }()
				<-hashing // the change checked the password and is hashing the new one
				tt.meanwhile(t, db, sess)
				close(release)
				wantCode(t, <-done, portal.ECONFLICT)
				release = make(chan struct{})
				var username string
				if err := db.SQL().QueryRowContext(ctx, `SELECT username FROM subjects WHERE id = $1`, w.jane.ID).Scan(&username); err != nil {
					t.Fatal(err)
				}
				if _, err := w.login(username, tt.wantLogin, "192.0.2.3"); err != nil {
					t.Fatalf("login with %q after the race: %v", tt.wantLogin, err)
				}
				_, err = w.login(username, attackerPass, "192.0.2.3")
				wantErr(t, err, portal.ErrBadCredentials)
			})
		})
	}
}

// second drops a result to test the error beside it.
func second[T any](_ T, err error) error { return err }
