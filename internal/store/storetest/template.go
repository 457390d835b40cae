package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"applicantportal/internal/store"
)

// Running the 30 migrations into a fresh schema took 1.5-2.9 s, most of
// the time of a PostgreSQL test. So a test that wants a migrated database
// gets one of a pool of databases copied (CREATE DATABASE ... TEMPLATE)
// from a template database, which was migrated once, by the first test
// binary that needed it, and is kept across runs while the migrations are
// unchanged. The copies are kept too, and emptied (TRUNCATE) when a test
// takes one: on PostgreSQL 15 DROP DATABASE makes the server checkpoint,
// and a drop per test made the store's PostgreSQL tests take 135 s instead
// of 48 s.

// templatePrefix starts the names of the template databases; the rest of a
// name is the start of store.MigrationsDigest("postgres"). The pool's
// databases are named after their template, then _p and a random suffix.
const templatePrefix = "portal_tmpl_"

// templateSchema is the schema the template is migrated in. Each copy
// renames it after its database, so that schema names (and the events'
// NOTIFY channel and migration lock named after them) stay unique on the
// server, as with Schema: tests look for their own listener in
// pg_stat_activity, which shows every database's sessions.
const templateSchema = "portal_template"

// templateLock is the advisory lock (on the base database) held while a
// template is looked for, built or dropped, so that test binaries running
// in parallel (go test ./... runs a process per package) build it once.
// A test holds the lock (claimLocks, the database's name) of the copy it
// uses, on a session of the base database, until it ends.
const (
	templateLock = 7_242_031_977_301_555
	claimLocks   = 72_420_319
)

// keptTemplates is how many templates of other migration sets stay, with
// their copies: other checkouts (another branch) may be testing with them
// at the same moment.
const keptTemplates = 3

// copyStrategy is how CREATE DATABASE copies the template: WAL_LOG, block
// by block through the WAL, took half the time of FILE_COPY, which makes a
// checkpoint at every copy.
const copyStrategy = "WAL_LOG"

// Database hands one test a migrated database of its own, empty, and
// returns a URL whose connections use it. Another test may have used it
// before: its sessions are ended and its tables emptied (their identities
// restarted), and a database whose schema a test changed is dropped
// instead. It is the test's until the test ends.
func Database(tb testing.TB, base string) string {
	tb.Helper()
	ctx := context.Background()
	baseURL, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatal(err)
	}
	// The claim lock is a session's: one connection, held to the end.
	admin.SetMaxIdleConns(1)
	claim, err := admin.Conn(ctx)
	if err != nil {
		admin.Close()
		tb.Fatalf("storetest: %v", err)
	}
	tb.Cleanup(func() {
		claim.Close()
		admin.Close()
	})
	name, err := claimCopy(ctx, claim, baseURL)
	if err != nil {
		tb.Fatalf("storetest: %v", err)
	}
	return withDatabase(baseURL, name, name)
}

