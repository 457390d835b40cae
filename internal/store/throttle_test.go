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
			sess, err := db.Authenticate(ctx, pair.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			return pair, sess
		}
		t.Run("KeepsTheCallersSessionAndEndsTheOthers", func(t *testing.T) {
			mine, sess := session(t, goodPass)
			other, _ := session(t, goodPass)
			if err := db.ChangePassword(ctx, *sess, "192.0.2.1", goodPass, "another long passphrase"); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Authenticate(ctx, mine.AccessToken); err != nil {
				t.Fatalf("the caller's session ended: %v", err)
			}
			if _, err := db.Refresh(ctx, spaID, spaSecret, mine.RefreshToken); err != nil {
				t.Fatalf("the caller's refresh token ended: %v", err)
			}
			_, err := db.Authenticate(ctx, other.AccessToken)
			wantErr(t, err, portal.ErrInvalidToken)
			_, err = db.Refresh(ctx, spaID, spaSecret, other.RefreshToken)
			wantErr(t, err, portal.ErrInvalidRefresh)
		})
		t.Run("WrongCurrentPasswordCountsAsAFailedLogin", func(t *testing.T) {
			_, sess := session(t, "another long passphrase")
			for i := 0; i < store.MaxFailuresPerUserAndIP; i++ {
				pe := wantCode(t, db.ChangePassword(ctx, *sess, "192.0.2.1", "wrong", "a third long passphrase"), portal.EINVALID)
				if pe.Fields[0].Field != "currentPassword" {
					t.Fatalf("fields = %v", pe.Fields)
				}
			}
			wantCode(t, db.ChangePassword(ctx, *sess, "192.0.2.1", "another long passphrase", "a third long passphrase"), portal.ETHROTTLED)
			_, err := w.login("jane@example.com", "another long passphrase", "192.0.2.1")
			wantCode(t, err, portal.ETHROTTLED)
			// The count is per address: the applicant elsewhere logs in.
			if _, err := w.login("jane@example.com", "another long passphrase", "192.0.2.7"); err != nil {
				t.Fatalf("login from another IP: %v", err)
			}
			c.advance(store.ThrottleWindow)
			if err := db.ChangePassword(ctx, *sess, "192.0.2.1", "another long passphrase", "a third long passphrase"); err != nil {
				t.Fatalf("after the window: %v", err)
			}
		})
	})
}

func TestCreatingThePasswordEndsTheSetupCredential(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		invite, err := db.CreateInvitation(ctx, w.invited.ID)
		if err != nil {
			t.Fatal(err)
		}
		setup, err := db.TokenLogin(ctx, invite)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetInitialPassword(ctx, w.invited.ID, goodPass); err != nil {
			t.Fatal(err)
		}
		_, err = db.Authenticate(ctx, setup.AccessToken)
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
		if err := db.RequestPasswordReset(ctx, "jane@example.com", "", "https://portal.example.com"); err != nil {
			t.Fatal(err)
		}
		mails, _ := db.Outbox(ctx)
		_, after, _ := strings.Cut(mails[0].Body, "reset?token=")
		token := strings.Fields(after)[0]
		if err := db.ConfirmPasswordReset(ctx, token, "unhashable passphrase"); err == nil {
			t.Fatal("confirm with a failing hash succeeded")
		}
		if err := db.ConfirmPasswordReset(ctx, token, "a brand new passphrase"); err != nil {
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
			if err := db.RequestPasswordReset(ctx, username, ip, "https://portal.example.com"); err != nil {
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
		pair, err := db.Login(ctx, portal.Credentials{ClientID: spaID, ClientSecret: spaSecret, Username: "jane@example.com", Password: goodPass, IP: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Refresh(ctx, spaID, spaSecret, pair.RefreshToken); err != nil {
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
			_, err := db.Refresh(ctx, spaID, spaSecret, "whatever")
			wantErr(t, err, portal.ErrInvalidClient)
			if err := db.UpsertClient(ctx, spaID, spaSecret, "test"); err != nil {
				t.Fatal(err)
			}
			_, err = db.Refresh(ctx, spaID, spaSecret, "whatever")
			wantErr(t, err, portal.ErrInvalidRefresh)
		})
	})
}
