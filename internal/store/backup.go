package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"applicantportal/internal/seal"
)

// DatabaseFile is the SQLite database's file in the data folder.
const DatabaseFile = "portal.db"

// BackupManifest is written beside a backup as FILE.json. It names the
// data key that opens the backup by its fingerprint (seal.Fingerprint),
// never the key itself: the backup's sealed data is useless without it.
type BackupManifest struct {
	CreatedAt      time.Time `json:"createdAt"`
	SchemaVersion  int64     `json:"schemaVersion"` // the newest migration applied
	KeyFingerprint string    `json:"keyFingerprint"`
	// KeyFingerprints are every key of the ring when the backup was made,
	// the sealing one first: a backup made during a key rotation holds
	// values under each.
	KeyFingerprints []string `json:"keyFingerprints,omitempty"`
	Size            int64    `json:"size"`   // bytes
	SHA256          string   `json:"sha256"` // of the backup file
}

// ManifestPath is where the manifest of the backup at path is kept.
func ManifestPath(path string) string { return path + ".json" }

// ErrBackupNeedsSQLite answers Backup on PostgreSQL, whose own tools do it.
var ErrBackupNeedsSQLite = errors.New("portal backup copies the SQLite database; with PostgreSQL use pg_dump --format=custom (docs/operations.md, Backups)")

