package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// WebhookService is portal.WebhookService on the store: the employers'
// endpoints and the deliveries of their events.
type WebhookService struct{ db *DB }

var _ portal.WebhookService = (*WebhookService)(nil)

// webhookSecretPrefix starts every signing secret, so a leaked one is easy
// to recognise.
const webhookSecretPrefix = "whsec_"

// webhookSecretPlace binds a sealed secret to its endpoint: a secret
// copied to another endpoint's row does not open.
func webhookSecretPlace(endpointID int64) string {
	return fmt.Sprintf("webhook_endpoints.sealed_secret/%d", endpointID)
}

// CreateWebhookEndpoint checks the address (portal.CheckWebhookURL, with
// Config.WebhookAllowInsecure), then stores it with a new secret sealed
// to its row.
func (s *WebhookService) CreateWebhookEndpoint(ctx context.Context, companyID int64, rawURL string) (*portal.WebhookEndpoint, string, error) {
	rawURL = strings.TrimSpace(rawURL)
	if err := portal.CheckWebhookURL(rawURL, s.db.cfg.WebhookAllowInsecure); err != nil {
		return nil, "", err
	}
	if s.db.cfg.Sealer == nil {
		return nil, "", errNoDataKey
	}
	token, _, err := newSecret()
	if err != nil {
		return nil, "", err
	}
	secret := webhookSecretPrefix + token
	e := &portal.WebhookEndpoint{CompanyID: companyID, URL: rawURL, CreatedAt: fromMS(ms(s.db.now()))}
	err = s.db.tx(ctx, func(tx *sql.Tx) error {
		var one int
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM companies WHERE id = $1`, companyID).Scan(&one); err != nil {
			return notFound(err, "Company")
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO webhook_endpoints (company_id, url, created_at) VALUES ($1, $2, $3) RETURNING id`,
			companyID, rawURL, ms(e.CreatedAt)).Scan(&e.ID); err != nil {
			return fmt.Errorf("store: create webhook endpoint: %w", err)
		}
		sealed, err := s.db.cfg.Sealer.SealFor([]byte(secret), webhookSecretPlace(e.ID))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET sealed_secret = $1 WHERE id = $2`, sealed, e.ID); err != nil {
			return fmt.Errorf("store: create webhook endpoint: %w", err)
		}
		return s.db.auditCompany(ctx, tx, companyID, "webhook.added", fmt.Sprintf("endpoint %d: %s", e.ID, rawURL))
	})
	if err != nil {
		return nil, "", err
	}
	return e, secret, nil
}

// FindWebhookEndpoints lists the endpoints oldest first.
func (s *WebhookService) FindWebhookEndpoints(ctx context.Context, companyID int64) ([]portal.WebhookEndpoint, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT id, company_id, url, created_at, removed_at FROM webhook_endpoints
		WHERE CAST($1 AS BIGINT) = 0 OR company_id = $1 ORDER BY id`, companyID)
	if err != nil {
		return nil, fmt.Errorf("store: list webhook endpoints: %w", err)
	}
	defer rows.Close()
	out := []portal.WebhookEndpoint{}
	for rows.Next() {
		var e portal.WebhookEndpoint
		var created int64
		var removed sql.NullInt64
		if err := rows.Scan(&e.ID, &e.CompanyID, &e.URL, &created, &removed); err != nil {
			return nil, fmt.Errorf("store: list webhook endpoints: %w", err)
		}
		e.CreatedAt, e.RemovedAt = fromMS(created), nullTime(removed)
		out = append(out, e)
	}
	return out, rows.Err()
}

