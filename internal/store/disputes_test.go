package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// disputesWorld is Acme with a package of two services, Jane (submitted),
// Bob (of Acme, submitted) and Amy (not yet submitted), and Carl of
// another company; the clock starts at received time.
type disputesWorld struct {
	db                *store.DB
	clock             *clock
	svc               *store.DisputeService
	ops               portal.OperatorDisputeService
	acme, other       int64
	jane, bob, amy, c int64
}

func eachDisputesDB(t *testing.T, run func(t *testing.T, w *disputesWorld)) {
	t.Helper()
	c := newClock()
	cfg := storetest.Config(t)
	cfg.Now = c.now
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := &disputesWorld{db: db, clock: c, svc: db.Disputes(), ops: db.Operator().Disputes}
		acme, other := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Other"}
		for _, co := range []*portal.Company{acme, other} {
			if err := db.CreateCompany(ctx, co); err != nil {
				t.Fatal(err)
			}
		}
		w.acme, w.other = acme.ID, other.ID
		if err := db.CreatePackage(ctx, &portal.Package{CompanyID: acme.ID, Name: "Drivers",
			Services: []portal.PackageService{{Code: "crim"}, {Code: "emps"}}}); err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			id      *int64
			who     string
			company int64
			status  portal.StatusID
		}{
			{&w.jane, "jane", acme.ID, portal.StatusFinalizationComplete}, {&w.bob, "bob", acme.ID, portal.StatusComplete},
			{&w.amy, "amy", acme.ID, portal.StatusIDVStarted}, {&w.c, "carl", other.ID, portal.StatusQA},
		} {
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: p.company, Email: p.who + "@example.com", FirstName: p.who, LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, p.status); err != nil {
				t.Fatal(err)
			}
			*p.id = s.ID
		}
		run(t, w)
	})
}

func pdfUpload(name string) *portal.Upload {
	return &portal.Upload{Name: name, ContentType: "application/pdf", Body: strings.NewReader("%PDF-1.4\nevidence\n%%EOF\n")}
}

// uploads hands out the given uploads one at a time, as a request does.
func uploads(list ...*portal.Upload) portal.Uploads {
	return func() (*portal.Upload, error) {
		if len(list) == 0 {
			return nil, nil
		}
		up := list[0]
		list = list[1:]
		return up, nil
	}
}

