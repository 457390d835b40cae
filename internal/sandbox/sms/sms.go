// Package smssandbox is the built-in SMS provider: it accepts a text as a
// real provider would (an E.164 number that can receive texts, a body of
// reasonable length) and answers an id, without sending anything.
package smssandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"

	"applicantportal/internal/portal"
)

// TemporaryFailureNumber is the test number whose every text fails for
// now (the carrier does not answer), so that the outbox tries it again.
const TemporaryFailureNumber = "+12025550199"

// maxBody is the longest text accepted: ten concatenated segments.
const maxBody = 1600

// Provider is the sandbox provider (portal.SMSProvider).
type Provider struct{}

var _ portal.SMSProvider = Provider{}

// New makes the sandbox provider.
func New() Provider { return Provider{} }

// receives are the number types that take texts; a fixed line, a toll-free
// or premium number does not.
var receives = map[phonenumbers.PhoneNumberType]bool{
	phonenumbers.MOBILE: true, phonenumbers.FIXED_LINE_OR_MOBILE: true,
	phonenumbers.VOIP: true, phonenumbers.PERSONAL_NUMBER: true,
}

// SendText checks the number and the body and answers an id "SM" and 32
// hex digits. A number that is not E.164, not valid, or not one that
// receives texts is refused for good (portal.TextRefused).
func (Provider) SendText(ctx context.Context, to, body string) (string, error) {
	if !strings.HasPrefix(to, "+") {
		return "", &portal.TextRefused{Reason: "the number is not in E.164 form (+ and the country code)"}
	}
	n, err := phonenumbers.Parse(to, "")
	if err != nil || !phonenumbers.IsValidNumber(n) || phonenumbers.Format(n, phonenumbers.E164) != to {
		return "", &portal.TextRefused{Reason: "the number is not a valid E.164 number"}
	}
	if !receives[phonenumbers.GetNumberType(n)] {
		return "", &portal.TextRefused{Reason: "the number cannot receive texts (a landline or a service number)"}
	}
	if strings.TrimSpace(body) == "" || utf8.RuneCountInString(body) > maxBody {
		return "", &portal.TextRefused{Reason: "the message is empty or too long"}
	}
	if to == TemporaryFailureNumber {
		return "", errors.New("the carrier did not answer; try again later")
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	b := make([]byte, 16)
	rand.Read(b)
	return "SM" + hex.EncodeToString(b), nil
}
