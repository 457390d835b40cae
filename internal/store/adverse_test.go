package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// adverseWorld is two companies' applicants who submitted, Jane at Acme
// and Carl at Other, and New at Acme who has not, on a clock set to
// Wednesday 25 November 2026, the day before Thanksgiving.
type adverseWorld struct {
	db              *store.DB
	clock           *clock
	acme, other     int64
	jane, carl, new int64
}

func eachAdverseDB(t *testing.T, run func(t *testing.T, w *adverseWorld)) {
	t.Helper()
	c := &clock{t: time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)}
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := &adverseWorld{db: db, clock: c}
		c.t = time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)
		subject := func(company int64, email string, status portal.StatusID) int64 {
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: company, Email: email, FirstName: "Jane", LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			if status != portal.StatusNew {
				if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, status); err != nil {
					t.Fatal(err)
				}
			}
			return s.ID
		}
		for _, id := range []*int64{&w.acme, &w.other} {
			co := &portal.Company{Name: map[*int64]string{&w.acme: "Acme", &w.other: "Other"}[id]}
			if err := db.CreateCompany(ctx, co); err != nil {
				t.Fatal(err)
			}
			*id = co.ID
		}
		w.jane = subject(w.acme, "jane@example.com", portal.StatusFinalizationComplete)
		w.carl = subject(w.other, "carl@example.com", portal.StatusComplete)
		w.new = subject(w.acme, "new@example.com", portal.StatusNew)
		run(t, w)
	})
}

func intPtr(n int) *int { return &n }

func TestPreAdverseNoticeCountsTheWaitingPeriodInBusinessDays(t *testing.T) {
	eachAdverseDB(t, func(t *testing.T, w *adverseWorld) {
		ctx := context.Background()
		ops := w.db.Operator()
		tests := []struct {
			name     string
			pref     string // the company's adverse_action_waiting_days; "" keeps the default
			override *int
			wantDays int
			wantEnds string
		}{
			{"TheDefaultFiveSkipThanksgivingAndTheWeekend", "", nil, 5, "2026-12-03"},
			{"TheCompanySetting", "10", nil, 10, "2026-12-10"},
			{"TheOverrideForOneNotice", "10", intPtr(2), 2, "2026-11-30"},
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				co := &portal.Company{Name: "Co " + tt.name}
				if err := w.db.CreateCompany(ctx, co); err != nil {
					t.Fatal(err)
				}
				if tt.pref != "" {
					if _, err := ops.Companies.SetCompanyPreference(ctx, co.ID, portal.PrefAdverseWaitingDays, tt.pref); err != nil {
						t.Fatal(err)
					}
				}
				s, err := w.db.CreateSubject(ctx, portal.NewSubject{CompanyID: co.ID, Email: strings.Repeat("x", i+1) + "@example.com", FirstName: "A", LastName: "B"})
				if err != nil {
					t.Fatal(err)
				}
				if err := w.db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, portal.StatusFinalizationComplete); err != nil {
					t.Fatal(err)
				}
				a, err := ops.AdverseActions.SendPreAdverseAction(ctx, portal.PreAdverseRequest{CompanyID: co.ID, SubjectID: s.ID, WaitingDays: tt.override})
				if err != nil {
					t.Fatal(err)
				}
				if a.WaitingDays != tt.wantDays || a.EndsOn.Format(time.DateOnly) != tt.wantEnds || a.State() != portal.AdverseStatePre ||
					a.BusinessDaysLeft != tt.wantDays || a.CompanyName != co.Name {
					t.Errorf("notice = %+v; want %d days ending %s", a, tt.wantDays, tt.wantEnds)
				}
			})
		}
	})
}

