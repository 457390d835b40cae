// Package store implements the portal's services on database/sql, for an
// embedded SQLite file (the default) and for PostgreSQL (for scale-out).
package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"applicantportal/internal/gate"
	"applicantportal/internal/pdfform"
	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
)

//go:embed migrations
var migrations embed.FS

// Config says where the data lives and how the store behaves.
type Config struct {
	// DataDir holds portal.db when DatabaseURL is empty.
	DataDir string
	// DatabaseURL selects PostgreSQL (postgres://...). Empty means SQLite.
	DatabaseURL string
	// Now is the clock; tests move it.
	Now func() time.Time
	// Token and link lifetimes.
	AccessTokenTTL  time.Duration
	RefreshTokenTTL time.Duration
	SetupTokenTTL   time.Duration
	InvitationTTL   time.Duration
	ResetTTL        time.Duration
	EmailChangeTTL  time.Duration // the link confirming a new e-mail address
	// DraftTTL is how long a form's draft is kept after its last save
	// (default portal.DefaultDraftTTL).
	DraftTTL time.Duration
	// HashPassword and VerifyPassword default to argon2id; tests pass
	// cheaper ones.
	HashPassword   func(string) (string, error)
	VerifyPassword func(password, hash string) (bool, error)
	// PasswordChecks is how many password hashes or checks may run at
	// once (default GOMAXPROCS); PasswordCheckWait is how long a request
	// waits for one of them before it answers 503 (default 2s).
	PasswordChecks    int
	PasswordCheckWait time.Duration
	Logger            *slog.Logger
	// Sealer seals personal information at rest. Operator commands that
	// never read PII may leave it nil.
	Sealer *seal.Sealer
	// BusyTimeout is how long a SQLite write waits for the write lock
	// another connection or process holds before it answers 503
	// (default DefaultBusyTimeout). PostgreSQL ignores it.
	BusyTimeout time.Duration
	// SelfPay holds the states whose residents are never asked to pay
	// (portal.SelfPayRules).
	SelfPay portal.SelfPayRules
	// WebhookAllowInsecure accepts webhook endpoints over http and on
	// local or private addresses (portal.CheckWebhookURL): tests and local
	// development only.
	WebhookAllowInsecure bool
	// TokenCacheTTL is how long a checked access token is believed without
	// asking the database (default DefaultTokenCacheTTL; negative: never).
	// A revocation by this process applies at once, one by another process
	// after at most this long.
	TokenCacheTTL time.Duration
	// Reminders is when applicants who have not finished are reminded;
	// zero means portal.DefaultReminderSchedule.
	Reminders portal.ReminderSchedule
}

// DefaultBusyTimeout is how long a SQLite write waits for the write lock
// unless Config says otherwise.
const DefaultBusyTimeout = 10 * time.Second

// DefaultEmailChangeTTL is how long the link confirming a new e-mail
// address stays valid unless Config says otherwise.
const DefaultEmailChangeTTL = 24 * time.Hour

// DB is the opened database: it opens, migrates and closes it, and hands
// out one service type per portal service (Auth, Subjects, Personal, Legal,
// SubjectData, Banners ..., all of them wired at once by Services), which
// all share its connection. It keeps no state
// besides its connection pool, so any number of processes may share one
// PostgreSQL database.
type DB struct{ *conn }

// conn is what every service type works on: the pool (or, inside
// Atomically, the transaction), the dialect, the configuration and the
// clock, with the helpers the services share (transactions, lockSubject,
// password hashing and throttling).
type conn struct {
	// db runs the queries: the pool, or inside Atomically the transaction.
	db   queryer
	pool *sql.DB
	inTx *sql.Tx // set inside Atomically
	// inUse holds the shared lock on portal.db.lock (SQLite) until Close.
	inUse   *os.File
	dialect dialect
	cfg     Config
	now     func() time.Time
	// gate bounds concurrent password hashing; userLocks serialises the
	// password checks of one username (see checkPassword).
	gate      *gate.Gate
	userLocks *keyedMutex
	// hashMemory returns the hashes' memory after a burst (hashMemory).
	hashMemory *hashMemory
	// forms reads the field names of form templates and filled copies,
	// a few at a time for the whole process.
	forms *pdfform.Reader
	// health notes outages and a full disk (Classify, Health);
	// closeHealth stops its probe when the DB closes.
	health      *health
	closeHealth context.CancelFunc
	// tokens remembers checked access tokens for a few seconds
	// (tokencache.go); every copy of the conn shares it.
	tokens *tokenCache
	// definitions remembers decoded field definitions by their stored
	// text (defcache.go).
	definitions *definitionCache
	// catalog remembers companies and packages while events arrive
	// (catalogcache.go); every copy of the conn shares it.
	catalog *catalogCache
	// audits holds each open transaction's audit rows until its commit
	// chains them (auditchain.go); every copy of the conn shares it.
	audits *auditQueue
}

