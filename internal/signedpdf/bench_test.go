package signedpdf_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/signedpdf"
)

// BenchmarkSignedPDFRender reports the time and allocations of one signed
// PDF (the authorization sample) per kind of stored signature image:
// compacted at signing, as stored before compaction (a pad's 8-bit RGBA
// image, re-encoded on each render), and the 16-bit 2000 x 2000 image of
// issue 8, which is not decoded.
func BenchmarkSignedPDFRender(b *testing.B) {
	content := sampleHTML(b, portal.DocAuthorization)
	pad := padPNG(b, 1800, 480)
	compact, err := portal.CompactSignatureImage(pad)
	if err != nil {
		b.Fatal(err)
	}
	deep := image.NewNRGBA64(image.Rect(0, 0, 2000, 2000))
	for x := 10; x < 1990; x++ {
		deep.Set(x, 1000+(x%400)-200, color.NRGBA64{A: 0xffff})
	}
	var deepPNG bytes.Buffer
	png.Encode(&deepPNG, deep)

	for _, bc := range []struct {
		name string
		img  []byte
	}{
		{"CompactSignature", compact},
		{"PadSignatureStoredBefore", pad},
		{"OversizedSignatureStoredBefore", deepPNG.Bytes()},
		{"NoSignatureImage", nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			d := signedpdf.Document{Title: "Authorization for Background Check", ContentHTML: content,
				SignerName: "Jane Doe", SignerIP: "203.0.113.7", SignedAt: time.Now(), DocumentVersion: 1,
				ContentSHA256: signedpdf.ContentHash(content), SignaturePNG: bc.img,
				Fields: []portal.LabeledValue{{Label: "First name", Value: "Jane"}}}
			b.ReportAllocs()
			for b.Loop() {
				if err := signedpdf.Render(io.Discard, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// padPNG is a drawn signature as the pad sends it: dark ink on an opaque
// white canvas, 8-bit RGBA.
func padPNG(tb testing.TB, w, h int) []byte {
	tb.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = 0xff
	}
	for x := w / 10; x < w*9/10; x++ {
		for dy := range 4 {
			m.Set(x, h/2+(x%(h/2))-h/4+dy, color.NRGBA{R: 10, G: 10, B: 10, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
