package store

import (
	"context"
	"time"
)

// EnqueueMailForTest queues a mail as the services do, for tests of its
// delivery.
func (s *DB) EnqueueMailForTest(ctx context.Context, to, subject, body string) error {
	return s.enqueueMail(ctx, s.db, s.now(), to, subject, body, 0)
}

// MailBackoffForTest is how long a mail waits after its attempts-th failure.
func MailBackoffForTest(attempts int) time.Duration { return mailBackoff(attempts) }
