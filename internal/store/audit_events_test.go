package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	sitesandbox "applicantportal/internal/sandbox/sites"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// lastAudit is the newest row of the trail for subjectID (0: any), or nil.
func lastAudit(t *testing.T, db *store.DB, subjectID int64) *portal.AuditEntry {
	t.Helper()
	list, err := db.Operator().Audit.FindAudit(context.Background(), portal.AuditFilter{SubjectID: subjectID, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) == 0 {
		return nil
	}
	return &list[0]
}

// TestSecurityEventsAreAuditedByTheirAct: each act leaves its row, with
// who acted and from where, and no secret or personal data in it.
func TestSecurityEventsAreAuditedByTheirAct(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		w := newSessionWorld(t, db)
		ctx := context.Background()
		auth := db.Auth()
		const ip = "198.51.100.7"
		var pair *portal.TokenPair
		var keyID int64
		tests := []struct {
			name       string
			act        func(t *testing.T) error
			subject    int64 // whose row; 0 for none (then the company's row)
			action     string
			detail     string
			actorID    int64
			address    string
			notPresent []string // must appear in no field of the row
		}{
			{"PasswordSet", func(t *testing.T) error { return nil }, w.jane.ID, "password.set", "the account's first password", 0, "", nil},
			{"LoginSucceeded", func(t *testing.T) (err error) {
				pair, err = w.login("jane@example.com", goodPass, ip)
				return err
			}, w.jane.ID, "login.succeeded", "with a password", w.jane.ID, ip, []string{goodPass, "jane@example.com"}},
			{"LoginFailedWrongPassword", func(t *testing.T) error {
				_, err := w.login("jane@example.com", "wrong password!", ip)
				wantErr(t, err, portal.ErrBadCredentials)
				return nil
			}, w.jane.ID, "login.failed", "wrong password", w.jane.ID, ip, []string{"wrong password!"}},
			{"LoginFailedUnknownUsername", func(t *testing.T) error {
				_, err := w.login("nobody@example.com", "guess", ip)
				wantErr(t, err, portal.ErrBadCredentials)
				return nil
			}, 0, "login.failed", "unknown username", 0, ip, []string{"nobody", "guess"}},
			{"RefreshTokenReused", func(t *testing.T) error {
				if _, err := auth.Refresh(ctx, spaID, spaSecret, pair.RefreshToken); err != nil {
					return err
				}
				_, err := auth.Refresh(ctx, spaID, spaSecret, pair.RefreshToken)
				wantErr(t, err, portal.ErrInvalidRefresh)
				return nil
			}, w.jane.ID, "login.refresh-reused", "used twice", w.jane.ID, "", nil},
			{"Logout", func(t *testing.T) error {
				p, err := w.login("jane@example.com", goodPass, ip)
				if err != nil {
					return err
				}
				pair = p
				return auth.Revoke(ctx, p.AccessToken)
			}, w.jane.ID, "logout", "", w.jane.ID, "", nil},
			{"PasswordChanged", func(t *testing.T) error {
				sess := portal.Session{SubjectID: w.jane.ID}
				return auth.ChangePassword(ctx, sess, ip, goodPass, "another long passphrase")
			}, w.jane.ID, "password.changed", "every other session ended", w.jane.ID, "", []string{"another long passphrase"}},
			{"PasswordReset", func(t *testing.T) error {
				token := resetLink(t, db, "jane@example.com")
				return auth.ConfirmPasswordReset(ctx, token, goodPass)
			}, w.jane.ID, "password.reset", "with a reset link", w.jane.ID, "", []string{goodPass}},
			{"EmailChangeRequested", func(t *testing.T) error {
				sess := portal.Session{SubjectID: w.jane.ID}
				return auth.RequestEmailChange(ctx, sess, ip, goodPass, "jane.new@example.com", "https://portal.example.com")
			}, w.jane.ID, "email.change-requested", "confirmation link", 0, "", []string{"jane.new@example.com", "Jane@Example.com"}},
			{"EmailChanged", func(t *testing.T) error {
				mails, _ := db.Outbox(ctx)
				for _, m := range mails {
					if _, after, ok := strings.Cut(m.Body, "confirm-email?token="); ok {
						return auth.ConfirmEmailChange(ctx, strings.Fields(after)[0])
					}
				}
				t.Fatal("no confirmation link mailed")
				return nil
			}, w.jane.ID, "email.changed", "every session ended", w.jane.ID, "", []string{"jane.new@example.com", "Jane@Example.com"}},
			{"APIKeyCreated", func(t *testing.T) error {
				k, secret, err := db.Operator().APIKeys.CreateAPIKey(ctx, w.company.ID, "hr system")
				if err == nil {
					keyID = k.ID
					if strings.Contains(secretOf(t, db, w.company.ID), secret) {
						t.Errorf("the trail holds the key's secret")
					}
				}
				return err
			}, 0, "apikey.created", `"hr system"`, 0, "", nil},
			{"APIKeyRevoked", func(t *testing.T) error { return db.Operator().APIKeys.RevokeAPIKey(ctx, keyID) }, 0, "apikey.revoked", "key ", 0, "", nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if err := tt.act(t); err != nil {
					t.Fatal(err)
				}
				e := lastAudit(t, db, tt.subject)
				if e == nil || e.Action != tt.action || e.SubjectID != tt.subject || !strings.Contains(e.Detail, tt.detail) {
					t.Fatalf("last row %+v; want %s (%q) of subject %d", e, tt.action, tt.detail, tt.subject)
				}
				if e.CompanyID != w.company.ID && tt.subject != 0 {
					t.Errorf("company %d, want %d", e.CompanyID, w.company.ID)
				}
				if tt.actorID != 0 && (e.Actor.Kind != portal.ActorApplicant || e.Actor.ID != tt.actorID) {
					t.Errorf("actor %+v, want applicant %d", e.Actor, tt.actorID)
				}
				if tt.address != "" && e.Actor.Address != tt.address {
					t.Errorf("address %q, want %q", e.Actor.Address, tt.address)
				}
				row := strings.Join([]string{e.Action, e.Detail, e.Actor.Name, e.Actor.Address}, " ")
				for _, secret := range tt.notPresent {
					if secret != "" && strings.Contains(strings.ToLower(row), strings.ToLower(secret)) {
						t.Errorf("row %q holds %q", row, secret)
					}
				}
			})
		}
		wantIntact(t, db, countAudit(t, db))
	})
}