// Open connects and applies the embedded migrations.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	cfg = withDefaults(cfg)
	d, dsn, err := chooseDialect(cfg)
	if err != nil {
		return nil, err
	}
	var inUse *os.File
	if d.name == sqliteDialect.name {
		// With PostgreSQL the data folder holds nothing of the portal's.
		warnOpenDataDir(cfg.DataDir, cfg.Logger)
		// Held until Close, so that portal restore never replaces the
		// file under an open database; it waits while a restore runs.
		if inUse, err = lockFile(ctx, filepath.Join(cfg.DataDir, inUseLockFile), false, true); err != nil {
			return nil, fmt.Errorf("store: database lock (portal restore is running): %w", err)
		}
	}
	sqldb, err := d.open(dsn)
	if err != nil {
		closeFile(inUse)
		return nil, fmt.Errorf("store: open %s: %w", d.name, err)
	}
	opened := false
	defer func() {
		if !opened {
			closeFile(inUse)
		}
	}()
	d.configurePool(sqldb)
	if err := connect(ctx, sqldb, d, cfg.BusyTimeout); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("store: connect to %s: %w", d.name, err)
	}
	s := &DB{&conn{db: sqldb, pool: sqldb, inUse: inUse, dialect: d, cfg: cfg, now: cfg.Now,
		gate: gate.New(cfg.PasswordChecks, cfg.PasswordCheckWait, passwordGateBusy), userLocks: newKeyedMutex(),
		hashMemory: newHashMemory(), forms: pdfform.NewReader(), tokens: newTokenCache(max(cfg.TokenCacheTTL, 0)),
		definitions: newDefinitionCache(), catalog: newCatalogCache(), audits: newAuditQueue()}}
	healthCtx, closeHealth := context.WithCancel(context.Background())
	s.health, s.closeHealth = newHealth(cfg.Logger, cfg.Now, probeTx(sqldb), healthCtx), closeHealth
	if err := s.Migrate(ctx); err != nil {
		sqldb.Close()
		return nil, err
	}
	if err := s.chainLegacyAudit(ctx); err != nil {
		sqldb.Close()
		return nil, err
	}
	if cfg.Sealer != nil {
		if err := s.checkDataKey(ctx, cfg.Sealer); err != nil {
			sqldb.Close()
			return nil, err
		}
		if err := s.sealRows(ctx); err != nil {
			sqldb.Close()
			return nil, err
		}
		if err := s.sealSignatureImages(ctx); err != nil {
			sqldb.Close()
			return nil, err
		}
		if err := s.sealOutbox(ctx); err != nil {
			sqldb.Close()
			return nil, err
		}
	}
	opened = true
	return s, nil
}

// connect makes the first connection. On SQLite it may find the file
// locked by another process starting at the same moment: switching a new
// file to WAL does not wait in SQLite's busy handler, so the connection is
// tried again, for as long as the busy timeout.
func connect(ctx context.Context, db *sql.DB, d dialect, busyTimeout time.Duration) error {
	deadline := time.Now().Add(busyTimeout)
	for {
		err := db.PingContext(ctx)
		if err == nil || d.name != sqliteDialect.name || classify(err) != portal.EUNAVAILABLE || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(lockPoll):
		}
	}
}

func closeFile(f *os.File) {
	if f != nil {
		f.Close()
	}
}

func withDefaults(cfg Config) Config {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.AccessTokenTTL, time.Hour)
	def(&cfg.RefreshTokenTTL, 24*time.Hour)
	def(&cfg.SetupTokenTTL, 30*time.Minute)
	def(&cfg.InvitationTTL, 14*24*time.Hour)
	def(&cfg.ResetTTL, time.Hour)
	def(&cfg.PasswordCheckWait, 2*time.Second)
	if cfg.PasswordChecks <= 0 {
		cfg.PasswordChecks = runtime.GOMAXPROCS(0)
	}
	def(&cfg.EmailChangeTTL, DefaultEmailChangeTTL)
	def(&cfg.DraftTTL, portal.DefaultDraftTTL)
	def(&cfg.BusyTimeout, DefaultBusyTimeout)
	if cfg.TokenCacheTTL == 0 {
		cfg.TokenCacheTTL = DefaultTokenCacheTTL
	}
	if cfg.HashPassword == nil {
		cfg.HashPassword = defaultHash
	}
	if cfg.VerifyPassword == nil {
		cfg.VerifyPassword = defaultVerify
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if len(cfg.Reminders.After) == 0 && cfg.Reminders.Repeat <= 0 {
		cfg.Reminders = portal.DefaultReminderSchedule()
	}
	return cfg
}

