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

// inUseLockFile is the file beside portal.db on which every process that
// has the database open holds a shared flock, so that portal restore,
// which takes it exclusively, knows none has.
const inUseLockFile = "portal.db.lock"

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

func (l *fileLocker) Lock(ctx context.Context, _ *sql.DB) error {
	f, err := lockFile(ctx, l.path, true, true)
	if err != nil {
		return fmt.Errorf("store: migration lock (another portal process is migrating): %w", err)
	}
	l.f = f
	return nil
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

// lockPoll is how often a process waiting for a lock file tries again;
// what it waits for (a migration, a restore) takes milliseconds to seconds.
const lockPoll = 20 * time.Millisecond

// errLocked is lockFile's answer, not waiting, when another process holds
// the lock.
var errLocked = errors.New("held by another process")

// lockFile opens path (creating it, 0600) and takes an flock on it,
// exclusive or shared, waiting for it until ctx ends when wait is set.
// Closing the file releases the lock.
func lockFile(ctx context.Context, path string, exclusive, wait bool) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600) // #nosec G304 -- a lock file in the configured data folder
	if err != nil {
		return nil, err
	}
	for {
		locked, err := tryFlock(f, exclusive)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if locked {
			return f, nil
		}
		if !wait {
			f.Close()
			return nil, errLocked
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for %s: %w", path, ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}
