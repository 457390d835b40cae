//go:build unix

package store_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// keyedConfig is storetest's configuration with the data key made of b.
func keyedConfig(t *testing.T, dir string, b byte) store.Config {
	t.Helper()
	cfg := storetest.Config(t)
	sealer, err := seal.New(bytes.Repeat([]byte{b}, seal.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sealer, cfg.DataDir = sealer, dir
	return cfg
}

func mustOpen(t *testing.T, cfg store.Config) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestBackupUnderWrites takes a backup while another goroutine writes
// without pause, restores it into another folder, and finds there every
// write acknowledged before the backup began, a database that passes
// integrity_check, and a file sealed with the key that reads back. The
// backup and its manifest are the owner's only, whatever the umask.
func TestBackupUnderWrites(t *testing.T) {
	ctx := context.Background()
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	live := t.TempDir()
	cfg := keyedConfig(t, live, 1)
	db := mustOpen(t, cfg)
	file, err := store.NewFileStore(db).Put(ctx, portal.FileMeta{Name: "licence.pdf", ContentType: "application/pdf"},
		strings.NewReader("%PDF-1.7 a licence"), portal.MaxUploadSize)
	if err != nil {
		t.Fatal(err)
	}
	// Some megabytes, so the copy takes long enough for writes to land
	// while it runs.
	if _, err := store.NewFileStore(db).Put(ctx, portal.FileMeta{Name: "scan.pdf", ContentType: "application/pdf"},
		io.LimitReader(rand.Reader, 8<<20), portal.MaxUploadSize); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var acknowledged []int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			c := &portal.Company{Name: fmt.Sprintf("Company %d", i)}
			if err := db.CreateCompany(ctx, c); err != nil {
				t.Errorf("write %d: %v", i, err)
				return
			}
			mu.Lock()
			acknowledged = append(acknowledged, c.ID)
			mu.Unlock()
		}
	})
	waitFor := func(n int) {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			mu.Lock()
			got := len(acknowledged)
			mu.Unlock()
			if got >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("only %d writes in 10 s", got)
			}
		}
	}
	waitFor(50)
	mu.Lock()
	before := append([]int64(nil), acknowledged...)
	mu.Unlock()
	backup := filepath.Join(t.TempDir(), "portal-backup.db")
	m, err := db.Backup(ctx, backup)
	mu.Lock()
	during := len(acknowledged) - len(before)
	mu.Unlock()
	waitFor(len(before) + during + 20) // the writes go on after it
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	t.Logf("%d writes acknowledged before the backup, %d while it ran, %d by the end", len(before), during, len(acknowledged))
	mu.Unlock()

	for _, p := range []string{backup, store.ManifestPath(backup)} {
		wantMode(t, p, 0o600)
	}
	var onDisk store.BackupManifest
	if b, err := os.ReadFile(store.ManifestPath(backup)); err != nil || json.Unmarshal(b, &onDisk) != nil {
		t.Fatalf("manifest: %s %v", b, err)
	}
	current, _, err := db.MigrationVersionsForTest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if onDisk.KeyFingerprint != cfg.Sealer.Fingerprint() || onDisk.SchemaVersion != current || onDisk.SHA256 != m.SHA256 || onDisk.Size == 0 {
		t.Errorf("manifest %+v; want the key's fingerprint %s and migration %d", onDisk, cfg.Sealer.Fingerprint(), current)
	}
	if strings.Contains(string(must(os.ReadFile(store.ManifestPath(backup)))), "AQEBAQ") {
		t.Error("the manifest holds the key")
	}

	restored := t.TempDir()
	if _, _, err := store.Restore(ctx, store.RestoreOptions{From: backup, DataDir: restored, Sealer: cfg.Sealer}); err != nil {
		t.Fatal(err)
	}
	wantMode(t, filepath.Join(restored, "portal.db"), 0o600)
	rdb := mustOpen(t, keyedConfig(t, restored, 1))
	var check string
	if err := rdb.SQL().QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check of the restored database = %q, %v", check, err)
	}
	for _, id := range before {
		if _, err := rdb.FindCompanyByID(ctx, id); err != nil {
			t.Fatalf("company %d, acknowledged before the backup began, is not in it: %v", id, err)
		}
	}
	_, rc, err := store.NewFileStore(rdb).Get(ctx, file.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if b, err := io.ReadAll(rc); err != nil || string(b) != "%PDF-1.7 a licence" {
		t.Errorf("the sealed file after the restore reads %q, %v", b, err)
	}
}

