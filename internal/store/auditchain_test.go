package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// appendAudit writes n rows to the trail, as company-wide actions (no
// applicant needed), through the services' path.
func appendAudit(t testing.TB, db *store.DB, n int, action string) {
	t.Helper()
	ctx := portal.WithActor(context.Background(), portal.Actor{Kind: portal.ActorAPIKey, ID: 3, Name: "hr", Address: "203.0.113.9"})
	for i := range n {
		if err := db.AuditCompanyForTest(ctx, 1, action, fmt.Sprintf("%s %d", action, i)); err != nil {
			t.Fatal(err)
		}
	}
}

func verifyAudit(t testing.TB, db *store.DB) *portal.AuditChainCheck {
	t.Helper()
	check, err := db.Operator().Audit.VerifyChain(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return check
}

func wantIntact(t testing.TB, db *store.DB, rows int64) {
	t.Helper()
	check := verifyAudit(t, db)
	if check.Broken != nil {
		t.Fatalf("chain broken at row %d: %s", check.Broken.ID, check.Broken.Problem)
	}
	if check.Rows != rows || len(check.LastHash) != 64 {
		t.Fatalf("chain of %d rows, last hash %q; want %d rows", check.Rows, check.LastHash, rows)
	}
}

// withoutAppendOnly runs statements as someone with the database's
// credentials would, the append-only triggers dropped first (on
// PostgreSQL disabled, and enabled again at the end, so the test's
// database goes back to the pool of copies as migrated).
func withoutAppendOnly(t testing.TB, db *store.DB, statements ...string) {
	t.Helper()
	drop := []string{`DROP TRIGGER IF EXISTS audit_log_no_update`, `DROP TRIGGER IF EXISTS audit_log_no_delete`, `DROP TRIGGER IF EXISTS audit_log_chained`}
	if db.Dialect() == "postgres" {
		drop = []string{`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`}
		t.Cleanup(func() { db.SQL().Exec(`ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only`) })
	}
	for _, q := range append(drop, statements...) {
		if _, err := db.SQL().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestAuditChainHoldsWhatCommitted: rows appended one by one or together
// make one chain; a failed transaction's rows never join it; SQL cannot
// change or remove a row (one database, the cases in turn).
func TestAuditChainHoldsWhatCommitted(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("ManyRowsVerify", func(t *testing.T) {
			wantIntact(t, db, 0)
			appendAudit(t, db, 200, "webhook.added")
			wantIntact(t, db, 200)
			// Rows appended together in one transaction take consecutive places.
			err := db.Atomically(ctx, "", func(tx *store.DB) error {
				appendAudit(t, tx, 3, "apikey.created")
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			wantIntact(t, db, 203)
		})
		t.Run("RowsOfAFailedTransactionAreNotChained", func(t *testing.T) {
			err := db.Atomically(ctx, "", func(tx *store.DB) error {
				appendAudit(t, tx, 3, "apikey.created")
				return fmt.Errorf("changed my mind")
			})
			if err == nil {
				t.Fatal("Atomically succeeded")
			}
			wantIntact(t, db, 203)
			appendAudit(t, db, 1, "webhook.removed")
			wantIntact(t, db, 204)
		})
		t.Run("UpdateAndDeleteBySQLAreRefused", func(t *testing.T) {
			for _, q := range []string{
				`UPDATE audit_log SET detail = 'nothing happened' WHERE seq = 2`,
				`UPDATE audit_log SET hash = NULL WHERE seq = 2`,
				`DELETE FROM audit_log WHERE seq = 2`,
				`DELETE FROM audit_log`,
				`INSERT INTO audit_log (company_id, subject_id, actor, action, created_at) VALUES (1, 0, 'system', 'forged', 1)`,
			} {
				if _, err := db.SQL().Exec(q); err == nil || !strings.Contains(err.Error(), "audit_log") {
					t.Errorf("%s: error %v, want the trigger's refusal", q, err)
				}
			}
			wantIntact(t, db, 204)
		})
	})
}

func TestAuditVerifyNamesTheFirstBrokenRow(t *testing.T) {
	tests := []struct {
		name    string
		tamper  []string
		wantSeq int64 // the place of the row named
		want    string
	}{
		{"ContentAltered", []string{`UPDATE audit_log SET detail = 'nothing happened' WHERE seq = 7`}, 7, "content altered"},
		{"ActorAltered", []string{`UPDATE audit_log SET address = '198.51.100.1' WHERE seq = 4`}, 4, "content altered"},
		{"RowDeleted", []string{`DELETE FROM audit_log WHERE seq = 5`}, 6, "a row is missing before it"},
		{"FirstRowDeleted", []string{`DELETE FROM audit_log WHERE seq = 1`}, 2, "a row is missing before it"},
		{"LastRowDeleted", []string{`DELETE FROM audit_log WHERE seq = 10`}, 9, "rows missing at the end"},
		{"RowReplacedWithOwnHash", []string{`UPDATE audit_log SET prev_hash = hash WHERE seq = 3`}, 3, "prev mismatch"},
		{"RowInsertedWithoutHash", []string{`INSERT INTO audit_log (company_id, subject_id, actor, action, created_at) VALUES (1, 0, 'system', 'forged', 1)`}, 0, "a row outside the chain"},
	}
	// One database for every case: each starts the chain again.
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				withoutAppendOnly(t, db, `DELETE FROM audit_log`, `DELETE FROM audit_head`)
				appendAudit(t, db, 10, "webhook.added")
				wantIntact(t, db, 10)
				withoutAppendOnly(t, db, tt.tamper...)
				check := verifyAudit(t, db)
				if check.Broken == nil {
					t.Fatalf("chain of %d rows verified after tampering", check.Rows)
				}
				if check.Broken.Seq != tt.wantSeq || !strings.HasPrefix(check.Broken.Problem, tt.want) {
					t.Fatalf("broken at place %d: %q; want place %d: %q", check.Broken.Seq, check.Broken.Problem, tt.wantSeq, tt.want)
				}
				var id int64
				if tt.wantSeq != 0 {
					if err := db.SQL().QueryRow(`SELECT id FROM audit_log WHERE seq = $1`, tt.wantSeq).Scan(&id); err != nil {
						t.Fatal(err)
					}
					if check.Broken.ID != id {
						t.Fatalf("broken row id %d, want %d", check.Broken.ID, id)
					}
				}
			})
		}
	})
}