func chooseDialect(cfg Config) (dialect, string, error) {
	if u := cfg.DatabaseURL; u != "" {
		if !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
			return dialect{}, "", fmt.Errorf("store: database URL must start with postgres:// (got %q)", redactURL(u))
		}
		return postgresDialect, u, nil
	}
	if cfg.DataDir == "" {
		return dialect{}, "", errors.New("store: no data folder and no database URL")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return dialect{}, "", fmt.Errorf("store: create data folder: %w", err)
	}
	path := filepath.Join(cfg.DataDir, "portal.db")
	if err := ownerOnlyFiles(path, cfg.Logger); err != nil {
		return dialect{}, "", err
	}
	dsn, err := sqliteDSN(path, cfg.BusyTimeout)
	if err != nil {
		return dialect{}, "", err
	}
	return sqliteDialect, dsn, nil
}

// ownerOnlyFiles makes the database file before SQLite opens it, readable
// and writable by its owner only, whatever the umask: SQLite would create
// it 0644 (less the umask) and gives the -wal and -shm files it creates the
// database file's mode. Files an older version (or an operator's copy) left
// open to others are tightened, the data key beside them included.
func ownerOnlyFiles(path string, log *slog.Logger) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the configured database path
	if err == nil {
		// The umask can only remove bits; Chmod sets exactly 0600.
		err = f.Chmod(0o600)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("store: create database file: %w", err)
		}
	} else if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("store: create database file: %w", err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", filepath.Join(filepath.Dir(path), seal.KeyFileName)} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm()&0o077 == 0 {
			continue
		}
		// Another user (an operator command run by a group member)
		// may not change the mode; that must not stop it from working.
		if err := os.Chmod(p, 0o600); err != nil {
			log.Warn("a data file is open to other users and its mode could not be changed", "file", p, "mode", fi.Mode().Perm().String(), "err", err)
			continue
		}
		log.Info("made a data file readable by its owner only", "file", p, "was", fi.Mode().Perm().String())
	}
	return nil
}

// warnOpenDataDir warns when other users may read or write the data
// folder: it holds the database and may hold the data key.
func warnOpenDataDir(dir string, log *slog.Logger) {
	if dir == "" {
		return
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm()&0o066 == 0 {
		return
	}
	log.Warn("the data folder is readable or writable by other users; it holds the database and may hold the data key: chmod 700 it",
		"folder", dir, "mode", fi.Mode().Perm().String())
}

// redactURL hides a password in a database URL so it can be shown in errors.
func redactURL(u string) string {
	if at := strings.LastIndex(u, "@"); at > 0 {
		if scheme := strings.Index(u, "://"); scheme >= 0 && scheme < at {
			return u[:scheme+3] + "***" + u[at:]
		}
	}
	return u
}

// Migrate applies the embedded migrations of the dialect.
func (s *DB) Migrate(ctx context.Context) error {
	p, err := s.migrations(ctx)
	if err != nil {
		return err
	}
	applied, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("store: apply migrations: %w", err)
	}
	// A migration may change companies or packages under the catalog
	// caches of running processes; a new database has none to tell.
	if len(applied) > 0 && applied[0].Source.Version > 1 {
		s.catalog.forget()
		if err := s.Publish(ctx, catalogTopic, []byte(`{}`)); err != nil {
			return fmt.Errorf("store: after migrations: %w", err)
		}
	}
	return nil
}

// migrations is goose's provider of the dialect's migrations. Several
// processes may open one database at once (instances behind a balancer,
// serve beside an operator command): each holds a lock while it migrates,
// a session advisory lock on PostgreSQL and an flock on a file beside
// portal.db on SQLite, so the next finds the work done instead of doing
// it again.
func (s *DB) migrations(ctx context.Context) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations/"+s.dialect.name)
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	var opt goose.ProviderOption
	if s.dialect.name == postgresDialect.name {
		// The lock is the schema's, so portals in other schemas of the
		// database never wait on it; a waiting instance tries every second
		// (goose's default is 5 s) for up to 5 minutes.
		var schema string
		if err := s.pool.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
			return nil, fmt.Errorf("store: migration lock: %w", err)
		}
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID(schema)), lock.WithLockTimeout(1, 300))
		if err != nil {
			return nil, fmt.Errorf("store: migration lock: %w", err)
		}
		opt = goose.WithSessionLocker(locker)
	} else {
		opt = goose.WithLocker(&fileLocker{path: filepath.Join(s.cfg.DataDir, migrateLockFile)})
	}
	p, err := goose.NewProvider(s.dialect.goose, s.pool, fsys, opt)
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	return p, nil
}

