package store

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"applicantportal/internal/portal"
)

// subscriberBuffer is how many events a subscriber may fall behind before
// its channel is closed (it then reloads, see portal.Events).
const subscriberBuffer = 64

// Events is portal.Events for the store's database, across every process
// sharing it: on PostgreSQL with LISTEN/NOTIFY on one channel per schema;
// on SQLite through the events table, which each process's Events polls
// every EventPoll (a `portal chat reply` is another process than `portal
// serve`). Close it before the DB.
type Events struct {
	hub *hub
	db  *DB
	// On PostgreSQL: the NOTIFY channel. stop and done end the listener
	// (PostgreSQL) or the poller (SQLite); wake asks the poller to look now.
	channel string
	stop    context.CancelFunc
	done    chan struct{}
	wake    chan struct{}
	// receiving is whether this Events receives every event now, which
	// the DB's catalog cache is told (setReceiving); only the listener or
	// poller changes it once started, and Close after it ended.
	receiving bool
}

// EventPoll is how often the Events of a SQLite database look for events
// published by other processes.
const EventPoll = 250 * time.Millisecond

// EventRetention is how long a published event stays in the SQLite events
// table: a poller reads it within EventPoll; Sweep deletes it after.
const EventRetention = time.Minute

var _ portal.Events = (*Events)(nil)

