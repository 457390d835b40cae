package store_test

import (
	"context"
	"slices"
	"testing"

	"applicantportal/internal/demo"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// viewTables are the tables GET /api/v2/user/subject is built from
// (subjectFacts): every write to them must move the subject's version on
// (their triggers, migration 00030), or the view cache would answer an
// older view.
var viewTables = []string{"subjects", "personal_info", "subject_locations", "subject_records",
	"legal_signatures", "subject_documents", "subject_pdf_forms"}

// notViewTables are the other tables with a subject_id: the view reads
// none of them. A table added with a subject_id must join one list or the
// other (TestSubjectVersionTriggersCoverTheView fails until it does).
var notViewTables = []string{"adverse_actions", "audit_log", "banner_dismissals", "chat_messages", "chat_presence",
	"disputes", "drafts", "email_changes", "files", "handoffs", "idv_sessions", "invitations", "login_codes",
	"password_resets", "payments", "preparation_marks", "profiles", "reminder_stop_links", "report_copies",
	"report_grants", "report_identity_checks", "report_views", "sms_outbox", "subject_collection_sites",
	"subject_reminders", "subject_reports", "token_families", "webhook_events"}

// TestSubjectVersionTriggersCoverTheView: the tables with triggers are the
// view's tables, and every table with a subject_id is classified.
func TestSubjectVersionTriggersCoverTheView(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		subjectTables := `SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
			WHERE m.type = 'table' AND p.name = 'subject_id' ORDER BY m.name`
		triggered := `SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'subject_version_%' ORDER BY tbl_name`
		if db.Dialect() == "postgres" {
			subjectTables = `SELECT table_name FROM information_schema.columns
				WHERE table_schema = current_schema() AND column_name = 'subject_id' ORDER BY table_name`
			triggered = `SELECT DISTINCT event_object_table FROM information_schema.triggers
				WHERE trigger_schema = current_schema() AND trigger_name = 'subject_version' ORDER BY event_object_table`
		}
		names := func(query string) []string {
			t.Helper()
			rows, err := db.SQL().QueryContext(ctx, query)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []string
			for rows.Next() {
				var n string
				if err := rows.Scan(&n); err != nil {
					t.Fatal(err)
				}
				out = append(out, n)
			}
			return out
		}
		for _, table := range names(subjectTables) {
			if table == "subject_versions" {
				continue
			}
			if !slices.Contains(viewTables, table) && !slices.Contains(notViewTables, table) {
				t.Errorf("table %s has a subject_id but is in neither viewTables nor notViewTables: does the subject view read it?", table)
			}
		}
		want := slices.Sorted(slices.Values(viewTables))
		if got := names(triggered); !slices.Equal(got, want) {
			t.Errorf("tables whose writes move the subject's version: %q, want the view's %q", got, want)
		}
	})
}

// TestSubjectVersionMovesWithEveryWrite: an update, a delete and an
// insert of each view table's rows of the demo applicant moves their
// version on, and no other subject's. (The tables the demo leaves empty
// for them have the same generated triggers, which
// TestSubjectVersionTriggersCoverTheView finds.)
func TestSubjectVersionMovesWithEveryWrite(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		openEvents(t, db)
		if _, err := demo.Seed(ctx, db, "http://portal.test"); err != nil {
			t.Fatal(err)
		}
		// The demo applicant (setup done, documents signed) and another.
		var jane, other int64
		if err := db.SQL().QueryRowContext(ctx, `SELECT MIN(subject_id) FROM legal_signatures`).Scan(&jane); err != nil {
			t.Fatal(err)
		}
		if err := db.SQL().QueryRowContext(ctx, `SELECT MIN(id) FROM subjects WHERE id <> $1`, jane).Scan(&other); err != nil {
			t.Fatal(err)
		}
		// One connection: the copies are temporary tables.
		conn, err := db.SQL().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		version := func(id int64) portal.ViewVersion {
			t.Helper()
			v, ok, err := db.SubjectData().SubjectViewVersion(ctx, id)
			if err != nil || !ok {
				t.Fatalf("version: %v %v", ok, err)
			}
			return v
		}
		tested := 0
		for _, table := range viewTables {
			key := "subject_id"
			if table == "subjects" {
				key = "id"
			}
			var rows int
			if err := conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+` WHERE `+key+` = $1`, jane).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if rows == 0 {
				continue
			}
			tested++
			set := key // (PostgreSQL's subjects.id is an identity: not updated)
			if table == "subjects" {
				set = "status_id"
			}
			writes := []string{`UPDATE ` + table + ` SET ` + set + ` = ` + set + ` WHERE ` + key + ` = $1`}
			if table != "subjects" {
				if _, err := conn.ExecContext(ctx, `CREATE TEMPORARY TABLE copy_`+table+` AS SELECT * FROM `+table+` WHERE `+key+` = $1`, jane); err != nil {
					t.Fatal(err)
				}
				overriding := "" // PostgreSQL's ids are identities: the copies keep theirs
				if db.Dialect() == "postgres" {
					overriding = "OVERRIDING SYSTEM VALUE "
				}
				writes = append(writes, `DELETE FROM `+table+` WHERE `+key+` = $1`,
					`INSERT INTO `+table+` `+overriding+`SELECT * FROM copy_`+table+` WHERE `+key+` = $1`)
			}
			for _, w := range writes {
				before, untouched := version(jane), version(other)
				if _, err := conn.ExecContext(ctx, w, jane); err != nil {
					t.Fatalf("%s: %v", w, err)
				}
				if after := version(jane); after.Subject <= before.Subject {
					t.Errorf("%s: version %d, then %d: not moved on", w, before.Subject, after.Subject)
				}
				if got := version(other); got != untouched {
					t.Errorf("%s: another subject's version moved: %+v, then %+v", w, untouched, got)
				}
			}
		}
		if tested < 4 {
			t.Errorf("only %d of the view's tables hold rows of the demo applicant, want 4 at least", tested)
		}
	})
}
