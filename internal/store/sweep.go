package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// SweepRetention is how long a row stays after it stopped mattering: an
// expired or used token, invitation or reset link is kept this long (for
// questions such as "when did this applicant last sign in?") before Sweep
// deletes it.
const SweepRetention = 30 * 24 * time.Hour

// SweepResult counts the rows one Sweep deleted, per kind.
type SweepResult = portal.SweepResult

// Sweep deletes the rows that can no longer change an answer: throttle
// records that left their window, and tokens, logins, invitations and
// reset links that ended SweepRetention ago, uploads left unfinished for
// AbandonedUploadAge, finished files nothing refers to OrphanedFileAge
// after their upload began (sweepOrphanedFiles), and events published
// EventRetention ago.
// Subjects, signatures, chat messages,
// personal information, the outbox and anything else that is a record
// stay. It runs in one transaction; sweeps of several processes sharing a
// PostgreSQL database run one after another, and a sweep never waits for
// (so never deadlocks with) a request that holds one of the rows.
func (s *DB) Sweep(ctx context.Context) (SweepResult, error) {
	var res SweepResult
	now := s.now()
	retained := ms(now.Add(-SweepRetention))
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.dialect.lock(ctx, tx, lockSweep, "sweep"); err != nil {
			return err
		}
		steps := []struct {
			n     *int64
			table string
			where string
			arg   int64
		}{
			// admit counts only events after now - window.
			{&res.LoginFailures, "login_failures", `at < $1`, ms(now.Add(-ThrottleWindow))},
			{&res.ResetRequests, "password_reset_requests", `at < $1`, ms(now.Add(-resetThrottle.window))},
			{&res.CodeRequests, "login_code_requests", `at < $1`, ms(now.Add(-codeThrottle.window))},
			{&res.LinkRequests, "link_renewal_requests", `at < $1`, ms(now.Add(-renewalThrottle.window))},
			// A token past its expiry gets the same answer as an unknown
			// one: Refresh checks the expiry before it looks for reuse, so
			// a spent refresh token keeps revoking its family for as long
			// as it could have been presented, and a while after.
			{&res.Tokens, "tokens", `expires_at < $1`, retained},
			// Every token of such a family went in the step before. The
			// family's own times count too, so a recent revocation stays
			// visible for a while.
			{&res.TokenFamilies, "token_families", `created_at < $1 AND (revoked_at IS NULL OR revoked_at < $1)
				AND NOT EXISTS (SELECT 1 FROM tokens t WHERE t.family_id = token_families.id AND t.expires_at >= $1)`, retained},
			// TokenLogin answers a deleted invitation as an expired or used
			// one; nothing refers to invitations or reset links.
			{&res.Invitations, "invitations", `expires_at < $1 OR used_at < $1`, retained},
			{&res.PasswordResets, "password_resets", `expires_at < $1 OR used_at < $1`, retained},
			{&res.LoginCodes, "login_codes", `expires_at < $1 OR used_at < $1`, retained},
			{&res.EmailChanges, "email_changes", `expires_at < $1 OR used_at < $1 OR replaced_at < $1`, retained},
			// A handoff link lives minutes; its row is kept while it still
			// counts for the throttle (CreateHandoff), the audit trail
			// keeps the rest.
			{&res.Handoffs, "handoffs", `expires_at < $1`, ms(now.Add(-portal.HandoffWindow))},
			// An expired draft is never answered: it goes at once, the
			// applicant's typing with it.
			{&res.Drafts, "drafts", `expires_at <= $1`, ms(now)},
			// An upload that never finished (the client went away): its
			// chunks go with it (ON DELETE CASCADE). A finished file is a
			// record and stays.
			{&res.Uploads, "files", `complete = FALSE AND created_at < $1`, ms(now.Add(-AbandonedUploadAge))},
			// Every process's poller has read an event within EventPoll.
			// The newest row stays: SQLite numbers a new row after the
			// highest, and an emptied table would number from 1 again,
			// below the id the pollers wait past.
			{&res.Events, "events", `created_at < $1 AND id < (SELECT MAX(id) FROM events)`, ms(now.Add(-EventRetention))},
		}
		for _, st := range steps {
			n, err := s.sweepTable(ctx, tx, st.table, st.where, st.arg)
			if err != nil {
				return err
			}
			*st.n = n
		}
		n, err := s.sweepOrphanedFiles(ctx, tx, now)
		if err != nil {
			return err
		}
		res.OrphanedFiles = n
		// The sandboxes' records have no id column (they are keyed by kind
		// and key) and nothing holds them for long: a plain delete.
		r, err := tx.ExecContext(ctx, `DELETE FROM sandbox_records WHERE expires_at < $1`, ms(now))
		if err != nil {
			return fmt.Errorf("store: sweep sandbox_records: %w", err)
		}
		res.SandboxRecords, _ = r.RowsAffected()
		if res.MailBodies, err = s.dropExpiredMailBodies(ctx, tx, now); err != nil {
			return err
		}
		// A run that removed something says so in the trail, with its
		// counts; one that found nothing leaves no row.
		if detail := sweepDetail(res); detail != "" {
			return s.auditCompany(ctx, tx, 0, "sweep.removed", detail)
		}
		return nil
	})
	if err != nil {
		return SweepResult{}, err
	}
	return res, nil
}

