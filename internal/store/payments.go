package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"applicantportal/internal/address"
	"applicantportal/internal/portal"
)

// PaymentService takes the self-pay hold (portal.PaymentService).
//
// Each attempt is a payments row keyed by the client's idempotency key,
// written before the processor is called (pending) and settled after it
// answers. The processor is called outside any transaction: it may take
// seconds, and the sandbox writes to this database (SQLite has one
// writer). A pending row whose answer never came is settled later by
// asking the processor about its key (Lookup), so a retry with a new key
// never places a second hold.
type PaymentService struct {
	*conn
	processor portal.PaymentProcessor
	// timeout bounds one call to the processor.
	timeout time.Duration
}

var _ portal.PaymentService = (*PaymentService)(nil)

// Payments returns the self-pay service.
func (db *DB) Payments(p portal.PaymentProcessor, timeout time.Duration) *PaymentService {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	return &PaymentService{db.conn, p, timeout}
}

// Messages of the self-pay step.
const (
	msgPaymentTimeout    = "The payment processor did not answer in time. Please try again: you will not be charged twice."
	msgPaymentProcessing = "Your earlier payment attempt is still being processed. Please wait a moment and try again."
	msgPaymentUpstream   = "The payment processor could not take the payment. Please try again: you will not be charged twice."
	msgPaymentNotDue     = "Payment is not due at this step of your screening."
	msgPaymentExempt     = "Your state of residence does not allow charging you for your screening: no payment is needed."
	msgPaymentNone       = "No payment is required for your screening."
)

// Payment attempt statuses (payments.status).
const (
	paymentPending    = "pending"
	paymentAuthorized = "authorized"
	paymentDeclined   = "declined"
	paymentFailed     = "failed"
)

// SelfPay answers what the applicant owes and has paid.
func (s *PaymentService) SelfPay(ctx context.Context, subjectID int64) (*portal.SelfPay, error) {
	return s.selfPay(ctx, s.db, subjectID)
}

// selfPay is what the applicant owes, as portal.Finalization decides it
// for statusFacts too, and what they paid.
func (s *conn) selfPay(ctx context.Context, q queryer, subjectID int64) (*portal.SelfPay, error) {
	_, fin, err := s.finalization(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	sp := &portal.SelfPay{Required: fin.PaymentRequired(), ExemptState: fin.ExemptState(), Amount: portal.Money{Currency: "USD"}}
	if pkg := fin.Package; pkg != nil {
		amount, ok := portal.ParseMoney(pkg.SelfPayInitialHoldAmt, "USD")
		if !ok && pkg.PaymentRequired() {
			return nil, fmt.Errorf("store: package %d: the hold amount %q is not an amount", pkg.ID, pkg.SelfPayInitialHoldAmt)
		}
		if ok {
			sp.Amount = amount
		}
	}
	if sp.Authorization, err = findAuthorization(ctx, q, subjectID); err != nil {
		return nil, err
	}
	return sp, nil
}

func findAuthorization(ctx context.Context, q queryer, subjectID int64) (*portal.Authorization, error) {
	var a portal.Authorization
	var at int64
	err := q.QueryRowContext(ctx, `SELECT authorization_id, amount_cents, currency, last4, brand, updated_at
		FROM payments WHERE subject_id = $1 AND status = $2`, subjectID, paymentAuthorized).
		Scan(&a.ID, &a.Amount.Cents, &a.Amount.Currency, &a.Last4, &a.Brand, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: find authorization: %w", err)
	}
	a.AuthorizedAt = fromMS(at)
	return &a, nil
}

// paymentAttempt is one payments row as Authorize works on it.
type paymentAttempt struct {
	id  int64
	key string
	// updatedAt is when the attempt was last sent; wasPending says it was
	// sent before without an answer (a timeout).
	updatedAt  int64
	wasPending bool
}

// paymentPlan is what Authorize found under the subject's lock.
type paymentPlan struct {
	authorized *portal.Authorization
	amount     portal.Money
	// others are pending attempts with other keys: their fate must be
	// known before this one is sent.
	others []paymentAttempt
	// attempt is this key's row, claimed (pending) when others is empty.
	attempt paymentAttempt
}

// Authorize takes the hold (portal.PaymentService).
func (s *PaymentService) Authorize(ctx context.Context, subjectID int64, req portal.PaymentRequest) (*portal.Authorization, error) {
	if err := validatePaymentRequest(&req); err != nil {
		return nil, err
	}
	var plan *paymentPlan
	// Earlier unanswered attempts are settled one round at a time; a
	// concurrent request may add one meanwhile, hence a few rounds.
	for round := 0; ; round++ {
		var err error
		if plan, err = s.plan(ctx, subjectID, req.IdempotencyKey); err != nil {
			return nil, err
		}
		if plan.authorized != nil {
			return plan.authorized, nil
		}
		if len(plan.others) == 0 {
			break
		}
		if round == 2 {
			return nil, portal.Errorf(portal.ECONFLICT, msgPaymentProcessing)
		}
		for _, o := range plan.others {
			a, err := s.settle(ctx, subjectID, o)
			if err != nil || a != nil {
				return a, err
			}
		}
	}
	pctx, cancel := context.WithTimeout(ctx, s.timeout)
	auth, err := s.processor.Authorize(pctx, portal.AuthorizeRequest{IdempotencyKey: processorKey(subjectID, req.IdempotencyKey),
		Amount: plan.amount, Card: req.Card, Reference: paymentReference(subjectID)})
	timedOut := pctx.Err() != nil
	cancel()
	// The answer is recorded even when the applicant has gone: a hold
	// that was placed must not be forgotten.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err == nil {
		return s.recordAuthorized(rctx, subjectID, plan.attempt.id, auth)
	}
	switch code := portal.ErrorCode(err); {
	case code == portal.EDECLINED:
		return nil, firstError(s.markAttempt(rctx, subjectID, plan.attempt, paymentDeclined, err), err)
	case code == portal.EINVALID && !plan.attempt.wasPending:
		// The processor refused the card before taking it. A row sent
		// before without an answer stays pending: that first attempt may
		// hold the amount.
		return nil, firstError(s.markAttempt(rctx, subjectID, plan.attempt, paymentFailed, err), err)
	case code == portal.EINVALID, code == portal.ECONFLICT:
		return nil, err
	case code == portal.ETIMEOUT || timedOut || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return nil, portal.Errorf(portal.ETIMEOUT, msgPaymentTimeout)
	default:
		s.cfg.Logger.ErrorContext(ctx, "payment processor failed", slog.Int64("subject", subjectID),
			slog.Int64("payment", plan.attempt.id), slog.Any("err", err))
		return nil, portal.Errorf(portal.EUPSTREAM, msgPaymentUpstream)
	}
}

