package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// screeningWorld is Acme, whose package has a criminal and an employment
// check, with jane submitted (identity verification started), and Other
// with carl.
type screeningWorld struct {
	db         *store.DB
	svc        portal.OperatorScreeningService
	acme       int64
	other      int64
	jane, carl int64
	order      int64
}

// monday is the fake clock's time: Monday 30 November 2026, 09:00 UTC.
var monday = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func eachScreeningWorld(t *testing.T, run func(t *testing.T, w *screeningWorld)) {
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return monday }
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := &screeningWorld{db: db, svc: db.Operator().Screening}
		for _, c := range []struct {
			id   *int64
			name string
			subj *int64
		}{{&w.acme, "Acme", &w.jane}, {&w.other, "Other", &w.carl}} {
			company := &portal.Company{Name: c.name}
			if err := db.CreateCompany(ctx, company); err != nil {
				t.Fatal(err)
			}
			*c.id = company.ID
			pkg := &portal.Package{CompanyID: company.ID, Name: "Standard", Services: []portal.PackageService{{Code: "crim"}, {Code: "emps"}}}
			if err := db.CreatePackage(ctx, pkg); err != nil {
				t.Fatal(err)
			}
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: company.ID, Email: strings.ToLower(c.name) + "@example.com",
				FirstName: "Jane", LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			*c.subj = s.ID
			for _, step := range [][2]portal.StatusID{{portal.StatusNew, portal.StatusSetupComplete}, {portal.StatusSetupComplete, portal.StatusIDVStarted}} {
				if err := db.SetSubjectStatus(ctx, s.ID, step[0], step[1]); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := db.SQL().QueryRow(`SELECT o.id FROM orders o JOIN profiles p ON p.id = o.profile_id WHERE p.subject_id = $1`, w.jane).Scan(&w.order); err != nil {
			t.Fatal(err)
		}
		run(t, w)
	})
}

func (w *screeningWorld) service(t *testing.T, code string) portal.OrderServiceStatus {
	t.Helper()
	o, err := w.db.Orders().FindOrder(context.Background(), w.jane, w.order)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range o.Services {
		if s.Code == code {
			return s
		}
	}
	t.Fatalf("no service %s", code)
	return portal.OrderServiceStatus{}
}

func dates(e *portal.Estimate) string {
	if e == nil {
		return "none"
	}
	return e.Earliest.Format(time.DateOnly) + ".." + e.Latest.Format(time.DateOnly)
}

func TestSetServiceStateEveryState(t *testing.T) {
	eachScreeningWorld(t, func(t *testing.T, w *screeningWorld) {
		ctx := context.Background()
		if s := w.service(t, "crim"); s.Progress.State != portal.ServicePending || s.Complete || s.Progress.Estimate() != nil {
			t.Fatalf("before any: %+v", s)
		}
		tests := []struct {
			state        portal.ServiceState
			wantComplete bool
			wantHasError bool
			wantEstimate string
		}{
			{portal.ServicePending, false, false, "2026-12-01..2026-12-03"},
			{portal.ServiceInProgress, false, false, "2026-12-01..2026-12-03"},
			{portal.ServiceWaitingApplicant, false, true, "2026-12-01..2026-12-03"},
			{portal.ServiceWaitingThirdParty, false, false, "2026-12-01..2026-12-03"},
			{portal.ServiceComplete, true, false, "none"},
		}
		for _, tt := range tests {
			t.Run(string(tt.state), func(t *testing.T) {
				if _, err := w.svc.SetServiceState(ctx, 0, portal.SetServiceStateRequest{SubjectID: w.jane, Code: "crim", State: tt.state}); err != nil {
					t.Fatal(err)
				}
				s := w.service(t, "crim")
				if s.Progress.State != tt.state || s.Complete != tt.wantComplete || s.HasError != tt.wantHasError ||
					dates(s.Progress.Estimate()) != tt.wantEstimate || !s.Progress.UpdatedAt.Equal(monday) {
					t.Fatalf("got %+v, estimate %s", s, dates(s.Progress.Estimate()))
				}
			})
		}
	})
}

