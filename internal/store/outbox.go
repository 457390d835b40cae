package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// Mail is one message in the outbox.
type Mail = portal.Mail

// A mail's body holds invitation, reset and e-mail change links: whoever
// reads it can sign in as the applicant. So the body is sealed, and
// dropped once the mail was delivered or its link expired (the sweep);
// the recipient, subject and times stay as the record of what was sent.

// mailBodyPlace binds a sealed body to its recipient and time: a body
// moved to another row, or a row redirected to another address, does not
// open. The row's id is not known before the insert.
func mailBodyPlace(to string, createdMS int64) string {
	return fmt.Sprintf("outbox.sealed_body/%d/%s", createdMS, to)
}

// enqueueMail queues a mail, its body sealed. linkTTL is how long the link
// in it works (0 when it holds none): after that the sweep drops the body.
func (s *conn) enqueueMail(ctx context.Context, q queryer, now time.Time, to, subject, body string, linkTTL time.Duration) error {
	if s.cfg.Sealer == nil {
		return errNoDataKey
	}
	created := ms(now)
	sealed, err := s.cfg.Sealer.SealFor([]byte(body), mailBodyPlace(to, created))
	if err != nil {
		return err
	}
	var expires any // NULL: no link, the body stays until delivered
	if linkTTL > 0 {
		expires = ms(now.Add(linkTTL))
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO outbox (to_address, subject, body, sealed_body, body_expires_at, created_at)
		VALUES ($1, $2, '', $3, $4, $5)`, to, subject, sealed, expires, created); err != nil {
		return fmt.Errorf("store: queue mail: %w", err)
	}
	return nil
}

// openMailBody is the body of a mail as queued, "" when it was dropped.
// body is the plain column, which only rows of earlier versions not yet
// converted (sealOutbox) hold.
func (s *conn) openMailBody(m *Mail, body string, sealed []byte, createdMS int64) error {
	if sealed == nil {
		m.Body, m.BodyRemoved = body, body == ""
		return nil
	}
	if s.cfg.Sealer == nil {
		return errNoDataKey
	}
	plain, err := s.cfg.Sealer.OpenFor(sealed, mailBodyPlace(m.To, createdMS))
	if err != nil {
		return fmt.Errorf("store: open the body of mail %d: %w", m.ID, err)
	}
	m.Body = string(plain)
	return nil
}

// Outbox lists the queued and sent messages, oldest first.
func (s *DB) Outbox(ctx context.Context) ([]Mail, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, to_address, subject, body, sealed_body, created_at, sent_at, attempts, last_error FROM outbox ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: outbox: %w", err)
	}
	defer rows.Close()
	var out []Mail
	for rows.Next() {
		var m Mail
		var body string
		var sealed []byte
		var created int64
		var sent sql.NullInt64
		if err := rows.Scan(&m.ID, &m.To, &m.Subject, &body, &sealed, &created, &sent, &m.Attempts, &m.LastError); err != nil {
			return nil, fmt.Errorf("store: outbox: %w", err)
		}
		if err := s.openMailBody(&m, body, sealed, created); err != nil {
			return nil, err
		}
		m.CreatedAt, m.SentAt = fromMS(created), nullTime(sent)
		out = append(out, m)
	}
	return out, rows.Err()
}

// dropExpiredMailBodies is the sweep's step for the outbox: a queued
// mail whose link expired loses its body (the row stays as the record).
// It skips rows another transaction holds, as sweepTable does.
func (s *DB) dropExpiredMailBodies(ctx context.Context, tx *sql.Tx, now time.Time) (int64, error) {
	// #nosec G202 -- skipLocked is the dialect's constant, never input
	res, err := tx.ExecContext(ctx, `UPDATE outbox SET sealed_body = NULL, body = ''
		WHERE id IN (SELECT id FROM outbox WHERE sealed_body IS NOT NULL AND body_expires_at <= $1`+s.dialect.skipLocked+`)`, ms(now))
	if err != nil {
		return 0, fmt.Errorf("store: sweep outbox bodies: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: sweep outbox bodies: %w", err)
	}
	return n, nil
}

// sealOutbox converts the mails earlier versions stored in plain text: a
// sent one loses its body, a queued one is sealed, its link taken to live
// as long as the longest link does. It runs at every start with the data
// key and finds nothing once done; each row is converted only while it is
// still plain, so instances starting together convert it once.
func (s *DB) sealOutbox(ctx context.Context) error {
	type plainMail struct {
		id, created int64
		to, body    string
		sent        bool
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, to_address, body, created_at, sent_at IS NOT NULL FROM outbox WHERE body <> ''`)
	if err != nil {
		return fmt.Errorf("store: seal outbox: %w", err)
	}
	var plain []plainMail
	for rows.Next() {
		var m plainMail
		if err := rows.Scan(&m.id, &m.to, &m.body, &m.created, &m.sent); err != nil {
			rows.Close()
			return fmt.Errorf("store: seal outbox: %w", err)
		}
		plain = append(plain, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: seal outbox: %w", err)
	}
	longest := max(s.cfg.InvitationTTL, s.cfg.ResetTTL, s.cfg.EmailChangeTTL)
	for _, m := range plain {
		var sealed, expires any // NULL for a sent mail: its body goes
		if !m.sent {
			if sealed, err = s.cfg.Sealer.SealFor([]byte(m.body), mailBodyPlace(m.to, m.created)); err != nil {
				return err
			}
			if strings.Contains(m.body, "token=") {
				expires = m.created + longest.Milliseconds()
			}
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE outbox SET body = '', sealed_body = $1, body_expires_at = $2 WHERE id = $3 AND body <> ''`,
			sealed, expires, m.id); err != nil {
			return fmt.Errorf("store: seal outbox: %w", err)
		}
	}
	if len(plain) > 0 {
		s.cfg.Logger.Info("outbox mails sealed, or their body dropped when sent", "mails", len(plain))
	}
	return nil
}
