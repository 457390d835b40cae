package storetest_test

import (
	"context"
	"database/sql"
	"os"
	"testing"
	"time"

	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func baseURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv(storetest.EnvURL)
	if base == "" {
		t.Skip(storetest.EnvURL + " is not set; PostgreSQL tests skipped")
	}
	return base
}

func openURL(t *testing.T, url string) *store.DB {
	t.Helper()
	cfg := storetest.Config(t)
	cfg.DatabaseURL = url
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestDatabaseIsMigratedLikeAFreshSchema: a copy of the template is at the
// migration a fresh schema is migrated to, and its database and schema
// are named after each other, unlike any other copy's.
func TestDatabaseIsMigratedLikeAFreshSchema(t *testing.T) {
	base := baseURL(t)
	version := func(db *store.DB) (v int64) {
		t.Helper()
		if err := db.SQL().QueryRow(`SELECT max(version_id) FROM goose_db_version`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	fresh := version(openURL(t, storetest.Schema(t, base)))
	seen := map[string]bool{}
	for range 2 {
		db := openURL(t, storetest.Database(t, base))
		if v := version(db); v != fresh {
			t.Errorf("copy at migration %d, a fresh schema at %d", v, fresh)
		}
		var database, schema string
		if err := db.SQL().QueryRow(`SELECT current_database(), current_schema()`).Scan(&database, &schema); err != nil {
			t.Fatal(err)
		}
		if database != schema || seen[schema] {
			t.Errorf("copy's database %q, schema %q: want them equal and unlike another copy's (%v)", database, schema, seen)
		}
		seen[schema] = true
	}
}

// TestDatabasesAreSeparate: what one test writes, and the events it
// publishes, never reach another test's copy.
func TestDatabasesAreSeparate(t *testing.T) {
	base := baseURL(t)
	a, b := openURL(t, storetest.Database(t, base)), openURL(t, storetest.Database(t, base))
	ctx := context.Background()
	if _, err := a.SQL().Exec(`INSERT INTO meta (name, value) VALUES ('storetest', 'a')`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.SQL().QueryRow(`SELECT count(*) FROM meta WHERE name = 'storetest'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("the other copy has %d of the rows written in one (%v)", n, err)
	}
	events := func(db *store.DB) *store.Events {
		ev, err := store.OpenEvents(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ev.Close() })
		return ev
	}
	evA, evB := events(a), events(b)
	onA, cancelA := evA.Subscribe(ctx, "chat.1")
	defer cancelA()
	onB, cancelB := evB.Subscribe(ctx, "chat.1")
	defer cancelB()
	if err := evA.Publish(ctx, "chat.1", []byte(`{"messageId":1}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-onA:
	case <-time.After(5 * time.Second):
		t.Fatal("the publishing copy's subscriber got no event within 5 s")
	}
	select {
	case e := <-onB:
		t.Errorf("the other copy's subscriber got %+v", e)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestDatabaseIsEmptyWhenHandedOutAgain: a copy another test used comes
// back as migrated: no rows, identities restarted, and the sessions that
// test left open ended.
func TestDatabaseIsEmptyWhenHandedOutAgain(t *testing.T) {
	base := baseURL(t)
	var last string
	var strayPID int
	reused := false
	for i := range 3 {
		t.Run("Test", func(t *testing.T) {
			url := storetest.Database(t, base)
			db := openURL(t, url)
			var name string
			var rows int
			var strayLives bool
			err := db.SQL().QueryRow(`SELECT current_database(), (SELECT count(*) FROM companies),
				EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1)`, strayPID).Scan(&name, &rows, &strayLives)
			if err != nil {
				t.Fatal(err)
			}
			if name == last {
				reused = true
				if strayLives {
					t.Errorf("test %d: the session the last test left open in %s lives on", i, name)
				}
			}
			if rows != 0 {
				t.Errorf("test %d got %s (the last test's: %v) with %d companies, want none", i, name, name == last, rows)
			}
			var id int64
			if err := db.SQL().QueryRow(`INSERT INTO companies (name, created_at) VALUES ('Acme', 0) RETURNING id`).Scan(&id); err != nil {
				t.Fatal(err)
			}
			if id != 1 {
				t.Errorf("test %d: the first company of %s is %d, want 1", i, name, id)
			}
			// A session the test leaves open, as a cut Proxy's may be.
			stray, err := sql.Open("pgx", url)
			if err != nil {
				t.Fatal(err)
			}
			if err := stray.QueryRow(`SELECT pg_backend_pid()`).Scan(&strayPID); err != nil {
				t.Fatal(err)
			}
			last = name
		})
	}
	if !reused {
		t.Log("other test binaries took every copy this test freed: none was handed out again here")
	}
}
