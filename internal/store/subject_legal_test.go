package store_test

import (
	"context"
	"slices"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

// TestLegalChecklistAgreesWithLegalFile checks that the read model's legal
// checklist (no texts, no signature images) names the same unsigned
// documents and DOT releases as the full legal file, in each language,
// with a translation retitled in a later version and a document that is
// not editable.
func TestLegalChecklistAgreesWithLegalFile(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		w := newLegalWorld(t, db)
		w.loadSpanishSamples(t)
		ctx := context.Background()
		retitled := &portal.LegalDocument{CompanyID: w.company.ID, Title: "Divulgación (nueva)", Content: "<p>Nueva</p>",
			Language: portal.LocaleEsUS, Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure}}
		if _, err := db.SaveLegalDocument(ctx, retitled); err != nil {
			t.Fatal(err)
		}
		hidden := &portal.LegalDocument{CompanyID: w.company.ID, Title: "Internal policy", Content: "<p>Policy</p>",
			Type: portal.LegalDocumentType{DocumentType: "policy", Visibility: portal.VisibilityAll}}
		if _, err := db.SaveLegalDocument(ctx, hidden); err != nil {
			t.Fatal(err)
		}
		for _, lang := range portal.Locales {
			t.Run(string(lang), func(t *testing.T) {
				ctx := portal.WithLocale(context.Background(), lang)
				full, err := db.Legal().FindLegalDocuments(ctx, w.jane.ID)
				if err != nil {
					t.Fatal(err)
				}
				lean, err := db.LegalChecklistForTest(ctx, w.jane.ID)
				if err != nil {
					t.Fatal(err)
				}
				want, got := full.UnsignedTitles(), lean.UnsignedTitles()
				if len(want) == 0 || !slices.Equal(got, want) {
					t.Errorf("unsigned titles %q, want %q (not empty)", got, want)
				}
				if lang == portal.LocaleEsUS && !slices.ContainsFunc(got, func(s string) bool { return s == retitled.Title }) {
					t.Errorf("unsigned titles %q lack the latest Spanish title %q", got, retitled.Title)
				}
				if got, want := lean.DOTReleases(), full.DOTReleases(); !slices.Equal(got, want) {
					t.Errorf("DOT releases %+v, want %+v", got, want)
				}
				if lean.Subject.ID != w.jane.ID || lean.Company.ID != w.company.ID {
					t.Errorf("subject %d company %d, want %d %d", lean.Subject.ID, lean.Company.ID, w.jane.ID, w.company.ID)
				}
			})
		}
	})
}
