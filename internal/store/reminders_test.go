package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// reminderWorld is a company with a package, its operator services and
// the reminders, on a clock the tests move.
type reminderWorld struct {
	*mailWorld
	c *clock
}

func newReminderWorld(t *testing.T, db *store.DB, c *clock) *reminderWorld {
	t.Helper()
	w := &reminderWorld{mailWorld: newMailWorld(t, db), c: c}
	pkg := &portal.Package{CompanyID: w.company.ID, Name: "Standard", Services: []portal.PackageService{{Code: "crim"}}}
	if err := db.CreatePackage(context.Background(), pkg); err != nil {
		t.Fatal(err)
	}
	return w
}

// morning moves the clock on to 10:00 in New York on a later day, so a
// scenario's reminders, due a whole number of days later, fall in the day.
func (w *reminderWorld) morning() time.Time {
	ny, _ := time.LoadLocation("America/New_York")
	d := w.c.t.In(ny).AddDate(0, 0, 1)
	w.c.t = time.Date(d.Year(), d.Month(), d.Day(), 10, 0, 0, 0, ny)
	return w.c.t
}

// remind runs the scheduler once and answers how many it queued.
func (w *reminderWorld) remind(t *testing.T) int {
	t.Helper()
	n, err := w.db.Reminders().SendReminders(context.Background(), portalURL)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// at moves the clock to at and runs the scheduler; it answers the
// reminders to whom so far.
func (w *reminderWorld) at(t *testing.T, at time.Time, whom string) []store.Mail {
	t.Helper()
	w.c.t = at
	w.remind(t)
	return mailsTo(t, w.db, whom)
}

func wantMails(t *testing.T, mails []store.Mail, n int, when string) {
	t.Helper()
	if len(mails) != n {
		t.Fatalf("%s: %d reminders, want %d", when, len(mails), n)
	}
}

func TestReminderSchedule(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// 10:00 in New York, where an applicant of unknown whereabouts is
		// taken to be.
		w := newReminderWorld(t, db, c)

		t.Run("NotStartedRemindedAt24hAnd72hThenWeeklyUntilTheInvitationWindowEnds", func(t *testing.T) {
			t0 := w.morning()
			first := w.invite(t, "waiting@example.com", "")
			wantMails(t, w.at(t, t0.Add(24*time.Hour-time.Minute), "waiting@example.com"), 0, "before 24 h")
			mails := w.at(t, t0.Add(24*time.Hour), "waiting@example.com")
			wantMails(t, mails, 1, "at 24 h")
			m := mails[0]
			if m.Subject != "Reminder: complete your background check for Acme Logistics" ||
				!strings.HasPrefix(m.Body, "Hello Riley,\n") || strings.Contains(m.Body, "Stonebridge") {
				t.Errorf("reminder %q: %q", m.Subject, m.Body)
			}
			token := linkToken(t, m.Body, "/setup")
			if token == first.Token {
				t.Error("the reminder repeats the first link")
			}
			if _, err := db.Auth().TokenLogin(ctx, first.Token); portal.ErrorCode(err) != portal.EFORBIDDEN {
				t.Errorf("the first link after the reminder: %v; want it replaced (403)", err)
			}
			linkToken(t, m.Body, "/reminders/stop")
			// (Logging in with the new link is progress: TheReminderLinkLogsIn.)

			wantMails(t, w.at(t, t0.Add(72*time.Hour-time.Minute), "waiting@example.com"), 1, "before 72 h")
			wantMails(t, w.at(t, t0.Add(72*time.Hour), "waiting@example.com"), 2, "at 72 h")
			wantMails(t, w.at(t, t0.Add(72*time.Hour+7*24*time.Hour-time.Minute), "waiting@example.com"), 2, "before a week after")
			wantMails(t, w.at(t, t0.Add(72*time.Hour+7*24*time.Hour), "waiting@example.com"), 3, "a week after the second")
			// The next would be at 17 days; the invitation's 14 days are over.
			wantMails(t, w.at(t, t0.Add(30*24*time.Hour), "waiting@example.com"), 3, "after the window")
		})

		t.Run("AMissedRunSendsOneReminderNotABurst", func(t *testing.T) {
			t0 := w.morning()
			w.invite(t, "late@example.com", "")
			wantMails(t, w.at(t, t0.Add(5*24*time.Hour), "late@example.com"), 1, "five days on, first run")
			wantMails(t, w.at(t, t0.Add(5*24*time.Hour+time.Hour), "late@example.com"), 1, "the next run")
		})

		t.Run("TheReminderLinkLogsInAndThatIsProgress", func(t *testing.T) {
			t0 := w.morning()
			w.invite(t, "link@example.com", "")
			mails := w.at(t, t0.Add(24*time.Hour), "link@example.com")
			wantMails(t, mails, 1, "at 24 h")
			if _, err := db.Auth().TokenLogin(ctx, linkToken(t, mails[0].Body, "/setup")); err != nil {
				t.Fatalf("the reminder's link does not log in: %v", err)
			}
			wantMails(t, w.at(t, t0.Add(48*time.Hour-time.Minute), "link@example.com"), 1, "before 24 h after the login")
			wantMails(t, w.at(t, t0.Add(48*time.Hour), "link@example.com"), 2, "24 h after the login")
		})

		t.Run("ProgressRestartsTheCount", func(t *testing.T) {
			t0 := w.morning()
			res := w.invite(t, "busy@example.com", "")
			c.t = t0.Add(23 * time.Hour)
			// The app, opened signed in, sends the browser's zone.
			if err := db.Reminders().SetTimeZone(ctx, res.Subject.ID, "America/New_York"); err != nil {
				t.Fatal(err)
			}
			wantMails(t, w.at(t, t0.Add(24*time.Hour), "busy@example.com"), 0, "24 h after the invitation, 1 h after opening the app")
			wantMails(t, w.at(t, t0.Add(47*time.Hour-time.Minute), "busy@example.com"), 0, "before 24 h after opening the app")
			wantMails(t, w.at(t, t0.Add(47*time.Hour), "busy@example.com"), 1, "24 h after opening the app")
		})

		t.Run("StartedGetsTheLoginPageAndWhatIsNextNeverACredential", func(t *testing.T) {
			t0 := w.morning()
			res := w.invite(t, "started@example.com", "")
			if err := db.Auth().SetInitialPassword(ctx, res.Subject.ID, goodPass); err != nil {
				t.Fatal(err)
			}
			mails := w.at(t, t0.Add(24*time.Hour), "started@example.com")
			wantMails(t, mails, 1, "at 24 h")
			m := mails[0]
			if m.Subject != "Reminder: finish your background check for Acme Logistics" ||
				!strings.Contains(m.Body, portalURL+"/login\n") || !strings.Contains(m.Body, "Next: ") {
				t.Errorf("reminder %q: %q", m.Subject, m.Body)
			}
			if strings.Count(m.Body, "token=") != 1 {
				t.Errorf("the reminder holds a link besides the stop link: %q", m.Body)
			}
			linkToken(t, m.Body, "/reminders/stop")
			texts, err := db.TextOutbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, tx := range texts {
				if tx.SubjectID == res.Subject.ID {
					t.Errorf("a text to an applicant who did not choose texts: %+v", tx)
				}
			}
		})

		t.Run("TextsOnlyForThoseWhoChoseThem", func(t *testing.T) {
			t0 := w.morning()
			res := w.invite(t, "texts@example.com", "")
			if err := db.Auth().SetInitialPassword(ctx, res.Subject.ID, goodPass); err != nil {
				t.Fatal(err)
			}
			p := &portal.PersonalInfo{FirstName: "Riley", LastName: "Stonebridge", SSN: "123456789", DaytimeDialCode: "1", DaytimePhoneNumber: "2025550143",
				PrimaryNotificationMethod: portal.NotificationMethod{Type: portal.NotifyByBoth, Email: "texts@example.com", Text: "2025550143"}}
			if err := db.Personal().SavePersonalInfo(ctx, res.Subject.ID, p); err != nil {
				t.Fatal(err)
			}
			wantMails(t, w.at(t, t0.Add(24*time.Hour), "texts@example.com"), 1, "at 24 h")
			texts, err := db.TextOutbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var mine []portal.TextMessage
			for _, tx := range texts {
				if tx.SubjectID == res.Subject.ID {
					mine = append(mine, tx)
				}
			}
			if len(mine) != 1 || mine[0].To != "+12025550143" || !strings.Contains(mine[0].Body, portalURL+"/reminders/stop?token=") ||
				strings.Contains(mine[0].Body, "/setup") {
				t.Fatalf("texts %+v; want one to +12025550143 with a stop link and no sign-in link", mine)
			}
		})

		t.Run("FinishedApplicantsAreNotReminded", func(t *testing.T) {
			t0 := w.morning()
			res := w.invite(t, "done@example.com", "")
			if _, err := db.SQL().Exec(`UPDATE subjects SET status_id = $1 WHERE id = $2`, portal.StatusFinalizationComplete, res.Subject.ID); err != nil {
				t.Fatal(err)
			}
			wantMails(t, w.at(t, t0.Add(4*24*time.Hour), "done@example.com"), 0, "finished")
		})

		t.Run("AnOperatorsNewInvitationStartsAFreshWindow", func(t *testing.T) {
			t0 := w.morning()
			w.invite(t, "again@example.com", "")
			wantMails(t, w.at(t, t0.Add(24*time.Hour), "again@example.com"), 1, "at 24 h")
			c.t = t0.Add(30 * 24 * time.Hour)
			w.invite(t, "again@example.com", "")
			wantMails(t, w.at(t, t0.Add(31*24*time.Hour), "again@example.com"), 2, "24 h after the new invitation")
		})

		t.Run("TwoSchedulersAtOnceSendOnce", func(t *testing.T) {
			t0 := w.morning()
			w.invite(t, "race@example.com", "")
			c.t = t0.Add(24 * time.Hour)
			before, err := db.Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			counts, errs := make([]int, 4), make([]error, 4)
			for i := range counts {
				wg.Go(func() { counts[i], errs[i] = db.Reminders().SendReminders(ctx, portalURL) })
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			after, err := db.Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			total := 0
			for _, n := range counts {
				total += n
			}
			if n := len(mailsTo(t, db, "race@example.com")); n != 1 || total != len(after)-len(before) {
				t.Errorf("runs reported %v, outbox grew by %d, %d to the applicant; want each reminder once", counts, len(after)-len(before), n)
			}
		})
	})
}