func TestAdverseActionFromPreToFinal(t *testing.T) {
	eachAdverseDB(t, func(t *testing.T, w *adverseWorld) {
		ctx := context.Background()
		ops := w.db.Operator().AdverseActions
		mine := w.db.Services(store.ServicesConfig{}).AdverseAction

		_, err := mine.FindAdverseAction(ctx, w.jane)
		wantCode(t, err, portal.ENOTFOUND)
		_, err = ops.SendFinalAdverseAction(ctx, portal.FinalAdverseRequest{SubjectID: w.jane})
		if pe := wantCode(t, err, portal.ECONFLICT); !strings.Contains(pe.Message, "no pre-adverse notice") {
			t.Errorf("final before pre: %q", pe.Message)
		}
		_, err = ops.SendPreAdverseAction(ctx, portal.PreAdverseRequest{SubjectID: w.new})
		if pe := wantCode(t, err, portal.ECONFLICT); !strings.Contains(pe.Message, "has not submitted") {
			t.Errorf("before submission: %q", pe.Message)
		}
		_, err = ops.SendPreAdverseAction(ctx, portal.PreAdverseRequest{SubjectID: w.jane, WaitingDays: intPtr(0)})
		wantCode(t, err, portal.EINVALID)

		byKey := portal.WithActor(ctx, portal.Actor{Kind: portal.ActorAPIKey, ID: 3, Name: "hr"})
		pre, err := ops.SendPreAdverseAction(byKey, portal.PreAdverseRequest{CompanyID: w.acme, SubjectID: w.jane,
			Note: "  The county record of 2019.  ", BasedOn: []string{"CRIM"}})
		if err != nil {
			t.Fatal(err)
		}
		if pre.Note != "The county record of 2019." || len(pre.BasedOn) != 1 || pre.BasedOn[0] != "CRIM" || !pre.SentAt.Equal(w.clock.t.Truncate(time.Millisecond)) {
			t.Errorf("pre = %+v", pre)
		}
		_, err = ops.SendPreAdverseAction(ctx, portal.PreAdverseRequest{SubjectID: w.jane})
		if pe := wantCode(t, err, portal.ECONFLICT); !strings.Contains(pe.Message, "already has a pre-adverse notice") {
			t.Errorf("second notice: %q", pe.Message)
		}
		var profile int
		w.db.SQL().QueryRow(`SELECT status_id FROM profiles WHERE subject_id = $1`, w.jane).Scan(&profile)
		if profile != portal.ProfileStatusPreAdverseAction {
			t.Errorf("profile status = %d", profile)
		}

		// The countdown by the server's clock, and the final notice refused
		// until the period has passed.
		steps := []struct {
			name     string
			at       string
			left     int
			finalErr string
		}{
			{"ThanksgivingDoesNotCount", "2026-11-26", 5, "The waiting period ends on Thursday, December 3, 2026"},
			{"Monday", "2026-11-30", 4, "The waiting period ends on Thursday, December 3, 2026"},
			{"TheLastDay", "2026-12-03", 1, "The waiting period ends on Thursday, December 3, 2026"},
			{"AnOpenDisputeWaitsForItsReinvestigation", "2026-12-04", 0, "is still being reinvestigated (due Monday, January 4, 2027)"},
			{"TheDayAfter", "2026-12-04", 0, ""},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				d, _ := time.Parse(time.DateOnly, s.at)
				w.clock.t = d.Add(23*time.Hour + 59*time.Minute)
				if strings.Contains(s.name, "Dispute") {
					due, _ := time.Parse(time.DateOnly, "2027-01-04")
					if _, err := w.db.SQL().Exec(`INSERT INTO disputes (subject_id, reason, explanation, state, received_at, due_at)
						VALUES ($1, 'inaccurate', $2, 'reinvestigating', $3, $4)`, w.jane, []byte{0}, due.AddDate(0, 0, -30).UnixMilli(), due.UnixMilli()); err != nil {
						t.Fatal(err)
					}
					defer w.db.SQL().Exec(`UPDATE disputes SET state = 'resolved' WHERE subject_id = $1`, w.jane)
				}
				got, err := mine.FindAdverseAction(ctx, w.jane)
				if err != nil || got.BusinessDaysLeft != s.left {
					t.Fatalf("left = %+v, %v; want %d", got, err, s.left)
				}
				final, err := ops.SendFinalAdverseAction(ctx, portal.FinalAdverseRequest{CompanyID: w.acme, SubjectID: w.jane, Note: "Not going ahead."})
				if s.finalErr != "" {
					if pe := wantCode(t, err, portal.ECONFLICT); !strings.Contains(pe.Message, s.finalErr) {
						t.Errorf("final: %q; want %q", pe.Message, s.finalErr)
					}
					return
				}
				if err != nil || final.State() != portal.AdverseStateFinal || final.FinalNote != "Not going ahead." || final.FinalAt == nil {
					t.Fatalf("final = %+v, %v", final, err)
				}
			})
		}
		_, err = ops.SendFinalAdverseAction(ctx, portal.FinalAdverseRequest{SubjectID: w.jane})
		wantCode(t, err, portal.ECONFLICT)
		w.db.SQL().QueryRow(`SELECT status_id FROM profiles WHERE subject_id = $1`, w.jane).Scan(&profile)
		if profile != portal.ProfileStatusPreAdverseAction {
			t.Errorf("after the final notice the profile status = %d; want it kept at 65", profile)
		}

		// Both notices audited, queued for webhooks and sent to the applicant.
		trail, _ := w.db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: w.jane})
		if len(trail) != 2 || trail[0].Action != "adverse.final" || trail[1].Action != "adverse.pre" || trail[1].Actor.Kind != portal.ActorAPIKey ||
			trail[1].Detail != "pre-adverse notice: 5 business days, ends 2026-12-03" {
			t.Errorf("audit = %+v", trail)
		}
		var events []string
		rows, _ := w.db.SQL().Query(`SELECT type || ' ' || payload FROM webhook_events WHERE subject_id = $1 ORDER BY id`, w.jane)
		for rows.Next() {
			var e string
			rows.Scan(&e)
			events = append(events, e)
		}
		rows.Close()
		want := []string{
			`adverse_action.pre {"adverseActionId":` + strconv.FormatInt(pre.ID, 10) + `,"state":"pre","waitingDays":5,"endsOn":"2026-12-03"}`,
			`adverse_action.final {"adverseActionId":` + strconv.FormatInt(pre.ID, 10) + `,"state":"final","waitingDays":5,"endsOn":"2026-12-03"}`,
		}
		if strings.Join(events, "\n") != strings.Join(want, "\n") {
			t.Errorf("webhook events:\n%s\nwant\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
		}
		var subjects []string
		rows, _ = w.db.SQL().Query(`SELECT subject FROM outbox WHERE to_address = 'jane@example.com' ORDER BY id`)
		for rows.Next() {
			var s string
			rows.Scan(&s)
			subjects = append(subjects, s)
		}
		rows.Close()
		if strings.Join(subjects, "|") != "Before Acme decides: your background check|Acme has made its decision" {
			t.Errorf("mails = %q", subjects)
		}
	})
}

