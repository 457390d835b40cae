package portal

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// journeyTimingJSON holds the estimate model's constants. They are
// measured, not guessed: web/e2e/journey-timing.spec.ts (make
// measure-journey) goes through the whole journey in the browser at a
// modelled human pace (typing, reading, deciding; the rates and their
// sources are in docs/operations.md), times each step and writes this
// file. Re-measure after a change to the journey's pages.
//
//go:embed journey-timing.json
var journeyTimingJSON []byte

// Seconds is a duration of a part of the journey in seconds, for a quick
// applicant (Low) and an unhurried one (High).
type Seconds struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Plus adds two durations.
func (s Seconds) Plus(o Seconds) Seconds { return Seconds{s.Low + o.Low, s.High + o.High} }

// Times is n of a duration.
func (s Seconds) Times(n int) Seconds { return Seconds{s.Low * float64(n), s.High * float64(n)} }

// EstimateModel is a fixed time per step plus a time per unit of what the
// package asks for (year of address history, service page and its fields,
// document, PDF form field).
type EstimateModel struct {
	// Account: the Welcome step, creating the password and logging in.
	Account Seconds `json:"account"`
	// LegalStep: reading and signing one legal step.
	LegalStep Seconds `json:"legalStep"`
	// Personal: the personal information form.
	Personal Seconds `json:"personal"`
	// OtherNames: the other-names page.
	OtherNames Seconds `json:"otherNames"`
	// AddressPage and AddressYear: the address page, and each year of
	// history it asks for.
	AddressPage Seconds `json:"addressPage"`
	AddressYear Seconds `json:"addressYear"`
	// ServicePage and ServiceField: a service page (education,
	// employment, ...) and each field of its entry.
	ServicePage  Seconds `json:"servicePage"`
	ServiceField Seconds `json:"serviceField"`
	// Document: finding, photographing and uploading one document.
	Document Seconds `json:"document"`
	// PdfForm and PdfFormField: opening, filling and sending a fillable
	// PDF form, and each of its fields.
	PdfForm      Seconds `json:"pdfForm"`
	PdfFormField Seconds `json:"pdfFormField"`
	// Review: the check-answers page and the declaration.
	Review Seconds `json:"review"`
	// IdentityCheck: photographing an ID and a selfie.
	IdentityCheck Seconds `json:"identityCheck"`
	// SiteChoice: searching and choosing a drug-test collection site.
	SiteChoice Seconds `json:"siteChoice"`
	// Payment: entering a card for the self-pay hold.
	Payment Seconds `json:"payment"`
}

// journeyTiming is the file as the measurement writes it: the model and
// how it was measured, kept for the docs and the next measurement.
type journeyTiming struct {
	Model EstimateModel `json:"model"`
}

// MeasuredEstimateModel is the model of journey-timing.json, parsed once.
var MeasuredEstimateModel = sync.OnceValue(func() EstimateModel {
	var t journeyTiming
	if err := json.Unmarshal(journeyTimingJSON, &t); err != nil {
		panic(fmt.Sprintf("portal: journey-timing.json: %v", err))
	}
	return t.Model
})
