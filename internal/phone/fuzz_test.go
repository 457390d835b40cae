package phone_test

import (
	"strings"
	"testing"

	"applicantportal/internal/phone"
)

// FuzzValid: Valid and Format agree; a valid number's E.164 form starts
// with its dial code, and the number read back from it (the national
// digits) is valid again with the same E.164 form, so a number the
// portal accepts never normalizes differently on a second pass.
func FuzzValid(f *testing.F) {
	for _, tc := range [][2]string{{"1", "2024561111"}, {"1", "(202) 456-1111"}, {"+1", "202.456.1111"}, {"44", "020 7946 0000"},
		{"44", "7400123456"}, {"1", "7400123456"}, {"999", "2024561111"}, {"01", "2024561111"}, {"1", "+12024561111"},
		{" +52 ", "55 1234 5678"}, {"1", " - "}, {"", ""}, {"49", "030 1234567"}, {"39", "06 1234 5678"}} {
		f.Add(tc[0], tc[1])
	}
	f.Fuzz(func(t *testing.T, dialCode, number string) {
		valid := phone.Valid(dialCode, number)
		e164 := phone.Format(dialCode, number)
		if valid != (e164 != "") {
			t.Fatalf("Valid(%q, %q) = %v, Format = %q", dialCode, number, valid, e164)
		}
		if !valid {
			return
		}
		prefix := "+" + strings.TrimPrefix(strings.TrimSpace(dialCode), "+")
		national, ok := strings.CutPrefix(e164, prefix)
		if !ok || national == "" {
			t.Fatalf("Format(%q, %q) = %q, not under %s", dialCode, number, e164, prefix)
		}
		if !phone.Valid(dialCode, national) || phone.Format(dialCode, national) != e164 {
			t.Fatalf("%q (%q) read back as %q: Valid %v, Format %q", number, e164, national,
				phone.Valid(dialCode, national), phone.Format(dialCode, national))
		}
	})
}
