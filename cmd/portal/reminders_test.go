package main_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
)

// daytimeZone is a fixed-offset zone where it is now about noon, so the
// test never runs in the applicant's quiet hours.
func daytimeZone() string {
	offset := 12 - time.Now().UTC().Hour()
	if offset == 0 {
		return "Etc/GMT"
	}
	return fmt.Sprintf("Etc/GMT%+d", -offset)
}

func TestRemindersSendAndStalledList(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	acme := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, acme); err != nil {
		t.Fatal(err)
	}
	jane, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Reminders().SetTimeZone(ctx, jane.ID, daytimeZone()); err != nil {
		t.Fatal(err)
	}
	// Invited, and last seen, four days ago.
	old := time.Now().Add(-4 * 24 * time.Hour).UnixMilli()
	for _, q := range []string{`UPDATE subjects SET created_at = $1, updated_at = $1`, `UPDATE subject_reminders SET invited_at = $1, active_at = $1`} {
		if _, err := db.SQL().Exec(q, old); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	if out := runPortal(t, "reminders", "send", "--data", data, "--base-url", "https://portal.example.com"); out != "Queued 1 reminder(s).\n" {
		t.Errorf("reminders send: %q", out)
	}
	if out := runPortal(t, "reminders", "send", "--data", data); out != "Queued 0 reminder(s).\n" {
		t.Errorf("reminders send again: %q; want none twice", out)
	}
	if out := runPortal(t, "outbox", "--data", data); !strings.Contains(out, "https://portal.example.com/reminders/stop?token=") {
		t.Errorf("outbox lacks the reminder's stop link:\n%s", out)
	}
	out := runPortal(t, "applicant", "list", "--stalled", "--data", data)
	for _, want := range []string{"Jane Doe  <jane@example.com>", "status: New; stopped at: create a password (invitation not started)",
		"(4 days); reminders: 1 sent"} {
		if !strings.Contains(out, want) {
			t.Errorf("stalled list lacks %q:\n%s", want, out)
		}
	}
	if out := runPortal(t, "applicant", "list", "--stalled", "--days", "5", "--data", data); out != "No applicant has been stalled for 5 days or more.\n" {
		t.Errorf("stalled for 5 days: %q", out)
	}
	if stderr := runPortalFails(t, "reminders", "send", "--data", data, "--reminder-schedule", "72h,24h"); !strings.Contains(stderr, "increasing") {
		t.Errorf("a decreasing schedule: %q", stderr)
	}
}
