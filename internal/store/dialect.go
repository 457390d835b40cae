package store

import (
	"database/sql"
	"errors"
	"strings"

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
	name          string
	driver        string
	goose         goose.Dialect
	configurePool func(*sql.DB)
	isUnique      func(error) bool
}

var sqliteDialect = dialect{
	name:   "sqlite",
	driver: "sqlite",
	goose:  goose.DialectSQLite3,
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
}

var postgresDialect = dialect{
	name:   "postgres",
	driver: "pgx",
	goose:  goose.DialectPostgres,
	configurePool: func(db *sql.DB) {
		db.SetMaxOpenConns(20)
		db.SetMaxIdleConns(10)
	},
	isUnique: func(err error) bool {
		var pe *pgconn.PgError
		return errors.As(err, &pe) && pe.Code == "23505"
	},
}

// sqliteDSN opens the file with WAL, foreign keys, a busy timeout, full
// synchronous writes (an acknowledged write survives power loss) and
// transactions that take the write lock at BEGIN, which avoids deadlocks
// when two readers both try to upgrade.
func sqliteDSN(path string) string {
	pragmas := []string{
		"journal_mode(WAL)",
		"foreign_keys(1)",
		"busy_timeout(10000)",
		"synchronous(FULL)",
	}
	var b strings.Builder
	b.WriteString("file:" + path + "?_txlock=immediate")
	for _, p := range pragmas {
		b.WriteString("&_pragma=" + p)
	}
	return b.String()
}
