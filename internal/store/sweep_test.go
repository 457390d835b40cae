package store_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

const day = 24 * time.Hour

// sweepCase builds rows at chosen times, sweeps once, expects those counts,
// and then checks that the portal still behaves.
type sweepCase struct {
	Name  string
	TTL   func(*store.Config) // lifetimes other than the defaults
	Setup func(t *testing.T, w *sweepWorld)
	Want  store.SweepResult
	Then  func(t *testing.T, w *sweepWorld)
}

type sweepWorld struct {
	*sessionWorld
	c   *clock
	ctx context.Context
	// what a case's Setup hands to its Then
	spent, fresh string
	current      *portal.TokenPair
	linked       map[string]int64 // file ids by the table that links them
}

// sweptPDF is the content of the files the sweep cases store.
const sweptPDF = "%PDF-1.7 a report"

// putFile stores a finished file of jane's, as an upload does before it
// links it, and returns its id.
func (w *sweepWorld) putFile(t *testing.T, name string) int64 {
	t.Helper()
	f, err := store.NewFileStore(w.db).Put(w.ctx, portal.FileMeta{SubjectID: w.jane.ID, Name: name, ContentType: "application/pdf"},
		strings.NewReader(sweptPDF), portal.MaxUploadSize)
	if err != nil {
		t.Fatal(err)
	}
	return f.ID
}

// fileReferrerTables are the tables whose file_id refers to files.
var fileReferrerTables = []string{"subject_documents", "pdf_forms", "subject_pdf_forms", "subject_reports", "chat_messages", "dispute_files"}