func TestReminderQuietHours(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newReminderWorld(t, db, c)
		day := time.Date(2027, 1, 4, 0, 0, 0, 0, time.UTC)
		tests := []struct {
			name, email, zone string
			// where says where the applicant is: a browser zone, a current
			// address or nothing.
			where func(t *testing.T, subjectID int64)
		}{
			{"ByTheBrowsersZone", "tokyo@example.com", "Asia/Tokyo", func(t *testing.T, id int64) {
				if err := db.Reminders().SetTimeZone(ctx, id, "Asia/Tokyo"); err != nil {
					t.Fatal(err)
				}
			}},
			{"ByTheCurrentAddressOverTheBrowser", "boise@example.com", "America/Boise", func(t *testing.T, id int64) {
				if err := db.Reminders().SetTimeZone(ctx, id, "Europe/Paris"); err != nil {
					t.Fatal(err)
				}
				if _, err := db.History().SaveAddresses(ctx, id, []portal.Address{currentAddress, pastAddress}, false); err != nil {
					t.Fatal(err)
				}
			}},
			{"NewYorkWhenNothingIsKnown", "nowhere@example.com", "America/New_York", func(*testing.T, int64) {}},
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				loc, err := time.LoadLocation(tt.zone)
				if err != nil {
					t.Fatal(err)
				}
				// Each case on days of its own, the clock only moving on.
				d := day.AddDate(0, 0, 3*i)
				due := time.Date(d.Year(), d.Month(), d.Day(), 22, 0, 0, 0, loc)
				c.t = due.Add(-24 * time.Hour)
				res := w.invite(t, tt.email, "")
				tt.where(t, res.Subject.ID)
				wantMails(t, w.at(t, due, tt.email), 0, "due at 22:00 local")
				morning := time.Date(d.Year(), d.Month(), d.Day()+1, 8, 0, 0, 0, loc)
				wantMails(t, w.at(t, morning.Add(-time.Minute), tt.email), 0, "at 07:59 local")
				wantMails(t, w.at(t, morning, tt.email), 1, "at 08:00 local")
			})
		}
	})
}