// plan reads, under the subject's lock, whether the applicant has paid,
// owes and may pay now, and which attempts are unsettled; when none with
// another key is, it claims this key's row (pending, sent now).
func (s *PaymentService) plan(ctx context.Context, subjectID int64, key string) (*paymentPlan, error) {
	plan := &paymentPlan{}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		status, err := s.lockSubject(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		sp, err := s.selfPay(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if plan.authorized = sp.Authorization; plan.authorized != nil {
			return nil
		}
		switch {
		case sp.ExemptState != "":
			return portal.Errorf(portal.ECONFLICT, msgPaymentExempt)
		case !sp.Required:
			return portal.Errorf(portal.ECONFLICT, msgPaymentNone)
		case status != portal.StatusSelfPayRequired:
			return portal.Errorf(portal.ECONFLICT, msgPaymentNotDue)
		}
		plan.amount = sp.Amount
		rows, err := tx.QueryContext(ctx, `SELECT id, idempotency_key, updated_at FROM payments
			WHERE subject_id = $1 AND status = $2 AND idempotency_key <> $3 ORDER BY id`, subjectID, paymentPending, key)
		if err != nil {
			return fmt.Errorf("store: pending payments: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			a := paymentAttempt{wasPending: true}
			if err := rows.Scan(&a.id, &a.key, &a.updatedAt); err != nil {
				return fmt.Errorf("store: pending payments: %w", err)
			}
			plan.others = append(plan.others, a)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("store: pending payments: %w", err)
		}
		if len(plan.others) > 0 {
			return nil
		}
		return s.claimAttempt(ctx, tx, subjectID, key, sp.Amount, &plan.attempt)
	})
	if err != nil {
		return nil, err
	}
	return plan, nil
}

// claimAttempt makes this key's row pending as of now, inserting it the
// first time the key is seen.
func (s *PaymentService) claimAttempt(ctx context.Context, tx *sql.Tx, subjectID int64, key string, amount portal.Money, a *paymentAttempt) error {
	now := ms(s.now())
	var status string
	err := tx.QueryRowContext(ctx, `SELECT id, status FROM payments WHERE subject_id = $1 AND idempotency_key = $2`,
		subjectID, key).Scan(&a.id, &status)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		err = tx.QueryRowContext(ctx, `INSERT INTO payments (subject_id, idempotency_key, status, amount_cents, currency, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`, subjectID, key, paymentPending, amount.Cents, amount.Currency, now).Scan(&a.id)
		if err != nil {
			return fmt.Errorf("store: add payment: %w", err)
		}
	case err != nil:
		return fmt.Errorf("store: find payment: %w", err)
	default:
		a.wasPending = status == paymentPending
		if _, err := tx.ExecContext(ctx, `UPDATE payments SET status = $1, amount_cents = $2, currency = $3, error = '', updated_at = $4
			WHERE id = $5`, paymentPending, amount.Cents, amount.Currency, now, a.id); err != nil {
			return fmt.Errorf("store: retry payment: %w", err)
		}
	}
	a.key, a.updatedAt = key, now
	return nil
}

