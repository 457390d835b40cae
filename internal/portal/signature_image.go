package portal

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

// Limits of a signature image as the signing call accepts it. They are what
// the app's signature pad can produce, so that decoding an accepted image
// stays cheap: the pad is 160 CSS pixels tall and at most about 770 wide
// (the wizard's column just below its 900 px breakpoint), drawn at up to 3
// device pixels per CSS pixel (the pad caps devicePixelRatio at 3), which
// gives at most 2310 x 480, 1.1 million pixels; a typed signature is
// 600 x 150. Canvas PNGs are 8 bits per channel, so 16-bit images are
// refused: they double the cost of decoding and no pad makes them.
const (
	MaxSignatureBytes  = 204800 // 200 KB, after base64 decoding
	MaxSignatureWidth  = 2400
	MaxSignatureHeight = 900
	// MaxSignaturePixels bounds width times height: decoding costs 4 bytes
	// a pixel (6 MB at most), however well the PNG compresses.
	MaxSignaturePixels = 1_500_000
)

// What is stored and printed: the signature as an 8-bit grey PNG, cropped
// to the ink and at most this size (300 dpi across the PDF's 80 x 30 mm
// signature box), a few kilobytes that print without decoding.
const (
	CompactSignatureWidth  = 960
	CompactSignatureHeight = 360
)

var pngFileMagic = []byte("\x89PNG\r\n\x1a\n")

const signatureUnreadable = "The signature image could not be read. Please sign again."

// signatureTooLarge is the field error of an image past the size limits.
func signatureTooLarge() FieldError {
	return FieldErrorf("signature", "The signature image is too large: at most %d x %d pixels, %.1f million pixels in all.",
		MaxSignatureWidth, MaxSignatureHeight, float64(MaxSignaturePixels)/1e6)
}

// SignatureSizeAllowed reports whether an image of this size may be
// decoded: within MaxSignatureWidth, MaxSignatureHeight and
// MaxSignaturePixels.
func SignatureSizeAllowed(width, height int) bool {
	return width > 0 && height > 0 && width <= MaxSignatureWidth && height <= MaxSignatureHeight &&
		width*height <= MaxSignaturePixels
}

// CheckSignatureImage checks a signature image as the signing call accepts
// it: a PNG (by its magic bytes) of at most MaxSignatureBytes whose header
// (read before any pixel) gives 8 bits per channel and a size within
// SignatureSizeAllowed, and that decodes completely, so a signature that was
// accepted can always be printed. The error is a validation error on the
// signature field.
func CheckSignatureImage(img []byte) error {
	if err := checkSignatureHeader(img); err != nil {
		return err
	}
	src, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		return FieldErrors{{Field: "signature", Message: signatureUnreadable}}.Err()
	}
	if inkPixels(onWhite(src), MinSignatureInk) < MinSignatureInk {
		return FieldErrors{{Field: "signature", Message: signatureBlank}}.Err()
	}
	return nil
}

// MinSignatureInk is how many dark pixels a signature needs: a blank pad,
// or a dot, is no signature. The shortest stroke a pad draws, or a typed
// two-letter name, has hundreds.
const MinSignatureInk = 50

const signatureBlank = "The signature is blank. Please sign the document."

// inkPixels counts the pixels darker than light grey, stopping at limit.
func inkPixels(m *image.Gray, limit int) int {
	n := 0
	for _, p := range m.Pix {
		if p < 0xc0 {
			if n++; n >= limit {
				break
			}
		}
	}
	return n
}

func checkSignatureHeader(img []byte) error {
	var fe FieldErrors
	switch {
	case len(img) == 0:
		fe.Add("signature", "Please sign the document.")
	case !bytes.HasPrefix(img, pngFileMagic):
		fe.Add("signature", "The signature must be a PNG image.")
	case len(img) > MaxSignatureBytes:
		fe.Addf("signature", "The signature image is too large: at most %d KB.", MaxSignatureBytes/1024)
	default:
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		switch {
		case err != nil:
			fe.Add("signature", signatureUnreadable)
		case !SignatureSizeAllowed(cfg.Width, cfg.Height):
			fe = append(fe, signatureTooLarge())
		case deepColor(cfg.ColorModel):
			fe.Add("signature", "The signature must be a PNG image of 8 bits per channel, as a signature pad makes.")
		}
	}
	return fe.Err()
}

// deepColor reports the colour models of 16-bit PNGs.
func deepColor(m color.Model) bool {
	return m == color.Gray16Model || m == color.RGBA64Model || m == color.NRGBA64Model
}

// IsCompactSignatureImage reports whether img is already what
// CompactSignatureImage makes (by its PNG header): 8-bit grey without
// interlacing, within CompactSignatureWidth x CompactSignatureHeight. Such
// an image prints as it is.
func IsCompactSignatureImage(img []byte) bool {
	// The IHDR chunk comes first: length, type, width, height, bit depth,
	// colour type, compression, filter, interlace.
	if len(img) < 33 || !bytes.HasPrefix(img, pngFileMagic) || string(img[12:16]) != "IHDR" {
		return false
	}
	w, h := binary.BigEndian.Uint32(img[16:20]), binary.BigEndian.Uint32(img[20:24])
	depth, colorType, interlace := img[24], img[25], img[28]
	return w > 0 && h > 0 && w <= CompactSignatureWidth && h <= CompactSignatureHeight &&
		depth == 8 && colorType == 0 && interlace == 0
}

