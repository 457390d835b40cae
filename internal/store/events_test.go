package store_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

func openEvents(t *testing.T, db *store.DB) *store.Events {
	t.Helper()
	ev, err := store.OpenEvents(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ev.Close() })
	return ev
}

// next waits for the next event of ch; ok is false when ch closed.
func next(t *testing.T, ch <-chan portal.Event) (portal.Event, bool) {
	t.Helper()
	select {
	case e, ok := <-ch:
		return e, ok
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5 s")
		return portal.Event{}, false
	}
}

func TestEventsPublishSubscribe(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ev := openEvents(t, db)
		ctx := context.Background()
		t.Run("SubscriberGetsItsTopicInOrder", func(t *testing.T) {
			chat, cancel := ev.Subscribe(ctx, "chat.7")
			defer cancel()
			other, cancelOther := ev.Subscribe(ctx, "chat.8")
			defer cancelOther()
			for i := range 3 {
				if err := ev.Publish(ctx, "chat.7", fmt.Appendf(nil, `{"messageId":%d}`, i)); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 3 {
				e, ok := next(t, chat)
				if want := fmt.Sprintf(`{"messageId":%d}`, i); !ok || e.Topic != "chat.7" || string(e.Payload) != want {
					t.Fatalf("event %d = %+v (open %v), want chat.7 %s", i, e, ok, want)
				}
			}
			select {
			case e := <-other:
				t.Errorf("a subscriber of chat.8 got %+v", e)
			case <-time.After(100 * time.Millisecond):
			}
		})
		t.Run("CancelClosesTheChannel", func(t *testing.T) {
			ch, cancel := ev.Subscribe(ctx, "status.1")
			cancel()
			cancel() // twice is harmless
			if _, ok := next(t, ch); ok {
				t.Error("channel still open after cancel")
			}
		})
		t.Run("ContextEndClosesTheChannel", func(t *testing.T) {
			sctx, stop := context.WithCancel(ctx)
			ch, cancel := ev.Subscribe(sctx, "status.2")
			defer cancel()
			stop()
			if _, ok := next(t, ch); ok {
				t.Error("channel still open after its context ended")
			}
		})
		t.Run("SlowSubscriberIsClosedNotWaitedFor", func(t *testing.T) {
			ch, cancel := ev.Subscribe(ctx, "chat.slow")
			defer cancel()
			for range 100 { // more than the subscriber's buffer
				if err := ev.Publish(ctx, "chat.slow", []byte(`{}`)); err != nil {
					t.Fatal(err)
				}
			}
			// Be slow: read nothing until the buffer is full (PostgreSQL
			// delivers the notifications a little later than Publish returns).
			for deadline := time.Now().Add(5 * time.Second); len(ch) < cap(ch) && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			n := 0
			for {
				if _, ok := next(t, ch); !ok {
					break
				}
				n++
			}
			if n >= 100 {
				t.Errorf("got all %d events; want the channel closed once the buffer filled", n)
			}
		})
		limits := []struct {
			name    string
			topic   string
			payload []byte
			code    string
		}{
			{"PayloadAtTheLimitAccepted", "chat.1", jsonOfSize(portal.MaxEventPayload), ""},
			{"PayloadOverTheLimitRefused", "chat.1", jsonOfSize(portal.MaxEventPayload + 1), portal.ETOOLARGE},
			{"LongestTopicAccepted", strings.Repeat("t", portal.MaxEventTopicLength), []byte(`{}`), ""},
			{"TopicOverTheLimitRefused", strings.Repeat("t", portal.MaxEventTopicLength+1), []byte(`{}`), portal.ETOOLARGE},
			{"EmptyTopicRefused", "", []byte(`{}`), portal.EINVALID},
			{"TopicOfTwoLinesRefused", "chat\n1", []byte(`{}`), portal.EINVALID},
			{"PayloadNotJSONRefused", "chat.1", []byte("hello"), portal.EINVALID},
		}
		for _, tt := range limits {
			t.Run(tt.name, func(t *testing.T) {
				ch, cancel := ev.Subscribe(ctx, tt.topic)
				defer cancel()
				err := ev.Publish(ctx, tt.topic, tt.payload)
				if tt.code == "" {
					if err != nil {
						t.Fatal(err)
					}
					if e, ok := next(t, ch); !ok || !bytes.Equal(e.Payload, tt.payload) {
						t.Errorf("the event did not arrive whole")
					}
					return
				}
				if got := portal.ErrorCode(err); got != tt.code {
					t.Errorf("Publish = %v, want code %s", err, tt.code)
				}
			})
		}
	})
}

