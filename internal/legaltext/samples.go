package legaltext

import (
	"embed"
	"strings"
	"sync"

	"applicantportal/internal/portal"
)

// SampleMarker opens every sample text, so nobody mistakes one for a
// reviewed legal document; SampleMarkerEsUS opens the Spanish ones.
const (
	SampleMarker     = "SAMPLE TEXT — not legal advice; an operator loads counsel-approved texts for production."
	SampleMarkerEsUS = "TEXTO DE MUESTRA — no es asesoría legal; para producción, un operador carga textos aprobados por un abogado."
)

// IsSample reports whether a text carries the sample marker of any
// language.
func IsSample(text string) bool {
	return strings.Contains(text, SampleMarker) || strings.Contains(text, SampleMarkerEsUS)
}

// samples/<DocumentType>.md are the English texts, samples/es-US/ the
// Spanish.
//
//go:embed samples/*.md samples/es-US/*.md
var sampleFiles embed.FS

// sampleDir is where a language's samples are.
func sampleDir(lang portal.Locale) string {
	if lang == portal.LocaleEnUS {
		return "samples/"
	}
	return "samples/" + string(lang) + "/"
}

// Sample is one of the demo employer's legal texts.
type Sample struct {
	DocumentType string
	Visibility   string
	Regions      []portal.Region
	Title        string
	Markdown     string // contains text tokens; render with RenderMarkdown
	Language     portal.Locale
}

// sampleTypes says for whom each sample applies; samples/<DocumentType>.md
// holds the text. The order is that of the legal steps.
var sampleTypes = []Sample{
	{DocumentType: portal.DocESign, Visibility: portal.VisibilityAll},
	{DocumentType: portal.DocDisclosure, Visibility: portal.VisibilityAll},
	{DocumentType: portal.DocInvestigative, Visibility: portal.VisibilityAll},
	{DocumentType: portal.DocCaliforniaDisclosure, Visibility: portal.VisibilityRegional, Regions: states("US-CA")},
	{DocumentType: portal.DocStateDisclosures, Visibility: portal.VisibilityRegional, Regions: states("US-NY", "US-WA", "US-MN", "US-OK")},
	{DocumentType: portal.DocRightsFed, Visibility: portal.VisibilityAll},
	{DocumentType: portal.DocRightsNJ, Visibility: portal.VisibilityRegional, Regions: states("US-NJ")},
	{DocumentType: portal.DocRightsWA, Visibility: portal.VisibilityRegional, Regions: states("US-WA")},
	{DocumentType: portal.DocRightsSF, Visibility: portal.VisibilityRegional, Regions: []portal.Region{{CountyID: 6075}}}, // San Francisco County (FIPS 06075)
	{DocumentType: portal.DocRightsNY23a, Visibility: portal.VisibilityRegional, Regions: states("US-NY")},
	{DocumentType: portal.DocRightsCACredit, Visibility: portal.VisibilityRegional, Regions: states("US-CA")},
	{DocumentType: portal.DocRightsVTCredit, Visibility: portal.VisibilityRegional, Regions: states("US-VT")},
	{DocumentType: portal.DocRightsMDCredit, Visibility: portal.VisibilityRegional, Regions: states("US-MD")},
	{DocumentType: portal.DocDOTRelease, Visibility: portal.VisibilityAll},
	{DocumentType: portal.DocAuthorization, Visibility: portal.VisibilityAll},
}

func states(codes ...string) []portal.Region {
	var rs []portal.Region
	for _, c := range codes {
		rs = append(rs, portal.Region{StateCode: c})
	}
	return rs
}

// Samples returns the demo employer's English texts, one per document
// type, each with the visibility it should be stored with.
func Samples() []Sample { return SamplesIn(portal.LocaleEnUS) }

// SamplesIn returns the demo employer's texts in a language (every one of
// portal.Locales has them all), in the order of Samples.
func SamplesIn(lang portal.Locale) []Sample {
	out := make([]Sample, 0, len(sampleTypes))
	for _, s := range sampleTypes {
		md, err := sampleFiles.ReadFile(sampleDir(lang) + s.DocumentType + ".md")
		if err != nil {
			panic("legaltext: missing sample " + string(lang) + " " + s.DocumentType) // the embed and the table disagree; a test catches it
		}
		s.Language = lang
		s.Markdown = string(md)
		if html, err := RenderMarkdown(s.Markdown); err == nil {
			s.Title = FirstHeading(html)
		}
		if s.Title == "" {
			s.Title = s.DocumentType
		}
		s.Regions = append([]portal.Region(nil), s.Regions...)
		out = append(out, s)
	}
	return out
}

// SummaryOfRights is the federal Summary of Rights under the FCRA as
// sanitized HTML in a language (English for one without samples): the
// sample text, opening with its sample marker, which the adverse-action
// notices show beside the employer's word.
func SummaryOfRights(lang portal.Locale) string {
	if html, ok := summariesOfRights()[lang]; ok {
		return html
	}
	return summariesOfRights()[portal.LocaleEnUS]
}

var summariesOfRights = sync.OnceValue(func() map[portal.Locale]string {
	out := map[portal.Locale]string{}
	for _, lang := range portal.Locales {
		md, err := sampleFiles.ReadFile(sampleDir(lang) + portal.DocRightsFed + ".md")
		if err != nil {
			panic("legaltext: missing sample " + string(lang) + " " + portal.DocRightsFed)
		}
		html, err := RenderMarkdown(string(md))
		if err != nil {
			panic("legaltext: " + portal.DocRightsFed + ": " + err.Error())
		}
		out[lang] = html
	}
	return out
})
