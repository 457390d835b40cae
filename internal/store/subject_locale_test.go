package store_test

import (
	"context"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestApplicantLanguage: the applicant's language is kept on the subject
// (an operator's invitation, the app's switch) and chooses the language of
// the e-mails they get.
func TestApplicantLanguage(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newMailWorld(t, db)
		invite := func(t *testing.T, email string, l portal.Locale) (*portal.InviteResult, error) {
			t.Helper()
			return w.ops.Invitations.InviteApplicant(ctx, portal.InviteRequest{BaseURL: portalURL,
				NewSubject: portal.NewSubject{CompanyID: w.company.ID, Email: email, FirstName: "Riley", LastName: "Stonebridge", Locale: l}})
		}
		locale := func(t *testing.T, id int64) portal.Locale {
			t.Helper()
			sub, err := db.Subjects().FindSubjectByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return sub.Locale
		}
		lastSubject := func(t *testing.T, email string) string {
			t.Helper()
			mails := mailsTo(t, db, email)
			if len(mails) == 0 {
				t.Fatalf("no mail to %s", email)
			}
			return mails[len(mails)-1].Subject
		}

		t.Run("InvitedInSpanishGetsASpanishInvitation", func(t *testing.T) {
			res, err := invite(t, "ana@example.com", portal.LocaleEsUS)
			if err != nil {
				t.Fatal(err)
			}
			if got := locale(t, res.Subject.ID); got != portal.LocaleEsUS {
				t.Errorf("locale %q, want es-US", got)
			}
			mails := mailsTo(t, db, "ana@example.com")
			if len(mails) != 1 || mails[0].Subject != "Lo invitamos a completar su verificación de antecedentes para Acme Logistics" ||
				!strings.HasPrefix(mails[0].Body, "Hola, Riley:\n") || !strings.Contains(mails[0].Body, "14 días") {
				t.Errorf("mails = %+v; want the Spanish invitation", mails)
			}
		})
		t.Run("InvitedWithoutALanguageIsEnglish", func(t *testing.T) {
			res, err := invite(t, "ben@example.com", "")
			if err != nil {
				t.Fatal(err)
			}
			if got := locale(t, res.Subject.ID); got != portal.LocaleEnUS {
				t.Errorf("locale %q, want en-US", got)
			}
		})
		t.Run("InvitedAgainKeepsTheLanguageUnlessGivenOne", func(t *testing.T) {
			res, err := invite(t, "ana@example.com", "")
			if err != nil {
				t.Fatal(err)
			}
			if got := locale(t, res.Subject.ID); got != portal.LocaleEsUS {
				t.Errorf("locale %q after an invitation without one, want es-US kept", got)
			}
			if _, err := invite(t, "ana@example.com", portal.LocaleEnUS); err != nil {
				t.Fatal(err)
			}
			if got := locale(t, res.Subject.ID); got != portal.LocaleEnUS {
				t.Errorf("locale %q, want en-US", got)
			}
			if got := lastSubject(t, "ana@example.com"); !strings.HasPrefix(got, "You're invited") {
				t.Errorf("subject %q, want the English invitation", got)
			}
		})
		t.Run("UnknownLanguageIsRefused", func(t *testing.T) {
			_, err := invite(t, "cy@example.com", "fr-FR")
			wantFields(t, err, map[string]string{"locale": "Choose en-US or es-US."})
		})

		t.Run("SetLocaleChangesTheLanguageOfLaterMails", func(t *testing.T) {
			res, err := invite(t, "dee@example.com", "")
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Auth().SetInitialPassword(ctx, res.Subject.ID, goodPass); err != nil {
				t.Fatal(err)
			}
			for _, tt := range []struct {
				locale portal.Locale
				want   string
			}{
				{portal.LocaleEsUS, "Restablezca la contraseña de su portal del solicitante"},
				{portal.LocaleEnUS, "Reset your applicant portal password"},
			} {
				if err := db.Subjects().SetLocale(ctx, res.Subject.ID, tt.locale); err != nil {
					t.Fatal(err)
				}
				if err := db.Auth().RequestPasswordReset(ctx, "dee@example.com", "", portalURL); err != nil {
					t.Fatal(err)
				}
				if got := lastSubject(t, "dee@example.com"); got != tt.want {
					t.Errorf("%s: subject %q, want %q", tt.locale, got, tt.want)
				}
			}
		})
		t.Run("SetLocaleRefusesAnUnknownLanguage", func(t *testing.T) {
			res, err := invite(t, "eve@example.com", "")
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range []portal.Locale{"", "fr-FR", "es", "ES-us"} {
				err := db.Subjects().SetLocale(ctx, res.Subject.ID, l)
				if _, ok := err.(*portal.Error); !ok || portal.ErrorCode(err) != portal.EINVALID {
					t.Errorf("%q: err = %v, want a field error", l, err)
				}
			}
			wantCode(t, db.Subjects().SetLocale(ctx, 999999, portal.LocaleEsUS), portal.ENOTFOUND)
		})
	})
}