// jsonOfSize is a JSON string of exactly n bytes.
func jsonOfSize(n int) []byte { return []byte(`"` + strings.Repeat("x", n-2) + `"`) }

// TestEventsCrossInstances: on PostgreSQL an event published by one
// instance reaches a subscriber of another, and each event arrives once.
func TestEventsCrossInstances(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip(storetest.EnvURL + " is not set; events cross processes only on PostgreSQL")
	}
	url := storetest.Database(t, os.Getenv(storetest.EnvURL))
	cfg := storetest.Config(t)
	cfg.DatabaseURL = url
	open := func() *store.DB {
		db, err := store.Open(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := openEvents(t, open()), openEvents(t, open())
	ctx := context.Background()
	onA, cancelA := a.Subscribe(ctx, "chat.1")
	defer cancelA()
	onB, cancelB := b.Subscribe(ctx, "chat.1")
	defer cancelB()
	if err := a.Publish(ctx, "chat.1", []byte(`{"messageId":1}`)); err != nil {
		t.Fatal(err)
	}
	for name, ch := range map[string]<-chan portal.Event{"publishing instance": onA, "other instance": onB} {
		if e, ok := next(t, ch); !ok || string(e.Payload) != `{"messageId":1}` {
			t.Errorf("%s got %+v (open %v)", name, e, ok)
		}
		select {
		case e := <-ch:
			t.Errorf("%s got the event twice: %+v", name, e)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestEventsCrossOSProcesses runs this test binary again as a second OS
// process that publishes through its own store on the same PostgreSQL
// schema; the event must reach the subscriber here.
func TestEventsCrossOSProcesses(t *testing.T) {
	if url := os.Getenv("PORTAL_EVENTS_CHILD_URL"); url != "" {
		publishAsChild(t, url)
		return
	}
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip(storetest.EnvURL + " is not set; events cross processes only on PostgreSQL")
	}
	cfg := storetest.Config(t)
	cfg.DatabaseURL = storetest.Database(t, os.Getenv(storetest.EnvURL))
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ev := openEvents(t, db)
	ch, cancel := ev.Subscribe(context.Background(), "status.42")
	defer cancel()
	child := exec.Command(os.Args[0], "-test.run=^TestEventsCrossOSProcesses$", "-test.count=1")
	child.Env = append(os.Environ(), "PORTAL_EVENTS_CHILD_URL="+cfg.DatabaseURL)
	out, err := child.CombinedOutput()
	if err != nil {
		t.Fatalf("publishing process: %v\n%s", err, out)
	}
	e, ok := next(t, ch)
	if want := fmt.Sprintf(`{"statusId":1,"pid":%d}`, child.Process.Pid); !ok || string(e.Payload) != want {
		t.Errorf("got %+v (open %v), want %s from the other process", e, ok, want)
	}
}

func publishAsChild(t *testing.T, url string) {
	cfg := storetest.Config(t)
	cfg.DatabaseURL = url
	cfg.Sealer = nil // this process reads no sealed data and has not the parent's key
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ev, err := store.OpenEvents(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	if err := ev.Publish(context.Background(), "status.42", fmt.Appendf(nil, `{"statusId":1,"pid":%d}`, os.Getpid())); err != nil {
		t.Fatal(err)
	}
}

// TestEventsSurviveALostConnection: when the listening connection dies,
// subscribers are told (their channels close) and events flow again to
// new subscriptions once it has reconnected.
func TestEventsSurviveALostConnection(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip(storetest.EnvURL + " is not set; the listening connection is PostgreSQL's")
	}
	db := storetest.OpenPostgres(t, storetest.Config(t))
	ev := openEvents(t, db)
	ctx := context.Background()
	before, cancel := ev.Subscribe(ctx, "chat.1")
	defer cancel()
	var schema string
	db.SQL().QueryRow(`SELECT current_schema()`).Scan(&schema)
	res, err := db.SQL().Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`,
		`LISTEN "portal_events.`+schema+`"`)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("terminated %d listening connections, want 1", n)
	}
	if _, ok := next(t, before); ok {
		t.Fatal("a subscription outlived the lost connection without being closed")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		after, cancel := ev.Subscribe(ctx, "chat.1")
		if err := ev.Publish(ctx, "chat.1", []byte(`{"again":true}`)); err != nil {
			t.Fatal(err)
		}
		select {
		case e, ok := <-after:
			cancel()
			if ok && string(e.Payload) == `{"again":true}` {
				return
			}
		case <-time.After(300 * time.Millisecond):
			cancel()
		}
		if time.Now().After(deadline) {
			t.Fatal("no event arrived within 10 s of losing the connection")
		}
	}
}