// link writes the row of table that refers to the file, as the services
// do once the file is stored.
func (w *sweepWorld) link(t *testing.T, table string, fileID int64) {
	t.Helper()
	q := w.db.SQL()
	now := w.c.now().UnixMilli()
	var pkg, form int64
	if table == "pdf_forms" || table == "subject_pdf_forms" {
		if err := q.QueryRow(`INSERT INTO packages (company_id, name, created_at) VALUES ($1, $2, $3) RETURNING id`,
			w.company.ID, table, now).Scan(&pkg); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	switch table {
	case "subject_documents":
		_, err = q.Exec(`INSERT INTO subject_documents (subject_id, document_type, file_id, created_at) VALUES ($1, 'licence', $2, $3)`, w.jane.ID, fileID, now)
	case "pdf_forms":
		_, err = q.Exec(`INSERT INTO pdf_forms (package_id, code, title, file_id, field_names, created_at) VALUES ($1, $2, 'A form', $3, '[]', $4)`,
			pkg, fmt.Sprintf("form-%d", fileID), fileID, now)
	case "subject_pdf_forms":
		// The submission is of a form whose template is another file.
		template := w.putFile(t, "template.pdf")
		if err = q.QueryRow(`INSERT INTO pdf_forms (package_id, code, title, file_id, field_names, created_at) VALUES ($1, 'filled', 'A form', $2, '[]', $3) RETURNING id`,
			pkg, template, now).Scan(&form); err == nil {
			_, err = q.Exec(`INSERT INTO subject_pdf_forms (subject_id, form_id, file_id, submitted_at) VALUES ($1, $2, $3, $4)`, w.jane.ID, form, fileID, now)
		}
	case "subject_reports":
		_, err = q.Exec(`INSERT INTO subject_reports (subject_id, kind, file_id, created_at) VALUES ($1, 'report', $2, $3)`, w.jane.ID, fileID, now)
	case "chat_messages":
		_, err = q.Exec(`INSERT INTO chat_messages (subject_id, sender, body, file_id, created_at) VALUES ($1, 'subject', $2, $3, $4)`, w.jane.ID, []byte{}, fileID, now)
	case "dispute_files":
		var dispute int64
		if err = q.QueryRow(`INSERT INTO disputes (subject_id, reason, explanation, state, received_at, due_at) VALUES ($1, 'not-me', $2, 'received', $3, $3) RETURNING id`,
			w.jane.ID, []byte{}, now).Scan(&dispute); err == nil {
			_, err = q.Exec(`INSERT INTO dispute_files (dispute_id, file_id) VALUES ($1, $2)`, dispute, fileID)
		}
	default:
		t.Fatalf("no link for %s", table)
	}
	if err != nil {
		t.Fatalf("link file %d from %s: %v", fileID, table, err)
	}
}

func (w *sweepWorld) count(t *testing.T, table string) int {
	t.Helper()
	var n int
	if err := w.db.SQL().QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func (w *sweepWorld) mustLogin(t *testing.T, username, pass string) *portal.TokenPair {
	t.Helper()
	pair, err := w.login(username, pass, "192.0.2.1")
	if err != nil {
		t.Fatalf("login %s: %v", username, err)
	}
	return pair
}

func (w *sweepWorld) invite(t *testing.T, subjectID int64) string {
	t.Helper()
	token, err := w.db.Auth().CreateInvitation(w.ctx, subjectID)
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// resetLink asks for a reset of jane's password and returns the token the
// e-mail carries.
func (w *sweepWorld) resetLink(t *testing.T, ip string) string {
	t.Helper()
	if err := w.db.Auth().RequestPasswordReset(w.ctx, "jane@example.com", ip, "https://portal.example.com/"); err != nil {
		t.Fatal(err)
	}
	mails, _ := w.db.Outbox(w.ctx)
	_, after, ok := strings.Cut(mails[len(mails)-1].Body, "https://portal.example.com/reset?token=")
	if !ok {
		t.Fatalf("no reset link in the last mail")
	}
	return strings.Fields(after)[0]
}

// recordTables are never swept; their row counts must not change.
var recordTables = []string{"companies", "packages", "subjects", "profiles", "orders", "oauth_clients", "outbox",
	"banners", "legal_documents", "legal_document_versions", "legal_signatures", "subject_locations", "personal_info", "meta"}

func TestSweep(t *testing.T) {
	cases := []sweepCase{
		{
			Name: "NothingEndedNothingGoes",
			Setup: func(t *testing.T, w *sweepWorld) {
				w.mustLogin(t, "jane@example.com", goodPass)
				w.invite(t, w.invited.ID)
				w.resetLink(t, "192.0.2.1")
				w.login("jane@example.com", "wrong", "192.0.2.1")
			},
			Want: store.SweepResult{},
		},
		{
			Name: "UnfinishedUploadsGoAfterADayFinishedFilesStay",
			Setup: func(t *testing.T, w *sweepWorld) {
				w.link(t, "subject_reports", w.putFile(t, "kept.pdf"))
				unfinished := func(name string) {
					if _, err := w.db.SQL().Exec(`INSERT INTO files (name, content_type, created_at) VALUES ($1, 'application/pdf', $2)`,
						name, w.c.now().UnixMilli()); err != nil {
						t.Fatal(err)
					}
				}
				unfinished("abandoned.pdf")
				w.c.advance(store.AbandonedUploadAge + time.Minute)
				unfinished("under-way.pdf")
			},
			Want: store.SweepResult{Uploads: 1},
			Then: func(t *testing.T, w *sweepWorld) {
				if n := w.count(t, "files"); n != 2 {
					t.Errorf("%d files after the sweep, want the finished one and the upload under way", n)
				}
			},
		},
		{
			// A process killed between storing an upload and linking it
			// leaves a finished file nothing refers to. It may be an upload
			// about to be linked, so it stays for a day.
			Name: "UnlinkedFilesStayADay",
			Setup: func(t *testing.T, w *sweepWorld) {
				w.putFile(t, "crash.pdf")
				w.c.advance(store.OrphanedFileAge - time.Minute)
			},
			Want: store.SweepResult{},
			Then: func(t *testing.T, w *sweepWorld) {
				if n := w.count(t, "files"); n != 1 {
					t.Errorf("%d files after the sweep, want the unlinked one kept", n)
				}
			},
		},
		{
			Name: "UnlinkedFilesGoAfterADayLinkedFilesNever",
			Setup: func(t *testing.T, w *sweepWorld) {
				w.linked = map[string]int64{}
				for _, table := range fileReferrerTables {
					w.linked[table] = w.putFile(t, table+".pdf")
					w.link(t, table, w.linked[table])
				}
				w.putFile(t, "crash-1.pdf")
				w.putFile(t, "crash-2.pdf")
				w.c.advance(store.OrphanedFileAge + time.Minute)
				w.putFile(t, "just-stored.pdf") // its link is on its way
			},
			Want: store.SweepResult{OrphanedFiles: 2},
			Then: func(t *testing.T, w *sweepWorld) {
				// The linked ones, the template of the filled form, and the
				// one just stored.
				want := len(fileReferrerTables) + 2
				if n := w.count(t, "files"); n != want {
					t.Errorf("%d files after the sweep, want %d", n, want)
				}
				if n := w.count(t, "file_chunks"); n != want {
					t.Errorf("%d chunks after the sweep; the orphans' chunks must go with them", n)
				}
				for table, id := range w.linked {
					_, rc, err := store.NewFileStore(w.db).Get(w.ctx, id)
					if err != nil {
						t.Errorf("the file of %s: %v", table, err)
						continue
					}
					if b, err := io.ReadAll(rc); err != nil || string(b) != sweptPDF {
						t.Errorf("the file of %s reads %q, %v", table, b, err)
					}
					rc.Close()
				}
			},
		},
		{
			Name: "ExpiredSandboxRecordsGoLiveOnesStay",
			Setup: func(t *testing.T, w *sweepWorld) {
				records := w.db.SandboxRecords()
				for key, ttl := range map[string]time.Duration{"ended": time.Minute, "live": time.Hour} {
					if _, _, err := records.Insert(w.ctx, "payment", key, []byte(`{}`), w.c.now().Add(ttl)); err != nil {
						t.Fatal(err)
					}
				}
				w.c.advance(2 * time.Minute)
			},
			Want: store.SweepResult{SandboxRecords: 1},
			Then: func(t *testing.T, w *sweepWorld) {
				if n := w.count(t, "sandbox_records"); n != 1 {
					t.Errorf("%d sandbox records after the sweep, want the live one", n)
				}
			},
		},
		{
			Name: "LoginFailuresGoOnceOutOfTheThrottleWindow",
			Setup: func(t *testing.T, w *sweepWorld) {
				// Five failures a minute apart: the throttle's limit.
				for i := 0; i < store.MaxFailuresPerUserAndIP; i++ {
					w.login("jane@example.com", "wrong", "198.51.100.1")
					w.c.advance(time.Minute)
				}
				// The first is now 15.5 minutes old, the others inside the window.
				w.c.advance(store.ThrottleWindow - store.MaxFailuresPerUserAndIP*time.Minute + 30*time.Second)
			},
			Want: store.SweepResult{LoginFailures: 1},
			Then: func(t *testing.T, w *sweepWorld) {
				if n := w.count(t, "login_failures"); n != store.MaxFailuresPerUserAndIP-1 {
					t.Fatalf("%d failures left; want the %d inside the window", n, store.MaxFailuresPerUserAndIP-1)
				}
				// Four failures inside the window: one more is allowed, then
				// the throttle holds as before the sweep.
				if _, err := w.login("jane@example.com", "wrong", "198.51.100.1"); err != portal.ErrBadCredentials {
					t.Fatalf("fifth failure = %v", err)
				}
				_, err := w.login("jane@example.com", goodPass, "198.51.100.1")
				wantCode(t, err, portal.ETHROTTLED)
			},
		},
		{
			Name: "ThrottledLoginStaysThrottledAfterASweep",
			Setup: func(t *testing.T, w *sweepWorld) {
				for i := 0; i < store.MaxFailuresPerUserAndIP; i++ {
					w.login("ghost@example.com", "wrong", "198.51.100.1")
				}
				w.c.advance(store.ThrottleWindow - time.Second)
			},
			Want: store.SweepResult{},
			Then: func(t *testing.T, w *sweepWorld) {
				_, err := w.login("ghost@example.com", "wrong", "198.51.100.1")
				wantCode(t, err, portal.ETHROTTLED)
			},
		},
		{
			Name: "ResetRequestsGoOnceOutOfTheirWindow",
			Setup: func(t *testing.T, w *sweepWorld) {
				w.resetLink(t, "203.0.113.1")
				w.c.advance(store.ResetWindow + time.Minute)
				for i := 0; i < store.MaxResetsPerUser; i++ {
					w.resetLink(t, "203.0.113.2")
				}
			},
			// The first link expired a minute ago: it stays for the retention.
			Want: store.SweepResult{ResetRequests: 1, MailBodies: 1}, // the reset mail's link expired
			Then: func(t *testing.T, w *sweepWorld) {
				mails := w.count(t, "outbox")
				if err := w.db.Auth().RequestPasswordReset(w.ctx, "jane@example.com", "203.0.113.3", "https://portal.example.com/"); err != nil {
					t.Fatal(err)
				}
				if n := w.count(t, "outbox"); n != mails {
					t.Fatalf("a sixth request within the window queued a mail")
				}
			},
		},
		{
			Name: "ResetLinksGoThirtyDaysAfterTheyEnd",
			Setup: func(t *testing.T, w *sweepWorld) {
				w.resetLink(t, "203.0.113.1") // expires in an hour, unused
				used := w.resetLink(t, "203.0.113.1")
				if err := w.db.Auth().ConfirmPasswordReset(w.ctx, used, goodPass+"!"); err != nil {
					t.Fatal(err)
				}
				w.c.advance(store.SweepRetention + 2*time.Hour)
				w.resetLink(t, "203.0.113.1") // fresh
			},
			Want: store.SweepResult{ResetRequests: 2, PasswordResets: 2, MailBodies: 2},
			Then: func(t *testing.T, w *sweepWorld) {
				fresh := w.resetLink(t, "203.0.113.1")
				if err := w.db.Auth().ConfirmPasswordReset(w.ctx, fresh, "a brand new passphrase"); err != nil {
					t.Fatalf("a fresh reset link after the sweep: %v", err)
				}
				if n := w.count(t, "password_resets"); n != 2 {
					t.Fatalf("%d reset links left; want the 2 recent ones", n)
				}
			},
		},
		{
			Name: "SpentRefreshTokenStillRevokesItsFamilyForItsWholeLifetime",
			// A refresh token that outlives the retention: the sweep must
			// still keep it, or its reuse would no longer be noticed.
			TTL: func(cfg *store.Config) { cfg.RefreshTokenTTL = 60 * day },
			Setup: func(t *testing.T, w *sweepWorld) {
				first := w.mustLogin(t, "jane@example.com", goodPass)
				w.c.advance(45 * day)
				second, err := w.db.Auth().Refresh(w.ctx, spaID, spaSecret, first.RefreshToken)
				if err != nil {
					t.Fatal(err)
				}
				w.spent, w.current = first.RefreshToken, second
			},
			// Only the first access token, expired 45 days ago less an hour.
			Want: store.SweepResult{Tokens: 1},
			Then: func(t *testing.T, w *sweepWorld) {
				_, err := w.db.Auth().Refresh(w.ctx, spaID, spaSecret, w.spent)
				wantErr(t, err, portal.ErrInvalidRefresh)
				_, err = w.db.Auth().Authenticate(w.ctx, w.current.AccessToken)
				wantErr(t, err, portal.ErrInvalidToken)
				_, err = w.db.Auth().Refresh(w.ctx, spaID, spaSecret, w.current.RefreshToken)
				wantErr(t, err, portal.ErrInvalidRefresh)
			},
		},
		{
			Name: "LiveLoginKeepsItsFamilyAndRefreshes",
			TTL:  func(cfg *store.Config) { cfg.RefreshTokenTTL = 40 * day },
			Setup: func(t *testing.T, w *sweepWorld) {
				first := w.mustLogin(t, "jane@example.com", goodPass)
				w.c.advance(35 * day)
				w.current = first
			},
			Want: store.SweepResult{Tokens: 1},
			Then: func(t *testing.T, w *sweepWorld) {
				next, err := w.db.Auth().Refresh(w.ctx, spaID, spaSecret, w.current.RefreshToken)
				if err != nil {
					t.Fatalf("refresh after the sweep: %v", err)
				}
				if _, err := w.db.Auth().Authenticate(w.ctx, next.AccessToken); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			Name: "EndedLoginsGoThirtyDaysAfterTheirLastToken",
			Setup: func(t *testing.T, w *sweepWorld) {
				loggedOut := w.mustLogin(t, "jane@example.com", goodPass)
				if err := w.db.Auth().Revoke(w.ctx, loggedOut.AccessToken); err != nil {
					t.Fatal(err)
				}
				w.mustLogin(t, "jane@example.com", goodPass) // just left to expire
				// Pat's login is revoked by a password change long after its
				// tokens expired: the recent revocation keeps the family.
				if err := w.db.Auth().SetInitialPassword(w.ctx, w.invited.ID, goodPass); err != nil {
					t.Fatal(err)
				}
				w.mustLogin(t, "pat@example.com", goodPass)
				w.c.advance(day + store.SweepRetention + time.Minute) // past the default refresh lifetime
				if err := w.db.Auth().ChangePassword(w.ctx, portal.Session{SubjectID: w.invited.ID}, "192.0.2.1", goodPass, "another long passphrase"); err != nil {
					t.Fatal(err)
				}
				w.current = w.mustLogin(t, "jane@example.com", goodPass)
			},
			Want: store.SweepResult{Tokens: 6, TokenFamilies: 2},
			Then: func(t *testing.T, w *sweepWorld) {
				if n := w.count(t, "token_families"); n != 2 {
					t.Fatalf("%d families left; want pat's recently revoked one and jane's new login", n)
				}
				if _, err := w.db.Auth().Authenticate(w.ctx, w.current.AccessToken); err != nil {
					t.Fatalf("the new login after the sweep: %v", err)
				}
				w.c.advance(store.SweepRetention + day + time.Minute)
				res, err := w.db.Sweep(w.ctx)
				if err != nil || res.TokenFamilies != 2 || res.Tokens != 2 {
					t.Fatalf("sweep 30 days later = %+v, %v; want pat's family and jane's last login", res, err)
				}
			},
		},
		{
			Name: "InvitationsGoThirtyDaysAfterTheyEnd",
			Setup: func(t *testing.T, w *sweepWorld) {
				w.invite(t, w.invited.ID) // expires after 14 days
				usedSubject, err := w.db.CreateSubject(w.ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "used@example.com", FirstName: "U", LastName: "Sed"})
				if err != nil {
					t.Fatal(err)
				}
				w.invite(t, usedSubject.ID)
				if err := w.db.Auth().SetInitialPassword(w.ctx, usedSubject.ID, goodPass); err != nil { // uses it
					t.Fatal(err)
				}
				w.c.advance(10 * day)
				w.spent = w.invite(t, w.invited.ID) // expires 20 days before the sweep
				w.c.advance(34*day + time.Minute)
				w.fresh = w.invite(t, w.invited.ID)
			},
			Want: store.SweepResult{Invitations: 2},
			Then: func(t *testing.T, w *sweepWorld) {
				if n := w.count(t, "invitations"); n != 2 {
					t.Fatalf("%d invitations left; want 2", n)
				}
				_, err := w.db.Auth().TokenLogin(w.ctx, w.spent)
				wantErr(t, err, portal.ErrInvitation)
				pair, err := w.db.Auth().TokenLogin(w.ctx, w.fresh)
				if err != nil || pair.SubjectID != w.invited.ID {
					t.Fatalf("a current invitation after the sweep = %+v, %v", pair, err)
				}
				if err := w.db.Auth().SetInitialPassword(w.ctx, w.invited.ID, goodPass); err != nil {
					t.Fatal(err)
				}
				_, err = w.db.Auth().TokenLogin(w.ctx, w.fresh)
				wantErr(t, err, portal.ErrInvitation)
			},
		},
		{
			Name: "EmailChangesGoThirtyDaysAfterTheyEnd",
			Setup: func(t *testing.T, w *sweepWorld) {
				pair := w.mustLogin(t, "jane@example.com", goodPass)
				sess, err := w.db.Auth().Authenticate(w.ctx, pair.AccessToken)
				if err != nil {
					t.Fatal(err)
				}
				change := func(to string) {
					t.Helper()
					if err := w.db.Auth().RequestEmailChange(w.ctx, *sess, "192.0.2.1", goodPass, to, "https://portal.example.com/"); err != nil {
						t.Fatal(err)
					}
				}
				change("replaced@example.org") // replaced by the next
				change("expired@example.org")  // left to expire
				w.c.advance(store.SweepRetention + store.DefaultEmailChangeTTL + time.Hour)
				w.current = w.mustLogin(t, "jane@example.com", goodPass)
				if sess, err = w.db.Auth().Authenticate(w.ctx, w.current.AccessToken); err != nil {
					t.Fatal(err)
				}
				change("fresh@example.org")
				w.fresh = confirmLink(t, w.db, "fresh@example.org")
			},
			Want: store.SweepResult{Tokens: 2, TokenFamilies: 1, EmailChanges: 2, MailBodies: 2},
			Then: func(t *testing.T, w *sweepWorld) {
				if n := w.count(t, "email_changes"); n != 1 {
					t.Fatalf("%d e-mail changes left; want the pending one", n)
				}
				if err := w.db.Auth().ConfirmEmailChange(w.ctx, w.fresh); err != nil {
					t.Fatalf("a pending change after the sweep: %v", err)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			c := newClock()
			cfg := sessionConfig(t, c)
			if tc.TTL != nil {
				tc.TTL(&cfg)
			}
			storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
				*c = *newClock()
				w := &sweepWorld{sessionWorld: newSessionWorld(t, db), c: c, ctx: context.Background()}
				tc.Setup(t, w)
				records := map[string]int{}
				for _, table := range recordTables {
					records[table] = w.count(t, table)
				}
				res, err := db.Sweep(w.ctx)
				if err != nil {
					t.Fatal(err)
				}
				// The setup's companies and packages published catalog
				// events (catalogcache.go), which the sweep takes too;
				// TestSweepEvents counts events.
				res.Events = 0
				if res != tc.Want {
					t.Fatalf("Sweep = %+v; want %+v", res, tc.Want)
				}
				for _, table := range recordTables {
					if n := w.count(t, table); n != records[table] {
						t.Fatalf("the sweep changed %s: %d rows, %d before", table, n, records[table])
					}
				}
				again, err := db.Sweep(w.ctx)
				if err != nil || again.Total() != 0 {
					t.Fatalf("a second sweep = %+v, %v; want nothing left to do", again, err)
				}
				if tc.Then != nil {
					tc.Then(t, w)
				}
			})
		})
	}
}

// TestConcurrentSweeps proves several processes may sweep one database at
// once: no errors, and every row is deleted exactly once.
func TestConcurrentSweeps(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		*c = *newClock()
		w := &sweepWorld{sessionWorld: newSessionWorld(t, db), c: c, ctx: context.Background()}
		for i := 0; i < 20; i++ {
			w.login(fmt.Sprintf("ghost%d@example.com", i), "wrong", "198.51.100.1")
			w.mustLogin(t, "jane@example.com", goodPass)
			w.invite(t, w.invited.ID)
		}
		w.c.advance(14*day + store.SweepRetention + time.Minute) // past the default invitation lifetime
		results := make([]store.SweepResult, 4)
		errs := parallel(len(results), func(i int) error {
			var err error
			results[i], err = db.Sweep(w.ctx)
			return err
		})
		var sum store.SweepResult
		for i, err := range errs {
			if err != nil {
				t.Fatalf("sweep %d: %v", i, err)
			}
			r := results[i]
			sum.LoginFailures += r.LoginFailures
			sum.Tokens += r.Tokens
			sum.TokenFamilies += r.TokenFamilies
			sum.Invitations += r.Invitations
		}
		want := store.SweepResult{LoginFailures: 20, Tokens: 40, TokenFamilies: 20, Invitations: 20}
		if sum != want {
			t.Fatalf("the sweeps deleted %+v together; want %+v", sum, want)
		}
	})
}