func (w *disputesWorld) open(t *testing.T, subjectID int64, files ...*portal.Upload) *portal.Dispute {
	t.Helper()
	d, err := w.svc.OpenDispute(context.Background(), subjectID,
		portal.NewDispute{Reason: portal.DisputeInaccurate, ServiceCode: "crim", Explanation: "  The conviction is not mine.  "}, uploads(files...))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func (w *disputesWorld) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := w.db.SQL().QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDisputeDueDateIs30DaysAnd45OnceInformationIsAddedWithinThePeriod(t *testing.T) {
	eachDisputesDB(t, func(t *testing.T, w *disputesWorld) {
		ctx := context.Background()
		received := w.clock.now()
		d := w.open(t, w.jane, pdfUpload("letter.pdf"))
		if !d.DueAt.Equal(received.Add(30*24*time.Hour)) || d.Extended || d.State != portal.DisputeReceived {
			t.Fatalf("opened: due %v extended %v state %s", d.DueAt, d.Extended, d.State)
		}
		if d.Explanation != "The conviction is not mine." || d.ServiceName != "Criminal" || len(d.Files) != 1 || d.Files[0].Name != "letter.pdf" {
			t.Errorf("opened: %+v", d)
		}
		if got := d.DaysLeft(w.clock.now()); got != 30 {
			t.Errorf("days left at receipt = %d, want 30", got)
		}
		w.clock.advance(10*24*time.Hour + time.Hour)
		if got := d.DaysLeft(w.clock.now()); got != 20 {
			t.Errorf("days left after 10 days and an hour = %d, want 20 (a part of a day counts)", got)
		}
		d, err := w.svc.AddDisputeInformation(ctx, w.jane, d.ID, "The court record of my case.", uploads(pdfUpload("court.pdf")))
		if err != nil {
			t.Fatal(err)
		}
		if !d.Extended || !d.DueAt.Equal(received.Add(45*24*time.Hour)) {
			t.Errorf("after information: due %v extended %v, want 45 days", d.DueAt, d.Extended)
		}
		if len(d.Messages) != 1 || d.Messages[0].Author != portal.DisputeByApplicant || len(d.Messages[0].Files) != 1 || len(d.Files) != 1 {
			t.Errorf("messages %+v files %+v", d.Messages, d.Files)
		}
		w.clock.advance(10 * 24 * time.Hour)
		d, err = w.svc.AddDisputeInformation(ctx, w.jane, d.ID, "One more thing.", portal.NoUploads)
		if err != nil || !d.DueAt.Equal(received.Add(45*24*time.Hour)) {
			t.Errorf("the extension applies once: due %v, %v", d.DueAt, err)
		}

		// Another dispute, information after its 30 days: no extension.
		late := w.open(t, w.bob)
		w.clock.advance(30*24*time.Hour + time.Minute)
		late, err = w.svc.AddDisputeInformation(ctx, w.bob, late.ID, "Late.", portal.NoUploads)
		if err != nil || late.Extended || !late.DueAt.Equal(late.ReceivedAt.Add(30*24*time.Hour)) {
			t.Errorf("after the period: due %v extended %v, %v", late.DueAt, late.Extended, err)
		}
		if late.DaysLeft(w.clock.now()) != 0 {
			t.Errorf("days left past the due date = %d", late.DaysLeft(w.clock.now()))
		}
	})
}

func TestDisputeMovesThroughItsStatesToEachOutcome(t *testing.T) {
	eachDisputesDB(t, func(t *testing.T, w *disputesWorld) {
		ctx := context.Background()
		for _, outcome := range portal.DisputeOutcomes {
			t.Run(outcome, func(t *testing.T) {
				d := w.open(t, w.jane)
				answered, err := w.ops.AnswerDispute(ctx, w.acme, d.ID, "We are checking with the county court.")
				if err != nil {
					t.Fatal(err)
				}
				if answered.State != portal.DisputeReinvestigating || len(answered.Messages) != 1 ||
					answered.Messages[0].Author != portal.DisputeByOperator || answered.Applicant.ID != w.jane {
					t.Errorf("answered: %+v", answered)
				}
				// A second answer keeps it reinvestigating.
				if again, err := w.ops.AnswerDispute(ctx, w.acme, d.ID, "Still checking."); err != nil || again.State != portal.DisputeReinvestigating {
					t.Errorf("second answer: %v %v", again, err)
				}
				resolved, err := w.ops.ResolveDispute(ctx, 0, d.ID, outcome, "The court confirmed it.")
				if err != nil {
					t.Fatal(err)
				}
				if resolved.State != portal.DisputeResolved || resolved.Outcome != outcome || resolved.Resolution != "The court confirmed it." ||
					resolved.ResolvedAt == nil || resolved.DaysLeft(w.clock.now()) != 0 {
					t.Errorf("resolved: %+v", resolved)
				}
				for name, err := range map[string]error{
					"Answer":  second(w.ops.AnswerDispute(ctx, w.acme, d.ID, "More.")),
					"Resolve": second(w.ops.ResolveDispute(ctx, w.acme, d.ID, outcome, "Again.")),
					"Add":     second(w.svc.AddDisputeInformation(ctx, w.jane, d.ID, "More.", portal.NoUploads)),
				} {
					if portal.ErrorCode(err) != portal.ECONFLICT {
						t.Errorf("%s after resolution: %v, want conflict", name, err)
					}
				}
			})
		}
		t.Run("ResolvedStraightFromReceived", func(t *testing.T) {
			d := w.open(t, w.bob)
			if r, err := w.ops.ResolveDispute(ctx, w.acme, d.ID, portal.DisputeDeleted, "Removed."); err != nil || r.State != portal.DisputeResolved {
				t.Errorf("%v %v", r, err)
			}
		})
		t.Run("ListsByState", func(t *testing.T) {
			open := w.open(t, w.bob)
			list, err := w.ops.FindDisputes(ctx, portal.DisputeFilter{CompanyID: w.acme, State: portal.DisputeReceived})
			if err != nil || len(list) != 1 || list[0].ID != open.ID || list[0].Applicant.Email != "bob@example.com" {
				t.Errorf("received: %+v %v", list, err)
			}
		})
	})
}

func TestOpenDisputeValidation(t *testing.T) {
	eachDisputesDB(t, func(t *testing.T, w *disputesWorld) {
		ctx := context.Background()
		good := portal.NewDispute{Reason: portal.DisputeNotMe, Explanation: "Not me."}
		six := make([]*portal.Upload, 6)
		for i := range six {
			six[i] = pdfUpload("e.pdf")
		}
		tests := []struct {
			name      string
			subject   *int64
			change    func(n *portal.NewDispute)
			files     []*portal.Upload
			wantCode  string
			wantField string
		}{
			{"TheWholeReport", &w.jane, func(n *portal.NewDispute) {}, nil, "", ""},
			{"EveryReason", &w.bob, func(n *portal.NewDispute) { n.Reason = portal.DisputeOutdated; n.ServiceCode = "emps" }, nil, "", ""},
			{"ErrReason", &w.jane, func(n *portal.NewDispute) { n.Reason = "unfair" }, nil, portal.EINVALID, "reason"},
			{"ErrExplanationEmpty", &w.jane, func(n *portal.NewDispute) { n.Explanation = "  \n " }, nil, portal.EINVALID, "explanation"},
			{"ErrExplanationTooLong", &w.jane, func(n *portal.NewDispute) { n.Explanation = strings.Repeat("a", portal.MaxDisputeText+1) }, nil, portal.EINVALID, "explanation"},
			{"ErrExplanationControl", &w.jane, func(n *portal.NewDispute) { n.Explanation = "a\x00b" }, nil, portal.EINVALID, "explanation"},
			{"ErrServiceNotInPackage", &w.jane, func(n *portal.NewDispute) { n.ServiceCode = "drug" }, nil, portal.EINVALID, "serviceCode"},
			{"ErrBeforeSubmission", &w.amy, func(n *portal.NewDispute) {}, nil, portal.ECONFLICT, ""},
			{"ErrTooManyFiles", &w.jane, func(n *portal.NewDispute) {}, six, portal.EINVALID, "files"},
			{"ErrFileType", &w.jane, func(n *portal.NewDispute) {}, []*portal.Upload{pdfUpload("a.pdf"),
				{Name: "run.exe", ContentType: "application/octet-stream", Body: strings.NewReader("MZ\x90\x00")}}, portal.EUNSUPPORTED, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				filesBefore := w.count(t, `SELECT COUNT(*) FROM files`)
				n := good
				tt.change(&n)
				d, err := w.svc.OpenDispute(ctx, *tt.subject, n, uploads(tt.files...))
				if portal.ErrorCode(err) != tt.wantCode {
					t.Fatalf("err = %v, want %q", err, tt.wantCode)
				}
				if tt.wantCode == "" {
					if d.Reason != n.Reason || d.ServiceCode != n.ServiceCode {
						t.Errorf("dispute %+v", d)
					}
					return
				}
				var e *portal.Error
				if tt.wantField != "" && (!errors.As(err, &e) || len(e.Fields) == 0 || e.Fields[0].Field != tt.wantField) {
					t.Errorf("fields of %v, want %s", err, tt.wantField)
				}
				if got := w.count(t, `SELECT COUNT(*) FROM files`); got != filesBefore {
					t.Errorf("a refused dispute left %d files", got-filesBefore)
				}
			})
		}
		if _, err := w.svc.AddDisputeInformation(ctx, w.jane, w.open(t, w.jane).ID, " ", portal.NoUploads); portal.ErrorCode(err) != portal.EINVALID {
			t.Errorf("empty information: %v", err)
		}
		if _, err := w.ops.ResolveDispute(ctx, w.acme, w.open(t, w.jane).ID, "maybe", ""); portal.ErrorCode(err) != portal.EINVALID {
			t.Errorf("bad resolution: %v", err)
		}
	})
}

