// Package storetest opens throwaway portal databases for tests: a SQLite
// file in a temporary folder always, and a fresh schema of the PostgreSQL
// server named by PORTAL_TEST_DATABASE_URL when it is set: a database of
// its own copied from a migrated template (Database), or an empty schema
// (Schema) for the tests of the migrations themselves.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"net/url"
	"os"
	"testing"

	"applicantportal/internal/seal"
	"applicantportal/internal/store"
)

// EnvURL names the PostgreSQL database the tests may use.
const EnvURL = "PORTAL_TEST_DATABASE_URL"

// Config is a store configuration for tests: a cheap password "hash" (so
// tests do not spend seconds in argon2id) and a random data key. Callers
// may set Now and the lifetimes on the result.
func Config(tb testing.TB) store.Config {
	tb.Helper()
	key := make([]byte, seal.KeySize)
	rand.Read(key)
	sealer, err := seal.New(key)
	if err != nil {
		tb.Fatal(err)
	}
	return store.Config{
		HashPassword:   func(p string) (string, error) { return "plain:" + p, nil },
		VerifyPassword: func(p, h string) (bool, error) { return h == "plain:"+p, nil },
		Sealer:         sealer,
	}
}

// Each runs run against SQLite and, when PORTAL_TEST_DATABASE_URL is set,
// against PostgreSQL, as subtests named SQLite and PostgreSQL.
func Each(t *testing.T, cfg store.Config, run func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run("SQLite", func(t *testing.T) { run(t, OpenSQLite(t, cfg)) })
	t.Run("PostgreSQL", func(t *testing.T) {
		if os.Getenv(EnvURL) == "" {
			t.Skip(EnvURL + " is not set; PostgreSQL tests skipped")
		}
		run(t, OpenPostgres(t, cfg))
	})
}

// EachShared is Each for tests that open one database several times, as
// several portal processes or successive starts of one would: open opens
// the test's database (one SQLite folder, or one PostgreSQL database) with
// the other settings of cfg, closing it when the test ends.
func EachShared(t *testing.T, run func(t *testing.T, open func(cfg store.Config) *store.DB)) {
	t.Helper()
	opener := func(t *testing.T, where func(*store.Config)) func(store.Config) *store.DB {
		return func(cfg store.Config) *store.DB {
			t.Helper()
			where(&cfg)
			return open(t, cfg)
		}
	}
	t.Run("SQLite", func(t *testing.T) {
		dir := t.TempDir()
		run(t, opener(t, func(cfg *store.Config) { cfg.DataDir, cfg.DatabaseURL = dir, "" }))
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		if os.Getenv(EnvURL) == "" {
			t.Skip(EnvURL + " is not set; PostgreSQL tests skipped")
		}
		url := Database(t, os.Getenv(EnvURL))
		run(t, opener(t, func(cfg *store.Config) { cfg.DatabaseURL = url }))
	})
}

// OpenSQLite opens a new SQLite database in a temporary folder.
func OpenSQLite(tb testing.TB, cfg store.Config) *store.DB {
	tb.Helper()
	cfg.DataDir, cfg.DatabaseURL = tb.TempDir(), ""
	return open(tb, cfg)
}

// OpenPostgres opens a new migrated database on the test PostgreSQL
// server (Database); it is dropped when the test ends.
func OpenPostgres(tb testing.TB, cfg store.Config) *store.DB {
	tb.Helper()
	cfg.DatabaseURL = Database(tb, os.Getenv(EnvURL))
	return open(tb, cfg)
}

func open(tb testing.TB, cfg store.Config) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// Schema creates an empty schema of its own for one test in the base
// database and returns a URL whose connections use it; opening it runs
// every migration. Tests that want a migrated database take Database,
// which is quicker.
func Schema(tb testing.TB, base string) string {
	tb.Helper()
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	schema := randomName()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		admin.Close()
		tb.Fatalf("storetest: create schema: %v", err)
	}
	tb.Cleanup(func() {
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	return withDatabase(u, "", schema)
}