// migrationLockID is the advisory lock id of a schema's migrations: goose's
// default id for the public schema (what every portal used before), a hash
// of the name for any other.
func migrationLockID(schema string) int64 {
	if schema == "public" {
		return lock.DefaultLockID
	}
	h := fnv.New64a()
	h.Write([]byte(schema))
	return int64(h.Sum64() >> 1)
}

// Close closes the connection pool, then lets go of the database file.
func (s *DB) Close() error {
	s.closeHealth()
	err := s.pool.Close()
	closeFile(s.inUse)
	return err
}

// Ping checks the database answers; Health also says whether it is away
// or full.
func (s *DB) Ping(ctx context.Context) error { return s.pool.PingContext(ctx) }

// Dialect names the database in use: "sqlite" or "postgres".
func (s *DB) Dialect() string { return s.dialect.name }

// SQL gives tests and operator commands the raw connection.
func (s *DB) SQL() *sql.DB { return s.pool }

// Atomically runs fn with a DB whose every call is part of one transaction:
// what fn's calls write commits together when fn returns nil, and nothing
// of it stays when fn fails. lock, when not empty, is held until the
// transaction ends, so Atomically calls with the same lock run one after
// another across processes (SQLite runs every write transaction one at a
// time anyway). The DB given to fn is only for calls inside fn.
func (s *DB) Atomically(ctx context.Context, lock string, fn func(tx *DB) error) error {
	if s.inTx != nil {
		return errors.New("store: Atomically inside Atomically")
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if lock != "" {
			if err := s.dialect.lock(ctx, tx, lockAtomically, lock); err != nil {
				return err
			}
		}
		inner := *s.conn
		inner.db, inner.inTx = tx, tx
		return fn(&DB{&inner})
	})
}

// tx runs fn in a transaction, committing when it returns nil. Inside
// Atomically it runs fn in a savepoint of that transaction instead, so a
// failing fn still undoes its own writes.
func (s *conn) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	if s.inTx != nil {
		return s.savepoint(ctx, fn)
	}
	tx, err := s.pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	// A revocation inside voids the token cache again once it commits
	// (or not).
	defer s.tokens.ended(tx)
	defer s.catalog.ended(tx)
	s.audits.begin(tx)
	defer s.audits.take(tx)
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	// The audit rows last, so the chain's lock is held only until the
	// commit.
	if rows := s.audits.take(tx); len(rows) > 0 {
		if err := s.chainAudit(ctx, tx, rows...); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	s.health.wrote()
	return nil
}

func (s *conn) savepoint(ctx context.Context, fn func(*sql.Tx) error) error {
	if _, err := s.inTx.ExecContext(ctx, `SAVEPOINT store_tx`); err != nil {
		return fmt.Errorf("store: savepoint: %w", err)
	}
	queued := s.audits.mark(s.inTx)
	if err := fn(s.inTx); err != nil {
		s.audits.undo(s.inTx, queued)
		// PostgreSQL refuses every statement after a failed one until the
		// rollback to the savepoint.
		if _, rerr := s.inTx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT store_tx`); rerr != nil {
			return errors.Join(err, fmt.Errorf("store: roll back to savepoint: %w", rerr))
		}
		s.inTx.ExecContext(ctx, `RELEASE SAVEPOINT store_tx`)
		return err
	}
	if _, err := s.inTx.ExecContext(ctx, `RELEASE SAVEPOINT store_tx`); err != nil {
		return fmt.Errorf("store: release savepoint: %w", err)
	}
	return nil
}

// queryer is what both *sql.DB and *sql.Tx offer.
type queryer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ms is how times are stored: Unix milliseconds.
func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func nullTime(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMS(v.Int64)
	return &t
}

// newSecret returns a random URL-safe token and the hash that is stored.
func newSecret() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("store: random token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashSecret(token), nil
}

// hashSecret is how tokens are looked up: only their SHA-256 is stored, so
// a copy of the database gives no usable token. The tokens carry 256 random
// bits, so a fast hash is enough.
func hashSecret(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// notFound maps a missing row to the domain's ENOTFOUND.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		// "Applicant not found." is a message of its own in the
		// catalogue, which a language says better than "%s not found.".
		if m := what + " not found."; portal.MessageCode(m) != "" {
			return &portal.Error{Code: portal.ENOTFOUND, Message: m}
		}
		return portal.Errorf(portal.ENOTFOUND, "%s not found.", what)
	}
	return err
}
