package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"applicantportal/internal/store"
)

const remindersUsage = `Usage: portal reminders send [--data DIR | --database-url URL] [--base-url URL] [schedule flags]

send queues, once, the reminders due now, as serve does at every
--reminder-interval (with the same --reminder-schedule, --reminder-repeat,
--reminder-until and quiet hours), and prints how many it queued.
`

func runReminders(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	word, args, err := subcommand("reminders", args, remindersUsage, stderr, "send")
	if word == "send" {
		return runRemindersSend(ctx, args, stdout, stderr)
	}
	return err
}

func runRemindersSend(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("reminders send", "Queues the reminders due now, once (serve does it at every --reminder-interval).", stderr)
	st := f.storage()
	rc := f.reminders()
	var baseURL, dataKey string
	var inviteTTL time.Duration
	f.StringVar(&baseURL, "base-url", "http://127.0.0.1:8080", "public address of the portal, used in the reminders' links (as serve's --base-url)")
	f.StringVar(&dataKey, "data-key", "", "the data key serve uses (reminders are sealed in the outbox with it); empty means data.key in --data")
	f.DurationVar(&inviteTTL, "invite-ttl", 14*24*time.Hour, "how long an invitation link stays valid (as serve's --invite-ttl)")
	if err := f.parse(args); err != nil {
		return err
	}
	schedule, err := rc.schedule(inviteTTL)
	if err != nil {
		return err
	}
	sealer, err := loadSealer(st, dataKey)
	if err != nil {
		return err
	}
	db, err := openStoreWith(ctx, st, store.Config{Sealer: sealer, Reminders: schedule, InvitationTTL: inviteTTL})
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.Reminders().SendReminders(ctx, baseURL)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Queued %d reminder(s).\n", n)
	return nil
}

// listStalled prints the applicants who have not finished and did nothing
// for days: id, name, e-mail, status, where they stopped, since when, and
// their reminders.
func listStalled(ctx context.Context, st *storage, dataKey string, companyID int64, days int, stdout io.Writer) error {
	if days < 1 || days > 365 {
		return fmt.Errorf("--days must be from 1 to 365 (got %d)", days)
	}
	db, err := openSealedStore(ctx, st, dataKey)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := db.Operator().Reminders.FindStalled(ctx, companyID, time.Duration(days)*24*time.Hour)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintf(stdout, "No applicant has been stalled for %d days or more.\n", days)
		return nil
	}
	for _, a := range list {
		reminders := fmt.Sprintf("%d sent", a.RemindersSent)
		if a.RemindersStopped {
			reminders += ", stopped by the applicant"
		}
		fmt.Fprintf(stdout, "%6d  %s  <%s>\n        status: %s; stopped at: %s\n        since %s (%s); reminders: %s\n",
			a.ID, printableLine(strings.TrimSpace(a.FirstName+" "+a.LastName)), printableLine(a.Email), a.StatusText,
			printableLine(cmp.Or(a.StoppedAt, "nothing left to them")), a.LastProgress.UTC().Format("2006-01-02 15:04 MST"),
			idleText(time.Since(a.LastProgress)), reminders)
	}
	return nil
}

// idleText says how long, in days or hours.
func idleText(d time.Duration) string {
	if d >= 48*time.Hour {
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	}
	return fmt.Sprintf("%d hours", int(d/time.Hour))
}
