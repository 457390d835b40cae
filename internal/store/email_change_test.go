package store_test

import (
	"context"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// confirmLink returns the token of the newest confirmation link mailed to
// address.
func confirmLink(t *testing.T, db *store.DB, address string) string {
	t.Helper()
	mails, err := db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := len(mails) - 1; i >= 0; i-- {
		if _, after, ok := strings.Cut(mails[i].Body, "https://portal.example.com/confirm-email?token="); ok && mails[i].To == address {
			return strings.Fields(after)[0]
		}
	}
	t.Fatalf("no confirmation link mailed to %s", address)
	return ""
}

func TestEmailChange(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		const base = "https://portal.example.com/"
		setup := func(t *testing.T) (*sessionWorld, portal.Session) {
			t.Helper()
			w := newSessionWorld(t, db)
			pair, err := w.login("jane@example.com", goodPass, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			sess, err := db.Auth().Authenticate(ctx, pair.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			return w, *sess
		}
		// Each case gets a database of its own: the cases change usernames.
		db0 := db
		fresh := func(t *testing.T) {
			cfg := sessionConfig(t, c)
			if db0.Dialect() == "postgres" {
				db = storetest.OpenPostgres(t, cfg)
			} else {
				db = storetest.OpenSQLite(t, cfg)
			}
		}

		t.Run("CurrentPasswordRequired", func(t *testing.T) {
			fresh(t)
			_, sess := setup(t)
			for _, pw := range []string{"", "wrong"} {
				pe := wantCode(t, db.Auth().RequestEmailChange(ctx, sess, "192.0.2.1", pw, "new@example.com", base), portal.EINVALID)
				if pe.Fields[0].Field != "currentPassword" {
					t.Fatalf("fields = %v", pe.Fields)
				}
			}
			if mails, _ := db.Outbox(ctx); len(mails) != 0 {
				t.Fatalf("a refused change mailed %v", mails)
			}
		})
		t.Run("WrongCurrentPasswordCountsAsAFailedLogin", func(t *testing.T) {
			fresh(t)
			w, sess := setup(t)
			for i := 0; i < store.MaxFailuresPerUserAndIP; i++ {
				db.Auth().RequestEmailChange(ctx, sess, "192.0.2.7", "wrong", "new@example.com", base)
			}
			_, err := w.login("jane@example.com", goodPass, "192.0.2.7")
			wantCode(t, err, portal.ETHROTTLED)
		})
		t.Run("RequestMailsBothAddressesAndChangesNothingYet", func(t *testing.T) {
			fresh(t)
			w, sess := setup(t)
			if err := db.Auth().RequestEmailChange(ctx, sess, "192.0.2.1", goodPass, " New@Example.org ", base); err != nil {
				t.Fatal(err)
			}
			mails, _ := db.Outbox(ctx)
			if len(mails) != 2 {
				t.Fatalf("outbox = %+v", mails)
			}
			confirmLink(t, db, "New@Example.org")
			notice := mails[1]
			if notice.To != "Jane@Example.com" || !strings.Contains(notice.Body, "New@Example.org") || !strings.Contains(notice.Body, "reset your password") {
				t.Fatalf("notice to the old address = %+v", notice)
			}
			view, err := db.Subjects().FindUserView(ctx, w.jane.ID)
			if err != nil {
				t.Fatal(err)
			}
			if view.Subject.Email != "Jane@Example.com" || view.Subject.Username != "jane@example.com" || view.Subject.PendingEmail != "New@Example.org" {
				t.Fatalf("subject = %+v", view.Subject)
			}
		})
		t.Run("ConfirmChangesUsernameOnceEndsSessionsAndResetLinks", func(t *testing.T) {
			fresh(t)
			w, sess := setup(t)
			if err := db.Auth().RequestPasswordReset(ctx, "jane@example.com", "192.0.2.1", base); err != nil {
				t.Fatal(err)
			}
			if err := db.Auth().RequestEmailChange(ctx, sess, "192.0.2.1", goodPass, "New@Example.org", base); err != nil {
				t.Fatal(err)
			}
			token := confirmLink(t, db, "New@Example.org")
			if err := db.Auth().ConfirmEmailChange(ctx, token); err != nil {
				t.Fatal(err)
			}
			sub, err := db.Subjects().FindSubjectByID(ctx, w.jane.ID)
			if err != nil || sub.Email != "New@Example.org" || sub.Username != "new@example.org" || sub.PendingEmail != "" {
				t.Fatalf("subject = %+v, %v", sub, err)
			}
			var live int
			db.SQL().QueryRow(`SELECT COUNT(*) FROM token_families WHERE subject_id = $1 AND revoked_at IS NULL`, w.jane.ID).Scan(&live)
			if live != 0 {
				t.Fatalf("%d sessions survived the change", live)
			}
			var openResets int
			db.SQL().QueryRow(`SELECT COUNT(*) FROM password_resets WHERE subject_id = $1 AND used_at IS NULL`, w.jane.ID).Scan(&openResets)
			if openResets != 0 {
				t.Fatalf("%d reset links mailed to the old address still work", openResets)
			}
			if _, err := w.login("new@example.org", goodPass, "192.0.2.1"); err != nil {
				t.Fatalf("login with the new address: %v", err)
			}
			if _, err := w.login("jane@example.com", goodPass, "192.0.2.1"); err != portal.ErrBadCredentials {
				t.Fatalf("login with the old address = %v", err)
			}
			mails, _ := db.Outbox(ctx)
			if last := mails[len(mails)-1]; last.To != "Jane@Example.com" || !strings.Contains(last.Body, "was changed") {
				t.Fatalf("no notice of the change to the old address: %+v", last)
			}
			pe := wantCode(t, db.Auth().ConfirmEmailChange(ctx, token), portal.EINVALID)
			if pe.Fields[0].Field != "token" || pe.Fields[0].Message != portal.EmailChangeTokenInvalid {
				t.Fatalf("second use = %v", pe.Fields)
			}
		})
		t.Run("InvalidLinks", func(t *testing.T) {
			fresh(t)
			w, sess := setup(t)
			request := func(to string) string {
				t.Helper()
				if err := db.Auth().RequestEmailChange(ctx, sess, "192.0.2.1", goodPass, to, base); err != nil {
					t.Fatal(err)
				}
				return confirmLink(t, db, to)
			}
			replaced := request("first@example.org")
			current := request("second@example.org")
			for name, token := range map[string]string{"Replaced": replaced, "Unknown": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
				"Empty": "", "NUL": "abc\x00def", "Long": strings.Repeat("a", 3000)} {
				pe := wantCode(t, db.Auth().ConfirmEmailChange(ctx, token), portal.EINVALID)
				if pe.Fields[0].Field != "token" {
					t.Fatalf("%s: fields = %v", name, pe.Fields)
				}
			}
			if p, _ := db.Subjects().FindUserView(ctx, w.jane.ID); p.Subject.PendingEmail != "second@example.org" {
				t.Fatalf("pending = %q; want the newer request", p.Subject.PendingEmail)
			}
			c.advance(store.DefaultEmailChangeTTL)
			wantCode(t, db.Auth().ConfirmEmailChange(ctx, current), portal.EINVALID)
			if p, _ := db.Subjects().FindUserView(ctx, w.jane.ID); p.Subject.PendingEmail != "" {
				t.Fatalf("an expired change is still pending: %q", p.Subject.PendingEmail)
			}
		})
		t.Run("ParallelConfirmationsChangeOnce", func(t *testing.T) {
			fresh(t)
			_, sess := setup(t)
			if err := db.Auth().RequestEmailChange(ctx, sess, "192.0.2.1", goodPass, "new@example.org", base); err != nil {
				t.Fatal(err)
			}
			token := confirmLink(t, db, "new@example.org")
			const n = 8
			errs := make(chan error, n)
			for range n {
				go func() { errs <- db.Auth().ConfirmEmailChange(ctx, token) }()
			}
			ok := 0
			for range n {
				if err := <-errs; err == nil {
					ok++
				} else if portal.ErrorCode(err) != portal.EINVALID {
					t.Errorf("a losing confirmation = %v; want the invalid-link error", err)
				}
			}
			if ok != 1 {
				t.Fatalf("%d confirmations succeeded; want exactly 1", ok)
			}
			mails, _ := db.Outbox(ctx)
			notices := 0
			for _, m := range mails {
				if m.Subject == "Your e-mail address was changed" {
					notices++
				}
			}
			if notices != 1 {
				t.Fatalf("%d change notices; want 1", notices)
			}
		})
		t.Run("PasswordChangeVoidsAPendingChange", func(t *testing.T) {
			fresh(t)
			_, sess := setup(t)
			if err := db.Auth().RequestEmailChange(ctx, sess, "192.0.2.1", goodPass, "thief@example.org", base); err != nil {
				t.Fatal(err)
			}
			token := confirmLink(t, db, "thief@example.org")
			if err := db.Auth().ChangePassword(ctx, sess, "192.0.2.1", goodPass, "a brand new passphrase"); err != nil {
				t.Fatal(err)
			}
			wantCode(t, db.Auth().ConfirmEmailChange(ctx, token), portal.EINVALID)
		})
		t.Run("AddressTakenMeanwhileIsAConflict", func(t *testing.T) {
			fresh(t)
			w, sess := setup(t)
			if err := db.Auth().RequestEmailChange(ctx, sess, "192.0.2.1", goodPass, "PAT@example.com", base); err != nil {
				t.Fatal(err)
			}
			wantCode(t, db.Auth().ConfirmEmailChange(ctx, confirmLink(t, db, "PAT@example.com")), portal.ECONFLICT)
			if sub, _ := db.Subjects().FindSubjectByID(ctx, w.jane.ID); sub.Username != "jane@example.com" {
				t.Fatalf("username = %q after a refused change", sub.Username)
			}
		})
		t.Run("SameAddressOrInvalidAddressRefused", func(t *testing.T) {
			fresh(t)
			_, sess := setup(t)
			for _, to := range []string{"JANE@example.com", "not an address", "a@b", strings.Repeat("a", 250) + "@x.org"} {
				pe := wantCode(t, db.Auth().RequestEmailChange(ctx, sess, "192.0.2.1", goodPass, to, base), portal.EINVALID)
				if pe.Fields[0].Field != "email" {
					t.Fatalf("%q: fields = %v", to, pe.Fields)
				}
			}
		})
		t.Run("EmailNeverChangesThroughUpdateSubject", func(t *testing.T) {
			fresh(t)
			w, _ := setup(t)
			email := "other@example.org"
			wantCode(t, func() error {
				_, err := db.Subjects().UpdateSubject(ctx, w.jane.ID, portal.SubjectUpdate{Email: &email})
				return err
			}(), portal.EFORBIDDEN)
		})
	})
}
