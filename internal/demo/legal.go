package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

// LoadSamples stores the sample legal texts (legaltext.SamplesIn, marked as
// samples) as a company's documents, in every language: English first,
// which the translations need.
func LoadSamples(ctx context.Context, db *store.DB, companyID int64) error {
	for _, lang := range portal.Locales {
		for _, s := range legaltext.SamplesIn(lang) {
			html, err := legaltext.RenderMarkdown(s.Markdown)
			if err != nil {
				return err
			}
			d := &portal.LegalDocument{CompanyID: companyID, Title: s.Title, Content: html, Language: lang,
				Type: portal.LegalDocumentType{DocumentType: s.DocumentType, Visibility: s.Visibility, Regions: s.Regions, Editable: true}}
			if _, err := db.SaveLegalDocument(ctx, d); err != nil {
				return fmt.Errorf("demo: sample %s %s: %w", lang, s.DocumentType, err)
			}
		}
	}
	return nil
}

// signLegalDocuments signs every legal step of a subject as the app would:
// names typed, every box ticked, a drawn signature, from the loopback
// address.
func signLegalDocuments(ctx context.Context, db *store.DB, subjectID int64, lastFourSSN string) error {
	file, err := db.Legal().FindLegalDocuments(ctx, subjectID)
	if err != nil {
		return err
	}
	sig := "data:image/png;base64," + base64.StdEncoding.EncodeToString(SignaturePNG())
	shown := func(d portal.LegalDocument) (string, string) { return legaltext.Shown(file, d, "") }
	for _, step := range file.PendingSteps() {
		req := portal.SignRequest{Signature: sig, SignatureFields: portal.SignatureFields{
			FirstName: file.Subject.FirstName, LastName: file.Subject.LastName,
			AckConsent: true, AckNotices: true, AckReceipt: true, AuthConsent: true,
			AckReceiptYourRights: true, AckFed: true, AckNj: true, AckWa: true, AckSf: true, AckNy: true,
			AckCaCredit: true, AckVtCredit: true, AckMdCredit: true,
			LastFourSSN: lastFourSSN, FreeReportCopy: true,
		}}
		hashes := map[string]string{}
		for _, d := range step.Documents {
			_, hashes[strconv.FormatInt(d.ID, 10)] = shown(d)
		}
		sigs, err := file.Sign(portal.Signing{DocumentID: step.Documents[0].ID, Request: req,
			ContentSHA256: hashes, IP: "127.0.0.1", Shown: shown})
		if err != nil {
			return fmt.Errorf("demo: sign %s: %w", step.DocumentType, err)
		}
		if err := db.Legal().SignLegalStep(ctx, subjectID, sigs); err != nil {
			return fmt.Errorf("demo: sign %s: %w", step.DocumentType, err)
		}
		// The authorization, last, checks that everything before it is signed.
		for i := range sigs {
			file.Signatures[sigs[i].DocumentID] = &sigs[i]
		}
	}
	return nil
}

// SignaturePNG draws a small handwritten-looking stroke, as the signature
// pad would send it.
func SignaturePNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 360, 120))
	ink := color.NRGBA{R: 20, G: 40, B: 110, A: 255}
	for t := 0.0; t < 1; t += 0.0005 {
		x := 20 + 320*t
		y := 60 + 28*math.Sin(t*5*math.Pi)*math.Cos(t*1.5*math.Pi) - 10*math.Sin(t*13*math.Pi)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				img.Set(int(x)+dx, int(y)+dy, ink)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory image does not fail
	}
	return buf.Bytes()
}
