package portal

import (
	"slices"
	"strings"
)

// AppliesTo reports whether the form is asked of an applicant with this
// location and these address states (the states of their saved address
// history): a form without states applies to everyone, else residency,
// employment or any address must be in one of its states.
func (f PdfForm) AppliesTo(loc Location, addressStates []string) bool {
	if len(f.States) == 0 {
		return true
	}
	for _, want := range f.States {
		if sameState(want, loc.Residency.State) || sameState(want, loc.Employment.State) {
			return true
		}
		for _, got := range addressStates {
			if sameState(want, got) {
				return true
			}
		}
	}
	return false
}

// sameState compares state codes as stateCodesEqual does, and also takes a
// bare code ("ID") for the ISO form ("US-ID"): forms are configured by
// hand, and both spellings are common.
func sameState(a, b string) bool {
	return stateCodesEqual(withoutUSPrefix(a), withoutUSPrefix(b))
}

func withoutUSPrefix(code string) string {
	code = strings.TrimSpace(code)
	if len(code) >= 3 && strings.EqualFold(code[:3], "US-") {
		return code[3:]
	}
	return code
}

// SameFields compares a submission's field names (got) with the template's
// (want): missing are the template's names the submission lacks,
// unexpected the submission's names the template does not have. Both
// empty means the submission is a copy of the form. Order and duplicates
// do not matter; the results are sorted.
func SameFields(want, got []string) (missing, unexpected []string) {
	has := func(names []string) map[string]bool {
		m := make(map[string]bool, len(names))
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	wantSet, gotSet := has(want), has(got)
	for n := range wantSet {
		if !gotSet[n] {
			missing = append(missing, n)
		}
	}
	for n := range gotSet {
		if !wantSet[n] {
			unexpected = append(unexpected, n)
		}
	}
	slices.Sort(missing)
	slices.Sort(unexpected)
	return missing, unexpected
}

// What the applicant is told about a form that cannot be had or sent.
var (
	ErrFormNotFound     = &Error{Code: ENOTFOUND, Message: "Form not found."}
	ErrFormNotSubmitted = &Error{Code: ENOTFOUND, Message: "You have not submitted this form yet."}
	ErrFormNotPDF       = &Error{Code: EUNSUPPORTED, Message: "A filled form must be a PDF."}
)