func TestSetServiceStateEveryReason(t *testing.T) {
	eachScreeningWorld(t, func(t *testing.T, w *screeningWorld) {
		ctx := context.Background()
		// emps takes 2-5 business days unless a reason moves it.
		want := map[string]struct {
			note, estimate, text string
			action               bool
		}{
			"court-closed":              {"2026-12-10", "2026-12-14..2026-12-17", "closed until December 10, 2026;", false},
			"county-search-pending":     {"", "2026-12-02..2026-12-07", "county", false},
			"awaiting-records":          {"", "2026-12-02..2026-12-07", "waiting for records", false},
			"employer-not-responding":   {"", "2026-12-07..2026-12-16", "W-2 or pay stub", true},
			"name-mismatch":             {"", "2026-12-02..2026-12-07", "name differently", true},
			"identity-documents-needed": {"", "2026-12-02..2026-12-07", "identity document", true},
			"mro-review":                {"", "2026-12-02..2026-12-07", "medical review officer", false},
		}
		if len(want) != len(portal.ServiceReasons) {
			t.Fatalf("the table covers %d reasons of %d", len(want), len(portal.ServiceReasons))
		}
		for _, r := range portal.ServiceReasons {
			t.Run(r.Code, func(t *testing.T) {
				tt := want[r.Code]
				if _, err := w.svc.SetServiceState(ctx, 0, portal.SetServiceStateRequest{SubjectID: w.jane, Code: "emps", Reason: r.Code, Note: tt.note}); err != nil {
					t.Fatal(err)
				}
				s := w.service(t, "emps")
				reason, _ := portal.FindServiceReason(s.Progress.Reason)
				if s.Progress.State != r.State || dates(s.Progress.Estimate()) != tt.estimate ||
					!strings.Contains(reason.ApplicantText(s.Progress.Note, portal.LocaleEnUS), tt.text) || (reason.Action != nil) != tt.action ||
					(r.State.NeedsApplicant() && !s.HasError) {
					t.Fatalf("got %+v, estimate %s", s, dates(s.Progress.Estimate()))
				}
			})
		}
	})
}

func TestServiceEstimates(t *testing.T) {
	eachScreeningWorld(t, func(t *testing.T, w *screeningWorld) {
		ctx := context.Background()
		if _, err := w.db.Operator().Companies.SetCompanyPreference(ctx, w.acme, "eta.crim", "2-6"); err != nil {
			t.Fatal(err)
		}
		prefs, err := w.db.Operator().Companies.CompanyPreferences(ctx, w.acme)
		found := false
		for _, p := range prefs {
			found = found || (p.Name == "eta.crim" && p.Value == "2-6")
		}
		if err != nil || !found {
			t.Fatalf("preferences %+v, %v", prefs, err)
		}
		if _, err := w.db.Operator().Companies.SetCompanyPreference(ctx, w.acme, "eta.crim", "6-2"); portal.ErrorCode(err) != portal.EINVALID {
			t.Fatalf("eta.crim 6-2: %v", err)
		}
		tests := []struct {
			name    string
			subject int64
			req     portal.SetServiceStateRequest
			want    string
		}{
			{"Default", w.carl, portal.SetServiceStateRequest{Code: "crim", State: portal.ServiceInProgress}, "2026-12-01..2026-12-03"},
			{"CompanyOverride", w.jane, portal.SetServiceStateRequest{Code: "crim", State: portal.ServiceInProgress}, "2026-12-02..2026-12-08"},
			{"CommandOverride", w.jane, portal.SetServiceStateRequest{Code: "crim", State: portal.ServiceInProgress, ETADays: &portal.ETADays{Min: 0, Max: 1}}, "2026-11-30..2026-12-01"},
			{"ReasonShiftsOverride", w.jane, portal.SetServiceStateRequest{Code: "crim", Reason: "court-closed", Note: "2026-12-10"}, "2026-12-14..2026-12-18"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tt.req.SubjectID = tt.subject
				p, err := w.svc.SetServiceState(ctx, 0, tt.req)
				if err != nil || dates(p.Estimate()) != tt.want {
					t.Fatalf("estimate %s, %v; want %s", dates(p.Estimate()), err, tt.want)
				}
			})
		}
	})
}

func TestScreeningErrorsAndCompanyScope(t *testing.T) {
	eachScreeningWorld(t, func(t *testing.T, w *screeningWorld) {
		ctx := context.Background()
		set := func(company int64, req portal.SetServiceStateRequest) error {
			_, err := w.svc.SetServiceState(ctx, company, req)
			return err
		}
		tests := []struct {
			name      string
			err       error
			wantCode  string
			wantField string
		}{
			{"ErrUnknownService", set(0, portal.SetServiceStateRequest{SubjectID: w.jane, Code: "drug", State: portal.ServiceComplete}), portal.EINVALID, "service"},
			{"ErrUnknownState", set(0, portal.SetServiceStateRequest{SubjectID: w.jane, Code: "crim", State: "done"}), portal.EINVALID, "state"},
			{"ErrUnknownReason", set(0, portal.SetServiceStateRequest{SubjectID: w.jane, Code: "crim", State: portal.ServiceInProgress, Reason: "x"}), portal.EINVALID, "reason"},
			{"ErrUnknownApplicant", set(0, portal.SetServiceStateRequest{SubjectID: 999, Code: "crim", State: portal.ServiceComplete}), portal.ENOTFOUND, ""},
			{"ErrServiceOfAnotherCompany", set(w.other, portal.SetServiceStateRequest{SubjectID: w.jane, Code: "crim", State: portal.ServiceComplete}), portal.ENOTFOUND, ""},
			{"ServiceOfOwnCompany", set(w.acme, portal.SetServiceStateRequest{SubjectID: w.jane, Code: "crim", State: portal.ServiceComplete}), "", ""},
			{"ErrOrderOfAnotherCompany", w.svc.SetOrderStatus(ctx, w.other, w.jane, portal.StatusQA), portal.ENOTFOUND, ""},
			{"ErrUnknownOrderStatus", w.svc.SetOrderStatus(ctx, 0, w.jane, 9), portal.EINVALID, "statusId"},
			{"ErrProfileOfAnotherCompany", w.svc.SetProfileStatus(ctx, w.other, w.jane, portal.ProfileStatusQA), portal.ENOTFOUND, ""},
			{"ErrUnknownProfileStatus", w.svc.SetProfileStatus(ctx, 0, w.jane, 64), portal.EINVALID, "statusId"},
		}
		_, listErr := w.svc.ServiceStates(ctx, w.other, w.jane)
		tests = append(tests, struct {
			name      string
			err       error
			wantCode  string
			wantField string
		}{"ErrListOfAnotherCompany", listErr, portal.ENOTFOUND, ""})
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if portal.ErrorCode(tt.err) != tt.wantCode {
					t.Fatalf("err %v, want %q", tt.err, tt.wantCode)
				}
				if e, ok := tt.err.(*portal.Error); tt.wantField != "" && (!ok || len(e.Fields) == 0 || e.Fields[0].Field != tt.wantField) {
					t.Fatalf("err %v, want field %s", tt.err, tt.wantField)
				}
			})
		}
		list, err := w.svc.ServiceStates(ctx, w.acme, w.jane)
		if err != nil || len(list) != 2 || list[0].Code != "crim" || list[0].State != portal.ServiceComplete || list[1].State != portal.ServicePending {
			t.Fatalf("list %+v, %v", list, err)
		}
	})
}