// settle asks the processor what became of an unanswered attempt with
// another key, and records it. It answers the authorization when that
// attempt placed the hold; nil when it did not (the new attempt may go
// on); ECONFLICT while it may still be under way.
func (s *PaymentService) settle(ctx context.Context, subjectID int64, a paymentAttempt) (*portal.Authorization, error) {
	lctx, cancel := context.WithTimeout(ctx, s.timeout)
	auth, err := s.processor.Lookup(lctx, processorKey(subjectID, a.key))
	timedOut := lctx.Err() != nil
	cancel()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err == nil {
		return s.recordAuthorized(rctx, subjectID, a.id, auth)
	}
	// An attempt sent moments ago may not have reached the processor
	// yet: it is not called lost until its call has surely ended.
	inFlight := s.now().Before(fromMS(a.updatedAt).Add(s.pendingGrace()))
	switch code := portal.ErrorCode(err); {
	case code == portal.ENOTFOUND && !inFlight:
		return nil, s.markAttempt(rctx, subjectID, a, paymentFailed, portal.Errorf(portal.ENOTFOUND, "The processor never took this attempt."))
	case code == portal.EDECLINED:
		return nil, s.markAttempt(rctx, subjectID, a, paymentDeclined, err)
	case code == portal.ENOTFOUND, code == portal.ECONFLICT:
		return nil, portal.Errorf(portal.ECONFLICT, msgPaymentProcessing)
	case code == portal.ETIMEOUT || timedOut:
		return nil, portal.Errorf(portal.ETIMEOUT, msgPaymentTimeout)
	default:
		s.cfg.Logger.ErrorContext(ctx, "payment processor lookup failed", slog.Int64("subject", subjectID),
			slog.Int64("payment", a.id), slog.Any("err", err))
		return nil, portal.Errorf(portal.EUPSTREAM, msgPaymentUpstream)
	}
}

// firstError is the first error that is not nil.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// pendingGrace is how long after an attempt was sent its call to the
// processor may still be under way (its timeout), with a margin for
// recording the answer.
func (s *PaymentService) pendingGrace() time.Duration { return s.timeout + 10*time.Second }

// markAttempt records a definite answer other than a hold: cause, whose
// messages only are kept (they never hold the card). Like every write of
// payments it holds the subject's lock, so that plan's reads under that
// lock see every attempt as settled or not, never half-way.
func (s *PaymentService) markAttempt(ctx context.Context, subjectID int64, a paymentAttempt, status string, cause error) error {
	text := portal.ErrorMessage(cause)
	var pe *portal.Error
	if errors.As(cause, &pe) {
		for _, f := range pe.Fields {
			text += " " + f.Field + ": " + f.Message
		}
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		// Only the attempt as it was sent: a retry with the same key
		// since then is its own attempt.
		if _, err := tx.ExecContext(ctx, `UPDATE payments SET status = $1, error = $2, updated_at = $3
			WHERE id = $4 AND status = $5 AND updated_at = $6`, status, text, ms(s.now()), a.id, paymentPending, a.updatedAt); err != nil {
			return fmt.Errorf("store: settle payment: %w", err)
		}
		return nil
	})
}

// errSecondHold ends the transaction recording a hold when the applicant
// already has one.
var errSecondHold = errors.New("store: a second hold")