// TestFileReferrersAreEveryForeignKey keeps the sweep's list of the
// columns that refer to files equal to the schema's foreign keys: a table
// added later that refers to files, and not to the list, would have its
// files swept as orphans.
func TestFileReferrersAreEveryForeignKey(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		var query string
		if db.Dialect() == "sqlite" {
			query = `SELECT m.name || '.' || k."from" FROM sqlite_master m, pragma_foreign_key_list(m.name) k
				WHERE m.type = 'table' AND k."table" = 'files'`
		} else {
			query = `SELECT c.conrelid::regclass::text || '.' || a.attname FROM pg_constraint c
				JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
				WHERE c.contype = 'f' AND c.confrelid = 'files'::regclass`
		}
		rows, err := db.SQL().Query(query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var inSchema []string
		for rows.Next() {
			var col string
			if err := rows.Scan(&col); err != nil {
				t.Fatal(err)
			}
			// A file's chunks are its content, not a reference to it.
			if col != "file_chunks.file_id" {
				inSchema = append(inSchema, col)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		var tested []string
		for _, table := range fileReferrerTables {
			tested = append(tested, table+".file_id")
		}
		swept := store.FileReferrersForTest()
		slices.Sort(inSchema)
		slices.Sort(swept)
		slices.Sort(tested)
		if !slices.Equal(inSchema, swept) {
			t.Errorf("the columns referring to files are %v; the sweep keeps the files of %v", inSchema, swept)
		}
		if !slices.Equal(inSchema, tested) {
			t.Errorf("the columns referring to files are %v; the sweep's test links files from %v", inSchema, tested)
		}
	})
}