// RemoveWebhookEndpoint marks the endpoint removed and cancels its pending
// deliveries; removing it again keeps the first time. Its secret goes: a
// removed endpoint is never signed for again.
func (s *WebhookService) RemoveWebhookEndpoint(ctx context.Context, companyID, endpointID int64) error {
	return s.db.tx(ctx, func(tx *sql.Tx) error {
		now := ms(s.db.now())
		var owner int64
		err := tx.QueryRowContext(ctx, `UPDATE webhook_endpoints SET removed_at = COALESCE(removed_at, $1), sealed_secret = NULL
			WHERE id = $2 AND (CAST($3 AS BIGINT) = 0 OR company_id = $3) RETURNING company_id`, now, endpointID, companyID).Scan(&owner)
		if err != nil {
			return notFound(err, "Webhook endpoint")
		}
		if err := s.db.auditCompany(ctx, tx, owner, "webhook.removed", fmt.Sprintf("endpoint %d", endpointID)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET state = $1, claimed_until = NULL WHERE endpoint_id = $2 AND state = $3`,
			portal.WebhookCancelled, endpointID, portal.WebhookPending); err != nil {
			return fmt.Errorf("store: remove webhook endpoint: %w", err)
		}
		return nil
	})
}

// FindWebhookDeliveries lists deliveries newest first with their attempts
// oldest first.
func (s *WebhookService) FindWebhookDeliveries(ctx context.Context, f portal.WebhookDeliveryFilter) ([]portal.WebhookDelivery, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = portal.DefaultWebhookDeliveryLimit
	}
	if f.EndpointID != 0 {
		// Another company's endpoint is not found, rather than empty.
		var one int
		if err := s.db.db.QueryRowContext(ctx, `SELECT 1 FROM webhook_endpoints WHERE id = $1 AND (CAST($2 AS BIGINT) = 0 OR company_id = $2)`,
			f.EndpointID, f.CompanyID).Scan(&one); err != nil {
			return nil, notFound(err, "Webhook endpoint")
		}
	}
	rows, err := s.db.db.QueryContext(ctx, `SELECT d.id, d.endpoint_id, e.url, d.event_id, v.type, v.subject_id, d.state, d.last_status,
			d.last_error, d.next_attempt_at, d.created_at, d.delivered_at
		FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events v ON v.id = d.event_id
		WHERE (CAST($1 AS BIGINT) = 0 OR e.company_id = $1) AND (CAST($2 AS BIGINT) = 0 OR d.endpoint_id = $2)
		ORDER BY d.id DESC LIMIT $3`, f.CompanyID, f.EndpointID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list webhook deliveries: %w", err)
	}
	out := []portal.WebhookDelivery{}
	byID := map[int64]int{}
	for rows.Next() {
		var d portal.WebhookDelivery
		var eventID, next, created int64
		var delivered sql.NullInt64
		if err := rows.Scan(&d.ID, &d.EndpointID, &d.URL, &eventID, &d.EventType, &d.SubjectID, &d.State, &d.LastStatus,
			&d.LastError, &next, &created, &delivered); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: list webhook deliveries: %w", err)
		}
		d.EventID, d.CreatedAt, d.DeliveredAt = webhookEventID(eventID), fromMS(created), nullTime(delivered)
		if d.State == portal.WebhookPending {
			t := fromMS(next)
			d.NextAttemptAt = &t
		}
		d.Attempts = []portal.WebhookAttempt{}
		byID[d.ID] = len(out)
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list webhook deliveries: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	// The listed deliveries are the newest ones: their attempts are among
	// those from the oldest listed to the newest.
	attempts, err := s.db.db.QueryContext(ctx, `SELECT delivery_id, attempted_at, status, error, duration_ms FROM webhook_attempts
		WHERE delivery_id >= $1 AND delivery_id <= $2 ORDER BY id`, out[len(out)-1].ID, out[0].ID)
	if err != nil {
		return nil, fmt.Errorf("store: list webhook attempts: %w", err)
	}
	defer attempts.Close()
	for attempts.Next() {
		var a portal.WebhookAttempt
		var deliveryID, at, took int64
		if err := attempts.Scan(&deliveryID, &at, &a.Status, &a.Error, &took); err != nil {
			return nil, fmt.Errorf("store: list webhook attempts: %w", err)
		}
		if i, ok := byID[deliveryID]; ok {
			a.At, a.Duration = fromMS(at), time.Duration(took)*time.Millisecond
			out[i].Attempts = append(out[i].Attempts, a)
		}
	}
	return out, attempts.Err()
}

// RetryWebhookDelivery makes a failed or cancelled delivery due now, for
// one more attempt; its endpoint must not be removed.
func (s *WebhookService) RetryWebhookDelivery(ctx context.Context, companyID, deliveryID int64) error {
	now := ms(s.db.now())
	return s.db.tx(ctx, func(tx *sql.Tx) error {
		var state string
		var removed sql.NullInt64
		var owner, endpointID int64
		err := tx.QueryRowContext(ctx, `SELECT d.state, e.removed_at, e.company_id, e.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
			WHERE d.id = $1 AND (CAST($2 AS BIGINT) = 0 OR e.company_id = $2)`, deliveryID, companyID).Scan(&state, &removed, &owner, &endpointID)
		switch {
		case err != nil:
			return notFound(err, "Webhook delivery")
		case removed.Valid:
			return portal.Errorf(portal.ECONFLICT, "The delivery's endpoint was removed; register it again to receive new events.")
		case state == portal.WebhookDelivered:
			return portal.Errorf(portal.ECONFLICT, "The delivery was delivered already.")
		}
		res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET state = $1, next_attempt_at = $2, claimed_until = NULL
			WHERE id = $3 AND state <> $4`, portal.WebhookPending, now, deliveryID, portal.WebhookDelivered)
		if err != nil {
			return fmt.Errorf("store: retry webhook delivery: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // delivered meanwhile: nothing changed
		}
		return s.db.auditCompany(ctx, tx, owner, "webhook.retried", fmt.Sprintf("delivery %d to endpoint %d", deliveryID, endpointID))
	})
}

// webhookEventID is how receivers know an event, the same on every
// attempt so that they can drop a repeat.
func webhookEventID(eventID int64) string { return fmt.Sprintf("evt_%d", eventID) }

// queueWebhook records an event for the employer's systems in the
// transaction of what it tells, with one delivery for each of the
// company's endpoints not removed, due now. data is the event's own
// fields; the envelope (id, type, time, applicant) is added on delivery.
func (s *conn) queueWebhook(ctx context.Context, q queryer, subjectID int64, eventType string, data any) error {
	payload, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("store: webhook %s: %w", eventType, err)
	}
	now := ms(s.now())
	var eventID, companyID int64
	if err := q.QueryRowContext(ctx, `INSERT INTO webhook_events (company_id, subject_id, type, payload, created_at)
		VALUES ((SELECT company_id FROM subjects WHERE id = $1), $1, $2, $3, $4) RETURNING id, company_id`,
		subjectID, eventType, string(payload), now).Scan(&eventID, &companyID); err != nil {
		return fmt.Errorf("store: webhook %s: %w", eventType, err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at, created_at)
		SELECT $1, id, $2, $2 FROM webhook_endpoints WHERE company_id = $3 AND removed_at IS NULL`, eventID, now, companyID); err != nil {
		return fmt.Errorf("store: webhook %s deliveries: %w", eventType, err)
	}
	return nil
}

// webhookBody is what an endpoint receives.
type webhookBody struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	CreatedAt   string          `json:"createdAt"`
	ApplicantID int64           `json:"applicantId"`
	Data        json.RawMessage `json:"data"`
}

// claimedDelivery is a delivery a worker claimed, with what it sends.
type claimedDelivery struct {
	id, attempts int64
	message      portal.WebhookMessage
	unopened     error // the secret did not open: a failed attempt
}

// DeliverWebhooks sends up to batch due deliveries through sender and
// answers how many were delivered and how many failed. As DeliverOutbox
// does, it claims them for lease first in one conditional update, so
// servers delivering at once never send one delivery twice at the same
// time, and sends outside any transaction. Every attempt is recorded; a
// failed one waits portal.WebhookBackoff with up to a fifth more of
// jitter, so that the deliveries an outage failed together do not come
// back together, and the delivery fails after portal.MaxWebhookAttempts.
// lease must be longer than a batch's sends can take.
func (s *DB) DeliverWebhooks(ctx context.Context, sender portal.WebhookSender, lease time.Duration, batch int) (sent, failed int, err error) {
	now := s.now()
	rows, err := s.db.QueryContext(ctx, `UPDATE webhook_deliveries SET claimed_until = $1
		WHERE id IN (SELECT id FROM webhook_deliveries
			WHERE state = $2 AND next_attempt_at <= $3 AND (claimed_until IS NULL OR claimed_until <= $3)
			ORDER BY id LIMIT $4`+s.dialect.skipLocked+`)
		AND state = $2 AND (claimed_until IS NULL OR claimed_until <= $3)
		RETURNING id, event_id, endpoint_id, attempts`,
		ms(now.Add(lease)), portal.WebhookPending, ms(now), batch)
	if err != nil {
		return 0, 0, fmt.Errorf("store: claim webhook deliveries: %w", err)
	}
	type claim struct{ id, eventID, endpointID, attempts int64 }
	var claims []claim
	for rows.Next() {
		var c claim
		if err := rows.Scan(&c.id, &c.eventID, &c.endpointID, &c.attempts); err != nil {
			rows.Close()
			return 0, 0, fmt.Errorf("store: claim webhook deliveries: %w", err)
		}
		claims = append(claims, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, fmt.Errorf("store: claim webhook deliveries: %w", err)
	}
	// RETURNING has no order; the oldest delivery goes first.
	slices.SortFunc(claims, func(a, b claim) int { return cmp.Compare(a.id, b.id) })
	var d claimedDelivery
	var status int
	var started time.Time
	return sendEach(ctx, len(claims), func(i int) (err error) {
		c := claims[i]
		// A delivery that cannot be read or signed is a failed attempt,
		// with its error in the listing.
		if d, err = s.webhookMessage(ctx, c.id, c.eventID, c.endpointID); err == nil {
			err = d.unopened
		}
		d.attempts, started, status = c.attempts, time.Now(), 0
		if err != nil {
			return err
		}
		status, err = sender.SendWebhook(ctx, d.message)
		return err
	}, func(ctx context.Context, i int, sendErr error) error {
		return s.recordWebhookAttempt(ctx, d, status, sendErr, time.Since(started))
	})
}

// webhookMessage reads what a claimed delivery sends: its event in the
// envelope, and its endpoint's address and secret.
func (s *DB) webhookMessage(ctx context.Context, deliveryID, eventID, endpointID int64) (claimedDelivery, error) {
	d := claimedDelivery{id: deliveryID}
	var b webhookBody
	var payload string
	var created int64
	var sealed []byte
	err := s.db.QueryRowContext(ctx, `SELECT v.type, v.subject_id, v.payload, v.created_at, e.url, e.sealed_secret
		FROM webhook_events v, webhook_endpoints e WHERE v.id = $1 AND e.id = $2`, eventID, endpointID).
		Scan(&b.Type, &b.ApplicantID, &payload, &created, &d.message.URL, &sealed)
	if err != nil {
		return d, fmt.Errorf("store: read webhook delivery %d: %w", deliveryID, err)
	}
	b.ID, b.CreatedAt, b.Data = webhookEventID(eventID), fromMS(created).Format(time.RFC3339), json.RawMessage(payload)
	if d.message.Body, err = json.Marshal(b); err != nil {
		return d, fmt.Errorf("store: webhook delivery %d: %w", deliveryID, err)
	}
	d.message.EventID, d.message.EventType = b.ID, b.Type
	switch {
	case sealed == nil:
		d.unopened = fmt.Errorf("the endpoint has no secret (removed)")
	case s.cfg.Sealer == nil:
		d.unopened = errNoDataKey
	default:
		secret, err := s.cfg.Sealer.OpenFor(sealed, webhookSecretPlace(endpointID))
		if err != nil {
			d.unopened = fmt.Errorf("the endpoint's secret does not open: %w", err)
		}
		d.message.Secret = string(secret)
	}
	return d, nil
}

// recordWebhookAttempt writes the attempt and moves the delivery on:
// delivered, due again after the backoff, or failed.
func (s *DB) recordWebhookAttempt(ctx context.Context, d claimedDelivery, status int, sendErr error, took time.Duration) error {
	now := s.now()
	msg := ""
	if sendErr != nil {
		msg = mailError(sendErr)
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, attempted_at, status, error, duration_ms) VALUES ($1, $2, $3, $4, $5)`,
			d.id, ms(now), status, msg, took.Milliseconds()); err != nil {
			return fmt.Errorf("store: record webhook attempt: %w", err)
		}
		var err error
		if sendErr == nil {
			_, err = tx.ExecContext(ctx, `UPDATE webhook_deliveries SET state = $1, delivered_at = $2, last_status = $3, last_error = '',
				claimed_until = NULL WHERE id = $4`, portal.WebhookDelivered, ms(now), status, d.id)
		} else {
			attempts := d.attempts + 1
			state := portal.WebhookPending
			if attempts >= portal.MaxWebhookAttempts {
				state = portal.WebhookFailed
			}
			wait := portal.WebhookBackoff(int(attempts))
			wait += time.Duration(rand.Int64N(int64(wait)/5 + 1)) // #nosec G404 -- jitter for retries, not a secret
			_, err = tx.ExecContext(ctx, `UPDATE webhook_deliveries SET state = $1, attempts = $2, last_status = $3, last_error = $4,
				next_attempt_at = $5, claimed_until = NULL WHERE id = $6 AND state = $7`,
				state, attempts, status, msg, ms(now.Add(wait)), d.id, portal.WebhookPending)
		}
		if err != nil {
			return fmt.Errorf("store: record webhook attempt: %w", err)
		}
		return nil
	})
}