// OpenEvents starts the events of db. On PostgreSQL it connects its
// listener before it returns, so an event published once it has returned
// reaches its subscribers.
func OpenEvents(ctx context.Context, db *DB) (*Events, error) {
	e := &Events{hub: newHub(), db: db}
	if db.dialect.name != postgresDialect.name {
		// Events from before this process started are not its
		// subscribers' (they subscribed after).
		var last int64
		if err := db.pool.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM events`).Scan(&last); err != nil {
			return nil, fmt.Errorf("store: events: %w", err)
		}
		pollCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
		e.stop, e.done, e.wake = stop, make(chan struct{}), make(chan struct{}, 1)
		e.setReceiving(true)
		go e.poll(pollCtx, last)
		return e, nil
	}
	if err := db.pool.QueryRowContext(ctx, `SELECT `+eventChannel).Scan(&e.channel); err != nil {
		return nil, fmt.Errorf("store: events: %w", err)
	}
	conn, err := e.connect(ctx)
	if err != nil {
		return nil, err
	}
	listenCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	e.stop, e.done = stop, make(chan struct{})
	e.setReceiving(true)
	go e.listen(listenCtx, conn) // #nosec G118 -- the listener lives as long as the store, not a request
	return e, nil
}

// Close stops the listener and closes every subscription.
func (e *Events) Close() error {
	if e.stop != nil {
		e.stop()
		<-e.done
	}
	e.setReceiving(false)
	e.hub.closeAll()
	return nil
}

// setReceiving tells the DB's catalog cache when this Events starts or
// stops receiving every event (an outage): the cache answers only while
// some Events of the process receives them, and is voided either way.
func (e *Events) setReceiving(on bool) {
	if e.receiving == on {
		return
	}
	e.receiving = on
	e.db.catalog.receiving(on)
}

// deliver hands an event to this process's subscribers; a change of the
// catalog voids the DB's catalog cache first.
func (e *Events) deliver(ev portal.Event) {
	if ev.Topic == catalogTopic {
		e.db.catalog.forget()
	}
	e.hub.deliver(ev)
}

// Publish checks the event and hands it to the subscribers of every
// process (DB.Publish); this process's get it the same way as the others',
// so each gets it once, in the order of the database.
func (e *Events) Publish(ctx context.Context, topic string, payload []byte) error {
	if err := e.db.Publish(ctx, topic, payload); err != nil {
		return err
	}
	e.published()
	return nil
}

// published wakes the poller (SQLite) after an event was published
// through this database, by Publish or by a transaction that published
// with its change (conn.publishIn) and committed.
func (e *Events) published() {
	if e.wake != nil {
		select {
		case e.wake <- struct{}{}:
		default: // a poll is already due
		}
	}
}

// eventChannel is the NOTIFY channel of the connection's schema: channels
// are database-wide, and schemas (the tests', or several portals in one
// database) keep their events apart.
const eventChannel = `CASE WHEN current_schema() = 'public' THEN 'portal_events' ELSE 'portal_events.' || current_schema() END`

// Publish checks an event and publishes it to the subscribers of every
// Events on the database: on SQLite it adds a row to the events table, on
// PostgreSQL it sends a NOTIFY. It needs no Events of its own, so a
// command-line process publishes without listening.
func (db *DB) Publish(ctx context.Context, topic string, payload []byte) error {
	return db.publishIn(ctx, db.db, topic, payload)
}

// publishIn is Publish on q. In a transaction the event is published with
// the change, when it commits, and costs no commit of its own: on SQLite
// its row commits with the change, and PostgreSQL sends a NOTIFY at commit.
func (s *conn) publishIn(ctx context.Context, q queryer, topic string, payload []byte) error {
	switch {
	case topic == "" || strings.ContainsAny(topic, "\n\x00") || !utf8.ValidString(topic):
		return portal.Errorf(portal.EINVALID, "An event topic is one line of text.")
	case len(topic) > portal.MaxEventTopicLength:
		return portal.Errorf(portal.ETOOLARGE, "The event topic is longer than %d bytes.", portal.MaxEventTopicLength)
	case len(payload) > portal.MaxEventPayload:
		return portal.Errorf(portal.ETOOLARGE, "The event payload is larger than %d bytes: publish a notice, not the data.", portal.MaxEventPayload)
	case !json.Valid(payload):
		return portal.Errorf(portal.EINVALID, "An event payload is JSON.")
	}
	if s.dialect.name != postgresDialect.name {
		if _, err := q.ExecContext(ctx, `INSERT INTO events (topic, payload, created_at) VALUES ($1, $2, $3)`,
			topic, string(payload), ms(s.now())); err != nil {
			return fmt.Errorf("store: publish event: %w", err)
		}
		return nil
	}
	// JSON has no raw NUL or newline outside strings that would trouble
	// NOTIFY; the topic has neither.
	if _, err := q.ExecContext(ctx, `SELECT pg_notify(`+eventChannel+`, $1)`, topic+"\n"+string(payload)); err != nil {
		return fmt.Errorf("store: publish event: %w", err)
	}
	return nil
}

// poll delivers the rows of the events table after last, every EventPoll
// or when woken, until ctx ends. SQLite commits one writer at a time, so
// rows become visible in id order and none is skipped.
func (e *Events) poll(ctx context.Context, last int64) {
	defer close(e.done)
	tick := time.NewTicker(EventPoll)
	defer tick.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-e.wake:
		}
		var err error
		// Events delivered before a failure are not delivered again.
		last, err = e.deliverAfter(ctx, last)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !failing {
				e.db.cfg.Logger.Warn("events: reading published events failed", slog.String("error", err.Error()))
			}
			// Changes of the catalog by other processes go unseen
			// meanwhile: the cache is dropped until polls succeed.
			e.setReceiving(false)
			failing = true
			continue
		}
		if failing {
			e.db.cfg.Logger.Info("events: reading published events again")
		}
		e.setReceiving(true)
		failing = false
	}
}

// deliverAfter delivers the events after id last and answers the last id
// delivered.
func (e *Events) deliverAfter(ctx context.Context, last int64) (int64, error) {
	rows, err := e.db.pool.QueryContext(ctx, `SELECT id, topic, payload FROM events WHERE id > $1 ORDER BY id`, last)
	if err != nil {
		return last, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var topic, payload string
		if err := rows.Scan(&id, &topic, &payload); err != nil {
			return last, err
		}
		e.deliver(portal.Event{Topic: topic, Payload: []byte(payload)})
		last = id
	}
	return last, rows.Err()
}

// Subscribe receives the topic's events until ctx ends or cancel is called.
func (e *Events) Subscribe(ctx context.Context, topic string) (<-chan portal.Event, func()) {
	return e.hub.subscribe(ctx, topic)
}

// connect opens the listening connection: one of its own, outside the
// pool, since LISTEN belongs to a session.
func (e *Events) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, e.db.cfg.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("store: events: connect: %w", err)
	}
	if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{e.channel}.Sanitize()); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("store: events: listen: %w", err)
	}
	return conn, nil
}

// Pauses between two attempts to listen again after the listening
// connection was lost: short, so chat resumes within a couple of seconds
// of the database coming back (a restart takes seconds).
const (
	listenFirstPause = 250 * time.Millisecond
	listenMaxPause   = 2 * time.Second
)

// listen delivers notifications until ctx ends. When the connection is
// lost it reconnects at once and then with a short, growing pause; once
// it listens again it closes every subscription, since events may have
// been missed meanwhile: each subscriber subscribes again and reads
// afresh (the app's event stream ends, and on reconnecting the app reads
// the conversation again). Subscriptions stay open while the database is
// away: nothing can be published then, and the app keeps its stream
// instead of retrying against a database that does not answer.
func (e *Events) listen(ctx context.Context, conn *pgx.Conn) {
	defer close(e.done)
	log := e.db.cfg.Logger
	for {
		for {
			n, err := conn.WaitForNotification(ctx)
			if err != nil {
				if ctx.Err() == nil {
					log.Warn("events: lost the listening connection; reconnecting", slog.String("error", err.Error()))
				}
				break
			}
			topic, payload, ok := strings.Cut(n.Payload, "\n")
			if ok {
				e.deliver(portal.Event{Topic: topic, Payload: []byte(payload)})
			}
		}
		// Changes of the catalog go unheard until it listens again.
		e.setReceiving(false)
		conn.Close(context.Background())
		lost := time.Now()
		pause, failures := time.Duration(0), 0
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(pause):
			}
			var err error
			if conn, err = e.connect(ctx); err == nil {
				e.setReceiving(true)
				e.hub.closeAll()
				log.Info("events: listening again", slog.Duration("after", time.Since(lost).Round(time.Millisecond)))
				break
			}
			if ctx.Err() != nil {
				return
			}
			// One line for an outage, not one per attempt.
			if failures++; failures == 1 {
				log.Warn("events: reconnect failed; retrying until the database answers", slog.String("error", err.Error()))
			}
			pause = min(max(2*pause, listenFirstPause), listenMaxPause)
		}
	}
}

// hub hands events to this process's subscribers.
type hub struct {
	mu   sync.Mutex
	subs map[string]map[*subscription]bool // by topic
}

type subscription struct {
	topic  string
	ch     chan portal.Event
	closed bool
}

func newHub() *hub { return &hub{subs: map[string]map[*subscription]bool{}} }

func (h *hub) subscribe(ctx context.Context, topic string) (<-chan portal.Event, func()) {
	s := &subscription{topic: topic, ch: make(chan portal.Event, subscriberBuffer)}
	h.mu.Lock()
	if h.subs[topic] == nil {
		h.subs[topic] = map[*subscription]bool{}
	}
	h.subs[topic][s] = true
	h.mu.Unlock()
	var once sync.Once
	cancel := func() {
		once.Do(func() {
			h.mu.Lock()
			h.remove(s)
			h.mu.Unlock()
		})
	}
	stop := context.AfterFunc(ctx, cancel)
	return s.ch, func() { stop(); cancel() }
}

// remove closes s and forgets it; h.mu is held.
func (h *hub) remove(s *subscription) {
	if s.closed {
		return
	}
	s.closed = true
	close(s.ch)
	delete(h.subs[s.topic], s)
	if len(h.subs[s.topic]) == 0 {
		delete(h.subs, s.topic)
	}
}

// deliver never waits: a subscriber whose buffer is full is closed.
func (h *hub) deliver(ev portal.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[ev.Topic] {
		select {
		case s.ch <- ev:
		default:
			h.remove(s)
		}
	}
}

func (h *hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.subs {
		for s := range subs {
			h.remove(s)
		}
	}
}