func TestDisputesAreTheirApplicantsAndCompanysOnly(t *testing.T) {
	eachDisputesDB(t, func(t *testing.T, w *disputesWorld) {
		ctx := context.Background()
		d := w.open(t, w.jane, pdfUpload("mine.pdf"))
		fileID := d.Files[0].ID
		carls, err := w.svc.OpenDispute(ctx, w.c, portal.NewDispute{Reason: portal.DisputeIncomplete, Explanation: "Missing."}, portal.NoUploads)
		if err != nil {
			t.Fatal(err)
		}
		notFound := map[string]error{
			"BobReads":             second(w.svc.Dispute(ctx, w.bob, d.ID)),
			"BobAdds":              second(w.svc.AddDisputeInformation(ctx, w.bob, d.ID, "Mine now.", portal.NoUploads)),
			"BobOpensTheFile":      second(second3(w.svc.OpenDisputeFile(ctx, w.bob, d.ID, fileID))),
			"FileOfAnotherDispute": second(second3(w.svc.OpenDisputeFile(ctx, w.c, carls.ID, fileID))),
			"OtherCompanyReads":    second(w.ops.FindDispute(ctx, w.other, d.ID)),
			"OtherCompanyAnswers":  second(w.ops.AnswerDispute(ctx, w.other, d.ID, "Hello.")),
			"OtherCompanyResolves": second(w.ops.ResolveDispute(ctx, w.other, d.ID, portal.DisputeVerified, "Fine.")),
			"OtherCompanysFile":    second(second3(w.ops.OpenDisputeAttachment(ctx, w.other, d.ID, fileID))),
		}
		for name, err := range notFound {
			if portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("%s: %v, want not found", name, err)
			}
		}
		if list, _ := w.svc.Disputes(ctx, w.bob); len(list) != 0 {
			t.Errorf("bob lists %d disputes", len(list))
		}
		if list, _ := w.ops.FindDisputes(ctx, portal.DisputeFilter{CompanyID: w.other}); len(list) != 1 || list[0].ID != carls.ID {
			t.Errorf("other company lists %+v", list)
		}
		if list, _ := w.ops.FindDisputes(ctx, portal.DisputeFilter{}); len(list) != 2 {
			t.Errorf("the command line lists %d", len(list))
		}
		f, rc, err := w.svc.OpenDisputeFile(ctx, w.jane, d.ID, fileID)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name != "mine.pdf" || !strings.HasPrefix(string(b), "%PDF") {
			t.Errorf("file %+v %q", f, b)
		}
		// Each download, the applicant's and the company's, is recorded
		// with the dispute and file, never the file's name.
		op := portal.WithActor(ctx, portal.Actor{Kind: portal.ActorAPIKey, ID: 9, Name: "hr"})
		_, rc, err = w.ops.OpenDisputeAttachment(op, w.acme, d.ID, fileID)
		if err != nil {
			t.Fatal(err)
		}
		rc.Close()
		trail, _ := w.db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: w.jane, Limit: 2})
		want := fmt.Sprintf("dispute %d, file %d", d.ID, fileID)
		if len(trail) != 2 || trail[0].Action != "dispute.file-downloaded" || trail[0].Actor.Kind != portal.ActorAPIKey ||
			trail[1].Action != "dispute.file-downloaded" || trail[0].Detail != want || strings.Contains(trail[1].Detail, "mine") {
			t.Errorf("the downloads' trail: %+v", trail)
		}
	})
}