// TestConcurrentAuditAppendsKeepOneChain: goroutines on two opened
// stores (two instances on one database) append at once.
func TestConcurrentAuditAppendsKeepOneChain(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(cfg store.Config) *store.DB) {
		cfg := storetest.Config(t)
		dbs := []*store.DB{open(cfg), open(cfg)}
		const workers, each = 8, 10
		var wg sync.WaitGroup
		errs := make(chan error, workers*each)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db := dbs[w%len(dbs)]
				for i := range each {
					if err := db.AuditCompanyForTest(context.Background(), 1, "webhook.added", fmt.Sprintf("worker %d row %d", w, i)); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		wantIntact(t, dbs[0], workers*each)
	})
}

// TestAuditRowsFromBeforeTheChainAreChainedAtOpen: a database one
// migration older, with rows, opened by this binary.
func TestAuditRowsFromBeforeTheChainAreChainedAtOpen(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(cfg store.Config) *store.DB) {
		ctx := context.Background()
		cfg := storetest.Config(t)
		old := open(cfg)
		appendAudit(t, old, 2, "webhook.added")
		for {
			current, _, err := old.MigrationVersionsForTest(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if current < 31 {
				break
			}
			if err := old.UndoLastMigrationForTest(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 3 {
			if _, err := old.SQL().Exec(`INSERT INTO audit_log (company_id, subject_id, actor, action, detail, created_at)
				VALUES (1, 0, 'command-line', 'webhook.added', $1, 1)`, fmt.Sprintf("legacy %d", i)); err != nil {
				t.Fatal(err)
			}
		}
		db := open(cfg)
		wantIntact(t, db, 5)
		appendAudit(t, db, 1, "webhook.removed")
		wantIntact(t, db, 6)
	})
}
