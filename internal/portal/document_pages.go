package portal

import (
	"unicode"
	"unicode/utf8"
)

// DocumentFacts are the documents part of the read model: the package's
// document types with how many files the applicant sent for each, and the
// forms that apply to the applicant with their submissions.
type DocumentFacts struct {
	Types []DocumentType
	Sent  map[string]int // by DocumentType.Type
	Forms []PdfForm      // only those that apply
}

// documentPages are the checklist entries of /additional-documents (when
// the package asks for documents) and /fillable-pdf-form (when a form
// applies). Each is required only when something in it is.
func documentPages(d *DocumentFacts) []ChecklistPage {
	if d == nil {
		return nil
	}
	var out []ChecklistPage
	if len(d.Types) > 0 {
		p := ChecklistPage{ID: "additional-documents", Path: "/additional-documents", Title: "Additional Documents", Missing: []string{}}
		for _, t := range d.Types {
			p.Required = p.Required || t.Required
			if t.Required && d.Sent[t.Type] == 0 {
				p.Missing = append(p.Missing, "Upload your "+lowerFirst(t.Title)+".")
			}
		}
		p.Complete = len(p.Missing) == 0
		out = append(out, p)
	}
	if len(d.Forms) > 0 {
		p := ChecklistPage{ID: "fillable-pdf-form", Path: "/fillable-pdf-form", Title: "Forms", Missing: []string{}}
		for _, f := range d.Forms {
			p.Required = p.Required || f.Required
			if f.Required && f.Submitted == nil {
				p.Missing = append(p.Missing, "Fill in and submit the "+f.Title+".")
			}
		}
		p.Complete = len(p.Missing) == 0
		out = append(out, p)
	}
	return out
}

// lowerFirst lower-cases a title's first letter for use mid-sentence,
// unless the title starts with an acronym ("ID card", "DOT physical").
func lowerFirst(s string) string {
	first, n := utf8.DecodeRuneInString(s)
	second, _ := utf8.DecodeRuneInString(s[n:])
	if n == 0 || unicode.IsUpper(second) {
		return s
	}
	return string(unicode.ToLower(first)) + s[n:]
}
