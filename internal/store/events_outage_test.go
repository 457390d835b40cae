package store_test

import (
	"context"
	"testing"
	"time"

	"applicantportal/internal/store/storetest"
)

// TestEventsResumeSoonAfterTheDatabaseReturns takes PostgreSQL away for a
// few seconds (a proxy between the portal and the server drops every
// connection and refuses new ones), brings it back, and publishes: an
// event reaches a subscriber within 3 s of the database answering again.
// The subscription made before the outage stays open while the database
// is away and closes once the listener listens again (events may have
// been missed: the subscriber reads afresh).
func TestEventsResumeSoonAfterTheDatabaseReturns(t *testing.T) {
	db, proxy := storetest.OpenPostgresViaProxy(t, storetest.Config(t))
	ev := openEvents(t, db)
	ctx := context.Background()
	before, cancel := ev.Subscribe(ctx, "chat.7")
	defer cancel()

	proxy.Cut()
	select {
	case _, ok := <-before:
		t.Fatalf("the subscription got an event or closed (ok=%v) while the database was away", ok)
	case <-time.After(4 * time.Second):
	}
	proxy.Restore()
	back := time.Now()

	if _, ok := next(t, before); ok {
		t.Fatal("an event arrived on the subscription made before the outage; want it closed")
	}
	for {
		sub, cancel := ev.Subscribe(ctx, "chat.7")
		// The pool's connections died with the outage: a publish may
		// fail once while it opens new ones.
		err := ev.Publish(ctx, "chat.7", []byte(`{"after":"outage"}`))
		if err == nil {
			select {
			case e, ok := <-sub:
				if ok && string(e.Payload) == `{"after":"outage"}` {
					cancel()
					t.Logf("an event arrived %v after the database came back", time.Since(back).Round(time.Millisecond))
					if time.Since(back) > 3*time.Second {
						t.Fatalf("the first event arrived %v after the database came back; want within 3 s", time.Since(back))
					}
					return
				}
			case <-time.After(200 * time.Millisecond):
			}
		}
		cancel()
		if time.Since(back) > 3*time.Second {
			t.Fatalf("no event within 3 s of the database coming back (last publish: %v)", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
