package password_test

import (
	"os"
	"strings"
	"testing"

	"applicantportal/internal/password"
)

func TestPasswordLength(t *testing.T) {
	for _, tt := range []struct {
		name, password string
		ok             bool
	}{
		{"EmptyRejected", "", false},
		{"BelowMinimumRejected", "fourteen chars", false},
		{"MinimumAccepted", "fifteen chars!!", true},
		{"CountsCharactersNotBytes", "éàèùçéàèùçéàèùç", true},
		{"OverMaximumRejected", strings.Repeat("xyz!", password.MaxLength/4) + "x", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if msg := password.Problem(tt.password, 15); (msg == "") != tt.ok {
				t.Fatalf("Problem = %q; want ok %v", msg, tt.ok)
			}
		})
	}
}

// TestPasswordPolicy walks NIST SP 800-63B's rules: each bad password gets
// its one message, the first rule it breaks.
func TestPasswordPolicy(t *testing.T) {
	ids := []string{"jane.doe@example.com", "Jane.Doe@Example.com"}
	for _, tt := range []struct {
		name, password, want string // want "" means accepted
	}{
		{"Accepted", "correct horse battery staple", ""},
		{"FifteenSpaces", strings.Repeat(" ", 15), password.MsgVariety},
		{"FifteenNULs", strings.Repeat("\x00", 15), password.MsgControl},
		{"NULInside", "correct horse\x00battery staple", password.MsgControl},
		{"Tab", "correct horse\tbattery staple", password.MsgControl},
		{"C1Control", "correct horse\u0085battery staple", password.MsgControl},
		{"SameLetter", strings.Repeat("a", 15), password.MsgVariety},
		{"ThreeLetters", "abcabcabcabcabc", password.MsgVariety},
		{"OnlyUnicodeSpaces", " \u1680\u2028\u2029 \u1680\u2028\u2029 \u1680\u2028\u2029 \u1680\u2028\u2029", password.MsgVariety},
		{"TheEmail", "jane.doe@example.com", password.MsgIdentity},
		{"TheEmailOtherCase", "JANE.DOE@EXAMPLE.COM", password.MsgIdentity},
		{"ContainsTheEmail", "my jane.doe@example.com!", password.MsgIdentity},
		{"ContainsTheLocalPart", "I am Jane.Doe, hello there", password.MsgIdentity},
		{"ContainsTheLocalPartFullWidth", "I am Ｊａｎｅ.Ｄｏｅ, hello there", password.MsgIdentity},
		{"Common", "1qaz2wsx3edc4rfv", password.MsgCommon},
		{"CommonOtherCaseWithDigits", "PASSWORD1234567", password.MsgSequence}, // not listed, but a listed word and digits
		{"CommonRepeated", "SunshineSunshine", password.MsgCommon},
		{"CommonFullWidth", "１ＱＡＺ２ＷＳＸ３ＥＤＣ４ＲＦＶ", password.MsgCommon},
		{"DigitRun", "123456789012345", password.MsgSequence},
		{"DigitRunBackwards", "987654321098765", password.MsgSequence},
		{"AlphabetRun", "abcdefghijklmnop", password.MsgSequence},
		{"KeyboardRow", "qwertyuiopasdfg", password.MsgSequence},
		{"KeyboardRowOtherCase", "QWERTYUIOPASDFG", password.MsgSequence},
		{"KeyboardColumns", "1qaz2wsx3edc4rfv5t", password.MsgSequence},
		{"CommonWithDigits", "Password123456789", password.MsgSequence},
		{"CommonWithSymbols", "!!!sunshine2026!!!", password.MsgSequence},
		{"SequenceWithSymbols", "qwertyuiop!!!!!!", password.MsgSequence},
		{"RandomDigitsAccepted", "839201746512093", ""},
		{"PassphraseWithPunctuationAccepted", "I love my cat Felix!", ""},
		{"WordsAroundDigitsAccepted", "purple 1234 elephant", ""},
		{"LengthCountsTheNFKCForm", "abcde\ufb01\ufb01\ufb01\ufb01\ufb01", ""}, // ﬁ is f+i: 15 characters
		{"DecomposedCountsAsComposed", strings.Repeat("e\u0301bcd", 3) + "xy", password.MsgTooShort},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := password.Problem(tt.password, 15, ids...)
			want := tt.want
			if want == password.MsgTooShort {
				want = "Password must be at least 15 characters long."
			}
			if got != want {
				t.Fatalf("Problem = %q; want %q", got, want)
			}
		})
	}
}

// TestPasswordRulesAreDocumented keeps docs/api.md, which the app follows,
// true to the server's messages.
func TestPasswordRulesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range password.Rules {
		msg := strings.ReplaceAll(r.Message, "%d", "N")
		if !strings.Contains(string(doc), msg) {
			t.Errorf("docs/api.md lacks the message %q", msg)
		}
	}
}
