package portal

import "context"

// Limits of one event. PostgreSQL carries events with NOTIFY, whose
// payload must be shorter than 8000 bytes; the topic travels with it. The
// same limits hold on SQLite, so what works on one database works on the
// other. An event is a notice ("chat message 12 arrived"), not the data
// itself: a subscriber reads the data from the store.
const (
	MaxEventTopicLength = 200
	MaxEventPayload     = 7680
)

// Event is one published event. Payload is JSON.
type Event struct {
	Topic   string
	Payload []byte
}

// Events carries events (chat messages, status changes) from the process
// that publishes them to every subscriber of their topic, in this process
// or, on PostgreSQL, in any process sharing the database.
//
// Delivery is at most once. A subscription's channel closes when its
// context ends or cancel is called, and also when events may have been
// missed: the subscriber fell too far behind, or the connection that
// carries events across processes was lost. A subscriber therefore
// subscribes first, then reads the state it shows, and on a closed
// channel subscribes and reads again (a server-sent event stream ends
// and the browser reconnects).
type Events interface {
	// Publish sends payload to the topic's subscribers. A topic of more
	// than MaxEventTopicLength bytes or a payload of more than
	// MaxEventPayload bytes is ETOOLARGE; a payload that is not JSON is
	// EINVALID.
	Publish(ctx context.Context, topic string, payload []byte) error
	// Subscribe receives the topic's events published from now on.
	Subscribe(ctx context.Context, topic string) (events <-chan Event, cancel func())
}
