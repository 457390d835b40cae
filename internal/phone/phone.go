// Package phone checks that a telephone number is a real number for its
// country calling code ("dial code"), using libphonenumber's metadata, so the
// server agrees with the app's own check of the same number.
package phone

import (
	"strconv"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Valid reports whether number is a valid number for the country calling
// code dialCode ("1" for the North American Numbering Plan, "44" for the
// United Kingdom...). Spaces, dashes, dots and parentheses in number are
// ignored; anything else that is not a digit makes it invalid. A leading
// "+" on the dial code is accepted.
func Valid(dialCode, number string) bool {
	_, ok := parse(dialCode, number)
	return ok
}

// Format returns number in E.164 form ("+12024561111"), or "" when it is
// not a valid number for dialCode.
func Format(dialCode, number string) string {
	n, ok := parse(dialCode, number)
	if !ok {
		return ""
	}
	return phonenumbers.Format(n, phonenumbers.E164)
}

func parse(dialCode, number string) (*phonenumbers.PhoneNumber, bool) {
	code, ok := callingCode(dialCode)
	if !ok {
		return nil, false
	}
	digits, ok := nationalDigits(number)
	if !ok {
		return nil, false
	}
	// Parsing with the "+" prefix ties the number to the calling code rather
	// than to one region, so "1" accepts every NANP country and
	// libphonenumber strips a national trunk prefix ("020..." in the UK).
	n, err := phonenumbers.Parse("+"+strconv.Itoa(code)+digits, "ZZ")
	if err != nil || int(n.GetCountryCode()) != code {
		return nil, false
	}
	return n, phonenumbers.IsValidNumber(n)
}

// callingCode reads a dial code of one to three digits that libphonenumber
// knows.
func callingCode(dialCode string) (int, bool) {
	dialCode = strings.TrimPrefix(strings.TrimSpace(dialCode), "+")
	if len(dialCode) == 0 || len(dialCode) > 3 || dialCode[0] == '0' || !allDigits(dialCode) {
		return 0, false
	}
	code, err := strconv.Atoi(dialCode)
	if err != nil {
		return 0, false
	}
	return code, phonenumbers.GetSupportedCallingCodes()[code]
}

// nationalDigits drops the separators people type and rejects anything else.
func nationalDigits(number string) (string, bool) {
	var b strings.Builder
	for _, r := range number {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')':
		default:
			return "", false
		}
	}
	return b.String(), b.Len() > 0
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
