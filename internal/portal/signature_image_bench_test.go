package portal_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"applicantportal/internal/portal"
)

func BenchmarkCompactSignatureImage(b *testing.B) {
	w, h := portal.MaxSignatureWidth, portal.MaxSignaturePixels/portal.MaxSignatureWidth
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		m.Set(x, x*(h-1)/(w-1), color.NRGBA{A: 255})
	}
	var buf bytes.Buffer
	png.Encode(&buf, m)
	b.Run("Check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := portal.CheckSignatureImage(buf.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Compact", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := portal.CompactSignatureImage(buf.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
