// Package paymentsandbox is the built-in payment processor: it authorizes
// holds on test cards as a real processor would (Luhn, expiry, CVC,
// declines, a slow card), remembering each idempotency key.
package paymentsandbox

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/sandbox"
)

// Config is the sandbox processor's configuration.
type Config struct {
	Records sandbox.Records
	// SlowDelay is how long the processor-timeout test card takes to
	// answer (longer than the portal waits).
	SlowDelay time.Duration
	Now       func() time.Time
	// Secret keys the fingerprints that tie an idempotency key to its card
	// (HMAC-SHA256). Without it they are salted SHA-256 hashes, which a
	// reader of the database could test guesses of a card number against;
	// a secret (the data key's derivative) makes that impossible.
	Secret []byte
}

// Processor is the sandbox processor (portal.PaymentProcessor).
type Processor struct{ cfg Config }

var _ portal.PaymentProcessor = (*Processor)(nil)

// New returns the sandbox processor.
func New(cfg Config) *Processor {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Processor{cfg}
}

// recordKind is the sandbox records' namespace of this processor.
const recordKind = "payment"

// recordTTL is how long the processor remembers an idempotency key: longer
// than any hold lives, so that a retry or a lookup never finds a key
// forgotten while its hold still stands.
const recordTTL = 30 * 24 * time.Hour

// Test cards (docs/api.md lists them for testers).
const (
	CardDeclined          = "4000000000000002"
	CardInsufficientFunds = "4000000000009995"
	CardIncorrectCVC      = "4000000000000127"
	CardExpired           = "4000000000000069"
	CardSlow              = "4000000000000119"
)

// approvedCards are the cards the sandbox authorizes at once; any other
// valid number is declined, as a real processor's sandbox does.
var approvedCards = map[string]bool{
	"4242424242424242": true,
	"5555555555554444": true,
	"378282246310005":  true,
	"6011111111111117": true,
}

// Decline messages, as the applicant reads them.
const (
	MessageDeclined          = "Your card was declined. Please use another card."
	MessageInsufficientFunds = "Your card has insufficient funds. Please use another card."
	MessageIncorrectCVC      = "The security code is incorrect. Please check it and try again."
	MessageExpiredCard       = "Your card has expired. Please use another card."
	MessageKeyReused         = "This idempotency key was used for another payment."
	MessageProcessing        = "This payment is still being processed."
	MessageTimeout           = "The payment processor did not answer in time."
)

// record is what the processor keeps per idempotency key: a fingerprint
// of the card and amount (never the number or the CVC) and the outcome.
type record struct {
	Salt        string `json:"salt"`
	Fingerprint string `json:"fingerprint"`
	// ReadyAt is when the answer is known; before it the attempt is
	// still being processed (the slow card).
	ReadyAt       time.Time      `json:"readyAt"`
	Authorization *authorization `json:"authorization,omitempty"`
	Decline       *decline       `json:"decline,omitempty"`
}

type authorization struct {
	ID           string    `json:"id"`
	AmountCents  int64     `json:"amountCents"`
	Currency     string    `json:"currency"`
	Last4        string    `json:"last4"`
	Brand        string    `json:"brand"`
	AuthorizedAt time.Time `json:"authorizedAt"`
}

type decline struct {
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	Detail  string `json:"detail,omitempty"` // the field's message
}

// Authorize places a hold on a test card. A key seen before answers its
// first outcome (if the card and amount match); a new key's card is
// checked as a real processor would, then decided by the test card table.
func (p *Processor) Authorize(ctx context.Context, req portal.AuthorizeRequest) (*portal.Authorization, error) {
	if err := ctx.Err(); err != nil {
		return nil, portal.Errorf(portal.ETIMEOUT, MessageTimeout)
	}
	key := req.IdempotencyKey
	if key == "" {
		return nil, portal.Errorf(portal.EINVALID, "An idempotency key is required.")
	}
	// A key seen before is answered before the card is checked, as real
	// processors do: the first attempt's outcome stands whatever a retry
	// sends, and a retry with another card is refused, not judged.
	if stored, _, err := p.cfg.Records.Get(ctx, recordKind, key); err == nil {
		return p.replay(ctx, req, stored)
	} else if portal.ErrorCode(err) != portal.ENOTFOUND {
		return nil, recordsError(err)
	}
	brand, err := p.check(req.Card)
	if err != nil {
		return nil, err
	}
	rec, err := p.decide(req, brand)
	if err != nil {
		return nil, err
	}
	value, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	stored, inserted, err := p.cfg.Records.Insert(ctx, recordKind, key, value, p.cfg.Now().Add(recordTTL))
	if err != nil {
		return nil, recordsError(err)
	}
	if !inserted {
		// A concurrent attempt with the same key came first: its outcome
		// is the key's.
		return p.replay(ctx, req, stored)
	}
	return p.answer(ctx, rec)
}

