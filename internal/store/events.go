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

// Events is portal.Events for the store's database: on SQLite within this
// process (one process serves a SQLite database), on PostgreSQL across
// every process sharing the database, with LISTEN/NOTIFY on one channel
// per schema. Close it before the DB.
type Events struct {
	hub *hub
	db  *DB
	// On PostgreSQL: the NOTIFY channel, and the listener's stop and end.
	channel string
	stop    context.CancelFunc
	done    chan struct{}
}

var _ portal.Events = (*Events)(nil)

// OpenEvents starts the events of db. On PostgreSQL it connects its
// listener before it returns, so an event published once it has returned
// reaches its subscribers.
func OpenEvents(ctx context.Context, db *DB) (*Events, error) {
	e := &Events{hub: newHub(), db: db}
	if db.dialect.name != postgresDialect.name {
		return e, nil
	}
	var schema string
	if err := db.pool.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return nil, fmt.Errorf("store: events: %w", err)
	}
	// Channels are database-wide; schemas (the tests', or several portals
	// in one database) keep their events apart.
	e.channel = "portal_events"
	if schema != "public" {
		e.channel += "." + schema
	}
	conn, err := e.connect(ctx)
	if err != nil {
		return nil, err
	}
	listenCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	e.stop, e.done = stop, make(chan struct{})
	go e.listen(listenCtx, conn)
	return e, nil
}

// Close stops the listener and closes every subscription.
func (e *Events) Close() error {
	if e.stop != nil {
		e.stop()
		<-e.done
	}
	e.hub.closeAll()
	return nil
}

// Publish checks the event and hands it to the subscribers: directly on
// SQLite, through NOTIFY on PostgreSQL (this process's listener receives
// it too, so its subscribers get it once, in the order of the database).
func (e *Events) Publish(ctx context.Context, topic string, payload []byte) error {
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
	if e.channel == "" {
		e.hub.deliver(portal.Event{Topic: topic, Payload: payload})
		return nil
	}
	// JSON has no raw NUL or newline outside strings that would trouble
	// NOTIFY; the topic has neither.
	if _, err := e.db.pool.ExecContext(ctx, `SELECT pg_notify($1, $2)`, e.channel, topic+"\n"+string(payload)); err != nil {
		return fmt.Errorf("store: publish event: %w", err)
	}
	return nil
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

// listen delivers notifications until ctx ends. When the connection is
// lost it closes every subscription (events may be missed until it
// listens again), reconnects with a growing pause, and closes the
// subscriptions made meanwhile once it listens again.
func (e *Events) listen(ctx context.Context, conn *pgx.Conn) {
	defer close(e.done)
	log := e.db.cfg.Logger
	pause := 100 * time.Millisecond
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
				e.hub.deliver(portal.Event{Topic: topic, Payload: []byte(payload)})
			}
		}
		conn.Close(context.Background())
		e.hub.closeAll()
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(pause):
			}
			var err error
			if conn, err = e.connect(ctx); err == nil {
				pause = 100 * time.Millisecond
				e.hub.closeAll()
				log.Info("events: listening again")
				break
			}
			if ctx.Err() != nil {
				return
			}
			log.Warn("events: reconnect failed", slog.String("error", err.Error()))
			pause = min(2*pause, 5*time.Second)
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
