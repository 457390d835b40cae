package portal

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
)

// PaymentSuccessMessage is shown when the hold is authorized (spec
// section 8).
const PaymentSuccessMessage = "Payment successfully authorized"

// Card is what the applicant types into the self-pay form. It is handed to
// the processor and forgotten: never stored, never logged (String hides it).
type Card struct {
	Number     string // digits, spaces allowed
	ExpMonth   int    // 1-12
	ExpYear    int    // four digits
	CVC        string
	Name       string // cardholder name
	PostalCode string // billing ZIP code
}

// String keeps card numbers out of logs and error texts.
func (c Card) String() string { return "card ending " + c.Last4() }

// GoString keeps card numbers out of %#v too.
func (c Card) GoString() string { return c.String() }

// Digits is the card number without spaces or dashes.
func (c Card) Digits() string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, c.Number)
}

// Last4 is the card number's last four digits.
func (c Card) Last4() string {
	d := c.Digits()
	if len(d) < 4 {
		return ""
	}
	return d[len(d)-4:]
}

// Money is an amount in cents of a currency.
type Money struct {
	Cents    int64
	Currency string // ISO 4217, "USD"
}

// Text is the amount as a decimal ("25.00").
func (m Money) Text() string {
	return strconv.FormatInt(m.Cents/100, 10) + "." + strconv.FormatInt(m.Cents%100/10, 10) + strconv.FormatInt(m.Cents%10, 10)
}

// ParseMoney reads a decimal amount such as the package's hold ("25.00",
// "25", "25.5") into cents; false when it is not one.
func ParseMoney(text, currency string) (Money, bool) {
	whole, frac, _ := strings.Cut(strings.TrimSpace(text), ".")
	if whole == "" || len(frac) > 2 || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" || len(whole) > 9 {
		return Money{}, false
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt((frac + "00")[:2], 10, 64)
	return Money{Cents: w*100 + f, Currency: currency}, true
}

// AuthorizeRequest asks the processor for a hold on a card.
type AuthorizeRequest struct {
	// IdempotencyKey makes a retry (after a timeout, a double click, a
	// second tab) answer the first attempt's result instead of holding
	// the amount twice.
	IdempotencyKey string
	Amount         Money
	Card           Card
	// Reference is the portal's opaque reference of the applicant.
	Reference string
}

// Authorization is a hold the processor placed. Only this is kept: the
// processor's id, the card's last four digits and brand.
type Authorization struct {
	ID           string
	Amount       Money
	Last4        string
	Brand        string // "Visa", "Mastercard", "American Express", "Discover"
	AuthorizedAt time.Time
}

// PaymentProcessor is the outside payment party: the sandbox built into
// portal, or an adapter for a real processor. Its errors are portal
// errors: EINVALID with fields for a card it cannot take (number, expiry,
// CVC), EDECLINED for a decline, ETIMEOUT when it did not answer in time,
// ECONFLICT when the key's first attempt is still being processed or was
// made with another card or amount.
type PaymentProcessor interface {
	Authorize(ctx context.Context, req AuthorizeRequest) (*Authorization, error)
	// Lookup answers what became of an earlier attempt: its
	// authorization, ENOTFOUND when the processor never took it, ECONFLICT
	// while it is still being processed.
	Lookup(ctx context.Context, idempotencyKey string) (*Authorization, error)
}

// PaymentRequest is the applicant's self-pay form.
type PaymentRequest struct {
	IdempotencyKey string
	Card           Card
}

// SelfPay is what the applicant owes and what they paid.
type SelfPay struct {
	// Required is spec section 9's rule (self-pay on and a hold above 0)
	// after the exemption below.
	Required bool
	Amount   Money
	// ExemptState is the residency state that forbids charging the
	// applicant (SelfPayRules.ForbiddenStates); empty when none does.
	ExemptState   string
	Authorization *Authorization // nil until paid
}

// SelfPayRules are the operator's settings for self-pay.
type SelfPayRules struct {
	// ForbiddenStates are the state codes ("US-CA") whose residents are
	// never asked to pay for their own screening.
	ForbiddenStates []string
}

// DefaultSelfPayForbiddenStates is a starting list of states whose laws
// are commonly read as forbidding employers to make applicants pay for
// their screening or the medical examination (drug test) it includes.
// docs/operations.md names the sources; the operator confirms the list
// with counsel and sets their own (--self-pay-forbidden-states).
var DefaultSelfPayForbiddenStates = []string{"US-CA", "US-MN", "US-OR", "US-VT"}

// Exemption returns the residency state that forbids charging the
// applicant, or "".
func (r SelfPayRules) Exemption(loc Location) string {
	if loc.Residency.NonUS || loc.Residency.State == "" {
		return ""
	}
	if slices.ContainsFunc(r.ForbiddenStates, func(code string) bool { return stateCodesEqual(code, loc.Residency.State) }) {
		return loc.Residency.State
	}
	return ""
}

// PaymentService takes the self-pay hold.
type PaymentService interface {
	// SelfPay answers what the applicant owes and has paid.
	SelfPay(ctx context.Context, subjectID int64) (*SelfPay, error)
	// Authorize takes the hold for an applicant in self-pay-required. An
	// applicant who already paid gets their authorization again, never a
	// second one, whatever the key. Another status is ECONFLICT, a card
	// error EINVALID with fields, a decline EDECLINED, no answer in time
	// ETIMEOUT (a retry with the same key is safe).
	Authorize(ctx context.Context, subjectID int64, req PaymentRequest) (*Authorization, error)
}
