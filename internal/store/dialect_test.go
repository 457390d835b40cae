package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestSQLiteDataFolderWithURICharacters opens a data folder whose name holds
// the characters a file: URI gives meaning to. The database must land in
// that folder and every connection must carry the pragmas.
func TestSQLiteDataFolderWithURICharacters(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "we#ird ?dir 100%")
	cfg := storetest.Config(t)
	cfg.DataDir = dir
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := os.Stat(filepath.Join(dir, "portal.db")); err != nil {
		t.Fatalf("portal.db is not in the data folder: %v", err)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 || entries[0].Name() != filepath.Base(dir) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("the parent folder holds %q; want only the data folder", names)
	}
	// Hold several connections at once so the pragmas are checked on more
	// than the first one the pool opened.
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		conn, err := db.SQL().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var journal, file string
		var foreignKeys, synchronous, busy int
		for _, p := range []struct {
			pragma string
			dest   any
		}{{"journal_mode", &journal}, {"foreign_keys", &foreignKeys}, {"synchronous", &synchronous}, {"busy_timeout", &busy}} {
			if err := conn.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(p.dest); err != nil {
				t.Fatalf("PRAGMA %s: %v", p.pragma, err)
			}
		}
		if journal != "wal" || foreignKeys != 1 || synchronous != 2 || busy != 10000 {
			t.Fatalf("connection %d: journal_mode %q, foreign_keys %d, synchronous %d, busy_timeout %d; want wal, 1, 2 (FULL), 10000",
				i, journal, foreignKeys, synchronous, busy)
		}
		var seq int
		var name string
		if err := conn.QueryRowContext(ctx, "PRAGMA database_list").Scan(&seq, &name, &file); err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, "portal.db"); file != want {
			t.Fatalf("connection %d uses %q; want %q", i, file, want)
		}
	}
}
