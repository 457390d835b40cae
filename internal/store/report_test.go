package store_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// reportWorld is sessionWorld's Jane (born 1990-04-12, SSN ending 6789)
// with two sessions, an applicant without an SSN, and an applicant of
// another company.
type reportWorld struct {
	*sessionWorld
	a, b  portal.Session // two logins of Jane
	noSSN *portal.Subject
	other *portal.Subject
}

const pdfBody = "%PDF-1.7\nthe background report\n%%EOF\n"

func newReportWorld(t *testing.T, db *store.DB) *reportWorld {
	t.Helper()
	ctx := context.Background()
	w := &reportWorld{sessionWorld: newSessionWorld(t, db)}
	for _, s := range []*portal.Session{&w.a, &w.b} {
		pair, err := w.login("jane@example.com", goodPass, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		sess, err := db.Auth().Authenticate(ctx, pair.AccessToken)
		if err != nil {
			t.Fatal(err)
		}
		*s = *sess
	}
	save := func(id int64, email string, p *portal.PersonalInfo) {
		t.Helper()
		p.FirstName, p.LastName, p.DOB = "Jane", "Doe", "1990-04-12"
		p.PrimaryNotificationMethod = portal.NotificationMethod{Type: portal.NotifyByEmail, Email: email}
		if err := db.Personal().SavePersonalInfo(ctx, id, p); err != nil {
			t.Fatal(err)
		}
	}
	save(w.jane.ID, "jane.doe@example.org", &portal.PersonalInfo{SSN: "123-45-6789"})
	var err error
	if w.noSSN, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "nossn@example.com", FirstName: "Noor", LastName: "Ali"}); err != nil {
		t.Fatal(err)
	}
	save(w.noSSN.ID, "noor.ali@example.org", &portal.PersonalInfo{NoSSN: true})
	other := &portal.Company{Name: "Other"}
	if err := db.CreateCompany(ctx, other); err != nil {
		t.Fatal(err)
	}
	if w.other, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: other.ID, Email: "carl@example.com", FirstName: "Carl", LastName: "Roe"}); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *reportWorld) attach(t *testing.T, companyID, subjectID int64, kind portal.ReportKind) error {
	t.Helper()
	_, err := w.db.Operator().Documents.AttachReport(context.Background(), portal.AttachReportRequest{CompanyID: companyID,
		SubjectID: subjectID, Kind: kind, Name: "report.pdf", Body: strings.NewReader(pdfBody)})
	return err
}

