package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// dialect holds the few differences between SQLite and PostgreSQL. Queries
// are written once: both accept $N placeholders, RETURNING, ON CONFLICT and
// TRUE/FALSE, and times are stored as integers.
type dialect struct {
	name   string
	driver string
	goose  goose.Dialect
	// open makes the connection pool (without connecting yet).
	open          func(dsn string) (*sql.DB, error)
	configurePool func(*sql.DB)
	isUnique      func(error) bool
	// lock makes transactions that lock the same (class, key) run one
	// after another until they end; the login throttle uses it so that
	// parallel guesses are counted one by one.
	lock func(ctx context.Context, tx *sql.Tx, class int32, key string) error
	// advisoryLocks says lock takes a lock of its own, which other writers
	// do not wait for, so it may be held across slow work (PostgreSQL).
	// SQLite's only lock is the database's write lock.
	advisoryLocks bool
	// skipLocked ends a SELECT that should pass over rows other
	// transactions hold; SQLite has one writer, so nothing is held.
	skipLocked string
	// forUpdate ends a SELECT whose rows the transaction locks until it
	// ends (lockSubject). SQLite needs nothing: every transaction holds
	// the database's one write lock from BEGIN.
	forUpdate string
}

var sqliteDialect = dialect{
	name:   "sqlite",
	driver: "sqlite",
	goose:  goose.DialectSQLite3,
	// Through the statement cache (stmtcache.go): modernc parses the SQL
	// of every call that is not a prepared statement.
	open: func(dsn string) (*sql.DB, error) {
		c, err := sqlite.NewConnector(dsn)
		if err != nil {
			return nil, err
		}
		return sql.OpenDB(stmtCacheConnector{c}), nil
	},
	configurePool: func(db *sql.DB) {
		// SQLite has one writer; a small pool keeps readers concurrent in WAL
		// mode without piling up writers on the busy timeout.
		db.SetMaxOpenConns(4)
		db.SetMaxIdleConns(4)
	},
	isUnique: func(err error) bool {
		var se *sqlite.Error
		return errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
	},
	// Every SQLite transaction takes the database's one write lock at BEGIN
	// (_txlock=immediate), so transactions already run one at a time.
	lock: func(context.Context, *sql.Tx, int32, string) error { return nil },
}

var postgresDialect = dialect{
	name:   "postgres",
	driver: "pgx",
	goose:  goose.DialectPostgres,
	// pgx prepares and caches every query's statement per connection
	// (QueryExecModeCacheStatement, its default).
	open:          func(dsn string) (*sql.DB, error) { return sql.Open("pgx", dsn) },
	skipLocked:    " FOR UPDATE SKIP LOCKED",
	forUpdate:     " FOR UPDATE",
	advisoryLocks: true,
	configurePool: func(db *sql.DB) {
		db.SetMaxOpenConns(20)
		db.SetMaxIdleConns(10)
	},
	isUnique: func(err error) bool {
		var pe *pgconn.PgError
		return errors.As(err, &pe) && pe.Code == "23505"
	},
	// A transaction-scoped advisory lock, released at COMMIT or ROLLBACK.
	// The two-key form keeps these locks apart from goose's migration lock.
	lock: func(ctx context.Context, tx *sql.Tx, class int32, key string) error {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, class, key); err != nil {
			return fmt.Errorf("store: advisory lock: %w", err)
		}
		return nil
	},
}

// sqliteDSN opens the file with WAL, foreign keys, a busy timeout, full
// synchronous writes (an acknowledged write survives power loss) and
// transactions that take the write lock at BEGIN, which avoids deadlocks
// when two readers both try to upgrade. The path is escaped as a file: URI
// so a folder named with '#', '?', '%' or spaces is opened as named and
// keeps the parameters.
func sqliteDSN(path string, busyTimeout time.Duration) (string, error) {
	return sqliteDSNWith(path, "journal_mode(WAL)", busyTimeout)
}

// sqliteDSNWith is sqliteDSN with the journal mode given: a backup file
// is kept in one piece (journal_mode(DELETE)), with nothing beside it.
func sqliteDSNWith(path, journal string, busyTimeout time.Duration) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("store: database path: %w", err)
	}
	q := url.Values{
		"_txlock": {"immediate"},
		// The busy timeout first: switching a new file to WAL takes a lock,
		// and a process starting beside another must wait for it, not fail.
		"_pragma": {fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()), journal, "foreign_keys(1)", "synchronous(FULL)"},
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	// An empty authority (file:///path) is what SQLite expects of a local
	// file; url.URL writes it for an absolute path.
	return u.String(), nil
}
