package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// ReminderService is portal.ReminderService on the store.
type ReminderService struct{ db *DB }

var _ portal.ReminderService = (*ReminderService)(nil)

// Reminders hands out the reminder service.
func (db *DB) Reminders() *ReminderService { return &ReminderService{db} }

// remindableStatusSQL lists portal.RemindableStatuses for a query: "(0, 1, 3, 6, 7)".
var remindableStatusSQL = func() string {
	ids := make([]string, len(portal.RemindableStatuses))
	for i, st := range portal.RemindableStatuses {
		ids[i] = strconv.Itoa(int(st))
	}
	return "(" + strings.Join(ids, ", ") + ")"
}()

// reminderState is what the scheduler and the stalled list read of one
// unfinished applicant.
type reminderState struct {
	subjectID   int64
	status      portal.StatusID
	hasPassword bool
	// windowStart is the operator's latest invitation (or the first link,
	// or the subject's creation, for applicants from before reminders).
	windowStart time.Time
	progress    time.Time
	timeZone    string
	sent        int
	lastSent    time.Time
	stopped     bool
}

// reminderStates reads the applicants who have not finished (of companyID,
// every company's when 0). Progress is the latest of what the applicant
// or the operator did, read from the tables those actions already write:
// the invitation, the app opened signed in (SetTimeZone), a login or a
// token refresh, a save of the account, the personal information, a data
// page or where they live, a signature.
func (s *ReminderService) reminderStates(ctx context.Context, companyID int64) ([]reminderState, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT s.id, s.status_id, s.password_hash IS NOT NULL, s.created_at, s.updated_at,
			r.invited_at, r.active_at, COALESCE(r.time_zone, ''), COALESCE(r.sent_count, 0), r.last_sent_at, r.stopped_at IS NOT NULL,
			(SELECT MIN(i.created_at) FROM invitations i WHERE i.subject_id = s.id),
			(SELECT MAX(t.created_at) FROM tokens t JOIN token_families f ON f.id = t.family_id WHERE f.subject_id = s.id),
			(SELECT MAX(f.created_at) FROM token_families f WHERE f.subject_id = s.id),
			(SELECT MAX(x.saved_at) FROM subject_records x WHERE x.subject_id = s.id),
			(SELECT p.saved_at FROM personal_info p WHERE p.subject_id = s.id),
			(SELECT l.updated_at FROM subject_locations l WHERE l.subject_id = s.id),
			(SELECT MAX(g.created_at) FROM legal_signatures g WHERE g.subject_id = s.id)
		FROM subjects s LEFT JOIN subject_reminders r ON r.subject_id = s.id
		WHERE s.status_id IN `+remindableStatusSQL+` AND (CAST($1 AS BIGINT) = 0 OR s.company_id = $1)
		ORDER BY s.id`, companyID)
	if err != nil {
		return nil, fmt.Errorf("store: find applicants to remind: %w", err)
	}
	defer rows.Close()
	var out []reminderState
	for rows.Next() {
		var st reminderState
		var created, updated int64
		var invited, active, lastSent, firstLink sql.NullInt64
		var progress [6]sql.NullInt64
		if err := rows.Scan(&st.subjectID, &st.status, &st.hasPassword, &created, &updated,
			&invited, &active, &st.timeZone, &st.sent, &lastSent, &st.stopped, &firstLink,
			&progress[0], &progress[1], &progress[2], &progress[3], &progress[4], &progress[5]); err != nil {
			return nil, fmt.Errorf("store: find applicants to remind: %w", err)
		}
		start := created
		switch {
		case invited.Valid:
			start = invited.Int64
		case firstLink.Valid:
			start = firstLink.Int64
		}
		latest := max(start, updated)
		for _, v := range append(progress[:], active) {
			if v.Valid {
				latest = max(latest, v.Int64)
			}
		}
		st.windowStart, st.progress = fromMS(start), fromMS(latest)
		if lastSent.Valid {
			st.lastSent = fromMS(lastSent.Int64)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// schedule is the configured schedule with its window filled in.
func (s *ReminderService) schedule() portal.ReminderSchedule {
	sc := s.db.cfg.Reminders
	if sc.Until <= 0 {
		sc.Until = s.db.cfg.InvitationTTL
	}
	return sc
}

// SendReminders implements portal.ReminderService. Each applicant is
// reminded in a transaction of their own, and only by the transaction
// whose conditional update of last_sent_at (from the value read) succeeds,
// so servers running this at the same moment remind each applicant once.
func (s *ReminderService) SendReminders(ctx context.Context, baseURL string) (int, error) {
	now := s.db.now()
	states, err := s.reminderStates(ctx, 0)
	if err != nil {
		return 0, err
	}
	sc := s.schedule()
	sent := 0
	for _, st := range states {
		if st.stopped || !now.Before(st.windowStart.Add(sc.Until)) {
			continue
		}
		due := sc.Due(st.progress, st.lastSent)
		if due.IsZero() || now.Before(due) {
			continue
		}
		loc, err := s.timeZoneOf(ctx, st)
		if err != nil {
			return sent, err
		}
		// Due in the quiet hours: the run at or after 08:00 sends it.
		if portal.InQuietHours(now, loc) {
			continue
		}
		ok, err := s.remind(ctx, st, baseURL, now)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

// timeZoneOf is where the applicant lives: the state of their current
// address, else the state they said they live in, else their browser's
// zone, else portal.DefaultTimeZone.
func (s *ReminderService) timeZoneOf(ctx context.Context, st reminderState) (*time.Location, error) {
	zone := ""
	if s.db.cfg.Sealer != nil {
		var rec addressesRecord
		if _, err := findRecord(ctx, s.db.db, s.db.cfg.Sealer, st.subjectID, recordAddresses, &rec); err != nil {
			return nil, err
		}
		for _, a := range rec.Addresses {
			if a.Current && a.Country == "US" {
				zone = portal.StateTimeZone(a.State)
			}
		}
	}
	if zone == "" {
		var state string
		err := s.db.db.QueryRowContext(ctx, `SELECT residency_state FROM subject_locations WHERE subject_id = $1 AND NOT residency_non_us`, st.subjectID).Scan(&state)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("store: where the applicant lives: %w", err)
		}
		zone = portal.StateTimeZone(state)
	}
	if zone == "" {
		zone = st.timeZone
	}
	if loc, err := time.LoadLocation(zone); zone != "" && err == nil {
		return loc, nil
	}
	return time.LoadLocation(portal.DefaultTimeZone)
}

// remind queues one applicant's reminder, unless another process reminded
// them, they stopped the reminders or they finished since they were read.
func (s *ReminderService) remind(ctx context.Context, st reminderState, baseURL string, now time.Time) (bool, error) {
	sent := false
	ctx = portal.WithActor(ctx, portal.Actor{Kind: portal.ActorSystem})
	err := s.db.Atomically(ctx, "", func(tx *DB) error {
		// Applicants from before reminders may have no row yet.
		if _, err := tx.db.ExecContext(ctx, `INSERT INTO subject_reminders (subject_id, invited_at) VALUES ($1, $2)
			ON CONFLICT (subject_id) DO NOTHING`, st.subjectID, ms(st.windowStart)); err != nil {
			return fmt.Errorf("store: reminder state: %w", err)
		}
		res, err := tx.db.ExecContext(ctx, `UPDATE subject_reminders SET last_sent_at = $1, sent_count = sent_count + 1
			WHERE subject_id = $2 AND stopped_at IS NULL AND COALESCE(last_sent_at, 0) = $3
			AND EXISTS (SELECT 1 FROM subjects WHERE id = $2 AND status_id IN `+remindableStatusSQL+`)`,
			ms(now), st.subjectID, lastSentMS(st.lastSent))
		if err != nil {
			return fmt.Errorf("store: mark reminded: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		channels, err := s.queueReminder(ctx, tx, st, baseURL, now)
		if err != nil {
			return err
		}
		sent = true
		return s.db.audit(ctx, tx.db, st.subjectID, "reminder.sent",
			fmt.Sprintf("reminder %d by %s", st.sent+1, strings.Join(channels, " and ")))
	})
	return sent, err
}

func lastSentMS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return ms(t)
}

// queueReminder writes the reminder's e-mail and, when the applicant chose
// texts, its text, with a stop link of its own; it answers the channels.
// An applicant who has not started gets a new invitation link (which ends
// the earlier ones); one who has gets the login page and what is next,
// never a credential.
func (s *ReminderService) queueReminder(ctx context.Context, tx *DB, st reminderState, baseURL string, now time.Time) ([]string, error) {
	sub, err := scanSubject(tx.db.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE id = $1`, st.subjectID))
	if err != nil {
		return nil, notFound(err, "Subject")
	}
	company, err := tx.FindCompanyByID(ctx, sub.CompanyID)
	if err != nil {
		return nil, err
	}
	stopToken, stopHash, err := newSecret()
	if err != nil {
		return nil, err
	}
	if _, err := tx.db.ExecContext(ctx, `INSERT INTO reminder_stop_links (token_hash, subject_id, created_at) VALUES ($1, $2, $3)`,
		stopHash, sub.ID, ms(now)); err != nil {
		return nil, fmt.Errorf("store: reminder stop link: %w", err)
	}
	stop := portalLink(baseURL, "/reminders/stop", stopToken)
	msg := messagesIn(sub.Locale)
	if !sub.HasPassword {
		token, err := tx.Auth().CreateInvitation(ctx, sub.ID)
		if err != nil {
			return nil, err
		}
		subject, body := msg.invitationReminderMail(company.Name, sub.FirstName, portalLink(baseURL, "/setup", token), s.db.cfg.InvitationTTL, stop)
		return []string{portal.NotifyByEmail}, s.db.enqueueMail(ctx, tx.db, now, sub.Email, subject, body, s.db.cfg.InvitationTTL)
	}
	facts, err := s.db.statusFacts(ctx, tx.db, sub.ID)
	if err != nil {
		return nil, err
	}
	next := msg.nextStep(sub.StatusID, facts)
	login := portalLink(baseURL, "/login", "")
	to, text := sub.Email, ""
	p, err := findPersonalInfo(ctx, tx.db, s.db.cfg.Sealer, sub.ID)
	if err != nil {
		return nil, err
	}
	if p != nil {
		m := p.PrimaryNotificationMethod
		if m.Email != "" {
			to = m.Email
		}
		if m.Type != portal.NotifyByEmail && m.Type != "" && m.Text != "" {
			dial := cmp.Or(p.DaytimeDialCode, "1")
			text = textNumber(dial, m.Text)
		}
	}
	subject, body := msg.progressReminderMail(company.Name, sub.FirstName, next, login, stop)
	if err := s.db.enqueueMail(ctx, tx.db, now, to, subject, body, 0); err != nil {
		return nil, err
	}
	channels := []string{portal.NotifyByEmail}
	if text != "" {
		if err := s.db.queueText(ctx, tx.db, sub.ID, text, msg.reminderText(company.Name, next, login, stop)); err != nil {
			return nil, err
		}
		channels = append(channels, portal.NotifyByText)
	}
	return channels, nil
}