// Lookup answers an earlier attempt's outcome without waiting for it.
func (p *Processor) Lookup(ctx context.Context, key string) (*portal.Authorization, error) {
	stored, _, err := p.cfg.Records.Get(ctx, recordKind, key)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		return nil, portal.Errorf(portal.ENOTFOUND, "The processor has no payment with this idempotency key.")
	} else if err != nil {
		return nil, recordsError(err)
	}
	var rec record
	if err := json.Unmarshal(stored, &rec); err != nil {
		return nil, fmt.Errorf("paymentsandbox: read record: %w", err)
	}
	if p.cfg.Now().Before(rec.ReadyAt) {
		return nil, portal.Errorf(portal.ECONFLICT, MessageProcessing)
	}
	return outcome(rec)
}

func (p *Processor) replay(ctx context.Context, req portal.AuthorizeRequest, stored []byte) (*portal.Authorization, error) {
	var rec record
	if err := json.Unmarshal(stored, &rec); err != nil {
		return nil, fmt.Errorf("paymentsandbox: read record: %w", err)
	}
	if !hmac.Equal([]byte(rec.Fingerprint), []byte(p.fingerprint(rec.Salt, req))) {
		return nil, portal.Errorf(portal.ECONFLICT, MessageKeyReused)
	}
	return p.answer(ctx, rec)
}

// answer waits until the record's outcome is ready (the slow card) or ctx
// ends, then gives it.
func (p *Processor) answer(ctx context.Context, rec record) (*portal.Authorization, error) {
	if wait := rec.ReadyAt.Sub(p.cfg.Now()); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return nil, portal.Errorf(portal.ETIMEOUT, MessageTimeout)
		case <-t.C:
		}
	}
	return outcome(rec)
}

func outcome(rec record) (*portal.Authorization, error) {
	if d := rec.Decline; d != nil {
		e := &portal.Error{Code: portal.EDECLINED, Message: d.Message}
		if d.Field != "" {
			e.Fields = []portal.FieldError{{Field: d.Field, Message: d.Detail}}
		}
		return nil, e
	}
	a := rec.Authorization
	if a == nil {
		return nil, errors.New("paymentsandbox: record holds no outcome")
	}
	return &portal.Authorization{ID: a.ID, Amount: portal.Money{Cents: a.AmountCents, Currency: a.Currency},
		Last4: a.Last4, Brand: a.Brand, AuthorizedAt: a.AuthorizedAt}, nil
}

// decide is the test card table.
func (p *Processor) decide(req portal.AuthorizeRequest, brand string) (record, error) {
	if req.Amount.Cents <= 0 || req.Amount.Currency == "" {
		return record{}, portal.Errorf(portal.EINVALID, "The amount must be above 0.")
	}
	salt := make([]byte, 16)
	rand.Read(salt)
	now := p.cfg.Now()
	rec := record{Salt: hex.EncodeToString(salt), ReadyAt: now}
	rec.Fingerprint = p.fingerprint(rec.Salt, req)
	number := req.Card.Digits()
	switch {
	case approvedCards[number] || number == CardSlow:
		if number == CardSlow {
			// The hold is placed now; only the answer is late.
			rec.ReadyAt = now.Add(p.cfg.SlowDelay)
		}
		id := make([]byte, 12)
		rand.Read(id)
		rec.Authorization = &authorization{ID: "auth_" + hex.EncodeToString(id), AmountCents: req.Amount.Cents,
			Currency: req.Amount.Currency, Last4: req.Card.Last4(), Brand: brand, AuthorizedAt: now.UTC()}
	case number == CardInsufficientFunds:
		rec.Decline = &decline{Message: MessageInsufficientFunds}
	case number == CardIncorrectCVC:
		rec.Decline = &decline{Message: MessageIncorrectCVC, Field: "cvc", Detail: "The security code is incorrect."}
	case number == CardExpired:
		rec.Decline = &decline{Message: MessageExpiredCard, Field: "expiry", Detail: "Your card has expired."}
	default:
		rec.Decline = &decline{Message: MessageDeclined}
	}
	return rec, nil
}