// askFreeCopy records that the applicant ticked "send me a free copy" on
// the authorization, as signing it does.
func (w *reportWorld) askFreeCopy(t *testing.T, s *portal.Subject) {
	t.Helper()
	var docID int64
	if err := w.db.SQL().QueryRow(`INSERT INTO legal_documents (company_id, document_type, visibility, code, title, created_at, updated_at)
		VALUES ($1, $2, 'always', $3, 'Authorization', 0, 0) RETURNING id`, s.CompanyID, portal.FreeReportCopyDocumentType,
		"auth-"+s.Email).Scan(&docID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.SQL().Exec(`INSERT INTO legal_signatures (document_id, subject_id, document_version, content, content_sha256,
		signer_name, user_ip, fields, outcome, created_at) VALUES ($1, $2, 1, '', '', 'Jane Doe', '192.0.2.1', '{"freeReportCopy":true}', 'signed', 0)`,
		docID, s.ID); err != nil {
		t.Fatal(err)
	}
}

var janeRight = portal.ReportIdentity{DOB: "1990-04-12", SSNLast4: "6789"}
var janeWrong = portal.ReportIdentity{DOB: "1990-04-12", SSNLast4: "6788"}

func TestReportIdentityConfirmation(t *testing.T) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		ctx := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorApplicant, Address: "198.51.100.7"})
		w := newReportWorld(t, db)
		reports := db.Reports()
		if err := w.attach(t, 0, w.jane.ID, portal.ReportBackground); err != nil {
			t.Fatal(err)
		}
		open := func(s portal.Session, disposition string) error {
			_, rc, err := reports.OpenReport(ctx, portal.ReportRead{SubjectID: s.SubjectID, FamilyID: s.FamilyID, Kind: portal.ReportBackground, Disposition: disposition})
			if err == nil {
				rc.Close()
			}
			return err
		}

		t.Run("ErrReportConfirmFirst", func(t *testing.T) {
			if err := open(w.a, portal.ReportInline); err != portal.ErrReportConfirmFirst {
				t.Fatalf("err = %v", err)
			}
		})
		t.Run("FormErrorsAreNoTries", func(t *testing.T) {
			for _, tt := range []struct {
				id   portal.ReportIdentity
				want []portal.FieldError
			}{
				{portal.ReportIdentity{}, []portal.FieldError{{Field: "dob", Message: "Enter your date of birth."},
					{Field: "ssnLast4", Message: "Enter the last 4 digits of your Social Security number."}}},
				{portal.ReportIdentity{DOB: "1990-02-30", SSNLast4: "67a9"}, []portal.FieldError{{Field: "dob", Message: "Date of birth must be a real date."},
					{Field: "ssnLast4", Message: "Last 4 digits must be 4 numbers, like 1234."}}},
			} {
				_, err := reports.ConfirmReportIdentity(ctx, w.jane.ID, w.a.FamilyID, tt.id)
				if pe := wantCode(t, err, portal.EINVALID); !reflect.DeepEqual(pe.Fields, tt.want) {
					t.Errorf("fields = %v, want %v", pe.Fields, tt.want)
				}
			}
			if a, _ := reports.FindReportAccess(ctx, w.jane.ID, w.a.FamilyID); a.TriesLeft != portal.ReportMaxTries || !a.SSNRequired {
				t.Errorf("access = %+v", a)
			}
		})
		t.Run("WrongThenRightOpensThisSessionOnly", func(t *testing.T) {
			_, err := reports.ConfirmReportIdentity(ctx, w.jane.ID, w.a.FamilyID, janeWrong)
			pe := wantCode(t, err, portal.EINVALID)
			if len(pe.Fields) != 1 || pe.Fields[0].Field != "dob" || !strings.Contains(pe.Fields[0].Message, "4 tries left") {
				t.Errorf("fields = %v", pe.Fields)
			}
			a, err := reports.ConfirmReportIdentity(ctx, w.jane.ID, w.a.FamilyID, janeRight)
			if err != nil {
				t.Fatal(err)
			}
			if a.GrantedUntil == nil || !a.GrantedUntil.Equal(c.now().Add(15*time.Minute)) || a.TriesLeft != portal.ReportMaxTries {
				t.Errorf("access = %+v", a)
			}
			if err := open(w.a, portal.ReportInline); err != nil {
				t.Fatal(err)
			}
			if err := open(w.a, portal.ReportAttachment); err != nil {
				t.Fatal(err)
			}
			if err := open(w.b, portal.ReportInline); err != portal.ErrReportConfirmFirst {
				t.Errorf("another session: err = %v", err)
			}
		})
		t.Run("ViewsAndDownloadsRecorded", func(t *testing.T) {
			list, err := db.Operator().Reports.FindReportViews(ctx, w.company.ID, w.jane.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := []portal.ReportView{
				{At: c.now(), SubjectID: w.jane.ID, Kind: portal.ReportBackground, Disposition: portal.ReportAttachment, Address: "198.51.100.7"},
				{At: c.now(), SubjectID: w.jane.ID, Kind: portal.ReportBackground, Disposition: portal.ReportInline, Address: "198.51.100.7"},
			}
			if !reflect.DeepEqual(list.Views, want) {
				t.Errorf("views = %+v", list.Views)
			}
			trail, _ := db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: w.jane.ID, Limit: 2})
			if len(trail) != 2 || trail[0].Action != "report.downloaded" || trail[1].Action != "report.viewed" || trail[0].Actor.Address != "198.51.100.7" {
				t.Errorf("trail = %+v", trail)
			}
		})
		t.Run("OperatorListingScopedToTheCompany", func(t *testing.T) {
			_, err := db.Operator().Reports.FindReportViews(ctx, w.other.CompanyID, w.jane.ID)
			wantCode(t, err, portal.ENOTFOUND)
		})
		t.Run("GrantExpires", func(t *testing.T) {
			c.advance(15*time.Minute + time.Second)
			if err := open(w.a, portal.ReportInline); err != portal.ErrReportConfirmFirst {
				t.Errorf("err = %v", err)
			}
		})
		t.Run("FiveWrongTriesLockAcrossSessions", func(t *testing.T) {
			for i := 1; i <= 4; i++ {
				s := []portal.Session{w.a, w.b}[i%2]
				_, err := reports.ConfirmReportIdentity(ctx, w.jane.ID, s.FamilyID, janeWrong)
				wantCode(t, err, portal.EINVALID)
			}
			_, err := reports.ConfirmReportIdentity(ctx, w.jane.ID, w.a.FamilyID, janeWrong)
			pe := wantCode(t, err, portal.ETHROTTLED)
			if pe.RetryAfter != 900 || !strings.Contains(pe.Message, "try again at "+c.now().Add(15*time.Minute).Format("15:04")+" UTC") {
				t.Errorf("lock = %+v", pe)
			}
			c.advance(14 * time.Minute)
			_, err = reports.ConfirmReportIdentity(ctx, w.jane.ID, w.b.FamilyID, janeRight)
			if pe := wantCode(t, err, portal.ETHROTTLED); pe.RetryAfter != 60 {
				t.Errorf("still locked: %+v", pe)
			}
			if a, _ := reports.FindReportAccess(ctx, w.jane.ID, w.b.FamilyID); a.LockedUntil == nil || a.TriesLeft != 0 {
				t.Errorf("access = %+v", a)
			}
			trail, _ := db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: w.jane.ID})
			counts := map[string]int{}
			for _, e := range trail {
				counts[e.Action]++
			}
			if counts["report.identity-failed"] != 6 || counts["report.identity-locked"] != 1 {
				t.Errorf("trail counts = %v", counts)
			}
			c.advance(time.Minute)
			if _, err := reports.ConfirmReportIdentity(ctx, w.jane.ID, w.b.FamilyID, janeRight); err != nil {
				t.Errorf("after the lock: %v", err)
			}
		})
		t.Run("NoSSNTheDateOfBirthAlone", func(t *testing.T) {
			if a, _ := reports.FindReportAccess(ctx, w.noSSN.ID, 0); a.SSNRequired {
				t.Errorf("access = %+v", a)
			}
			_, err := reports.ConfirmReportIdentity(ctx, w.noSSN.ID, w.a.FamilyID, portal.ReportIdentity{DOB: "1990-04-13"})
			if pe := wantCode(t, err, portal.EINVALID); !strings.HasPrefix(pe.Fields[0].Message, "Enter the date of birth you gave us") {
				t.Errorf("fields = %v", pe.Fields)
			}
		})
	})
}

