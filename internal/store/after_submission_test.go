package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestAuditTrailRecordsWhoActedAndStaysWithinACompany(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acme, other := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Other"}
		for _, c := range []*portal.Company{acme, other} {
			if err := db.CreateCompany(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		jane, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		carl, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: other.ID, Email: "carl@example.com", FirstName: "Carl", LastName: "Roe"})
		if err != nil {
			t.Fatal(err)
		}
		byKey := portal.WithActor(ctx, portal.Actor{Kind: portal.ActorAPIKey, ID: 7, Name: "hr", Address: "203.0.113.9"})
		if err := db.AuditForTest(byKey, jane.ID, "service.set", "crim: complete"); err != nil {
			t.Fatal(err)
		}
		if err := db.AuditForTest(ctx, carl.ID, "report.viewed", ""); err != nil {
			t.Fatal(err)
		}
		audit := db.Operator().Audit
		tests := []struct {
			name   string
			filter portal.AuditFilter
			want   []string
		}{
			// The companies' creation is in the trail too, before the acts.
			{"EveryCompanyOnTheCommandLine", portal.AuditFilter{}, []string{"report.viewed", "service.set", "company.created", "company.created"}},
			{"OneCompany", portal.AuditFilter{CompanyID: acme.ID}, []string{"service.set", "company.created"}},
			{"AnotherCompanysApplicantIsEmpty", portal.AuditFilter{CompanyID: acme.ID, SubjectID: carl.ID}, []string{}},
			{"OneApplicant", portal.AuditFilter{SubjectID: carl.ID}, []string{"report.viewed"}},
			{"Limit", portal.AuditFilter{Limit: 1}, []string{"report.viewed"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				list, err := audit.FindAudit(ctx, tt.filter)
				if err != nil {
					t.Fatal(err)
				}
				got := []string{}
				for _, e := range list {
					got = append(got, e.Action)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("actions = %v, want %v", got, tt.want)
				}
			})
		}
		list, _ := audit.FindAudit(ctx, portal.AuditFilter{SubjectID: jane.ID})
		if len(list) != 1 || list[0].Actor != (portal.Actor{Kind: portal.ActorAPIKey, ID: 7, Name: "hr", Address: "203.0.113.9"}) ||
			list[0].CompanyID != acme.ID || list[0].Detail != "crim: complete" {
			t.Errorf("jane's row = %+v", list)
		}
		list, _ = audit.FindAudit(ctx, portal.AuditFilter{SubjectID: carl.ID})
		if len(list) != 1 || list[0].Actor.Kind != portal.ActorSystem {
			t.Errorf("a background action is the system's: %+v", list)
		}
	})
}

func TestNoticesGoByTheApplicantsChosenMethod(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acme := &portal.Company{Name: "Acme"}
		if err := db.CreateCompany(ctx, acme); err != nil {
			t.Fatal(err)
		}
		notice := portal.Notice{Subject: "Your background check", Body: "It moved.", Text: "Your background check moved."}
		tests := []struct {
			name   string
			method *portal.NotificationMethod // nil: no personal information saved yet
			want   []string
			mailTo string
			textTo string
		}{
			{"BeforePersonalInformationTheInvitedAddress", nil, []string{"email"}, "case0@example.com", ""},
			{"Email", &portal.NotificationMethod{Type: "email", Email: "chosen@example.org"}, []string{"email"}, "chosen@example.org", ""},
			{"Text", &portal.NotificationMethod{Type: "text", Text: "(202) 555-0143"}, []string{"text"}, "", "+12025550143"},
			{"Both", &portal.NotificationMethod{Type: "both", Email: "both@example.org", Text: "2025550143"}, []string{"email", "text"}, "both@example.org", "+12025550143"},
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: fmt.Sprintf("case%d@example.com", i),
					FirstName: "Jane", LastName: "Doe"})
				if err != nil {
					t.Fatal(err)
				}
				if tt.method != nil {
					p := &portal.PersonalInfo{FirstName: "Jane", LastName: "Doe", SSN: "123456789", DaytimeDialCode: "1",
						DaytimePhoneNumber: "2025550143", PrimaryNotificationMethod: *tt.method}
					if err := db.Personal().SavePersonalInfo(ctx, s.ID, p); err != nil {
						t.Fatal(err)
					}
				}
				used, err := db.NotifyForTest(ctx, s.ID, notice)
				if err != nil || !reflect.DeepEqual(used, tt.want) {
					t.Fatalf("used %v, %v; want %v", used, err, tt.want)
				}
				var mails, texts int
				var body string
				db.SQL().QueryRow(`SELECT COUNT(*) FROM outbox WHERE to_address = $1`, tt.mailTo).Scan(&mails)
				db.SQL().QueryRow(`SELECT COUNT(*), COALESCE(MAX(body), '') FROM sms_outbox WHERE subject_id = $1 AND to_number = $2`, s.ID, tt.textTo).Scan(&texts, &body)
				if tt.mailTo != "" && mails != 1 {
					t.Errorf("mails to %s = %d", tt.mailTo, mails)
				}
				if tt.textTo != "" && (texts != 1 || body != notice.Text) {
					t.Errorf("texts to %s = %d %q", tt.textTo, texts, body)
				}
			})
		}
	})
}
