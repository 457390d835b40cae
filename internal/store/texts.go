package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"applicantportal/internal/portal"
)

// TextOutbox lists the text messages queued, sent and given up, oldest
// first.
func (s *DB) TextOutbox(ctx context.Context) ([]portal.TextMessage, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, subject_id, to_number, body, created_at, sent_at, failed_at, provider_id, attempts, last_error
		FROM sms_outbox ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: text outbox: %w", err)
	}
	defer rows.Close()
	out := []portal.TextMessage{}
	for rows.Next() {
		var m portal.TextMessage
		var created int64
		var sent, failed sql.NullInt64
		if err := rows.Scan(&m.ID, &m.SubjectID, &m.To, &m.Body, &created, &sent, &failed, &m.ProviderID, &m.Attempts, &m.LastError); err != nil {
			return nil, fmt.Errorf("store: text outbox: %w", err)
		}
		m.CreatedAt, m.SentAt, m.FailedAt = fromMS(created), nullTime(sent), nullTime(failed)
		out = append(out, m)
	}
	return out, rows.Err()
}

// DeliverTexts sends up to batch queued texts through provider, as
// DeliverOutbox sends mail: claimed for lease first, so that servers
// delivering at once never send one text twice, sent outside any
// transaction, tried again after mailBackoff. A text the provider refuses
// for good (portal.TextRefused), or that failed portal.MaxTextAttempts
// times, is given up (failed_at).
func (s *DB) DeliverTexts(ctx context.Context, provider portal.SMSProvider, lease time.Duration, batch int) (sent, failed int, err error) {
	now := s.now()
	rows, err := s.db.QueryContext(ctx, `UPDATE sms_outbox SET claimed_until = $1
		WHERE id IN (SELECT id FROM sms_outbox
			WHERE sent_at IS NULL AND failed_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2)
			ORDER BY id LIMIT $3`+s.dialect.skipLocked+`)
		AND sent_at IS NULL AND failed_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2)
		RETURNING id, to_number, body, attempts`, ms(now.Add(lease)), ms(now), batch)
	if err != nil {
		return 0, 0, fmt.Errorf("store: claim text outbox: %w", err)
	}
	var claimed []portal.TextMessage
	for rows.Next() {
		var m portal.TextMessage
		if err := rows.Scan(&m.ID, &m.To, &m.Body, &m.Attempts); err != nil {
			rows.Close()
			return 0, 0, fmt.Errorf("store: claim text outbox: %w", err)
		}
		claimed = append(claimed, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, fmt.Errorf("store: claim text outbox: %w", err)
	}
	slices.SortFunc(claimed, func(a, b portal.TextMessage) int { return cmp.Compare(a.ID, b.ID) })
	ids := make([]string, len(claimed))
	return sendEach(ctx, len(claimed), func(i int) (err error) {
		ids[i], err = provider.SendText(ctx, claimed[i].To, claimed[i].Body)
		return err
	}, func(ctx context.Context, i int, sendErr error) error {
		return s.recordText(ctx, claimed[i], ids[i], sendErr)
	})
}

func (s *DB) recordText(ctx context.Context, m portal.TextMessage, providerID string, sendErr error) error {
	now := s.now()
	var err error
	if sendErr == nil {
		_, err = s.db.ExecContext(ctx, `UPDATE sms_outbox SET sent_at = $1, provider_id = $2, last_error = '', claimed_until = NULL WHERE id = $3`,
			ms(now), providerID, m.ID)
	} else {
		attempts := m.Attempts + 1
		var gaveUp any // NULL: tried again after the backoff
		var refused *portal.TextRefused
		if errors.As(sendErr, &refused) || attempts >= portal.MaxTextAttempts {
			gaveUp = ms(now)
		}
		_, err = s.db.ExecContext(ctx, `UPDATE sms_outbox SET attempts = $1, last_error = $2, failed_at = $3, claimed_until = $4 WHERE id = $5`,
			attempts, mailError(sendErr), gaveUp, ms(now.Add(mailBackoff(attempts))), m.ID)
	}
	if err != nil {
		return fmt.Errorf("store: record text %d: %w", m.ID, err)
	}
	return nil
}