// secretOf is every company row of the trail, as one text.
func secretOf(t *testing.T, db *store.DB, companyID int64) string {
	t.Helper()
	list, err := db.Operator().Audit.FindAudit(context.Background(), portal.AuditFilter{CompanyID: companyID})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range list {
		b.WriteString(e.Detail + "\n")
	}
	return b.String()
}

func countAudit(t *testing.T, db *store.DB) int64 {
	t.Helper()
	var n int64
	if err := db.SQL().QueryRow(`SELECT count(*) FROM audit_log`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestApplicantActsAreAudited: signatures and their deletion, a status
// move, a document's download, each with the applicant as who acts.
func TestApplicantActsAreAudited(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		w := newLegalWorld(t, db)
		ctx := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorApplicant, ID: w.jane.ID, Address: "203.0.113.5"})
		step := w.file(t, w.jane.ID).PendingSteps()[0]
		sigs, err := w.prepare(t, w.jane.ID, step.Documents[0].ID, fullRequest(t, w.jane), "203.0.113.5")
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Legal().SignLegalStep(ctx, w.jane.ID, sigs); err != nil {
			t.Fatal(err)
		}
		if e := lastAudit(t, db, w.jane.ID); e == nil || e.Action != "legal.signed" || e.Actor.ID != w.jane.ID ||
			!strings.HasPrefix(e.Detail, "document ") || strings.Contains(e.Detail, w.jane.LastName) {
			t.Fatalf("after signing: %+v", e)
		}
		if err := db.Legal().DeleteSignature(ctx, w.jane.ID, step.Documents[0].ID); err != nil {
			t.Fatal(err)
		}
		if e := lastAudit(t, db, w.jane.ID); e == nil || e.Action != "legal.signature-deleted" {
			t.Fatalf("after deleting the signature: %+v", e)
		}

		// A refused move leaves no row.
		before := countAudit(t, db)
		if err := db.Subjects().MoveSubjectStatus(ctx, w.jane.ID, portal.StatusMove{To: portal.StatusSetupComplete}); err == nil {
			t.Fatal("setup complete with documents unsigned")
		}
		if countAudit(t, db) != before {
			t.Fatalf("a refused move left a row: %+v", lastAudit(t, db, w.jane.ID))
		}
		wantIntact(t, db, countAudit(t, db))
	})
}