func TestReminderStopLinks(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c.t = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)
		w := newReminderWorld(t, db, c)
		t0 := c.t
		res := w.invite(t, "stop@example.com", "")
		mails := w.at(t, t0.Add(24*time.Hour), "stop@example.com")
		wantMails(t, mails, 1, "at 24 h")
		token := linkToken(t, mails[0].Body, "/reminders/stop")
		audits := func(action string) int {
			t.Helper()
			entries, err := w.ops.Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: res.Subject.ID})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range entries {
				if e.Action == action {
					n++
				}
			}
			return n
		}
		if audits("reminder.sent") != 1 {
			t.Error("the reminder sent is not in the audit trail")
		}

		t.Run("UnknownTokensAnswerTheSameAndChangeNothing", func(t *testing.T) {
			for _, tok := range []string{"", "nope", strings.Repeat("x", 43), "a b"} {
				if err := db.Reminders().StopReminders(ctx, tok); err != nil {
					t.Errorf("StopReminders(%q) = %v; want nil", tok, err)
				}
			}
		})
		t.Run("StopsFurtherReminders", func(t *testing.T) {
			if err := db.Reminders().StopReminders(ctx, token); err != nil {
				t.Fatal(err)
			}
			wantMails(t, w.at(t, t0.Add(5*24*time.Hour), "stop@example.com"), 1, "after the stop")
			if audits("reminders.stopped") != 1 {
				t.Error("the stop is not in the audit trail")
			}
		})
		t.Run("ReplayIsHarmless", func(t *testing.T) {
			if err := db.Reminders().StopReminders(ctx, token); err != nil {
				t.Fatal(err)
			}
			if n := audits("reminders.stopped"); n != 1 {
				t.Errorf("%d stops audited after a replay; want 1", n)
			}
		})
		t.Run("ResumeTurnsThemBackOn", func(t *testing.T) {
			if err := db.Reminders().ResumeReminders(ctx, token); err != nil {
				t.Fatal(err)
			}
			wantMails(t, w.at(t, t0.Add(10*24*time.Hour), "stop@example.com"), 2, "after resuming")
			if audits("reminders.resumed") != 1 {
				t.Error("the resume is not in the audit trail")
			}
		})
		t.Run("AnOlderReminderStopLinkStillWorks", func(t *testing.T) {
			if err := db.Reminders().StopReminders(ctx, token); err != nil {
				t.Fatal(err)
			}
			if n := audits("reminders.stopped"); n != 2 {
				t.Errorf("%d stops audited; want the older link to stop them again", n)
			}
		})
	})
}

