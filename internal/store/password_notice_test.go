package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestPasswordChangeAndResetNotifyTheAccount (ASVS 2.2.3, 2.5.5): a
// password changed while signed in, or reset with a link, queues in the
// same transaction one e-mail to the account's address, in the applicant's
// language, with the time, the company and what to do if it was not them,
// and no link, no token and nothing personal beyond the first name. The
// first password, created with the invitation, is no change and is not
// told; nor is a change refused.
func TestPasswordChangeAndResetNotifyTheAccount(t *testing.T) {
	const newPass = "a fresh long passphrase"
	// newClock's moment, as each language writes it.
	whenEn, whenEs := "November 22, 2026 at 10:00 UTC", "22 de noviembre de 2026 a las 10:00 UTC"
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		n := 0
		// applicant creates one of the company's applicants, in locale,
		// with its first password unless invited only.
		applicant := func(t *testing.T, locale portal.Locale, invitedOnly bool) *portal.Subject {
			t.Helper()
			n++
			sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: fmt.Sprintf("Notice%d@Example.com", n),
				FirstName: "Riley", LastName: "Stonebridge", Phone: "202 456 1111", Locale: locale})
			if err != nil {
				t.Fatal(err)
			}
			if !invitedOnly {
				if err := db.Auth().SetInitialPassword(ctx, sub.ID, goodPass); err != nil {
					t.Fatal(err)
				}
			}
			return sub
		}
		change := func(t *testing.T, sub *portal.Subject) (string, error) {
			return "", db.Auth().ChangePassword(ctx, portal.Session{SubjectID: sub.ID}, "192.0.2.1", goodPass, newPass)
		}
		accountPage := func(t *testing.T, sub *portal.Subject) (string, error) {
			pw := newPass
			return "", db.Auth().UpdateAccount(ctx, portal.Session{SubjectID: sub.ID, Scope: portal.ScopeDefault},
				portal.AccountChange{Password: &pw, CurrentPassword: goodPass, IP: "192.0.2.1"})
		}
		reset := func(t *testing.T, sub *portal.Subject) (string, error) {
			token := resetLink(t, db, sub.Username)
			return token, db.Auth().ConfirmPasswordReset(ctx, token, newPass)
		}
		createPasswordStep := func(t *testing.T, sub *portal.Subject) (string, error) {
			pw := newPass
			return "", db.Auth().UpdateAccount(ctx, portal.Session{SubjectID: sub.ID, Scope: portal.ScopeSetup}, portal.AccountChange{Password: &pw})
		}
		wrongCurrent := func(t *testing.T, sub *portal.Subject) (string, error) {
			err := db.Auth().ChangePassword(ctx, portal.Session{SubjectID: sub.ID}, "192.0.2.1", "not the password", newPass)
			if portal.ErrorCode(err) != portal.EINVALID {
				t.Fatalf("a wrong current password = %v", err)
			}
			return "", nil
		}
		for _, tt := range []struct {
			name        string
			locale      portal.Locale
			invitedOnly bool
			do          func(*testing.T, *portal.Subject) (token string, err error)
			subject     string // "": no notice
			want        []string
		}{
			{"ChangeInEnglish", portal.LocaleEnUS, false, change, "Your password was changed",
				[]string{"Hello Riley,", "with Acme was changed on " + whenEn, "reset your password now (Forgot Password", "contact your employer's support"}},
			{"ChangeInSpanish", portal.LocaleEsUS, false, change, "Su contraseña cambió",
				[]string{"Hola, Riley:", "con Acme se cambió el " + whenEs, "restablezca su contraseña ahora", "servicio de ayuda de su empleador"}},
			{"ChangeOnTheAccountPage", portal.LocaleEnUS, false, accountPage, "Your password was changed",
				[]string{"was changed on " + whenEn}},
			{"ResetInEnglish", portal.LocaleEnUS, false, reset, "Your password was reset",
				[]string{"Hello Riley,", "with Acme was reset on " + whenEn, "secure your e-mail account", "contact your employer's support at once"}},
			{"ResetInSpanish", portal.LocaleEsUS, false, reset, "Su contraseña se restableció",
				[]string{"Hola, Riley:", "con Acme se restableció el " + whenEs, "proteja su cuenta de correo electrónico"}},
			{"FirstPasswordOnTheCreatePasswordStepIsNoChange", portal.LocaleEnUS, true, createPasswordStep, "", nil},
			{"FirstPasswordThroughChangePasswordIsNoChange", portal.LocaleEsUS, true, change, "", nil},
			{"RefusedChangeTellsNothing", portal.LocaleEnUS, false, wrongCurrent, "", nil},
		} {
			t.Run(tt.name, func(t *testing.T) {
				sub := applicant(t, tt.locale, tt.invitedOnly)
				mailsTo := func() []store.Mail {
					all, err := db.Outbox(ctx)
					if err != nil {
						t.Fatal(err)
					}
					var out []store.Mail
					for _, m := range all {
						if m.To == sub.Email {
							out = append(out, m)
						}
					}
					return out
				}
				before := len(mailsTo())
				// A reset link mail comes before the change: count from it.
				token, err := tt.do(t, sub)
				if err != nil {
					t.Fatal(err)
				}
				mails := mailsTo()
				if token != "" {
					before++ // the reset link itself
				}
				got := mails[before:]
				if tt.subject == "" {
					if len(got) != 0 {
						t.Fatalf("mailed %+v", got)
					}
					return
				}
				if len(got) != 1 || got[0].Subject != tt.subject {
					t.Fatalf("mails = %+v; want one %q", got, tt.subject)
				}
				body := got[0].Body
				for _, w := range tt.want {
					if !strings.Contains(body, w) {
						t.Errorf("missing %q in:\n%s", w, body)
					}
				}
				for _, bad := range []string{"://", "www.", "token", sub.Email, sub.Username, sub.LastName, "1111", newPass} {
					if strings.Contains(strings.ToLower(body), strings.ToLower(bad)) {
						t.Errorf("the notice holds %q:\n%s", bad, body)
					}
				}
				if token != "" && strings.Contains(body, token) {
					t.Errorf("the notice holds the reset token")
				}
			})
		}
	})
}