// recordAuthorized records the hold the processor placed for an attempt,
// under the subject's lock (see markAttempt). The index
// payments_one_authorized keeps a second hold from being recorded: that
// one is answered with the first, and left for the operator to void (it
// is logged).
func (s *PaymentService) recordAuthorized(ctx context.Context, subjectID, paymentID int64, a *portal.Authorization) (*portal.Authorization, error) {
	now := ms(s.now())
	var recorded *portal.Authorization
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		first, err := findAuthorization(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if first != nil && first.ID != a.ID {
			recorded = first
			return errSecondHold
		}
		_, err = tx.ExecContext(ctx, `UPDATE payments SET status = $1, authorization_id = $2, amount_cents = $3, currency = $4,
			last4 = $5, brand = $6, error = '', updated_at = $7 WHERE id = $8 AND status <> $1`,
			paymentAuthorized, a.ID, a.Amount.Cents, a.Amount.Currency, a.Last4, a.Brand, now, paymentID)
		if s.dialect.isUnique(err) {
			// Only without the lock (an older version) could this happen.
			return errSecondHold
		} else if err != nil {
			return fmt.Errorf("store: record authorization: %w", err)
		}
		recorded, err = findAuthorization(ctx, tx, subjectID)
		return err
	})
	if !errors.Is(err, errSecondHold) {
		return recorded, err
	}
	if recorded == nil {
		if recorded, err = findAuthorization(ctx, s.db, subjectID); err != nil || recorded == nil {
			return nil, firstError(err, errSecondHold)
		}
	}
	s.cfg.Logger.WarnContext(ctx, "second payment hold placed; void it at the processor",
		slog.Int64("subject", subjectID), slog.Int64("payment", paymentID), slog.String("authorization", a.ID),
		slog.String("kept", recorded.ID))
	if _, err := s.db.ExecContext(ctx, `UPDATE payments SET status = $1, authorization_id = $2, last4 = $3, brand = $4,
		error = $5, updated_at = $6 WHERE id = $7 AND status <> $8`, paymentFailed, a.ID, a.Last4, a.Brand,
		"A second hold; void it: the applicant's payment is "+recorded.ID+".", now, paymentID, paymentAuthorized); err != nil {
		return nil, fmt.Errorf("store: record second hold: %w", err)
	}
	return recorded, nil
}

// processorKey is the idempotency key the processor sees: the client's
// key within the applicant's own, so two applicants whose apps chose the
// same key never share an attempt.
func processorKey(subjectID int64, key string) string { return fmt.Sprintf("s%d-%s", subjectID, key) }

// paymentReference is the processor's opaque reference of the applicant.
func paymentReference(subjectID int64) string { return fmt.Sprintf("subject-%d", subjectID) }

// Field messages of the self-pay form checked here; the card's own checks
// are the processor's.
const (
	msgIdempotencyKey = "A payment attempt needs an idempotency key of 8 to 100 letters, digits, '-' or '_'. Reload the page and try again."
	msgCardholderName = "Enter the name on the card."
	msgCardholderLong = "The name on the card can be at most 100 characters."
	msgPostalCode     = "Enter the billing ZIP code: 5 digits, or ZIP+4."
	msgPostalUnknown  = "We could not find this ZIP code."
)

// validatePaymentRequest checks the fields the portal knows the rules of,
// trimming the name and ZIP code.
func validatePaymentRequest(req *portal.PaymentRequest) error {
	var fe portal.FieldErrors
	key := req.IdempotencyKey
	if len(key) < 8 || len(key) > 100 || strings.IndexFunc(key, func(r rune) bool { return !idempotencyRune(r) }) >= 0 {
		fe.Add("idempotencyKey", msgIdempotencyKey)
	}
	req.Card.Name = strings.TrimSpace(req.Card.Name)
	switch {
	case req.Card.Name == "":
		fe.Add("cardholderName", msgCardholderName)
	case utf8.RuneCountInString(req.Card.Name) > 100:
		fe.Add("cardholderName", msgCardholderLong)
	}
	req.Card.PostalCode = strings.TrimSpace(req.Card.PostalCode)
	zip := req.Card.PostalCode
	switch {
	case !isZIP(zip):
		fe.Add("postalCode", msgPostalCode)
	default:
		if _, ok := address.LookupZIP(zip[:5]); !ok {
			fe.Add("postalCode", msgPostalUnknown)
		}
	}
	return fe.Err()
}

func idempotencyRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
}

// isZIP accepts 12345 and 12345-6789.
func isZIP(z string) bool {
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	if len(z) == 5 {
		return digits(z)
	}
	return len(z) == 10 && z[5] == '-' && digits(z[:5]) && digits(z[6:])
}
