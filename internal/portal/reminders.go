package portal

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ReminderService reminds applicants who have not finished, lets them stop
// the reminders with the link each one carries, and shows operators who is
// stalled.
type ReminderService interface {
	// SendReminders queues the reminders due now (ReminderSchedule, quiet
	// hours), links under baseURL, each once however many servers run it
	// at the same moment, and answers how many it queued.
	SendReminders(ctx context.Context, baseURL string) (int, error)
	// StopReminders stops the reminders of the applicant whose stop link
	// holds token; ResumeReminders turns them back on. An unknown token
	// changes nothing and is not an error: the answer reveals nothing.
	StopReminders(ctx context.Context, token string) error
	ResumeReminders(ctx context.Context, token string) error
	// SetTimeZone records the IANA time zone the applicant's browser is in
	// (used for quiet hours until they save an address) and that they
	// opened the app, which counts as progress.
	SetTimeZone(ctx context.Context, subjectID int64, zone string) error
	// FindStalled lists the applicants of companyID (every company's when
	// 0) who have not finished and made no progress for at least idle,
	// the longest stalled first.
	FindStalled(ctx context.Context, companyID int64, idle time.Duration) ([]StalledApplicant, error)
}

// StalledApplicant is an applicant who has not finished, as the stalled
// list shows them.
type StalledApplicant struct {
	Subject
	StatusText string
	// StoppedAt is the next thing they have to do, in an operator's words
	// ("sign the Disclosure"); empty when nothing is left to them.
	StoppedAt string
	// LastProgress is when they were last invited, opened the app or saved
	// anything.
	LastProgress time.Time
	// RemindersSent counts the reminders since their last invitation;
	// RemindersStopped is set when they used a stop link.
	RemindersSent    int
	RemindersStopped bool
}

// ReminderSchedule says when an applicant who has not finished is
// reminded: After each of the delays after their last progress, then
// every Repeat, while the window of Until from their invitation lasts.
type ReminderSchedule struct {
	After  []time.Duration
	Repeat time.Duration
	// Until is how long after the (latest) invitation reminders are sent;
	// 0 means the invitation's lifetime.
	Until time.Duration
}

// DefaultReminderSchedule: a day, three days, then weekly.
func DefaultReminderSchedule() ReminderSchedule {
	return ReminderSchedule{After: []time.Duration{24 * time.Hour, 72 * time.Hour}, Repeat: 7 * 24 * time.Hour}
}

// ParseReminderDelays reads a comma-separated list of positive, increasing
// durations ("24h,72h"); an empty list means no reminder before the
// repeats.
func ParseReminderDelays(list string) ([]time.Duration, error) {
	var out []time.Duration
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		d, err := time.ParseDuration(item)
		if err != nil {
			return nil, fmt.Errorf("reminder delay %q: use a duration such as 24h", item)
		}
		if d <= 0 || (len(out) > 0 && d <= out[len(out)-1]) {
			return nil, fmt.Errorf("reminder delays must be positive and increasing (got %q)", list)
		}
		out = append(out, d)
	}
	return out, nil
}

// Due is the time of the reminder owed for the stretch without progress
// that began at progress, given the last reminder sent (zero when none):
// the first point of the schedule after both. Zero when the schedule has
// no such point (no repeats after the last delay).
func (s ReminderSchedule) Due(progress, lastSent time.Time) time.Time {
	after := progress
	if lastSent.After(after) {
		after = lastSent
	}
	var last time.Time
	for _, d := range s.After {
		last = progress.Add(d)
		if last.After(after) {
			return last
		}
	}
	if s.Repeat <= 0 {
		return time.Time{}
	}
	if last.IsZero() {
		last = progress
	}
	// The first repeat after `after`, computed rather than stepped to, so a
	// short repeat over a long stretch costs nothing.
	n := after.Sub(last)/s.Repeat + 1
	return last.Add(n * s.Repeat)
}

// Quiet hours: no reminder between 21:00 and 08:00 where the applicant
// lives.
const (
	QuietHoursFrom  = 21
	QuietHoursUntil = 8
)

// InQuietHours says whether t falls in the quiet hours of loc.
func InQuietHours(t time.Time, loc *time.Location) bool {
	h := t.In(loc).Hour()
	return h >= QuietHoursFrom || h < QuietHoursUntil
}

// DefaultTimeZone is the zone of an applicant of whom nothing says where
// they are: most US applicants live in it.
const DefaultTimeZone = "America/New_York"

// ValidateTimeZone checks an IANA zone name a browser sends.
func ValidateTimeZone(zone string) error {
	const field, msg = "timeZone", "Enter a time zone such as America/Chicago"
	// "Local" is the server's zone, not the browser's; LoadLocation itself
	// refuses paths that climb out of the zone database.
	if zone == "" || len(zone) > 64 || zone == "Local" || strings.ContainsAny(zone, " \\") {
		return FieldErrors{{Field: field, Message: msg}}.Err()
	}
	if _, err := time.LoadLocation(zone); err != nil {
		return FieldErrors{{Field: field, Message: msg}}.Err()
	}
	return nil
}

// RemindableStatuses are the statuses with something left to do before
// submission, in which a reminder makes sense.
var RemindableStatuses = []StatusID{StatusNew, StatusSetupComplete, StatusIDVStarted, StatusMROSiteSelection, StatusSelfPayRequired}

// RemindableStatus says whether status is one of RemindableStatuses.
func RemindableStatus(status StatusID) bool {
	return slices.Contains(RemindableStatuses, status)
}
