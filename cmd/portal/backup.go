package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"applicantportal/internal/seal"
	"applicantportal/internal/store"
)

const backupSummary = `Writes a consistent copy of the SQLite database in --data to --to while servers run and write
(SQLite's VACUUM INTO), readable by its owner only and checked with integrity_check, and FILE.json
beside it: when it was made, its migration, and the fingerprint of the data key that opens it (never
the key). Keep the data key (data.key or PORTAL_DATA_KEY) too, apart from the backups: without it
the sealed data cannot be read. With PostgreSQL use pg_dump --format=custom instead.`

func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("backup", backupSummary, stderr)
	st := f.storage()
	var to, dataKey string
	f.StringVar(&to, "to", "", "the backup file to write; it must not exist (required)")
	f.StringVar(&dataKey, "data-key", "", "the data key serve uses; empty means data.key in --data")
	if err := f.parse(args); err != nil {
		return err
	}
	if to == "" {
		f.Usage()
		return errors.New("portal backup: give --to FILE")
	}
	if st.DatabaseURL != "" {
		return store.ErrBackupNeedsSQLite
	}
	sealer, err := existingSealer(st, dataKey)
	if err != nil {
		return err
	}
	if sealer == nil {
		return fmt.Errorf("portal backup: no data key: give --data-key (PORTAL_DATA_KEY) or keep %s in --data", seal.KeyFileName)
	}
	db, err := openStoreWith(ctx, st, store.Config{Sealer: sealer})
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := db.Backup(ctx, to)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Backed up to %s (%d bytes, migration %d, SHA-256 %s); manifest %s.\n", to, m.Size, m.SchemaVersion, m.SHA256, store.ManifestPath(to))
	fmt.Fprintf(stdout, "It opens with the data key whose fingerprint is %s: keep that key, apart from the backup.\n", m.KeyFingerprint)
	return nil
}

const restoreSummary = `Replaces the SQLite database in --data with a backup made by portal backup. Stop every portal
process using the folder first: restore refuses while one has the database open. It refuses a
backup made with another data key than the folder's (--data-key, PORTAL_DATA_KEY or data.key),
or changed since, unless --force; checks the backup's integrity; and swaps it in atomically,
keeping the replaced database as portal.db.replaced-TIME. With PostgreSQL use pg_restore.`

func runRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("restore", restoreSummary, stderr)
	st := f.storage()
	var from, dataKey string
	var force bool
	f.StringVar(&from, "from", "", "the backup file portal backup wrote, with its FILE.json beside it (required)")
	f.StringVar(&dataKey, "data-key", "", "the data key the backup was made with; empty means data.key in --data")
	f.BoolVar(&force, "force", false, "restore a backup without its manifest, made with another data key, or changed since it was made (the integrity check still runs)")
	if err := f.parse(args); err != nil {
		return err
	}
	if from == "" {
		f.Usage()
		return errors.New("portal restore: give --from FILE")
	}
	if st.DatabaseURL != "" {
		return errors.New("portal restore puts back a SQLite backup; with PostgreSQL use pg_restore (docs/operations.md, Backups)")
	}
	if _, err := os.Stat(from); err != nil {
		return fmt.Errorf("portal restore: %w", err)
	}
	sealer, err := existingSealer(st, dataKey)
	if err != nil {
		return err
	}
	replaced, m, err := store.Restore(ctx, store.RestoreOptions{From: from, DataDir: st.DataDir, Sealer: sealer, Force: force})
	if err != nil {
		return err
	}
	live := filepath.Join(st.DataDir, store.DatabaseFile)
	if m != nil {
		fmt.Fprintf(stdout, "Restored %s (made %s, migration %d) into %s.\n", from, m.CreatedAt.Format("2006-01-02 15:04:05 MST"), m.SchemaVersion, live)
	} else {
		fmt.Fprintf(stdout, "Restored %s into %s.\n", from, live)
	}
	if replaced != "" {
		fmt.Fprintf(stdout, "The database it replaced is kept as %s; delete it once satisfied (it holds personal data).\n", replaced)
	}
	return nil
}

// existingSealer is the sealer of the data key given, or of data.key in
// the data folder; nil when there is neither. Unlike loadSealer it never
// generates a key: a backup or restore with a new key would be of no use.
func existingSealer(st *storage, dataKey string) (*seal.Sealer, error) {
	if dataKey == "" {
		if _, err := os.Stat(filepath.Join(st.DataDir, seal.KeyFileName)); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	return seal.Load(dataKey, st.DataDir)
}
