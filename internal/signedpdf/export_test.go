package signedpdf

import "applicantportal/internal/portal"

// PrintedField is a labeled value as the PDF prints it in a language.
func PrintedField(l portal.Locale, f portal.LabeledValue) portal.LabeledValue {
	return wordsFor(l).field(f)
}
