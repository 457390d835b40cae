//go:build unix

package store_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// openIn opens the SQLite store in dir with a logger writing to logs.
func openIn(t *testing.T, dir string, logs *bytes.Buffer) *store.DB {
	t.Helper()
	cfg := storetest.Config(t)
	cfg.DataDir = dir
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// A write, so the -wal and -shm files exist.
	if err := db.CreateCompany(context.Background(), &portal.Company{Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	return db
}

func wantMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s mode = %v, want %v", filepath.Base(path), got, want)
	}
}

// sharedFolder is a data folder that exists before the first start, open
// to everyone's reading as folders usually are, with a umask that keeps
// every bit a file is created with.
func sharedFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	return dir
}

func TestDataFilesOwnerOnly(t *testing.T) {
	t.Run("CreatedInAnExistingFolder", func(t *testing.T) {
		dir := sharedFolder(t)
		openIn(t, dir, &bytes.Buffer{})
		if _, err := seal.LoadOrCreateKey("", dir); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"portal.db", "portal.db-wal", "portal.db-shm", seal.KeyFileName} {
			wantMode(t, filepath.Join(dir, name), 0o600)
		}
	})
	t.Run("OpenFilesOfAnOlderVersionTightened", func(t *testing.T) {
		dir := sharedFolder(t)
		db := filepath.Join(dir, "portal.db")
		if err := os.WriteFile(db, nil, 0o644); err != nil { // an empty file is an empty database
			t.Fatal(err)
		}
		openIn(t, dir, &bytes.Buffer{})
		for _, name := range []string{"portal.db", "portal.db-wal", "portal.db-shm"} {
			wantMode(t, filepath.Join(dir, name), 0o600)
		}
	})
	t.Run("AReadableDataKeyTightened", func(t *testing.T) {
		dir := sharedFolder(t)
		if _, err := seal.LoadOrCreateKey("", dir); err != nil {
			t.Fatal(err)
		}
		key := filepath.Join(dir, seal.KeyFileName)
		if err := os.Chmod(key, 0o644); err != nil { // an operator's copy
			t.Fatal(err)
		}
		openIn(t, dir, &bytes.Buffer{})
		wantMode(t, key, 0o600)
	})
}

func TestOpenDataFolderWarning(t *testing.T) {
	const warning = "the data folder is readable or writable by other users"
	for _, tc := range []struct {
		Name     string
		Mode     os.FileMode
		WantWarn bool
	}{
		{"OwnerOnlyIsQuiet", 0o700, false},
		{"ReadableByOthersWarns", 0o755, true},
		{"WritableByGroupWarns", 0o770, true},
	} {
		t.Run(tc.Name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Chmod(dir, tc.Mode); err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			openIn(t, dir, &logs)
			n := strings.Count(logs.String(), warning)
			if tc.WantWarn && (n != 1 || !strings.Contains(logs.String(), "level=WARN")) {
				t.Errorf("want the warning once, got %d in:\n%s", n, logs.String())
			}
			if !tc.WantWarn && n != 0 {
				t.Errorf("unexpected warning:\n%s", logs.String())
			}
		})
	}
}