// claimCopy takes a free copy of the template, or makes one, under the
// claim lock of its name held by the session conn.
func claimCopy(ctx context.Context, conn *sql.Conn, base *url.URL) (string, error) {
	for attempt := 1; ; attempt++ {
		tmpl, err := migratedTemplate(ctx, conn, base)
		if err != nil {
			return "", err
		}
		name, err := claimFree(ctx, conn, base, tmpl+"_p")
		if name != "" || err != nil {
			return name, err
		}
		name = tmpl + "_p" + randomName()[2:]
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1, hashtext($2))`, claimLocks, name); err != nil {
			return "", fmt.Errorf("claim %s: %w", name, err)
		}
		_, err = conn.ExecContext(ctx, `CREATE DATABASE `+name+` TEMPLATE `+tmpl+` STRATEGY `+copyStrategy)
		// Another checkout's test binary, building the template of its
		// migration set, may have dropped this one meanwhile.
		if attempt < 3 && sqlState(err) == "3D000" {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("copy %s: %w", tmpl, err)
		}
		fingerprint, err := prepareCopy(ctx, withDatabase(base, name, ""),
			`ALTER SCHEMA `+templateSchema+` RENAME TO `+name+`; SET search_path = `+name)
		if err != nil {
			return "", fmt.Errorf("prepare %s: %w", name, err)
		}
		// A test does not change its database's comment: it keeps what
		// the schema must stay for the copy to be handed out again.
		if _, err := conn.ExecContext(ctx, `COMMENT ON DATABASE `+name+` IS '`+fingerprint+`'`); err != nil {
			return "", fmt.Errorf("prepare %s: %w", name, err)
		}
		return name, nil
	}
}

// claimFree claims a copy no test holds, empties it and returns its name;
// none when every copy is held.
func claimFree(ctx context.Context, conn *sql.Conn, base *url.URL, prefix string) (string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname`, prefix)
	if err != nil {
		return "", fmt.Errorf("list copies: %w", err)
	}
	type copyOf struct{ name, fingerprint string }
	var copies []copyOf
	for rows.Next() {
		var c copyOf
		if err := rows.Scan(&c.name, &c.fingerprint); err != nil {
			rows.Close()
			return "", fmt.Errorf("list copies: %w", err)
		}
		copies = append(copies, c)
	}
	if err := rows.Close(); err != nil {
		return "", fmt.Errorf("list copies: %w", err)
	}
	for _, c := range copies {
		var claimed bool
		if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1, hashtext($2))`, claimLocks, c.name).Scan(&claimed); err != nil {
			return "", fmt.Errorf("claim %s: %w", c.name, err)
		}
		if !claimed {
			continue
		}
		if err := endSessions(ctx, conn, c.name); err != nil {
			return "", err
		}
		fingerprint, err := prepareCopy(ctx, withDatabase(base, c.name, c.name), emptyTables)
		if err == nil && fingerprint == c.fingerprint {
			return c.name, nil
		}
		// A copy whose schema a test changed (or that cannot be
		// emptied) is no longer handed out.
		if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+c.name+` WITH (FORCE)`); err != nil {
			return "", fmt.Errorf("drop changed copy %s: %w", c.name, err)
		}
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1, hashtext($2))`, claimLocks, c.name); err != nil {
			return "", fmt.Errorf("claim %s: %w", c.name, err)
		}
	}
	return "", nil
}

// endSessions ends the sessions the copy's last test left (a cut Proxy's,
// a listener) and waits until the server has let them go, so the next test
// finds only its own in pg_stat_activity.
func endSessions(ctx context.Context, conn *sql.Conn, name string) error {
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var left int
		if err := conn.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1`, name).Scan(&left); err != nil {
			return fmt.Errorf("end the sessions of %s: %w", name, err)
		}
		if left == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("end the sessions of %s: %d still there", name, left)
		}
	}
}

// emptyTables empties every table of the schema but goose's, restarting
// the sequences of their identities: the migrations write no rows, so the
// copy is again as migrated.
const emptyTables = `DO $$ BEGIN
	EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I', tablename), ', ') || ' RESTART IDENTITY'
		FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'goose_db_version');
