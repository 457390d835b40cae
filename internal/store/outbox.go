package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"applicantportal/internal/portal"
)

// Mail is one message in the outbox.
type Mail = portal.Mail

func enqueueMail(ctx context.Context, q queryer, now time.Time, to, subject, body string) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO outbox (to_address, subject, body, created_at) VALUES ($1, $2, $3, $4)`,
		to, subject, body, ms(now)); err != nil {
		return fmt.Errorf("store: queue mail: %w", err)
	}
	return nil
}

// Outbox lists the queued and sent messages, oldest first.
func (s *DB) Outbox(ctx context.Context) ([]Mail, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, to_address, subject, body, created_at, sent_at, attempts, last_error FROM outbox ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: outbox: %w", err)
	}
	defer rows.Close()
	var out []Mail
	for rows.Next() {
		var m Mail
		var created int64
		var sent sql.NullInt64
		if err := rows.Scan(&m.ID, &m.To, &m.Subject, &m.Body, &created, &sent, &m.Attempts, &m.LastError); err != nil {
			return nil, fmt.Errorf("store: outbox: %w", err)
		}
		m.CreatedAt, m.SentAt = fromMS(created), nullTime(sent)
		out = append(out, m)
	}
	return out, rows.Err()
}