func TestScreeningRecordsTellsAndPublishes(t *testing.T) {
	eachScreeningWorld(t, func(t *testing.T, w *screeningWorld) {
		ctx := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorCommandLine, Name: "ops"})
		mails := func() int {
			var n int
			w.db.SQL().QueryRow(`SELECT COUNT(*) FROM outbox`).Scan(&n)
			return n
		}
		before := mails()
		req := portal.SetServiceStateRequest{SubjectID: w.jane, Code: "emps", Reason: "employer-not-responding"}
		for range 2 { // the same reason again tells nobody again
			if _, err := w.svc.SetServiceState(ctx, 0, req); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.svc.SetServiceState(ctx, 0, portal.SetServiceStateRequest{SubjectID: w.jane, Code: "crim", State: portal.ServiceInProgress}); err != nil {
			t.Fatal(err)
		}
		if got := mails() - before; got != 1 {
			t.Fatalf("%d mails, want 1 (waiting on the applicant, once)", got)
		}
		if err := w.svc.SetOrderStatus(ctx, 0, w.jane, portal.StatusComplete); err != nil {
			t.Fatal(err)
		}
		if err := w.svc.SetProfileStatus(ctx, 0, w.jane, portal.ProfileStatusPreAdverseAction); err != nil {
			t.Fatal(err)
		}
		if got := mails() - before; got != 2 {
			t.Fatalf("%d mails, want 2 (and the completion)", got)
		}
		trail, err := w.db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: w.jane})
		if err != nil || len(trail) != 5 || trail[0].Action != "profile.set" || trail[1].Action != "order.set" || trail[4].Action != "service.set" ||
			trail[4].Actor.Name != "ops" || !strings.Contains(trail[4].Detail, "employer-not-responding") {
			t.Fatalf("trail %+v, %v", trail, err)
		}
		var events string
		rows, _ := w.db.SQL().Query(`SELECT type FROM webhook_events WHERE subject_id = $1 ORDER BY id`, w.jane)
		for rows.Next() {
			var e string
			rows.Scan(&e)
			events += e + " "
		}
		rows.Close()
		if events != "service.changed service.changed service.changed order.changed profile.changed " {
			t.Fatalf("webhook events %q", events)
		}
	})
}

func TestOrderCompleteMakesDocumentsAndDataReadOnly(t *testing.T) {
	eachScreeningWorld(t, func(t *testing.T, w *screeningWorld) {
		ctx := context.Background()
		for _, tt := range []struct {
			status       portal.StatusID
			wantWritable bool
		}{{portal.StatusQA, true}, {portal.StatusComplete, false}} {
			if err := w.svc.SetOrderStatus(ctx, 0, w.jane, tt.status); err != nil {
				t.Fatal(err)
			}
			list, err := w.db.Documents().FindDocuments(ctx, w.jane)
			if err != nil || list.Writable != tt.wantWritable || list.Deletable {
				t.Fatalf("status %d: writable %v deletable %v, %v", tt.status, list.Writable, list.Deletable, err)
			}
			if portal.DataWritable(tt.status) {
				t.Fatalf("status %d: data writable", tt.status)
			}
			o, err := w.db.Orders().FindOrder(ctx, w.jane, w.order)
			if err != nil || o.StatusID != tt.status || o.Services[0].Complete != (tt.status == portal.StatusComplete) {
				t.Fatalf("order %+v, %v", o, err)
			}
		}
		var status portal.StatusID
		w.db.SQL().QueryRow(`SELECT status_id FROM subjects WHERE id = $1`, w.jane).Scan(&status)
		if status != portal.StatusComplete {
			t.Fatalf("subject status %d", status)
		}
	})
}