func TestReportAttachTellsTheApplicant(t *testing.T) {
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newReportWorld(t, db)
		subjects := func(t *testing.T) []string {
			t.Helper()
			mails, err := db.Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, m := range mails {
				if m.To == "jane.doe@example.org" {
					out = append(out, m.Subject)
				}
			}
			return out
		}
		t.Run("AnotherCompanysApplicantIsNotFound", func(t *testing.T) {
			wantCode(t, w.attach(t, w.other.CompanyID, w.jane.ID, portal.ReportBackground), portal.ENOTFOUND)
		})
		t.Run("NotAskedAPlainNotice", func(t *testing.T) {
			if err := w.attach(t, w.company.ID, w.noSSN.ID, portal.ReportBackground); err != nil {
				t.Fatal(err)
			}
			list, _ := db.Operator().Reports.FindReportViews(ctx, 0, w.noSSN.ID)
			if list.FreeCopy != nil || list.FreeCopyAsked {
				t.Errorf("free copy = %+v", list)
			}
		})
		t.Run("FreeCopySentOnceWhenAsked", func(t *testing.T) {
			w.askFreeCopy(t, w.jane)
			if err := w.attach(t, w.company.ID, w.jane.ID, portal.ReportBackground); err != nil {
				t.Fatal(err)
			}
			if err := w.attach(t, 0, w.jane.ID, portal.ReportBackground); err != nil {
				t.Fatal(err)
			}
			if err := w.attach(t, 0, w.jane.ID, portal.ReportDrug); err != nil {
				t.Fatal(err)
			}
			want := []string{"Your free copy of your background report", "Your background report was updated", "Your drug test report is ready"}
			if got := subjects(t); !reflect.DeepEqual(got, want) {
				t.Errorf("mails = %q, want %q", got, want)
			}
			list, _ := db.Operator().Reports.FindReportViews(ctx, 0, w.jane.ID)
			if !list.FreeCopyAsked || list.FreeCopy == nil || !reflect.DeepEqual(list.FreeCopy.Channels, []string{"email"}) {
				t.Errorf("free copy = %+v", list.FreeCopy)
			}
			var hooks int
			db.SQL().QueryRow(`SELECT COUNT(*) FROM webhook_events WHERE subject_id = $1 AND type = $2`, w.jane.ID, portal.WebhookReportAttached).Scan(&hooks)
			if hooks != 3 {
				t.Errorf("webhook events = %d", hooks)
			}
			trail, _ := db.Operator().Audit.FindAudit(ctx, portal.AuditFilter{SubjectID: w.jane.ID})
			var actions []string
			for _, e := range trail {
				actions = append(actions, e.Action)
			}
			// After the applicant's password and sign-ins of the setup.
			if want := []string{"report.attached", "report.attached", "report.free-copy-sent", "report.attached",
				"login.succeeded", "login.succeeded", "password.set"}; !reflect.DeepEqual(actions, want) {
				t.Errorf("trail = %v, want %v", actions, want)
			}
		})
	})
}
