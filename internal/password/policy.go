package password

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The password policy (NIST SP 800-63B 5.1.1.2). It lives beside the list
// and the normalization it needs; the store applies it to every new
// password and the app shows the same rules (docs/api.md).

// Maximum password length in characters: long enough for any passphrase,
// short enough that hashing cannot be used to burn CPU.
const MaxLength = 128

// MinVariety is how many different characters a password needs.
const MinVariety = 4

// MinIdentityPartLength is the shortest e-mail local part a password may
// not contain: "jo" inside a passphrase is chance, "jane.doe" is not.
const MinIdentityPartLength = 4

// The password rules' messages, in the order they are checked; a password
// gets the first that fails. docs/api.md lists them for the app, which
// shows the same rules before submit.
const (
	MsgRequired = "Password is required"
	MsgControl  = "Your password must not contain control characters."
	MsgTooShort = "Password must be at least %d characters long."
	MsgTooLong  = "Password must be at most %d characters long."
	MsgVariety  = "Use a password with more variety: at least 4 different characters."
	MsgIdentity = "Your password must not contain your username or e-mail address."
	MsgCommon   = "Choose a less common password: this one appears in lists of leaked passwords."
	MsgSequence = "Avoid sequences like 12345 or qwerty, and common passwords with numbers or symbols added."
)

// Rule is one rule of the password policy (NIST SP 800-63B 5.1.1.2).
type Rule struct {
	Name    string
	Message string
}

// Rules lists the policy in the order Problem applies it.
// Characters are Unicode code points of the NFKC form of the password.
var Rules = []Rule{
	{"required", MsgRequired},
	{"no control characters (Unicode category Cc, NUL included)", MsgControl},
	{"at least the company's minimum length", MsgTooShort},
	{"at most 128 characters", MsgTooLong},
	{"at least 4 different characters, not only whitespace", MsgVariety},
	{"does not contain the username, the e-mail address or its local part (4+ characters), ignoring case", MsgIdentity},
	{"not in the common-password list, nor a listed password repeated", MsgCommon},
	{"not a run of the alphabet, the digits or a keyboard row, nor a listed password or such a run with only digits and symbols around it", MsgSequence},
}

// Problem checks a new password against the policy: the company's
// minimum length and the rules of Rules. identities are the username and
// e-mail address the password must not contain. Length and the other rules
// apply to the NFKC form, which is also what is hashed. It answers the
// message of the first rule broken, or "" when the password is acceptable.
func Problem(pw string, minLength int, identities ...string) string {
	if pw == "" {
		return MsgRequired
	}
	if strings.ContainsFunc(pw, unicode.IsControl) {
		return MsgControl
	}
	normal := Normalize(pw)
	n := utf8.RuneCountInString(normal)
	switch {
	case n < minLength:
		return fmt.Sprintf(MsgTooShort, minLength)
	case n > MaxLength:
		return fmt.Sprintf(MsgTooLong, MaxLength)
	}
	distinct := map[rune]bool{}
	for _, r := range normal {
		distinct[r] = true
	}
	if len(distinct) < MinVariety || strings.TrimFunc(normal, unicode.IsSpace) == "" {
		return MsgVariety
	}
	folded := Fold(normal)
	for _, id := range identities {
		id = Fold(strings.TrimSpace(id))
		parts := []string{id}
		if local, _, ok := strings.Cut(id, "@"); ok && utf8.RuneCountInString(local) >= MinIdentityPartLength {
			parts = append(parts, local)
		}
		for _, part := range parts {
			if part != "" && strings.Contains(folded, part) {
				return MsgIdentity
			}
		}
	}
	if IsCommon(normal) || IsRepeatedCommon(normal) {
		return MsgCommon
	}
	if predictable(folded) {
		return MsgSequence
	}
	return ""
}

// sequences are what a person types without choosing: the alphabet, the
// digits, and the rows and columns of a US keyboard. A password that is a
// run of one (either way, wrapping round) is no secret however long, and
// the list, mostly shorter than a 15-character minimum, misses it.
var sequences = []string{
	"abcdefghijklmnopqrstuvwxyz",
	"0123456789",
	"qwertyuiopasdfghjklzxcvbnm",
	"1234567890qwertyuiopasdfghjklzxcvbnm",
	"1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p",
	"qazwsxedcrfvtgbyhnujmikolp",
}

// isSequence reports whether folded is a run of at least 4 characters of
// one of sequences, forwards or backwards.
func isSequence(folded string) bool {
	if utf8.RuneCountInString(folded) < 4 {
		return false
	}
	for _, seq := range sequences {
		// Three turns hold any run that fits the password's length bound
		// once wrapped (128 characters are over three turns of the shortest).
		cycle := strings.Repeat(seq, 2+MaxLength/len(seq))
		if strings.Contains(cycle, folded) || strings.Contains(cycle, reverse(folded)) {
			return true
		}
	}
	return false
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// padding is what people put around a word to meet a rule: digits and the
// symbols of a keyboard's number row and punctuation.
const padding = "0123456789 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// predictable reports whether a folded password is a sequence, or a listed
// password or a sequence with only digits and symbols around it
// ("password123456789", "!!qwerty2026!!").
func predictable(folded string) bool {
	if isSequence(folded) {
		return true
	}
	core := strings.Trim(folded, padding)
	if core == folded || core == "" {
		return false
	}
	return IsCommon(core) || IsRepeatedCommon(core) || isSequence(core)
}
