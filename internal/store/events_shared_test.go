package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestEventsCrossStores: two stores on one database stand for `portal
// serve` and `portal chat reply` (SQLite through the events table,
// PostgreSQL through NOTIFY); an event published by either, through its
// Events or a bare DB, reaches the subscribers of both, once.
func TestEventsCrossStores(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, openDB func(cfg store.Config) *store.DB) {
		testEventsCrossStores(t, func() *store.DB {
			cfg := storetest.Config(t)
			cfg.Sealer = nil // events read no sealed data
			return openDB(cfg)
		})
	})
}

func testEventsCrossStores(t *testing.T, open func() *store.DB) {
	ctx := context.Background()
	serve, cli := open(), open()
	// An event published before an Events opened is not its subscribers'.
	if err := cli.Publish(ctx, "chat.1", []byte(`{"old":true}`)); err != nil {
		t.Fatal(err)
	}
	a, b := openEvents(t, serve), openEvents(t, cli)
	onA, cancelA := a.Subscribe(ctx, "chat.1")
	defer cancelA()
	onB, cancelB := b.Subscribe(ctx, "chat.1")
	defer cancelB()
	publishers := []struct {
		name    string
		publish func(context.Context, string, []byte) error
	}{{"other store's Events", b.Publish}, {"this store's Events", a.Publish}, {"bare DB without Events", cli.Publish}}
	for i, p := range publishers {
		want := fmt.Sprintf(`{"messageId":%d}`, i)
		if err := p.publish(ctx, "chat.1", []byte(want)); err != nil {
			t.Fatal(err)
		}
		for name, ch := range map[string]<-chan portal.Event{"serve": onA, "cli": onB} {
			if e, ok := next(t, ch); !ok || string(e.Payload) != want {
				t.Errorf("published by %s: %s got %s (open %v), want %s", p.name, name, e.Payload, ok, want)
			}
		}
	}
	for name, ch := range map[string]<-chan portal.Event{"serve": onA, "cli": onB} {
		select {
		case e := <-ch:
			t.Errorf("%s got an event twice or an old one: %s", name, e.Payload)
		case <-time.After(3 * store.EventPoll):
		}
	}
}

// TestSweepEvents: events older than EventRetention go, except the newest,
// below which new rows would otherwise be numbered again, unseen.
func TestSweepEvents(t *testing.T) {
	c := newClock()
	cfg := sessionConfig(t, c)
	db := storetest.OpenSQLite(t, cfg)
	ctx := context.Background()
	ev := openEvents(t, db)
	ch, cancel := ev.Subscribe(ctx, "chat.9")
	defer cancel()
	for i := range 3 {
		if err := db.Publish(ctx, "chat.9", fmt.Appendf(nil, "%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	c.advance(store.EventRetention + time.Second)
	if err := db.Publish(ctx, "chat.9", []byte("3")); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		next(t, ch)
	}
	count := func() (n int) {
		db.SQL().QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n)
		return n
	}
	res, err := db.Sweep(ctx)
	if err != nil || res.Events != 3 || count() != 1 {
		t.Fatalf("Sweep = %+v, %v; %d rows left, want 3 swept and 1 left", res, err, count())
	}
	c.advance(store.EventRetention + time.Second)
	if res, err := db.Sweep(ctx); err != nil || res.Events != 0 || count() != 1 {
		t.Fatalf("Sweep of the newest alone = %+v, %v; %d rows left, want it kept", res, err, count())
	}
	if err := db.Publish(ctx, "chat.9", []byte("4")); err != nil {
		t.Fatal(err)
	}
	if e, ok := next(t, ch); !ok || string(e.Payload) != "4" {
		t.Errorf("after the sweep got %s (open %v), want 4", e.Payload, ok)
	}
}