// Backup writes a consistent copy of the SQLite database to path while it
// is in use (VACUUM INTO reads one snapshot, so writes made meanwhile are
// simply not in it), readable by its owner only, checks the copy with
// integrity_check, and writes the manifest beside it. path must not exist.
// The copy is written under a temporary name and renamed when it checked
// out, so path never holds a partial backup.
func (s *DB) Backup(ctx context.Context, path string) (*BackupManifest, error) {
	if s.dialect.name != sqliteDialect.name {
		return nil, ErrBackupNeedsSQLite
	}
	if s.cfg.Sealer == nil {
		return nil, errNoDataKey
	}
	if _, err := os.Lstat(path); err == nil {
		return nil, fmt.Errorf("store: backup: %s exists; name a new file", path)
	}
	if _, err := os.Lstat(ManifestPath(path)); err == nil {
		return nil, fmt.Errorf("store: backup: %s exists; name a new file", ManifestPath(path))
	}
	// The copy is born 0600 (CreateTemp) and empty, which VACUUM INTO
	// accepts; SQLite would otherwise create it with the umask's mode.
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("store: backup: %w", err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	done := false
	defer func() {
		if !done {
			os.Remove(tmpPath)
		}
	}()
	m := &BackupManifest{CreatedAt: fromMS(ms(s.now())), KeyFingerprint: s.cfg.Sealer.Fingerprint(), KeyFingerprints: s.cfg.Sealer.Fingerprints()}
	if _, err := s.pool.ExecContext(ctx, `VACUUM INTO $1`, tmpPath); err != nil {
		return nil, fmt.Errorf("store: backup: %w", err)
	}
	if m.SchemaVersion, err = checkSQLiteFile(ctx, tmpPath, nil); err != nil {
		return nil, fmt.Errorf("store: backup: the copy does not check out: %w", err)
	}
	if m.Size, m.SHA256, err = syncAndHash(tmpPath); err != nil {
		return nil, fmt.Errorf("store: backup: %w", err)
	}
	manifest, _ := json.MarshalIndent(m, "", "  ")
	if err := writeFileSynced(ManifestPath(path), append(manifest, '\n')); err != nil {
		return nil, fmt.Errorf("store: backup: %w", err)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		os.Remove(ManifestPath(path))
		return nil, fmt.Errorf("store: backup: %w", err)
	}
	done = true
	return m, syncDir(filepath.Dir(path))
}

// checkSQLiteFile opens the database file at path on its own, runs
// PRAGMA integrity_check, leaves it in rollback-journal mode (one file,
// nothing beside it: sqliteDSNWith) and says which migration it is at. With a sealer it
// also proves that key opens the file's sealed data.
func checkSQLiteFile(ctx context.Context, path string, sealer *seal.Sealer) (int64, error) {
	dsn, err := sqliteDSNWith(path, "journal_mode(DELETE)", 10*time.Second)
	if err != nil {
		return 0, err
	}
	db, err := sql.Open(sqliteDialect.driver, dsn)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var result string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&result); err != nil {
		return 0, fmt.Errorf("integrity check: %w", err)
	}
	if result != "ok" {
		return 0, fmt.Errorf("integrity check: %s", result)
	}
	var version sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT MAX(version_id) FROM `+gooseTable+` WHERE is_applied`).Scan(&version); err != nil {
		return 0, fmt.Errorf("not a portal database: %w", err)
	}
	if sealer != nil {
		s := &DB{&conn{db: db, pool: db, dialect: sqliteDialect}}
		if err := s.checkDataKey(ctx, sealer); err != nil {
			return 0, err
		}
	}
	return version.Int64, nil
}

// gooseTable is where goose records the migrations applied.
const gooseTable = "goose_db_version"

// syncAndHash flushes the file at path to disk and returns its size and
// SHA-256.
func syncAndHash(path string) (int64, string, error) {
	f, err := os.Open(path) // #nosec G304 -- the operator's backup path, from the command line
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return 0, "", err
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// writeFileSynced writes a new file, 0600, and flushes it to disk.
func writeFileSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the operator's backup path, from the command line
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// syncDir flushes a folder's entries (a rename in it) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir) // #nosec G304 -- the operator's backup path, from the command line
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}

// RestoreOptions says what Restore puts where.
type RestoreOptions struct {
	From    string // the backup file
	DataDir string // the data folder whose portal.db it replaces
	// Sealer holds the data folder's key (PORTAL_DATA_KEY or data.key):
	// the backup must have been made with it.
	Sealer *seal.Sealer
	// Force restores a backup without a manifest, made with another key,
	// or whose content changed since; the integrity check still runs.
	Force bool
	Now   func() time.Time
}

// Restore replaces the data folder's portal.db with a backup. It refuses
// while any portal process has the database open (the exclusive lock on
// portal.db.lock), and, unless Force, a backup made with another data key
// than the folder's, or that changed since it was made. It copies the
// backup into the folder under a temporary name, checks it (integrity and
// the data key), and renames it over portal.db, so the folder holds the
// old database or the new one, never a part. The old database is kept as
// portal.db.replaced-TIME (its WAL beside it); that name is returned.
func Restore(ctx context.Context, o RestoreOptions) (replaced string, m *BackupManifest, err error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	m, err = readManifest(o.From)
	switch {
	case errors.Is(err, fs.ErrNotExist) && o.Force:
		m = nil
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, fmt.Errorf("store: restore: no %s beside the backup, so which data key opens it is unknown; restore with --force if you are sure", ManifestPath(o.From))
	case err != nil:
		return "", nil, fmt.Errorf("store: restore: %w", err)
	}
	if !o.Force {
		if o.Sealer == nil {
			return "", nil, fmt.Errorf("store: restore: no data key: put the key the backup was made with (fingerprint %s) in PORTAL_DATA_KEY or %s", m.KeyFingerprint, filepath.Join(o.DataDir, seal.KeyFileName))
		}
		if got := o.Sealer.Fingerprint(); !o.Sealer.Holds(m.KeyFingerprint) {
			return "", nil, fmt.Errorf("store: restore: the backup was made with the data key %s, and this data folder's key is %s: restore with the backup's key (PORTAL_DATA_KEY or %s), or --force", m.KeyFingerprint, got, seal.KeyFileName)
		}
		if _, sum, err := syncAndHash(o.From); err != nil {
			return "", nil, fmt.Errorf("store: restore: %w", err)
		} else if m.SHA256 != "" && sum != m.SHA256 {
			return "", nil, fmt.Errorf("store: restore: %s changed since the backup was made (its SHA-256 differs from the manifest's); restore with --force if you are sure", o.From)
		}
	}
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return "", nil, fmt.Errorf("store: restore: %w", err)
	}
	lock, err := lockFile(ctx, filepath.Join(o.DataDir, inUseLockFile), true, false)
	if errors.Is(err, errLocked) {
		return "", nil, errors.New("store: restore: a portal process has the database open (portal serve or an operator command): stop it first")
	}
	if err != nil {
		return "", nil, fmt.Errorf("store: restore: %w", err)
	}
	defer lock.Close()

	tmp, err := os.CreateTemp(o.DataDir, DatabaseFile+".restore-*")
	if err != nil {
		return "", nil, fmt.Errorf("store: restore: %w", err)
	}
	tmpPath := tmp.Name()
	defer os.Remove(tmpPath) // gone by rename when all went well
	err = copyFrom(tmp, o.From)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", nil, fmt.Errorf("store: restore: copy the backup: %w", err)
	}
	var sealer *seal.Sealer
	if !o.Force {
		sealer = o.Sealer
	}
	if _, err := checkSQLiteFile(ctx, tmpPath, sealer); err != nil {
		return "", nil, fmt.Errorf("store: restore: the backup does not check out: %w", err)
	}

	live := filepath.Join(o.DataDir, DatabaseFile)
	if _, err := os.Stat(live); err == nil {
		replaced = live + ".replaced-" + o.Now().UTC().Format("20060102T150405Z")
		if err := os.Link(live, replaced); err != nil {
			return "", nil, fmt.Errorf("store: restore: keep the old database: %w", err)
		}
		// An old WAL must never meet the new file: SQLite would replay
		// it into it. It goes with the old database, which it belongs to.
		if err := os.Rename(live+"-wal", replaced+"-wal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", nil, fmt.Errorf("store: restore: move the old WAL: %w", err)
		}
		if err := os.Remove(live + "-shm"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", nil, fmt.Errorf("store: restore: %w", err)
		}
	}
	if err := os.Rename(tmpPath, live); err != nil {
		return "", nil, fmt.Errorf("store: restore: %w", err)
	}
	return replaced, m, syncDir(o.DataDir)
}

func readManifest(backup string) (*BackupManifest, error) {
	b, err := os.ReadFile(ManifestPath(backup))
	if err != nil {
		return nil, err
	}
	var m BackupManifest
	if err := json.Unmarshal(b, &m); err != nil || m.KeyFingerprint == "" {
		return nil, fmt.Errorf("%s is not a backup manifest", ManifestPath(backup))
	}
	return &m, nil
}

// copyFrom copies the file at path into dst and flushes dst to disk.
func copyFrom(dst *os.File, path string) error {
	src, err := os.Open(path) // #nosec G304 -- the operator's backup path, from the command line
	if err != nil {
		return err
	}
	defer src.Close()
	if _, err := io.Copy(dst, src); err != nil {
		return err
	}
	return dst.Sync()
}