func second3[A, B any](_ A, _ B, err error) (struct{}, error) { return struct{}{}, err }

func TestDisputeActionsAreAuditedSentAndToldToTheApplicant(t *testing.T) {
	eachDisputesDB(t, func(t *testing.T, w *disputesWorld) {
		ctx := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorApplicant, ID: w.jane, Address: "198.51.100.7"})
		d := w.open(t, w.jane)
		if _, err := w.svc.AddDisputeInformation(ctx, w.jane, d.ID, "More.", portal.NoUploads); err != nil {
			t.Fatal(err)
		}
		op := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorCommandLine, Name: "ops"})
		if _, err := w.ops.AnswerDispute(op, 0, d.ID, "Checking."); err != nil {
			t.Fatal(err)
		}
		if _, err := w.ops.ResolveDispute(op, 0, d.ID, portal.DisputeCorrected, "Fixed."); err != nil {
			t.Fatal(err)
		}
		trail, _ := w.db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: w.jane})
		var actions []string
		for _, e := range trail {
			actions = append([]string{e.Action}, actions...)
			if strings.Contains(e.Detail, "Checking") || strings.Contains(e.Detail, "not mine") {
				t.Errorf("the audit holds the dispute's words: %q", e.Detail)
			}
		}
		if strings.Join(actions, " ") != "dispute.opened dispute.information dispute.answered dispute.resolved" {
			t.Errorf("audit = %v", actions)
		}
		var events []string
		rows, _ := w.db.SQL().Query(`SELECT type, payload FROM webhook_events WHERE subject_id = $1 ORDER BY id`, w.jane)
		for rows.Next() {
			var typ, payload string
			rows.Scan(&typ, &payload)
			events = append(events, typ)
			if strings.Contains(payload, "not mine") {
				t.Errorf("a webhook holds the dispute's words: %s", payload)
			}
		}
		rows.Close()
		if strings.Join(events, " ") != "dispute.opened dispute.updated dispute.updated dispute.resolved" {
			t.Errorf("webhooks = %v", events)
		}
		// A receipt, the answer and the resolution; adding information
		// sends nothing to the applicant who added it.
		if n := w.count(t, `SELECT COUNT(*) FROM outbox WHERE to_address = 'jane@example.com'`); n != 3 {
			t.Errorf("mails to jane = %d, want 3", n)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM disputes WHERE explanation LIKE '%not mine%'`); n != 0 {
			t.Error("the explanation is stored in the clear")
		}
	})
}
