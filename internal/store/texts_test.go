package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	smssandbox "applicantportal/internal/sandbox/sms"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func TestTextOutboxDelivery(t *testing.T) {
	c := newClock()
	cfg := storetest.Config(t)
	cfg.Now = c.now
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acme := &portal.Company{Name: "Acme"}
		if err := db.CreateCompany(ctx, acme); err != nil {
			t.Fatal(err)
		}
		numbers := map[string]string{"good": "2025550143", "landline": "2079460000", "down": "2025550199"}
		dial := map[string]string{"good": "1", "landline": "44", "down": "1"}
		for _, name := range []string{"good", "landline", "down"} {
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: name + "@example.com", FirstName: "Jo", LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			p := &portal.PersonalInfo{FirstName: "Jo", LastName: "Doe", SSN: "123456789", DaytimeDialCode: dial[name],
				DaytimePhoneNumber: numbers[name], PrimaryNotificationMethod: portal.NotificationMethod{Type: "text", Text: numbers[name]}}
			if err := db.Personal().SavePersonalInfo(ctx, s.ID, p); err != nil {
				t.Fatal(err)
			}
			if _, err := db.NotifyForTest(ctx, s.ID, portal.Notice{Text: "Your background check moved."}); err != nil {
				t.Fatal(err)
			}
		}
		provider := smssandbox.New()
		byNumber := func() map[string]portal.TextMessage {
			t.Helper()
			list, err := db.Operator().Maintenance.TextOutbox(ctx)
			if err != nil || len(list) != 3 {
				t.Fatalf("outbox %+v, %v", list, err)
			}
			out := map[string]portal.TextMessage{}
			for _, m := range list {
				out[m.To] = m
			}
			return out
		}
		sent, failed, err := db.DeliverTexts(ctx, provider, time.Minute, 10)
		if err != nil || sent != 1 || failed != 2 {
			t.Fatalf("sent %d, failed %d, %v", sent, failed, err)
		}
		got := byNumber()
		t.Run("Sent", func(t *testing.T) {
			m := got["+12025550143"]
			if m.SentAt == nil || !strings.HasPrefix(m.ProviderID, "SM") || m.Attempts != 0 {
				t.Errorf("%+v", m)
			}
		})
		t.Run("LandlineRefusedForGood", func(t *testing.T) {
			m := got["+442079460000"]
			if m.FailedAt == nil || m.SentAt != nil || m.Attempts != 1 || !strings.Contains(m.LastError, "cannot receive texts") {
				t.Errorf("%+v", m)
			}
		})
		t.Run("CarrierDownTriedAgain", func(t *testing.T) {
			m := got[smssandbox.TemporaryFailureNumber]
			if m.FailedAt != nil || m.SentAt != nil || m.Attempts != 1 || !strings.Contains(m.LastError, "try again") {
				t.Errorf("%+v", m)
			}
			if sent, failed, _ := db.DeliverTexts(ctx, provider, time.Minute, 10); sent+failed != 0 {
				t.Errorf("tried again before its backoff: %d, %d", sent, failed)
			}
			for range portal.MaxTextAttempts {
				c.advance(2 * time.Hour)
				if _, _, err := db.DeliverTexts(ctx, provider, time.Minute, 10); err != nil {
					t.Fatal(err)
				}
			}
			m = byNumber()[smssandbox.TemporaryFailureNumber]
			if m.FailedAt == nil || m.Attempts != portal.MaxTextAttempts {
				t.Errorf("after every attempt: %+v", m)
			}
		})
	})
}