// TestDownloadsAndStatusMovesAreAudited: the applicant's download of a
// document and their move of their status.
func TestDownloadsAndStatusMovesAreAudited(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		dw := newDocumentsWorld(t, db)
		ctx := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorApplicant, ID: dw.jane, Address: "203.0.113.5"})
		doc, err := dw.add(t, dw.jane, "drivers_license", "jane-doe-license.png", "image/png", pngBytes(100))
		if err != nil {
			t.Fatal(err)
		}
		_, rc, err := dw.svc.OpenDocument(ctx, dw.jane, doc.ID)
		if err != nil {
			t.Fatal(err)
		}
		rc.Close()
		if e := lastAudit(t, db, dw.jane); e == nil || e.Action != "document.downloaded" || e.Actor.ID != dw.jane || strings.Contains(e.Detail, "jane") {
			t.Fatalf("after the download: %+v", e)
		}
		// amy is new and her company has no legal documents: with a
		// password and her personal information she may finish setup.
		if err := db.Auth().SetInitialPassword(ctx, dw.amy, "a-long-enough-password"); err != nil {
			t.Fatal(err)
		}
		if err := db.Personal().SavePersonalInfo(ctx, dw.amy, &portal.PersonalInfo{FirstName: "Amy", LastName: "Doe", SSN: "123451234"}); err != nil {
			t.Fatal(err)
		}
		if err := db.Subjects().MoveSubjectStatus(ctx, dw.amy, portal.StatusMove{To: portal.StatusSetupComplete}); err != nil {
			t.Fatal(err)
		}
		if e := lastAudit(t, db, dw.amy); e == nil || e.Action != "status.moved" ||
			e.Detail != fmt.Sprintf("from %d to %d", portal.StatusNew, portal.StatusSetupComplete) {
			t.Fatalf("after the move: %+v", e)
		}
		wantIntact(t, db, countAudit(t, db))
	})
}