func TestAdverseActionStaysWithinTheOperatorsCompany(t *testing.T) {
	eachAdverseDB(t, func(t *testing.T, w *adverseWorld) {
		ctx := context.Background()
		ops := w.db.Operator().AdverseActions
		if _, err := ops.SendPreAdverseAction(ctx, portal.PreAdverseRequest{SubjectID: w.carl}); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			call func() error
		}{
			{"Pre", func() error {
				_, err := ops.SendPreAdverseAction(ctx, portal.PreAdverseRequest{CompanyID: w.acme, SubjectID: w.carl})
				return err
			}},
			{"Final", func() error {
				_, err := ops.SendFinalAdverseAction(ctx, portal.FinalAdverseRequest{CompanyID: w.acme, SubjectID: w.carl})
				return err
			}},
			{"Show", func() error {
				_, err := ops.FindAdverseAction(ctx, w.acme, w.carl)
				return err
			}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if pe := wantCode(t, tt.call(), portal.ENOTFOUND); pe.Message != "Applicant not found." {
					t.Errorf("message %q", pe.Message)
				}
			})
		}
		if a, err := ops.FindAdverseAction(ctx, w.other, w.carl); err != nil || a.CompanyName != "Other" {
			t.Errorf("own company: %+v, %v", a, err)
		}
		_, err := ops.FindAdverseAction(ctx, w.acme, w.jane)
		wantCode(t, err, portal.ENOTFOUND)
	})
}