// CompactSignatureImage re-encodes a signature image as it is stored and
// printed: the ink on white (transparency flattened) in 8-bit grey, cropped
// to the ink with a small margin, and scaled down to fit
// CompactSignatureWidth x CompactSignatureHeight. It reads the PNG header
// first and decodes no image larger than SignatureSizeAllowed (a
// validation error on the signature field); 16-bit images are accepted
// here, so that signatures stored before that rule still print.
func CompactSignatureImage(img []byte) ([]byte, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		return nil, FieldErrors{{Field: "signature", Message: signatureUnreadable}}.Err()
	}
	if !SignatureSizeAllowed(cfg.Width, cfg.Height) {
		return nil, FieldErrors{signatureTooLarge()}.Err()
	}
	src, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		return nil, FieldErrors{{Field: "signature", Message: signatureUnreadable}}.Err()
	}
	gray := onWhite(src)
	small := shrink(gray, inkBounds(gray), CompactSignatureWidth, CompactSignatureHeight)
	var buf bytes.Buffer
	if err := png.Encode(&buf, small); err != nil {
		return nil, fmt.Errorf("portal: encode signature image: %w", err)
	}
	return buf.Bytes(), nil
}

// onWhite flattens an image onto white as 8-bit grey (ITU-R 601 luma, as
// the image/color package computes it).
func onWhite(src image.Image) *image.Gray {
	b := src.Bounds()
	dst := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	// luma of premultiplied 16-bit components over white: the uncovered
	// part (0xffff - a) is white.
	luma := func(r, g, bl, a uint32) uint8 {
		y := (19595*r + 38470*g + 7471*bl + 1<<15) >> 16
		return uint8((y + 0xffff - a) >> 8) // #nosec G115 -- (y + 0xffff - a) >> 8 is at most 0xff
	}
	// The canvas's PNGs decode to NRGBA (RGB when opaque): read their pixels
	// directly rather than through an interface value per pixel.
	switch m := src.(type) {
	case *image.NRGBA:
		for y := 0; y < b.Dy(); y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+4*b.Dx()]
			out := dst.Pix[y*dst.Stride:]
			for x := 0; x < b.Dx(); x++ {
				p := row[4*x : 4*x+4]
				a := uint32(p[3]) * 0x101
				out[x] = luma(uint32(p[0])*a/0xff, uint32(p[1])*a/0xff, uint32(p[2])*a/0xff, a)
			}
		}
	case *image.RGBA: // premultiplied already
		for y := 0; y < b.Dy(); y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+4*b.Dx()]
			out := dst.Pix[y*dst.Stride:]
			for x := 0; x < b.Dx(); x++ {
				p := row[4*x : 4*x+4]
				out[x] = luma(uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101, uint32(p[3])*0x101)
			}
		}
	default:
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				r, g, bl, a := src.At(b.Min.X+x, b.Min.Y+y).RGBA()
				dst.Pix[y*dst.Stride+x] = luma(r, g, bl, a)
			}
		}
	}
	return dst
}

// inkBounds is the rectangle around every pixel that is not white, with a
// margin of 2% of the larger side; the whole image when there is no ink.
func inkBounds(m *image.Gray) image.Rectangle {
	b := m.Bounds()
	ink := image.Rectangle{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := m.Pix[(y-b.Min.Y)*m.Stride:]
		for x := b.Min.X; x < b.Max.X; x++ {
			if row[x-b.Min.X] != 0xff {
				ink = ink.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if ink.Empty() {
		return b
	}
	pad := max(b.Dx(), b.Dy()) / 50
	return ink.Inset(-pad).Intersect(b)
}

// shrink copies the part r of m, scaled down (never up) to fit w x h: each
// pixel of the result is the mean of the pixels it covers.
func shrink(m *image.Gray, r image.Rectangle, w, h int) *image.Gray {
	scale := min(1, float64(w)/float64(r.Dx()), float64(h)/float64(r.Dy()))
	dw, dh := max(1, int(float64(r.Dx())*scale+0.5)), max(1, int(float64(r.Dy())*scale+0.5))
	sum := make([]uint32, dw*dh)
	n := make([]uint32, dw*dh)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		dy := (y - r.Min.Y) * dh / r.Dy()
		row := m.Pix[(y-m.Rect.Min.Y)*m.Stride:]
		for x := r.Min.X; x < r.Max.X; x++ {
			i := dy*dw + (x-r.Min.X)*dw/r.Dx()
			sum[i] += uint32(row[x-m.Rect.Min.X])
			n[i]++
		}
	}
	out := image.NewGray(image.Rect(0, 0, dw, dh))
	for i := range sum {
		out.Pix[i] = uint8((sum[i] + n[i]/2) / n[i]) // #nosec G115 -- a mean of 8-bit samples fits 8 bits
	}
	return out
}