// sweepDetail lists the counts of res that are not 0, "" when all are.
func sweepDetail(res SweepResult) string {
	counts := []struct {
		name string
		n    int64
	}{
		{"login failures", res.LoginFailures}, {"reset requests", res.ResetRequests},
		{"code requests", res.CodeRequests}, {"link requests", res.LinkRequests},
		{"tokens", res.Tokens}, {"token families", res.TokenFamilies},
		{"invitations", res.Invitations}, {"reset links", res.PasswordResets}, {"login codes", res.LoginCodes},
		{"e-mail changes", res.EmailChanges}, {"handoffs", res.Handoffs}, {"drafts", res.Drafts},
		{"unfinished uploads", res.Uploads}, {"orphaned files", res.OrphanedFiles},
		{"sandbox records", res.SandboxRecords}, {"events", res.Events}, {"mail bodies", res.MailBodies},
	}
	var parts []string
	for _, c := range counts {
		if c.n != 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	return strings.Join(parts, ", ")
}

// sweepTable deletes the rows of table that match where. On PostgreSQL it
// skips rows another transaction holds (a successful login clearing its
// failures, a password change revoking old logins): waiting for them could
// deadlock, and the next sweep takes them.
func (s *DB) sweepTable(ctx context.Context, tx *sql.Tx, table, where string, arg int64) (int64, error) {
	res, err := tx.ExecContext(ctx, fmt.Sprintf(`DELETE FROM %[1]s WHERE id IN (SELECT id FROM %[1]s WHERE %[2]s%[3]s)`,
		table, where, s.dialect.skipLocked), arg)
	if err != nil {
		return 0, fmt.Errorf("store: sweep %s: %w", table, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: sweep %s: %w", table, err)
	}
	return n, nil
}

// OrphanedFileAge is how long after its upload began a finished file that
// nothing refers to is removed. A file is stored first and linked to its
// document, message, form or report in a second transaction (on SQLite
// one transaction would hold the only write lock for the whole upload),
// so a process killed between the two leaves a file no one can reach. The
// age is that of an unfinished upload's (AbandonedUploadAge): a file is
// linked the moment it is finished, so one a day old and unlinked is
// never an upload still under way.
const OrphanedFileAge = AbandonedUploadAge

// fileReferrers are the columns that refer to files(id). A file none of
// them names is an orphan. A new table that refers to files must be added
// here, or the sweep would delete its files: TestFileReferrersAreEveryForeignKey
// compares this list with the schema's foreign keys.
var fileReferrers = []struct{ table, column string }{
	{"subject_documents", "file_id"},
	{"pdf_forms", "file_id"},
	{"subject_pdf_forms", "file_id"},
	{"subject_reports", "file_id"},
	{"chat_messages", "file_id"},
	{"dispute_files", "file_id"},
}

// sweepOrphanedFiles deletes the finished files that nothing refers to
// OrphanedFileAge after their upload began; their chunks go with them.
func (s *DB) sweepOrphanedFiles(ctx context.Context, tx *sql.Tx, now time.Time) (int64, error) {
	where := `complete = TRUE AND created_at < $1`
	for _, r := range fileReferrers {
		where += fmt.Sprintf(` AND NOT EXISTS (SELECT 1 FROM %[1]s r WHERE r.%[2]s = files.id)`, r.table, r.column)
	}
	n, err := s.sweepTable(ctx, tx, "files", where, ms(now.Add(-OrphanedFileAge)))
	if err != nil {
		return 0, fmt.Errorf("store: sweep orphaned files: %w", err)
	}
	return n, nil
}
