package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"
)

// migrateLockFile is the file beside portal.db whose flock(2) one process
// holds while it migrates; it stays when the lock is released (removing it
// would let a waiter lock a file a third process no longer sees).
const migrateLockFile = "portal.db.migrate.lock"

// fileLocker is goose's Locker for SQLite. Without one, two processes
// starting at once on a database with a pending migration (serve beside
// portal invite, or two starts on an empty folder) both apply it, and the
// second fails with "table ... already exists". An flock belongs to the
// open file, so the kernel releases it when the process dies: a crash in
// the middle of a migration never leaves the database locked.
type fileLocker struct {
	path string
	f    *os.File
}

// migrateLockPoll is how often a process waiting for the migration lock
// tries again; migrations take milliseconds to seconds.
const migrateLockPoll = 20 * time.Millisecond

func (l *fileLocker) Lock(ctx context.Context, _ *sql.DB) error {
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("store: migration lock: %w", err)
	}
	for {
		locked, err := tryFlock(f)
		if err != nil {
			f.Close()
			return fmt.Errorf("store: migration lock %s: %w", l.path, err)
		}
		if locked {
			l.f = f
			return nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return fmt.Errorf("store: waiting for the migration lock %s (another portal process is migrating): %w", l.path, ctx.Err())
		case <-time.After(migrateLockPoll):
		}
	}
}

// Unlock closes the file, which releases the lock.
func (l *fileLocker) Unlock(context.Context, *sql.DB) error {
	if l.f == nil {
		return errors.New("store: migration lock not held")
	}
	err := l.f.Close()
	l.f = nil
	return err
}
