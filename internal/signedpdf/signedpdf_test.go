package signedpdf_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/signedpdf"
)

// signaturePNG draws a short stroke, as the signature pad would.
func signaturePNG(t *testing.T, deep bool) []byte {
	t.Helper()
	var img image.Image
	if deep {
		m := image.NewNRGBA64(image.Rect(0, 0, 300, 100))
		for x := 20; x < 280; x++ {
			m.Set(x, 50+(x%20)-10, color.NRGBA64{A: 0xffff})
		}
		img = m
	} else {
		m := image.NewNRGBA(image.Rect(0, 0, 600, 200))
		for x := 40; x < 560; x++ {
			m.Set(x, 100+(x%40)-20, color.NRGBA{A: 255})
		}
		img = m
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pdfText renders d and reads the PDF back as plain text.
func pdfText(t *testing.T, d signedpdf.Document) (string, int) {
	t.Helper()
	var buf bytes.Buffer
	if err := signedpdf.Render(&buf, d); err != nil {
		t.Fatalf("Render: %v", err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")) {
		t.Fatalf("output is not a PDF: %.20q", buf.Bytes())
	}
	r, err := pdf.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatalf("parse PDF: %v", err)
	}
	rd, err := r.GetPlainText()
	if err != nil {
		t.Fatalf("PDF text: %v", err)
	}
	text, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return string(text), r.NumPage()
}

func sampleHTML(t testing.TB, documentType string) string {
	t.Helper()
	for _, s := range legaltext.Samples() {
		if s.DocumentType == documentType {
			h, err := legaltext.RenderMarkdown(s.Markdown)
			if err != nil {
				t.Fatal(err)
			}
			return legaltext.ReplaceTokens(h, legaltext.Tokens{FirstName: "Jane", LastName: "Doe", ClientName: "Demo Employer", AccountingCode: "ACC-42"})
		}
	}
	t.Fatalf("no sample %s", documentType)
	return ""
}

func TestRender(t *testing.T) {
	signedAt := time.Date(2026, 11, 22, 14, 3, 5, 0, time.FixedZone("CET", 3600))
	content := sampleHTML(t, portal.DocAuthorization)
	base := signedpdf.Document{
		Title:           "Authorization for Background Check",
		ContentHTML:     content,
		SignerName:      "Jane Doe",
		SignerIP:        "203.0.113.7",
		SignedAt:        signedAt,
		DocumentVersion: 3,
		ContentSHA256:   signedpdf.ContentHash(content),
		SignaturePNG:    signaturePNG(t, false),
		Fields: []portal.LabeledValue{
			{Label: "First name", Value: "Jane"},
			{Label: "Authorizes the background check", Value: "Yes"},
		},
	}
	with := func(change func(*signedpdf.Document)) signedpdf.Document {
		d := base
		change(&d)
		return d
	}

	for _, tc := range []struct {
		name  string
		doc   signedpdf.Document
		want  []string
		pages int // minimum
	}{
		{"AuditTrailReadableFromPDF", base, []string{
			"Jane Doe", base.ContentSHA256, "203.0.113.7", "2026-11-22 13:03:05 UTC", "Document version:", "3",
			"Authorization for Background Check", "I, Jane Doe, have read", "Demo Employer", "ACC-42",
			"First name:", "Authorizes the background check:", "Yes", legaltext.SampleMarker[:11],
		}, 1},
		{"AcknowledgementWithoutImageRenders", with(func(d *signedpdf.Document) { d.SignaturePNG = nil }),
			[]string{"Jane Doe", base.ContentSHA256}, 1},
		{"SixteenBitPNGAccepted", with(func(d *signedpdf.Document) { d.SignaturePNG = signaturePNG(t, true) }),
			[]string{"Jane Doe", base.ContentSHA256}, 1},
		{"ListsAndLinksOfSampleRendered", with(func(d *signedpdf.Document) { d.ContentHTML = sampleHTML(t, portal.DocRightsFed) }),
			[]string{"You must be told if information in your file", "consumerfinance.gov/learnmore"}, 1},
		{"NonLatinTextDoesNotBreakRendering", with(func(d *signedpdf.Document) {
			d.SignerName = "José Ñúñez"
			d.ContentHTML = "<p>“Quoted” — 漢字 ≥ ✓ text</p>"
		}), []string{"Quoted", "text", base.ContentSHA256}, 1},
		{"PlainParagraphsWhenNoHTML", with(func(d *signedpdf.Document) {
			d.ContentHTML = ""
			d.Paragraphs = []string{"First paragraph.", "Second   paragraph."}
		}), []string{"First paragraph.", "Second paragraph."}, 1},
		{"LongContentSpansPages", with(func(d *signedpdf.Document) {
			d.ContentHTML = strings.Repeat("<p>"+strings.Repeat("A long clause of legal text. ", 30)+"</p>", 20)
		}), []string{"Jane Doe", base.ContentSHA256}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, pages := pdfText(t, tc.doc)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("PDF text lacks %q\n%s", w, text)
				}
			}
			if pages < tc.pages {
				t.Errorf("%d pages, want at least %d", pages, tc.pages)
			}
		})
	}

	for _, tc := range []struct {
		name string
		img  []byte
	}{
		{"BrokenPNGIsAnError", append([]byte("\x89PNG\r\n\x1a\n"), "not really a png"...)},
		{"TruncatedPNGIsAnError", signaturePNG(t, false)[:200]},
		{"JPEGIsAnError", []byte("\xff\xd8\xff\xe0\x00\x10JFIF")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := signedpdf.Render(&buf, with(func(d *signedpdf.Document) { d.SignaturePNG = tc.img }))
			if err == nil {
				t.Fatal("Render accepted a bad signature image")
			}
			if buf.Len() != 0 {
				t.Errorf("Render wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

// TestRenderNamesBeyondLatin1 checks that a name outside Windows-1252 is
// written as its own characters (Unicode code points, which the fonts'
// identity ToUnicode tables hand back to a reader) and that the embedded
// font has a glyph for each. The text extractor of the other tests reads
// only one-byte encodings, so the PDF objects are read directly.
func TestRenderNamesBeyondLatin1(t *testing.T) {
	name := "Łukasz Wróbel-Ørsted Иванов Ψάρρα"
	var buf bytes.Buffer
	err := signedpdf.Render(&buf, signedpdf.Document{Title: "Authorization", SignerName: name, SignedAt: time.Now(),
		DocumentVersion: 1, ContentSHA256: "abc"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := pdf.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	page := r.Page(1).V
	content, err := io.ReadAll(page.Key("Contents").Reader())
	if err != nil {
		t.Fatal(err)
	}
	var utf16 []byte
	for _, c := range name {
		utf16 = append(utf16, byte(c>>8), byte(c))
	}
	if !bytes.Contains(content, utf16) {
		t.Errorf("the page does not write %q as its code points", name)
	}
	fonts := page.Key("Resources").Key("Font")
	for _, key := range fonts.Keys() {
		font := fonts.Key(key)
		if !strings.HasSuffix(font.Key("BaseFont").Name(), "gosans") {
			continue
		}
		gids, err := io.ReadAll(font.Key("DescendantFonts").Index(0).Key("CIDToGIDMap").Reader())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range name {
			if int(c)*2+1 >= len(gids) || gids[c*2] == 0 && gids[c*2+1] == 0 {
				t.Errorf("the regular font has no glyph for %q", c)
			}
		}
		return
	}
	t.Fatal("no regular font on the page")
}

func TestContentHash(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"EmptyContent", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"ExactBytesHashed", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := signedpdf.ContentHash(tc.in); got != tc.want {
				t.Errorf("ContentHash(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
	t.Run("WhitespaceChangesHash", func(t *testing.T) {
		if signedpdf.ContentHash("<p>a</p>") == signedpdf.ContentHash("<p>a</p>\n") {
			t.Error("a trailing newline did not change the hash")
		}
	})
}

// TestRenderSignatureImages checks which signature images are decoded when
// printing: a compact one (as signing stores it) goes into the PDF as it
// is, one stored before compaction is compacted, and one beyond the limits
// is not decoded at all: the PDF says so instead.
func TestRenderSignatureImages(t *testing.T) {
	content := "<p>Text</p>"
	doc := func(img []byte) signedpdf.Document {
		return signedpdf.Document{Title: "Disclosure", ContentHTML: content, SignerName: "Jane Doe", SignedAt: time.Now(),
			DocumentVersion: 1, ContentSHA256: signedpdf.ContentHash(content), SignaturePNG: img}
	}
	render := func(t *testing.T, img []byte) []byte {
		t.Helper()
		var buf bytes.Buffer
		if err := signedpdf.Render(&buf, doc(img)); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	pad := padPNG(t, 1800, 480)
	compact, err := portal.CompactSignatureImage(pad)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("CompactImagePrintedAsStored", func(t *testing.T) {
		// fpdf copies the compressed pixels of an 8-bit grey PNG: the
		// image's IDAT data appears unchanged in the PDF.
		if out := render(t, compact); !bytes.Contains(out, idat(t, compact)) || !bytes.Contains(out, []byte("/DeviceGray")) {
			t.Error("the compact image was not printed as stored")
		}
	})
	t.Run("ImageStoredBeforeIsCompactedWhenPrinted", func(t *testing.T) {
		out := render(t, pad)
		if !bytes.Contains(out, idat(t, compact)) {
			t.Error("the pad's image was not printed as its compact form")
		}
	})
	t.Run("OversizedImageStoredBeforeNotDecoded", func(t *testing.T) {
		deep := image.NewNRGBA64(image.Rect(0, 0, 2000, 2000))
		deep.Set(1000, 1000, color.NRGBA64{A: 0xffff})
		var img bytes.Buffer
		if err := png.Encode(&img, deep); err != nil {
			t.Fatal(err)
		}
		text, _ := pdfText(t, doc(img.Bytes()))
		if !strings.Contains(text, "(2000 x 2000 pixels) is too large to print") || !strings.Contains(text, "Jane Doe") {
			t.Errorf("PDF text lacks the note:\n%s", text)
		}
	})
}

// idat returns the pixel data of a single-IDAT PNG.
func idat(t *testing.T, b []byte) []byte {
	t.Helper()
	i := bytes.Index(b, []byte("IDAT"))
	if i < 4 {
		t.Fatal("no IDAT chunk")
	}
	n := int(b[i-4])<<24 | int(b[i-3])<<16 | int(b[i-2])<<8 | int(b[i-1])
	return b[i+4 : i+4+n]
}

func sampleHTMLIn(t testing.TB, lang portal.Locale, documentType string) string {
	t.Helper()
	for _, s := range legaltext.SamplesIn(lang) {
		if s.DocumentType == documentType {
			h, err := legaltext.RenderMarkdown(s.Markdown)
			if err != nil {
				t.Fatal(err)
			}
			return legaltext.ReplaceTokens(h, legaltext.Tokens{FirstName: "Jane", LastName: "Doe", ClientName: "Demo Employer", AccountingCode: "ACC-42"})
		}
	}
	t.Fatalf("no sample %s %s", lang, documentType)
	return ""
}

// TestRenderInSpanish: a document signed in Spanish prints its Spanish
// text, and the PDF's own words, its date and its page numbers are
// Spanish too.
func TestRenderInSpanish(t *testing.T) {
	content := sampleHTMLIn(t, portal.LocaleEsUS, portal.DocAuthorization)
	text, _ := pdfText(t, signedpdf.Document{
		Title: "Autorización para la verificación de antecedentes", ContentHTML: content, SignerName: "Jane Doe",
		SignerIP: "203.0.113.7", SignedAt: time.Date(2026, 11, 27, 14, 3, 5, 0, time.UTC), DocumentVersion: 2,
		ContentSHA256: signedpdf.ContentHash(content), SignaturePNG: signaturePNG(t, false), Language: portal.LocaleEsUS,
		Fields: portal.SignatureFields{FirstName: "Jane", AuthConsent: true}.Labeled(),
	})
	for _, w := range []string{
		"Autorización para la verificación de antecedentes", "Yo, Jane Doe, leí", "Demo Employer", "ACC-42",
		"Firma electrónica", "Nombre:", "Autoriza la verificación de antecedentes:", "Sí",
		"Firmado por:", "Fecha de la firma:", "27 de noviembre de 2026, 14:03:05 UTC", "Dirección IP:",
		"Versión del documento:", "SHA-256 del contenido firmado:", "versión 2. Página 1 de 1", legaltext.SampleMarkerEsUS[:16],
	} {
		if !strings.Contains(text, w) {
			t.Errorf("PDF text lacks %q\n%s", w, text)
		}
	}
	for _, w := range []string{"Signed by", "Electronic signature", "Page 1", "Yes"} {
		if strings.Contains(text, w) {
			t.Errorf("the Spanish PDF writes %q", w)
		}
	}
}

// TestSpanishLabelsForEveryField: every value a signature can carry has a
// Spanish label, so a field added without one fails here, not in a
// Spanish applicant's PDF.
func TestSpanishLabelsForEveryField(t *testing.T) {
	all := portal.SignatureFields{
		FirstName: "Jane", LastName: "Doe", AckConsent: true, AckNotices: true, DeclineESign: true, AckReceipt: true,
		AuthConsent: true, AckReceiptYourRights: true, AckFed: true, AckNj: true, AckWa: true, AckSf: true, AckNy: true,
		AckCaCredit: true, AckVtCredit: true, AckMdCredit: true, LastFourSSN: "1234", NoSSN: true,
		IdentificationCountry: "MX", IdentificationNumber: "AB123456", FreeReportCopy: true, EmployerName: "Road & Rail",
		TestedPositiveOrRefused: portal.AnswerNo,
	}
	for _, f := range all.Labeled() {
		if got := signedpdf.PrintedField(portal.LocaleEsUS, f); got.Label == f.Label {
			t.Errorf("no Spanish label for %q", f.Label)
		}
		if got := signedpdf.PrintedField(portal.LocaleEnUS, f); got != f {
			t.Errorf("the English PDF prints %+v as %+v", f, got)
		}
	}
}
