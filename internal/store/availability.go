package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"applicantportal/internal/portal"
)

// What applicants read when the database is away or full. They say that
// the form keeps what was typed (the app keeps it) and what to do.
const (
	UnavailableMessage = "The service is briefly unavailable. Nothing you entered is lost: try again in a moment."
	StorageFullMessage = "The service cannot save anything right now because its storage is full. Nothing you entered is lost: try again later, and contact support if this keeps happening."
	// UnavailableRetryAfter is the Retry-After, in seconds, of an answer
	// given while the database is away: a restart takes seconds, and the
	// app's live chat reconnects after it.
	UnavailableRetryAfter = 2
)

// Classify turns an error of the database that says it is away (not
// reachable, restarting, busy past the busy timeout) into EUNAVAILABLE and
// one that says it is full into ESTORAGEFULL, keeping err as the cause;
// any other error is returned as it is. It notes when an outage or a full
// disk begins, logging each once: the HTTP layer calls it on every error
// it answers.
func (s *DB) Classify(err error) error {
	switch classify(err) {
	case portal.EUNAVAILABLE:
		s.health.down(err)
		return &portal.Error{Code: portal.EUNAVAILABLE, Message: UnavailableMessage, RetryAfter: UnavailableRetryAfter, Err: err}
	case portal.ESTORAGEFULL:
		s.health.filled(err)
		return &portal.Error{Code: portal.ESTORAGEFULL, Message: StorageFullMessage, Err: err}
	}
	return err
}

// classify is the one place that knows which driver errors mean the
// database is away (EUNAVAILABLE) or full (ESTORAGEFULL); it answers ""
// for any other error.
func classify(err error) string {
	var pe *portal.Error
	switch {
	case err == nil, errors.As(err, &pe):
		return ""
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return portal.ESTORAGEFULL
	// The request ended (the client left): not the database's doing.
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ""
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		// The primary code is the low byte of an extended one.
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return portal.EUNAVAILABLE
		case sqlite3.SQLITE_FULL:
			return portal.ESTORAGEFULL
		}
		return ""
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch {
		case pg.Code == "53100": // disk_full
			return portal.ESTORAGEFULL
		case strings.HasPrefix(pg.Code, "08"), // connection exception
			pg.Code == "57P01", pg.Code == "57P02", pg.Code == "57P03", // shutting down, crashed, starting up
			pg.Code == "53300": // too_many_connections
			return portal.EUNAVAILABLE
		}
		return ""
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	// A pooled connection the outage closed ("conn closed") was never
	// sent the statement (pgconn.SafeToRetry): the database is away, which
	// a caller could not tell once the token check stopped meeting such
	// connections first (it is cached now).
	case errors.As(err, &ce), errors.As(err, &ne), errors.Is(err, driver.ErrBadConn), pgconn.SafeToRetry(err),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return portal.EUNAVAILABLE
	}
	return ""
}

// Health answers nil when the database answers and the last write did
// not fail for lack of space; otherwise EUNAVAILABLE or ESTORAGEFULL (an
// unexpected failure as it is). While storage is full it tries a small
// write, which clears the state when it succeeds.
func (s *DB) Health(ctx context.Context) error {
	if s.health.isFull() {
		if err := s.writeProbe(ctx); err != nil {
			return s.Classify(err)
		}
		s.health.wrote()
	}
	if since := s.health.downSince(); !since.IsZero() {
		return &portal.Error{Code: portal.EUNAVAILABLE, Message: UnavailableMessage, RetryAfter: UnavailableRetryAfter,
			Err: errors.New("store: the database has been unavailable since " + since.Format(time.RFC3339))}
	}
	if err := s.pool.PingContext(ctx); err != nil {
		// A database that does not answer within the check's time is
		// away too (a network that drops packets refuses nothing); a
		// request's own deadline is not counted this way, since the
		// client may be what ended it.
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			s.health.down(err)
			return &portal.Error{Code: portal.EUNAVAILABLE, Message: UnavailableMessage, RetryAfter: UnavailableRetryAfter, Err: err}
		}
		return s.Classify(err)
	}
	return nil
}

// writeProbe writes a row that means nothing, big enough to need a page
// of its own, and keeps it: a write that succeeds shows there is room.
func (s *DB) writeProbe(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES ('health_write_check', $1)
			ON CONFLICT (name) DO UPDATE SET value = excluded.value`, make([]byte, 8<<10))
		return err
	})
}

// health notes the database's outages and a full disk, so each is logged
// once when it begins and once when it ends, and /healthz can say so.
// While the database is away a probe (a transaction begun and rolled back:
// on SQLite that takes the write lock a busy database holds) runs with a
// short backoff and ends the outage when it succeeds.
type health struct {
	log   *slog.Logger
	now   func() time.Time
	probe func(context.Context) error
	// stop ends a running probe when the DB closes.
	stop context.Context

	mu          sync.Mutex
	outageSince time.Time // zero while the database answers
	fullSince   time.Time // zero while writes find room
	full        atomic.Bool
}

func newHealth(log *slog.Logger, now func() time.Time, probe func(context.Context) error, stop context.Context) *health {
	return &health{log: log, now: now, probe: probe, stop: stop}
}

// down notes that the database is away, starting the outage and its probe
// unless one is under way.
func (h *health) down(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.outageSince.IsZero() || h.stop.Err() != nil {
		return
	}
	h.outageSince = h.now()
	h.log.Error("database unavailable: requests answer 503 until it answers again", slog.String("error", err.Error()))
	go h.watch()
}

func (h *health) downSince() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.outageSince
}

// probeFirstPause and probeMaxPause are the first and the longest pause between two probes of a
// database that is away.
const (
	probeFirstPause = 250 * time.Millisecond
	probeMaxPause   = 2 * time.Second
)

// watch probes the database until it answers (or the DB closes), then
// ends the outage.
func (h *health) watch() {
	pause := probeFirstPause
	for {
		select {
		case <-h.stop.Done():
			return
		case <-time.After(pause):
		}
		ctx, cancel := context.WithTimeout(h.stop, 15*time.Second)
		err := h.probe(ctx)
		cancel()
		if err == nil {
			break
		}
		pause = min(2*pause, probeMaxPause)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.log.Info("database available again", slog.Duration("outage", h.now().Sub(h.outageSince).Round(time.Millisecond)))
	h.outageSince = time.Time{}
}

// filled notes that a write failed for lack of space.
func (h *health) filled(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.full.Load() {
		return
	}
	h.fullSince = h.now()
	h.full.Store(true)
	h.log.Error("storage full: writes answer 507 until a write finds room again", slog.String("error", err.Error()))
}

func (h *health) isFull() bool { return h.full.Load() }

// wrote notes a successful write, which ends a full-storage state. It
// costs one atomic load when storage is not full.
func (h *health) wrote() {
	if !h.full.Load() {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.full.Load() {
		return
	}
	h.full.Store(false)
	h.log.Info("storage writable again", slog.Duration("full_for", h.now().Sub(h.fullSince).Round(time.Millisecond)))
}

// probeTx begins a transaction and rolls it back: on PostgreSQL a round
// trip on a working connection, on SQLite the write lock (_txlock=immediate),
// which a database busy past its busy timeout does not give.
func probeTx(pool *sql.DB) func(context.Context) error {
	return func(ctx context.Context) error {
		tx, err := pool.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		return tx.Rollback()
	}
}