func TestReminderTimeZoneValidation(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		w := newReminderWorld(t, db, c)
		res := w.invite(t, "zone@example.com", "")
		for _, zone := range []string{"", "Local", "Mars/Olympus", "../../etc/passwd", "America/ New_York", strings.Repeat("A", 65)} {
			err := db.Reminders().SetTimeZone(context.Background(), res.Subject.ID, zone)
			if e := wantCode(t, err, portal.EINVALID); len(e.Fields) != 1 || e.Fields[0].Field != "timeZone" {
				t.Errorf("SetTimeZone(%q) = %v; want a timeZone field error", zone, err)
			}
		}
		if err := db.Reminders().SetTimeZone(context.Background(), res.Subject.ID, "America/Chicago"); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStalledApplicants(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c.t = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)
		w := newReminderWorld(t, db, c)
		other := newReminderWorld(t, db, c)
		t0 := c.t
		idle := w.invite(t, "idle@example.com", "")
		c.t = t0.Add(2 * 24 * time.Hour)
		recent := w.invite(t, "recent@example.com", "")
		theirs := other.invite(t, "theirs@example.com", "")
		done := w.invite(t, "finished@example.com", "")
		if _, err := db.SQL().Exec(`UPDATE subjects SET status_id = $1 WHERE id = $2`, portal.StatusFinalizationComplete, done.Subject.ID); err != nil {
			t.Fatal(err)
		}
		c.t = t0.Add(4 * 24 * time.Hour)
		w.remind(t)

		ids := func(list []portal.StalledApplicant) []int64 {
			var out []int64
			for _, a := range list {
				out = append(out, a.ID)
			}
			return out
		}
		tests := []struct {
			name    string
			company int64
			idle    time.Duration
			want    []int64
		}{
			{"ThreeDaysInTheCompany", w.company.ID, 3 * 24 * time.Hour, []int64{idle.Subject.ID}},
			{"OneDayLongestStalledFirst", w.company.ID, 24 * time.Hour, []int64{idle.Subject.ID, recent.Subject.ID}},
			{"AnotherCompanySeesOnlyItsOwn", other.company.ID, 24 * time.Hour, []int64{theirs.Subject.ID}},
			{"EveryCompanyFromTheCommandLine", 0, 24 * time.Hour, []int64{idle.Subject.ID, recent.Subject.ID, theirs.Subject.ID}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := db.Reminders().FindStalled(ctx, tt.company, tt.idle)
				if err != nil {
					t.Fatal(err)
				}
				if g := ids(got); len(g) != len(tt.want) || (len(g) > 0 && !equalIDs(g, tt.want)) {
					t.Fatalf("stalled %v; want %v", g, tt.want)
				}
			})
		}
		t.Run("SaysWhereAndSinceWhen", func(t *testing.T) {
			got, err := db.Reminders().FindStalled(ctx, w.company.ID, 3*24*time.Hour)
			if err != nil || len(got) != 1 {
				t.Fatalf("%v, %v", got, err)
			}
			a := got[0]
			if a.StoppedAt != "create a password (invitation not started)" || !a.LastProgress.Equal(t0) ||
				a.RemindersSent != 1 || a.RemindersStopped || a.StatusText != "New" {
				t.Errorf("stalled %+v", a)
			}
		})
	})
}

func equalIDs(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