END $$`

// schemaFingerprint sums up the schema a test could change: tables and
// their columns, indexes, constraints, triggers, functions and the
// migrations applied.
const schemaFingerprint = `SELECT md5(string_agg(d, E'\n' ORDER BY d)) FROM (
	SELECT 'col ' || c.relname || ' ' || c.relkind::text || ' ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		|| ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(ad.adbin, ad.adrelid), '') AS d
	FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
	LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
	WHERE c.relnamespace = current_schema()::regnamespace
	UNION ALL SELECT 'rel ' || relname || ' ' || relkind::text FROM pg_class WHERE relnamespace = current_schema()::regnamespace
	UNION ALL SELECT 'idx ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
	UNION ALL SELECT 'con ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
	UNION ALL SELECT 'trg ' || pg_get_triggerdef(t.oid) || ' ' || t.tgenabled::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
		WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace
	UNION ALL SELECT 'fn ' || oid::regprocedure::text || ' ' || md5(prosrc) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
	UNION ALL SELECT 'ver ' || version_id || ' ' || is_applied FROM goose_db_version
) s`

// prepareCopy runs a statement in a copy, on a session of its own, then
// returns the fingerprint of its schema.
func prepareCopy(ctx context.Context, dsn, statement string) (string, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return "", err
	}
	defer db.Close()
	// One session, so that a search_path the statement sets holds for
	// the fingerprint too.
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, statement); err != nil {
		return "", err
	}
	var fingerprint string
	err = conn.QueryRowContext(ctx, schemaFingerprint).Scan(&fingerprint)
	return fingerprint, err
}

// migratedTemplate returns the name of the template database of the
// current migrations, building it if no test binary has yet.
func migratedTemplate(ctx context.Context, conn *sql.Conn, base *url.URL) (string, error) {
	digest, err := store.MigrationsDigest("postgres")
	if err != nil {
		return "", err
	}
	name := templatePrefix + digest[:16]
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, templateLock); err != nil {
		return "", fmt.Errorf("template lock: %w", err)
	}
	defer conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, templateLock)
	var exists bool
	if err := conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return "", fmt.Errorf("look for the template: %w", err)
	}
	if exists {
		return name, nil
	}
	if err := dropOldTemplates(ctx, conn, name); err != nil {
		return "", err
	}
	if err := buildTemplate(ctx, conn, base, name); err != nil {
		return "", fmt.Errorf("build template %s: %w", name, err)
	}
	return name, nil
}

// buildTemplate migrates a new database under a temporary name and renames
// it only when it is complete, so a test binary that dies while migrating
// leaves no template that looks ready. Nothing may connect to a template
// (CREATE DATABASE refuses to copy a database with sessions), so it is
// closed to connections once built.
func buildTemplate(ctx context.Context, conn *sql.Conn, base *url.URL, name string) error {
	building := name + "_new"
	// A build that died left it behind; the lock says none is running.
	if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+building+` WITH (FORCE)`); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `CREATE DATABASE `+building); err != nil {
		return err
	}
	if err := execIn(ctx, withDatabase(base, building, ""), `CREATE SCHEMA `+templateSchema); err != nil {
		return err
	}
	// No data key: the key check Open records would be the template's,
	// and every test brings a key of its own.
	db, err := store.Open(ctx, store.Config{DatabaseURL: withDatabase(base, building, templateSchema)})
	if err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `ALTER DATABASE `+building+` WITH ALLOW_CONNECTIONS false`); err != nil {
		return err
	}
	// The sessions just closed may take a moment to end on the server.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, err = conn.ExecContext(ctx, `ALTER DATABASE `+building+` RENAME TO `+name)
		if err == nil || sqlState(err) != "55006" || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `ALTER DATABASE `+name+` WITH IS_TEMPLATE true`)
	return err
}

// dropOldTemplates drops the templates of other migration sets but the
// newest few, and their copies. It runs under the template lock.
func dropOldTemplates(ctx context.Context, conn *sql.Conn, current string) error {
	old, err := databases(ctx, conn, `SELECT datname FROM pg_database
		WHERE datname ~ ('^' || $1 || '[0-9a-f]{16}$') AND datname <> $2
		ORDER BY oid DESC OFFSET $3`, templatePrefix, current, keptTemplates)
	if err != nil {
		return fmt.Errorf("list old templates: %w", err)
	}
	for _, name := range old {
		// A template cannot be dropped; a copy being made of it holds
		// the drop back until it is done.
		if _, err := conn.ExecContext(ctx, `ALTER DATABASE `+name+` WITH IS_TEMPLATE false`); err != nil {
			return fmt.Errorf("drop old template %s: %w", name, err)
		}
		if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name); err != nil {
			return fmt.Errorf("drop old template %s: %w", name, err)
		}
		if err := dropCopies(ctx, conn, name); err != nil {
			return err
		}
	}
	return nil
}

// dropCopies drops the pool of copies of a template.
func dropCopies(ctx context.Context, conn *sql.Conn, template string) error {
	copies, err := databases(ctx, conn, `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, template+"_p")
	if err != nil {
		return fmt.Errorf("list copies of %s: %w", template, err)
	}
	for _, name := range copies {
		if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			return fmt.Errorf("drop copy %s: %w", name, err)
		}
	}
	return nil
}

// databases is the names query returns.
func databases(ctx context.Context, conn *sql.Conn, query string, args ...any) ([]string, error) {
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, rows.Err()
}

// sqlState is the SQLSTATE of a PostgreSQL error, empty for any other.
func sqlState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

// execIn runs one statement in the database of dsn, on a connection of
// its own.
func execIn(ctx context.Context, dsn, query string) error {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, query)
	return err
}

// randomName is a new database or schema name, t_ and 12 hex digits.
func randomName() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "t_" + hex.EncodeToString(b)
}

// withDatabase is base with its database replaced (when database is not
// empty) and, when schema is not empty, the test settings of a schema of
// its own: connections use the schema, and a commit need not wait for its
// WAL to reach the disk -- no test is about surviving a crash of the
// server, and the flushes were half the time of the PostgreSQL tests
// before the template (a schema's migrations commit one by one). What a
// commit makes visible to other sessions is unchanged.
func withDatabase(base *url.URL, database, schema string) string {
	u := *base
	if database != "" {
		u.Path = "/" + database
	}
	if schema != "" {
		q := u.Query()
		q.Set("search_path", schema)
		q.Set("synchronous_commit", "off")
		u.RawQuery = q.Encode()
	}
	return u.String()
}
