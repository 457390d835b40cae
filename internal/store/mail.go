package store

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// The outbox of the portal's e-mails; their texts, in each language, are
// in messages.go.

// portalLink is base followed by path and, when given, the token.
func portalLink(base, path, token string) string {
	link := strings.TrimRight(base, "/") + path
	if token != "" {
		link += "?token=" + url.QueryEscape(token)
	}
	return link
}

// MaxMailAttempts is how many failed deliveries a mail gets before the
// outbox gives up on it; `portal outbox` still lists it with its error.
const MaxMailAttempts = 10

// mailBackoff is how long a mail waits after its attempts-th failure:
// 2, 4, 8 ... minutes, at most an hour.
func mailBackoff(attempts int) time.Duration {
	if attempts >= 6 {
		return time.Hour
	}
	return time.Minute << attempts
}

// DeliverOutbox sends up to batch queued mails through mailer and answers
// how many were sent and how many failed. It claims the mails for lease
// first, in one conditional update, so processes delivering at the same
// time never send one mail twice; the sending happens outside any
// transaction. A mail whose send fails waits mailBackoff before it is
// tried again, and is given up after MaxMailAttempts. lease must be longer
// than a send can take (the mailer's timeout), or a slow send may be
// claimed again and repeated.
func (s *DB) DeliverOutbox(ctx context.Context, mailer portal.Mailer, lease time.Duration, batch int) (sent, failed int, err error) {
	now := s.now()
	// PostgreSQL: SKIP LOCKED lets a second process pass over the rows the
	// first is claiming instead of waiting for them; the repeated
	// condition re-checks a row that changed while it waited. SQLite runs
	// the statement alone.
	rows, err := s.db.QueryContext(ctx, `UPDATE outbox SET claimed_until = $1
		WHERE id IN (SELECT id FROM outbox
			WHERE sent_at IS NULL AND attempts < $2 AND (claimed_until IS NULL OR claimed_until <= $3)
			AND (sealed_body IS NOT NULL OR body <> '')
			ORDER BY id LIMIT $4`+s.dialect.skipLocked+`)
		AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $3)
		RETURNING id, to_address, subject, body, sealed_body, created_at, attempts`,
		ms(now.Add(lease)), MaxMailAttempts, ms(now), batch)
	if err != nil {
		return 0, 0, fmt.Errorf("store: claim outbox: %w", err)
	}
	// A mail whose body was dropped (its link expired before it could be
	// delivered) is not claimed: there is nothing worth sending.
	var claimed []Mail
	var unopened []error
	for rows.Next() {
		var m Mail
		var body string
		var sealed []byte
		var created int64
		if err := rows.Scan(&m.ID, &m.To, &m.Subject, &body, &sealed, &created, &m.Attempts); err != nil {
			rows.Close()
			return 0, 0, fmt.Errorf("store: claim outbox: %w", err)
		}
		unopened = append(unopened, s.openMailBody(&m, body, sealed, created))
		claimed = append(claimed, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, fmt.Errorf("store: claim outbox: %w", err)
	}
	// RETURNING has no order; the oldest mail goes first.
	order := make([]int, len(claimed))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(claimed[a].ID, claimed[b].ID) })
	return sendEach(ctx, len(order), func(k int) error {
		// A body that does not open (altered, another key) counts as a
		// failed attempt, with its error in the outbox.
		if err := unopened[order[k]]; err != nil {
			return err
		}
		return mailer.Send(ctx, claimed[order[k]])
	}, func(ctx context.Context, k int, sendErr error) error {
		return s.recordDelivery(ctx, claimed[order[k]], sendErr)
	})
}

// sendEach is the sending half of an outbox's worker: it sends the n
// items it claimed one after another and records each outcome, counting
// them. When ctx ends during a send (shutting down) it stops without
// recording it: the claim runs out and the item is sent later, without a
// failure that was not the other side's. An outcome is recorded even when
// ctx ends then: a sent item left unrecorded would be sent again.
func sendEach(ctx context.Context, n int, send func(i int) error, record func(ctx context.Context, i int, sendErr error) error) (sent, failed int, err error) {
	for i := range n {
		sendErr := send(i)
		if sendErr != nil && ctx.Err() != nil {
			return sent, failed, nil
		}
		rec, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		err := record(rec, i, sendErr)
		cancel()
		if err != nil {
			return sent, failed, err
		}
		if sendErr != nil {
			failed++
		} else {
			sent++
		}
	}
	return sent, failed, nil
}

func (s *DB) recordDelivery(ctx context.Context, m Mail, sendErr error) error {
	now := s.now()
	var err error
	if sendErr == nil {
		// The body goes with the delivery: the relay and the mailbox have
		// it now, and the link in it must not outlive it here.
		_, err = s.db.ExecContext(ctx, `UPDATE outbox SET sent_at = $1, claimed_until = NULL, last_error = '', sealed_body = NULL, body = '' WHERE id = $2`, ms(now), m.ID)
	} else {
		attempts := m.Attempts + 1
		_, err = s.db.ExecContext(ctx, `UPDATE outbox SET attempts = $1, last_error = $2, claimed_until = $3 WHERE id = $4`,
			attempts, mailError(sendErr), ms(now.Add(mailBackoff(attempts))), m.ID)
	}
	if err != nil {
		return fmt.Errorf("store: record delivery of mail %d: %w", m.ID, err)
	}
	return nil
}

// mailError is what the outbox keeps of a failed send: one line, short
// enough to list.
func mailError(err error) string {
	msg := strings.Join(strings.Fields(err.Error()), " ")
	if len(msg) > 500 {
		msg = strings.ToValidUTF8(msg[:500], "") + "..."
	}
	return msg
}
