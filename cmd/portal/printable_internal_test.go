package main

import "testing"

func TestPrintable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		Name, In, Want, WantLine string
	}{
		{"PlainTextUnchanged", "Acme Logistics — Zoë", "Acme Logistics — Zoë", "Acme Logistics — Zoë"},
		{"ColourEscape", "Evil\x1b[31m Corp", "Evil\uFFFD[31m Corp", "Evil\uFFFD[31m Corp"},
		{"TitleAndBell", "\x1b]0;owned\x07", "\uFFFD]0;owned\uFFFD", "\uFFFD]0;owned\uFFFD"},
		{"C1ControlAndDelete", "a\u009bb\x7f", "a\uFFFDb\uFFFD", "a\uFFFDb\uFFFD"},
		{"RightToLeftOverride", "abc\u202efdp.exe", "abc\uFFFDfdp.exe", "abc\uFFFDfdp.exe"},
		{"CarriageReturn", "ok\rforged", "ok\uFFFDforged", "ok\uFFFDforged"},
		{"LineBreakAndTabKeptInText", "line one\n\tline two", "line one\n\tline two", "line one\uFFFD\tline two"},
	} {
		t.Run(tc.Name, func(t *testing.T) {
			if got := printable(tc.In); got != tc.Want {
				t.Errorf("printable(%q) = %q; want %q", tc.In, got, tc.Want)
			}
			if got := printableLine(tc.In); got != tc.WantLine {
				t.Errorf("printableLine(%q) = %q; want %q", tc.In, got, tc.WantLine)
			}
		})
	}
}