// StopReminders implements portal.ReminderService.
func (s *ReminderService) StopReminders(ctx context.Context, token string) error {
	return s.setStopped(ctx, token, true)
}

// ResumeReminders implements portal.ReminderService.
func (s *ReminderService) ResumeReminders(ctx context.Context, token string) error {
	return s.setStopped(ctx, token, false)
}

// setStopped stops or resumes the reminders of the stop link's applicant.
// Only a change is audited, so a replayed link (or a scanner's second
// visit) leaves no trace and does no harm.
func (s *ReminderService) setStopped(ctx context.Context, token string, stop bool) error {
	if !portal.PlausibleToken(token) {
		return nil
	}
	return s.db.tx(ctx, func(tx *sql.Tx) error {
		var subjectID int64
		err := tx.QueryRowContext(ctx, `SELECT subject_id FROM reminder_stop_links WHERE token_hash = $1`, hashSecret(token)).Scan(&subjectID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return fmt.Errorf("store: find stop link: %w", err)
		}
		query, args, action := `UPDATE subject_reminders SET stopped_at = $1 WHERE subject_id = $2 AND stopped_at IS NULL`,
			[]any{ms(s.db.now()), subjectID}, "reminders.stopped"
		if !stop {
			query, args, action = `UPDATE subject_reminders SET stopped_at = NULL WHERE subject_id = $1 AND stopped_at IS NOT NULL`,
				[]any{subjectID}, "reminders.resumed"
		}
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("store: %s: %w", action, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		return s.db.audit(ctx, tx, subjectID, action, "by the link in a reminder")
	})
}

// SetTimeZone implements portal.ReminderService.
func (s *ReminderService) SetTimeZone(ctx context.Context, subjectID int64, zone string) error {
	if err := portal.ValidateTimeZone(zone); err != nil {
		return err
	}
	now := ms(s.db.now())
	if _, err := s.db.db.ExecContext(ctx, `INSERT INTO subject_reminders (subject_id, invited_at, active_at, time_zone)
		VALUES ($1, COALESCE((SELECT MAX(i.created_at) FROM invitations i WHERE i.subject_id = $1), $2), $2, $3)
		ON CONFLICT (subject_id) DO UPDATE SET active_at = $2, time_zone = $3`, subjectID, now, zone); err != nil {
		return fmt.Errorf("store: save time zone: %w", err)
	}
	return nil
}

// startReminderWindow starts the applicant's reminders afresh at an
// operator's invitation: a new window and count. A stop stays a stop.
func startReminderWindow(ctx context.Context, q queryer, subjectID int64, now time.Time) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO subject_reminders (subject_id, invited_at) VALUES ($1, $2)
		ON CONFLICT (subject_id) DO UPDATE SET invited_at = $2, sent_count = 0, last_sent_at = NULL`, subjectID, ms(now)); err != nil {
		return fmt.Errorf("store: start reminders: %w", err)
	}
	return nil
}

// FindStalled implements portal.ReminderService.
func (s *ReminderService) FindStalled(ctx context.Context, companyID int64, idle time.Duration) ([]portal.StalledApplicant, error) {
	states, err := s.reminderStates(ctx, companyID)
	if err != nil {
		return nil, err
	}
	cutoff := s.db.now().Add(-idle)
	out := []portal.StalledApplicant{}
	for _, st := range states {
		if st.progress.After(cutoff) {
			continue
		}
		sub, err := scanSubject(s.db.db.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE id = $1`, st.subjectID))
		if err != nil {
			return nil, notFound(err, "Applicant")
		}
		facts, err := s.db.statusFacts(ctx, s.db.db, st.subjectID)
		if err != nil {
			return nil, err
		}
		a := portal.StalledApplicant{Subject: *sub, StatusText: sub.StatusID.Text(), LastProgress: st.progress,
			RemindersSent: st.sent, RemindersStopped: st.stopped}
		if missing := missingSteps(sub.StatusID, facts); len(missing) > 0 {
			a.StoppedAt = missing[0]
		}
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b portal.StalledApplicant) int { return a.LastProgress.Compare(b.LastProgress) })
	return out, nil
}