// fingerprint ties a key to its amount and card without keeping the card:
// a retry with the same key must send the same ones.
func (p *Processor) fingerprint(salt string, req portal.AuthorizeRequest) string {
	m := hmac.New(sha256.New, p.cfg.Secret)
	fmt.Fprintf(m, "%s|%d|%s|%s|%02d/%04d", salt, req.Amount.Cents, req.Amount.Currency, req.Card.Digits(),
		req.Card.ExpMonth, req.Card.ExpYear)
	return hex.EncodeToString(m.Sum(nil))
}

// Field messages of a card the processor cannot take.
const (
	MessageCardNumber   = "Enter a valid card number."
	MessageCardBrand    = "We accept Visa, Mastercard, American Express and Discover cards."
	MessageExpiryMonth  = "Enter a valid expiry month (01 to 12)."
	MessageExpiryYear   = "Enter a valid expiry year."
	MessageCardExpired  = "This card has expired. Check the expiry date or use another card."
	MessageCVC          = "Enter the 3-digit security code from the back of your card."
	MessageCVCAmex      = "Enter the 4-digit security code from the front of your card."
	MessageCVCAnyLength = "Enter the 3- or 4-digit security code of your card."
)

// check validates a card as a processor does before deciding on it and
// answers its brand.
func (p *Processor) check(c portal.Card) (string, error) {
	var fe portal.FieldErrors
	number := c.Digits()
	brand := ""
	switch {
	case number == "" || strings.Trim(number, "0123456789") != "":
		fe.Add("cardNumber", MessageCardNumber)
	default:
		var lengthOK bool
		brand, lengthOK = Brand(number)
		switch {
		case brand == "" && len(number) >= 12 && len(number) <= 19 && Luhn(number):
			fe.Add("cardNumber", MessageCardBrand)
		case brand == "" || !lengthOK || !Luhn(number):
			fe.Add("cardNumber", MessageCardNumber)
		}
	}
	now := p.cfg.Now().UTC()
	switch {
	case c.ExpMonth < 1 || c.ExpMonth > 12:
		fe.Add("expiry", MessageExpiryMonth)
	case c.ExpYear < 2000 || c.ExpYear > now.Year()+20:
		fe.Add("expiry", MessageExpiryYear)
	case !now.Before(time.Date(c.ExpYear, time.Month(c.ExpMonth)+1, 1, 0, 0, 0, 0, time.UTC)):
		// A card is good through the last day of its expiry month.
		fe.Add("expiry", MessageCardExpired)
	}
	cvc := strings.TrimSpace(c.CVC)
	digits := cvc != "" && strings.Trim(cvc, "0123456789") == ""
	switch {
	case fe.Has("cardNumber"):
		if !digits || len(cvc) < 3 || len(cvc) > 4 {
			fe.Add("cvc", MessageCVCAnyLength)
		}
	case brand == BrandAmex:
		if !digits || len(cvc) != 4 {
			fe.Add("cvc", MessageCVCAmex)
		}
	default:
		if !digits || len(cvc) != 3 {
			fe.Add("cvc", MessageCVC)
		}
	}
	return brand, fe.Err()
}

// Brand names.
const (
	BrandVisa       = "Visa"
	BrandMastercard = "Mastercard"
	BrandAmex       = "American Express"
	BrandDiscover   = "Discover"
)

// Brand answers a card number's brand by its first digits, and whether its
// length is one that brand issues; "" for a brand the sandbox does not take.
func Brand(number string) (brand string, lengthOK bool) {
	prefix := func(n int) int {
		if len(number) < n {
			return -1
		}
		v, err := strconv.Atoi(number[:n])
		if err != nil {
			return -1
		}
		return v
	}
	l := len(number)
	switch p2, p4 := prefix(2), prefix(4); {
	case strings.HasPrefix(number, "4"):
		return BrandVisa, l == 13 || l == 16 || l == 19
	case p2 >= 51 && p2 <= 55, p4 >= 2221 && p4 <= 2720:
		return BrandMastercard, l == 16
	case p2 == 34 || p2 == 37:
		return BrandAmex, l == 15
	case p4 == 6011 || p2 == 65:
		return BrandDiscover, l == 16
	}
	return "", false
}

// Luhn reports whether a string of digits passes the Luhn check.
func Luhn(number string) bool {
	if number == "" {
		return false
	}
	sum := 0
	double := false
	for i := len(number) - 1; i >= 0; i-- {
		d := int(number[i] - '0')
		if d < 0 || d > 9 {
			return false
		}
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// recordsError is a failure of the processor's own storage: internal, as
// a real processor's outage would be to the portal.
func recordsError(err error) error {
	return fmt.Errorf("paymentsandbox: records: %w", err)
}