// TestRestore covers what restore refuses and what it keeps.
func TestRestore(t *testing.T) {
	ctx := context.Background()
	// One backup of a database with a company, made with key 1.
	source := t.TempDir()
	db := mustOpen(t, keyedConfig(t, source, 1))
	if err := db.CreateCompany(ctx, &portal.Company{Name: "Backed up"}); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "b.db")
	if _, err := db.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Backup(ctx, backup); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a backup over an existing file = %v; want a refusal", err)
	}
	key1 := keyedConfig(t, "", 1).Sealer
	key2 := keyedConfig(t, "", 2).Sealer
	// copyOf is the backup copied, with its manifest unless noManifest,
	// changed by spoil.
	copyOf := func(t *testing.T, noManifest bool, spoil func(b []byte) []byte) string {
		dst := filepath.Join(t.TempDir(), "copy.db")
		b := must(os.ReadFile(backup))
		if spoil != nil {
			b = spoil(b)
		}
		if err := os.WriteFile(dst, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if !noManifest {
			if err := os.WriteFile(store.ManifestPath(dst), must(os.ReadFile(store.ManifestPath(backup))), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dst
	}
	companies := func(t *testing.T, dir string, b byte) []string {
		t.Helper()
		rdb, err := store.Open(ctx, keyedConfig(t, dir, b))
		if err != nil {
			t.Fatal(err)
		}
		defer rdb.Close()
		cs, err := rdb.FindCompanies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range cs {
			names = append(names, c.Name)
		}
		return names
	}

	refusals := []struct {
		Name    string
		From    func(t *testing.T) string
		Sealer  *seal.Sealer
		Force   bool
		Open    bool // a portal process has the target open
		WantErr string
	}{
		{Name: "ErrAnotherKey", From: func(*testing.T) string { return backup }, Sealer: key2,
			WantErr: "the backup was made with the data key " + key1.Fingerprint() + ", and this data folder's key is " + key2.Fingerprint()},
		{Name: "ErrNoKey", From: func(*testing.T) string { return backup }, WantErr: "no data key"},
		{Name: "ErrNoManifest", From: func(t *testing.T) string { return copyOf(t, true, nil) }, Sealer: key1, WantErr: "no "},
		{Name: "ErrChangedSinceTheBackup", From: func(t *testing.T) string { return copyOf(t, false, func(b []byte) []byte { return b[:len(b)/2] }) },
			Sealer: key1, WantErr: "changed since the backup was made"},
		{Name: "ErrForcedButDamaged", From: func(t *testing.T) string { return copyOf(t, false, func(b []byte) []byte { return b[:len(b)/2] }) },
			Sealer: key1, Force: true, WantErr: "does not check out"},
		{Name: "ErrForcedButNotADatabase", From: func(t *testing.T) string {
			return copyOf(t, true, func(b []byte) []byte { return bytes.Repeat([]byte("x"), len(b)) })
		}, Force: true, WantErr: "does not check out"},
		{Name: "ErrServerRunning", From: func(*testing.T) string { return backup }, Sealer: key1, Open: true,
			WantErr: "a portal process has the database open"},
	}
	for _, tc := range refusals {
		t.Run(tc.Name, func(t *testing.T) {
			target := t.TempDir()
			tdb := mustOpen(t, keyedConfig(t, target, 1))
			if err := tdb.CreateCompany(ctx, &portal.Company{Name: "Live"}); err != nil {
				t.Fatal(err)
			}
			if !tc.Open {
				tdb.Close()
			}
			_, _, err := store.Restore(ctx, store.RestoreOptions{From: tc.From(t), DataDir: target, Sealer: tc.Sealer, Force: tc.Force})
			if err == nil || !strings.Contains(err.Error(), tc.WantErr) {
				t.Fatalf("Restore = %v; want an error saying %q", err, tc.WantErr)
			}
			tdb.Close()
			if got := companies(t, target, 1); len(got) != 1 || got[0] != "Live" {
				t.Errorf("after a refused restore the folder holds %v; want the live database untouched", got)
			}
			if left, _ := filepath.Glob(filepath.Join(target, "portal.db.re*")); len(left) != 0 {
				t.Errorf("a refused restore left %v", left)
			}
		})
	}

	t.Run("ReplacesTheLiveDatabaseAndKeepsTheOld", func(t *testing.T) {
		target := t.TempDir()
		tdb := mustOpen(t, keyedConfig(t, target, 1))
		if err := tdb.CreateCompany(ctx, &portal.Company{Name: "Live"}); err != nil {
			t.Fatal(err)
		}
		tdb.Close()
		replaced, m, err := store.Restore(ctx, store.RestoreOptions{From: backup, DataDir: target, Sealer: key1})
		if err != nil {
			t.Fatal(err)
		}
		if m.KeyFingerprint != key1.Fingerprint() || replaced == "" {
			t.Errorf("Restore = %q, %+v", replaced, m)
		}
		if got := companies(t, target, 1); len(got) != 1 || got[0] != "Backed up" {
			t.Errorf("after the restore the folder holds %v; want the backup's company", got)
		}
		wantMode(t, filepath.Join(target, "portal.db"), 0o600)
		// The replaced database is kept, whole, and opens.
		old := t.TempDir()
		if err := os.Rename(replaced, filepath.Join(old, "portal.db")); err != nil {
			t.Fatal(err)
		}
		if wal := replaced + "-wal"; fileExists(wal) {
			if err := os.Rename(wal, filepath.Join(old, "portal.db-wal")); err != nil {
				t.Fatal(err)
			}
		}
		if got := companies(t, old, 1); len(got) != 1 || got[0] != "Live" {
			t.Errorf("the replaced database holds %v; want the live one's company", got)
		}
	})
	t.Run("ForcedWithAnotherKey", func(t *testing.T) {
		target := t.TempDir()
		if _, _, err := store.Restore(ctx, store.RestoreOptions{From: copyOf(t, true, nil), DataDir: target, Sealer: key2, Force: true}); err != nil {
			t.Fatal(err)
		}
		// The folder's key does not open it, and the portal says so.
		if _, err := store.Open(ctx, keyedConfig(t, target, 2)); err == nil || !strings.Contains(err.Error(), "data key does not open") {
			t.Errorf("opening a backup with another key = %v; want the data key refusal", err)
		}
	})
	t.Run("PostgreSQLSaysPgDump", func(t *testing.T) {
		if os.Getenv(storetest.EnvURL) == "" {
			t.Skip(storetest.EnvURL + " is not set; PostgreSQL tests skipped")
		}
		pg := storetest.OpenPostgres(t, storetest.Config(t))
		_, err := pg.Backup(ctx, filepath.Join(t.TempDir(), "b.db"))
		if !errors.Is(err, store.ErrBackupNeedsSQLite) || !strings.Contains(err.Error(), "pg_dump") {
			t.Errorf("Backup on PostgreSQL = %v; want pg_dump advice", err)
		}
	})
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