// TestOperatorActsAreAudited: what the command line, the operator API and
// the server itself change is recorded, each act by the rows it adds, with
// who acted (here an API key) and ids and counts only.
func TestOperatorActsAreAudited(t *testing.T) {
	cfg := storetest.Config(t)
	cfg.WebhookAllowInsecure = true
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		ops := db.Operator()
		ctx := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorAPIKey, ID: 4, Name: "hr", Address: "203.0.113.8"})
		acme := &portal.Company{Name: "Acme", Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: true}}
		pkg := &portal.Package{Name: "Drivers", Services: []portal.PackageService{{Code: "drug"}}}
		var invited, bannerID, deliveryID int64
		sites := db.CollectionSites(sitesandbox.New())
		sandbox := db.SandboxRecords()
		exec := func(query string, args ...any) error {
			_, err := db.SQL().ExecContext(ctx, query, args...)
			return err
		}
		type row struct {
			action, detail string
			company        bool  // the row is Acme's; otherwise no company's
			subject        int64 // -1: the applicant invited
		}
		tests := []struct {
			name  string
			setup func() error // before the act, its rows not counted
			act   func() error
			rows  []row // the rows the act adds, oldest first
		}{
			{"CompanyCreated", nil, func() error { return db.CreateCompany(ctx, acme) },
				[]row{{"company.created", "company ", true, 0}}},
			{"PackageCreated", nil, func() error { pkg.CompanyID = acme.ID; return db.CreatePackage(ctx, pkg) },
				[]row{{"package.created", "1 services, 0 document types", true, 0}}},
			{"Invite", nil, func() error {
				res, err := ops.Invitations.InviteApplicant(ctx, portal.InviteRequest{NewSubject: portal.NewSubject{
					CompanyID: acme.ID, Email: "riley@example.com", FirstName: "Riley", LastName: "Stone"}})
				if err == nil {
					invited = res.Subject.ID
				}
				return err
			}, []row{{"applicant.invited", "invitation link", true, -1}}},
			{"CompanyPreference", nil, func() error {
				_, err := ops.Companies.SetCompanyPreference(ctx, acme.ID, portal.PrefAdverseWaitingDays, "7")
				return err
			}, []row{{"company.preference-set", portal.PrefAdverseWaitingDays + " = 7", true, 0}}},
			{"BannerPosted", nil, func() error {
				b, err := ops.Banners.PostBanner(ctx, portal.BannerRequest{CompanyID: acme.ID, Message: "Maintenance tonight"})
				if err == nil {
					bannerID = b.ID
				}
				return err
			}, []row{{"banner.posted", "banner ", true, 0}}},
			{"BannerCleared", nil, func() error { return ops.Banners.ClearBanner(ctx, acme.ID, bannerID) },
				[]row{{"banner.cleared", "banner ", true, 0}}},
			{"LegalDocumentLoaded", nil, func() error {
				_, err := db.SaveLegalDocument(ctx, &portal.LegalDocument{CompanyID: acme.ID, Title: "Disclosure", Content: "<p>Riley may be screened.</p>",
					Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Visibility: portal.VisibilityAll}})
				return err
			}, []row{{"legal-document.loaded", "version 1: a new text", true, 0}}},
			{"LegalDocumentLoadedUnchanged", nil, func() error {
				_, err := db.SaveLegalDocument(ctx, &portal.LegalDocument{CompanyID: acme.ID, Title: "Disclosure (2)", Content: "<p>Riley may be screened.</p>",
					Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Visibility: portal.VisibilityAll}})
				return err
			}, []row{{"legal-document.loaded", "version 1: settings saved, text unchanged", true, 0}}},
			{"LegalTranslationLoaded", nil, func() error {
				_, err := db.SaveLegalDocument(ctx, &portal.LegalDocument{CompanyID: acme.ID, Title: "Divulgación", Content: "<p>Riley puede ser investigado.</p>",
					Language: portal.LocaleEsUS, Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Visibility: portal.VisibilityAll}})
				return err
			}, []row{{"legal-document.loaded", "(es-US), version 1: a new text", true, 0}}},
			{"PdfFormAdded", nil, func() error {
				_, err := ops.Documents.AddPdfForm(ctx, portal.NewPdfForm{PackageID: pkg.ID, Code: "mvr-request", Title: "MVR for Riley", PDF: formPDF(t, "mvr")})
				return err
			}, []row{{"pdf-form.added", "in package ", true, 0}}},
			{"CollectionSiteChosen", nil, func() error {
				if err := db.SetSubjectStatus(ctx, invited, portal.StatusNew, portal.StatusMROSiteSelection); err != nil {
					return err
				}
				res, err := sitesandbox.New().Search(ctx, portal.SiteQuery{ZIP: "94103", RadiusMiles: 5})
				if err != nil {
					return err
				}
				_, err = sites.Choose(ctx, invited, res.Sites[0].ID)
				return err
			}, []row{{"collection-site.chosen", "site ", true, -1}}},
			{"WebhookRetried", func() error {
				// An endpoint, then an invitation to deliver to it, failed.
				if _, _, err := ops.Webhooks.CreateWebhookEndpoint(ctx, acme.ID, "http://127.0.0.1:9/hook"); err != nil {
					return err
				}
				if _, err := ops.Invitations.InviteApplicant(ctx, portal.InviteRequest{NewSubject: portal.NewSubject{
					CompanyID: acme.ID, Email: "sam@example.com", FirstName: "Sam", LastName: "Lee"}}); err != nil {
					return err
				}
				if err := db.SQL().QueryRowContext(ctx, `SELECT MAX(id) FROM webhook_deliveries`).Scan(&deliveryID); err != nil {
					return err
				}
				return exec(`UPDATE webhook_deliveries SET state = $1 WHERE id = $2`, portal.WebhookFailed, deliveryID)
			}, func() error { return ops.Webhooks.RetryWebhookDelivery(ctx, 0, deliveryID) },
				[]row{{"webhook.retried", "delivery ", true, 0}}},
			{"ClientRegistered", nil, func() error { return db.UpsertClient(ctx, "hr-app", "client-secret-1", "HR app") },
				[]row{{"client.registered", `client "hr-app"`, false, 0}}},
			{"ClientUnchangedLeavesNoRow", nil, func() error { return db.UpsertClient(ctx, "hr-app", "client-secret-1", "HR app") }, nil},
			{"ClientChanged", nil, func() error { return db.UpsertClient(ctx, "hr-app", "client-secret-2", "HR app") },
				[]row{{"client.changed", `client "hr-app"`, false, 0}}},
			{"SandboxRecordCreated", nil, func() error {
				_, _, err := sandbox.Insert(ctx, "payment", "key-1", []byte(`{"card":"4242"}`), time.Now().Add(-time.Minute))
				return err
			}, []row{{"sandbox.record-created", "a payment record", false, 0}}},
			{"SandboxRecordChanged", nil, func() error {
				_, err := sandbox.Replace(ctx, "payment", "key-1", 1, []byte(`{"card":"4242","done":true}`))
				return err
			}, []row{{"sandbox.record-changed", "now version 2", false, 0}}},
			{"SweepThatRemovesSomething", nil, func() error {
				_, err := db.Sweep(ctx) // the expired sandbox record
				return err
			}, []row{{"sweep.removed", "1 sandbox records", false, 0}}},
			{"SweepThatRemovesNothingLeavesNoRow", nil, func() error {
				_, err := db.Sweep(ctx)
				return err
			}, nil},
			{"KeyRotation", nil, func() error {
				_, err := db.RotateKeys(ctx, store.RotateOptions{})
				return err
			}, []row{{"keys.rotation-started", "to key ", false, 0}, {"keys.rotation-finished", "values resealed", false, 0}}},
			{"KeyRotationResumed", nil, func() error {
				id := cfg.Sealer.Fingerprint()
				if err := exec(`INSERT INTO meta (name, value) VALUES ('key_rotation', $1)`, []byte(`{"key":"`+id+`"}`)); err != nil {
					return err
				}
				_, err := db.RotateKeys(ctx, store.RotateOptions{})
				return err
			}, []row{{"keys.rotation-resumed", "to key " + cfg.Sealer.Fingerprint(), false, 0}, {"keys.rotation-finished", "0 values resealed", false, 0}}},
		}
		// What an act said, a secret or a person's name, never lands in
		// the trail.
		never := []string{"riley", "maintenance", "client-secret", "4242", "key-1", "screened", "investigado", "sam"}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if tt.setup != nil {
					if err := tt.setup(); err != nil {
						t.Fatal(err)
					}
				}
				var last int64
				if e := lastAudit(t, db, 0); e != nil {
					last = e.ID
				}
				if err := tt.act(); err != nil {
					t.Fatal(err)
				}
				list, err := ops.Audit.FindAudit(context.Background(), portal.AuditFilter{Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				var added []portal.AuditEntry
				for i := len(list) - 1; i >= 0; i-- {
					if list[i].ID > last {
						added = append(added, list[i])
					}
				}
				if len(added) != len(tt.rows) {
					t.Fatalf("the act added %+v; want %d rows %+v", added, len(tt.rows), tt.rows)
				}
				for i, want := range tt.rows {
					e := added[i]
					company, subject := int64(0), want.subject
					if want.company {
						company = acme.ID
					}
					if subject == -1 {
						subject = invited
					}
					if e.Action != want.action || e.CompanyID != company || e.SubjectID != subject || !strings.Contains(e.Detail, want.detail) ||
						e.Actor.Kind != portal.ActorAPIKey || e.Actor.ID != 4 || e.Actor.Address != "203.0.113.8" {
						t.Errorf("row %+v; want %s (%q) of company %d, subject %d, by API key 4", e, want.action, want.detail, company, subject)
					}
					for _, s := range never {
						if strings.Contains(strings.ToLower(e.Detail), s) {
							t.Errorf("the row holds what the act said (%q): %q", s, e.Detail)
						}
					}
				}
			})
		}
		wantIntact(t, db, countAudit(t, db))
	})
}
