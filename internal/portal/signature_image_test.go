package portal_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

func encode(t *testing.T, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ink draws a dark 3-pixel-high line from (x0, y) to (x1, y) on m.
func ink(m *image.NRGBA, x0, x1, y int) *image.NRGBA {
	for x := x0; x < x1; x++ {
		for dy := range 3 {
			m.Set(x, y+dy, color.NRGBA{R: 30, G: 30, B: 30, A: 255})
		}
	}
	return m
}

func canvas(w, h int, white bool) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	if white {
		for i := range m.Pix {
			m.Pix[i] = 0xff
		}
	}
	return m
}

func signatureMessage(t *testing.T, err error) string {
	t.Helper()
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Code != portal.EINVALID || len(pe.Fields) != 1 || pe.Fields[0].Field != "signature" {
		t.Fatalf("error = %v, want a validation error on signature", err)
	}
	return pe.Fields[0].Message
}

func TestCheckSignatureImage(t *testing.T) {
	deep := image.NewNRGBA64(image.Rect(0, 0, 300, 100))
	deepGray := image.NewGray16(image.Rect(0, 0, 300, 100))
	pal := image.NewPaletted(image.Rect(0, 0, 300, 100), color.Palette{color.White, color.Black})
	for x := 20; x < 280; x++ {
		pal.SetColorIndex(x, 50, 1)
	}
	dot := image.NewGray(image.Rect(0, 0, 1, 1)) // one black pixel
	for _, tc := range []struct {
		name string
		img  []byte
		want string // part of the message; "" means accepted
	}{
		{"PadImageAccepted", encode(t, ink(canvas(2310, 480, true), 100, 2000, 200)), ""},
		{"TypedImageAccepted", encode(t, ink(canvas(600, 150, true), 30, 500, 70)), ""},
		{"PalettedAccepted", encode(t, pal), ""},
		{"LargestAccepted", encode(t, ink(canvas(portal.MaxSignatureWidth, portal.MaxSignaturePixels/portal.MaxSignatureWidth, true), 100, 2000, 200)), ""},
		{"ErrBlankWhitePad", encode(t, canvas(600, 150, true)), "blank"},
		{"ErrBlankTransparentPad", encode(t, canvas(2310, 480, false)), "blank"},
		{"ErrOneDot", encode(t, dot), "blank"},
		{"ErrAFewDots", encode(t, ink(canvas(300, 100, true), 10, 12, 50)), "blank"},
		{"ErrSixteenBitRGBA", encode(t, deep), "8 bits per channel"},
		{"ErrSixteenBitGrey", encode(t, deepGray), "8 bits per channel"},
		{"ErrTooWide", encode(t, canvas(portal.MaxSignatureWidth+1, 10, false)), "too large"},
		{"ErrTooTall", encode(t, canvas(10, portal.MaxSignatureHeight+1, false)), "too large"},
		{"ErrTooManyPixels", encode(t, canvas(portal.MaxSignatureWidth, portal.MaxSignaturePixels/portal.MaxSignatureWidth+1, false)), "million pixels"},
		// Only the header is there: the size is refused before any pixel
		// would be decoded.
		{"ErrHugeCanvasRefusedFromItsHeader", pngHeader(2000, 2000), "too large"},
		{"ErrNotPNG", []byte("GIF89a...."), "must be a PNG"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := portal.CheckSignatureImage(tc.img)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if msg := signatureMessage(t, err); !strings.Contains(msg, tc.want) {
				t.Errorf("message %q does not contain %q", msg, tc.want)
			}
		})
	}
}

