package main

import (
	"strings"
	"unicode"
)

// printable keeps outside text (an applicant's or a company's name, a chat
// message, an e-mail, a relay's error) from driving the operator's
// terminal: control characters other than line breaks and tabs, and the
// marks that reorder text, show as U+FFFD. Every listing of the portal
// commands prints outside text through it or printableLine.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}

// printableLine is printable for a value shown within one line of a
// listing: a line break in it shows as U+FFFD too, so a name cannot make
// a line of its own that reads as another entry.
func printableLine(s string) string {
	return strings.ReplaceAll(printable(s), "\n", string(unicode.ReplacementChar))
}