func TestCompactSignatureImage(t *testing.T) {
	compact := func(t *testing.T, img []byte) *image.Gray {
		t.Helper()
		out, err := portal.CompactSignatureImage(img)
		if err != nil {
			t.Fatal(err)
		}
		if !portal.IsCompactSignatureImage(out) {
			t.Error("the result is not recognized as compact")
		}
		m, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		g, ok := m.(*image.Gray)
		if !ok {
			t.Fatalf("result decodes to %T, want 8-bit grey", m)
		}
		return g
	}
	t.Run("CroppedToInkWithMargin", func(t *testing.T) {
		g := compact(t, encode(t, ink(canvas(600, 150, true), 200, 400, 70)))
		// ink 200 x 3, margin 2% of 600 = 12 on each side
		if w, h := g.Bounds().Dx(), g.Bounds().Dy(); w != 224 || h != 27 {
			t.Errorf("size %dx%d, want 224x27", w, h)
		}
	})
	t.Run("ScaledDownToFit", func(t *testing.T) {
		g := compact(t, encode(t, ink(ink(canvas(2310, 480, true), 0, 2310, 0), 0, 2310, 477)))
		if w, h := g.Bounds().Dx(), g.Bounds().Dy(); w != portal.CompactSignatureWidth || h != 199 {
			t.Errorf("size %dx%d, want %dx199", w, h, portal.CompactSignatureWidth)
		}
	})
	t.Run("NeverScaledUp", func(t *testing.T) {
		g := compact(t, encode(t, ink(canvas(40, 10, true), 0, 40, 3)))
		// cropped to the ink (a margin of 2% of 40 is none), not enlarged
		if w, h := g.Bounds().Dx(), g.Bounds().Dy(); w != 40 || h != 3 {
			t.Errorf("size %dx%d, want 40x3", w, h)
		}
	})
	t.Run("TransparencyBecomesWhiteAndInkStaysDark", func(t *testing.T) {
		g := compact(t, encode(t, ink(canvas(100, 40, false), 10, 90, 18)))
		if c := g.GrayAt(0, 0).Y; c != 0xff {
			t.Errorf("corner = %d, want white", c)
		}
		if c := g.GrayAt(g.Bounds().Dx()/2, g.Bounds().Dy()/2).Y; c > 40 {
			t.Errorf("ink = %d, want dark", c)
		}
	})
	t.Run("BlankKeepsTheCanvas", func(t *testing.T) {
		g := compact(t, encode(t, canvas(300, 100, true)))
		if w, h := g.Bounds().Dx(), g.Bounds().Dy(); w != 300 || h != 100 {
			t.Errorf("size %dx%d, want 300x100", w, h)
		}
	})
	t.Run("SixteenBitStoredBeforeStillCompacts", func(t *testing.T) {
		m := image.NewNRGBA64(image.Rect(0, 0, 300, 100))
		for x := 50; x < 250; x++ {
			m.Set(x, 50, color.NRGBA64{A: 0xffff})
		}
		compact(t, encode(t, m))
	})
	t.Run("ErrOversizedNotDecoded", func(t *testing.T) {
		_, err := portal.CompactSignatureImage(pngHeader(2000, 2000))
		if msg := signatureMessage(t, err); !strings.Contains(msg, "too large") {
			t.Errorf("message %q, want too large (refused from the header)", msg)
		}
	})
	t.Run("ErrTruncated", func(t *testing.T) {
		_, err := portal.CompactSignatureImage(pngHeader(20, 20))
		if msg := signatureMessage(t, err); !strings.Contains(msg, "could not be read") {
			t.Errorf("message %q", msg)
		}
	})
}

func TestIsCompactSignatureImage(t *testing.T) {
	gray := func(w, h int) []byte { return encode(t, image.NewGray(image.Rect(0, 0, w, h))) }
	for _, tc := range []struct {
		name string
		img  []byte
		want bool
	}{
		{"GreyWithinBounds", gray(portal.CompactSignatureWidth, portal.CompactSignatureHeight), true},
		{"GreyTooWide", gray(portal.CompactSignatureWidth+1, 10), false},
		{"GreyTooTall", gray(10, portal.CompactSignatureHeight+1), false},
		{"RGBA", encode(t, canvas(100, 40, false)), false},
		{"SixteenBitGrey", encode(t, image.NewGray16(image.Rect(0, 0, 100, 40))), false},
		{"NotPNG", []byte("GIF89a and some more bytes to be long enough"), false},
		{"Empty", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := portal.IsCompactSignatureImage(tc.img); got != tc.want {
				t.Errorf("IsCompactSignatureImage = %v, want %v", got, tc.want)
			}
		})
	}
}
