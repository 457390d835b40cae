// Package signedpdf renders a signed legal document as a PDF an auditor can
// keep: the text as signed, then who signed it, when, from where, with which
// signature image, and the SHA-256 of the exact content signed.
package signedpdf

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/png"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"applicantportal/internal/portal"
)

// ContentHash is the hex SHA-256 of the exact bytes of the content signed.
// The same function serves signing and the PDF, so both always agree.
func ContentHash(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:])
}

// Document is what the PDF shows.
type Document struct {
	Title           string
	ContentHTML     string   // the sanitized HTML exactly as shown and signed
	Paragraphs      []string // plain text, used when ContentHTML is empty
	SignerName      string
	SignerIP        string
	SignedAt        time.Time
	DocumentVersion int
	ContentSHA256   string
	SignaturePNG    []byte // empty for acknowledgement-only steps
	Fields          []portal.LabeledValue
	// Language is the language of the text signed; the PDF's own words
	// (titles, labels, dates, page numbers) are in it. "" is en-US.
	Language portal.Locale
}

// Page layout in millimetres, on US Letter.
const (
	margin     = 20.0
	lineHeight = 5.0
	bodySize   = 10.5
	indentStep = 6.0
	sigBoxW    = 80.0
	sigBoxH    = 30.0
)

// Render writes the PDF. A signature image that is not a readable PNG is an
// error.
func Render(out io.Writer, d Document) error {
	w := wordsFor(d.Language)
	var sig []byte
	var sigNote string
	if len(d.SignaturePNG) > 0 {
		var err error
		if sig, sigNote, err = printableSignature(d.SignaturePNG, w); err != nil {
			return err
		}
	}

	pdf := fpdf.New("P", "mm", "Letter", "")
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(true, margin)
	pdf.SetTitle(d.Title, true)
	pdf.SetCreator("Applicant Portal", true)
	pdf.SetProducer("Applicant Portal", true)
	pdf.SetCreationDate(d.SignedAt.UTC())
	pdf.SetModificationDate(d.SignedAt.UTC())
	pdf.AliasNbPages("{nb}")
	addFonts(pdf)
	tr := standIns
	r := &renderer{pdf: pdf, tr: tr, w: w}

	pdf.SetFooterFunc(func() {
		pdf.SetY(-margin + 5)
		pdf.SetFont(sans, "", 8)
		pdf.SetTextColor(110, 110, 110)
		title := []rune(d.Title)
		if len(title) > 70 {
			title = append(title[:69], '\u2026')
		}
		pdf.CellFormat(0, 4, tr(fmt.Sprintf(w.footer, string(title), d.DocumentVersion, pdf.PageNo())), "", 0, "C", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
	})
	pdf.AddPage()

	pdf.SetFont(sans, "B", 16)
	pdf.MultiCell(0, 7, tr(d.Title), "", "L", false)
	pdf.Ln(2)

	content := blocksFromHTML(d.ContentHTML)
	if strings.TrimSpace(d.ContentHTML) == "" {
		for _, p := range d.Paragraphs {
			content = append(content, block{kind: paragraph, runs: collapse([]run{{text: p}})})
		}
	}
	for _, b := range content {
		r.block(b)
	}

	r.signatureBlock(d, sig, sigNote)
	if err := pdf.Output(out); err != nil {
		return fmt.Errorf("signedpdf: %w", err)
	}
	return nil
}

// The Go fonts, embedded (subset) in every PDF: unlike the PDF core fonts,
// they print names beyond Windows-1252 (Łukasz, Ørsted, Ψάρρα, Иванов).
const (
	sans = "gosans"
	mono = "gomono"
)

func addFonts(pdf *fpdf.Fpdf) {
	pdf.AddUTF8FontFromBytes(sans, "", goregular.TTF)
	pdf.AddUTF8FontFromBytes(sans, "B", gobold.TTF)
	pdf.AddUTF8FontFromBytes(sans, "I", goitalic.TTF)
	pdf.AddUTF8FontFromBytes(sans, "BI", gobolditalic.TTF)
	pdf.AddUTF8FontFromBytes(mono, "", gomono.TTF)
}

// standIns gives a few symbols the fonts lack a readable stand-in.
var standIns = strings.NewReplacer("\u2713", "x", "\u2714", "x").Replace

// printableSignature returns the signature image as the PDF prints it.
// Images stored since signing compacts them print as they are; older ones
// are compacted here with the same limits, and one beyond them (decoding it
// would cost far more memory than a signature deserves) is not decoded:
// the PDF says so in its place (note). An image that is not a readable PNG
// is an error.
func printableSignature(b []byte, w words) (img []byte, note string, err error) {
	if portal.IsCompactSignatureImage(b) {
		return b, "", nil
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, "", fmt.Errorf("signedpdf: signature image: %w", err)
	}
	if !portal.SignatureSizeAllowed(cfg.Width, cfg.Height) {
		return nil, fmt.Sprintf(w.imageTooBig, cfg.Width, cfg.Height), nil
	}
	if img, err = portal.CompactSignatureImage(b); err != nil {
		return nil, "", fmt.Errorf("signedpdf: signature image: %w", err)
	}
	return img, "", nil
}

type renderer struct {
	pdf *fpdf.Fpdf
	tr  func(string) string
	w   words
}

func (r *renderer) block(b block) {
	pdf := r.pdf
	left := margin + float64(b.indent)*indentStep
	pdf.SetLeftMargin(left)
	pdf.SetX(left)
	defer pdf.SetLeftMargin(margin)

	size, style, h := bodySize, "", lineHeight
	switch b.kind {
	case heading:
		size, style, h = headingSize(b.level), "B", 6.5
		pdf.Ln(2)
	case rule:
		y := pdf.GetY() + 1
		pdf.SetDrawColor(160, 160, 160)
		pageW, _ := pdf.GetPageSize()
		pdf.Line(left, y, pageW-margin, y)
		pdf.Ln(3)
		return
	case listItem:
		pdf.SetFont(sans, "", bodySize)
		marker := r.tr(b.marker)
		pdf.SetX(left - indentStep)
		pdf.CellFormat(indentStep, h, marker, "", 0, "L", false, 0, "")
	}
	for _, x := range b.runs {
		st := style
		if x.bold && !strings.Contains(st, "B") {
			st += "B"
		}
		if x.italic {
			st += "I"
		}
		if x.underline {
			st += "U"
		}
		pdf.SetFont(sans, st, size)
		if x.link != "" {
			pdf.SetTextColor(20, 80, 170)
			pdf.WriteLinkString(h, r.tr(x.text), x.link)
			pdf.SetTextColor(0, 0, 0)
		} else {
			pdf.Write(h, r.tr(x.text))
		}
	}
	pdf.Ln(h)
	if b.kind != listItem && b.kind != tableRow {
		pdf.Ln(1.5)
	}
}

func headingSize(level int) float64 {
	switch level {
	case 1:
		return 14
	case 2:
		return 12.5
	case 3:
		return 11.5
	}
	return bodySize
}

// signatureBlock prints the audit trail, on a new page when it would not fit.
func (r *renderer) signatureBlock(d Document, sig []byte, sigNote string) {
	pdf, tr, w := r.pdf, r.tr, r.w
	_, pageH := pdf.GetPageSize()
	need := 60.0 + float64(len(d.Fields))*lineHeight
	if len(sig) > 0 {
		need += sigBoxH
	}
	if pdf.GetY()+need > pageH-margin {
		pdf.AddPage()
	}
	pdf.Ln(4)
	pdf.SetDrawColor(0, 0, 0)
	pageW, _ := pdf.GetPageSize()
	pdf.Line(margin, pdf.GetY(), pageW-margin, pdf.GetY())
	pdf.Ln(3)
	pdf.SetFont(sans, "B", 12)
	pdf.CellFormat(0, 7, tr(w.signature), "", 1, "L", false, 0, "")

	line := func(label, value string) {
		pdf.SetFont(sans, "B", 9.5)
		pdf.CellFormat(48, lineHeight, tr(label), "", 0, "L", false, 0, "")
		pdf.SetFont(sans, "", 9.5)
		pdf.MultiCell(0, lineHeight, tr(value), "", "L", false)
	}
	for _, f := range d.Fields {
		f = w.field(f)
		line(f.Label+":", f.Value)
	}
	if len(sig) > 0 {
		pdf.Ln(2)
		r.signatureImage(sig)
	} else if sigNote != "" {
		line(w.imageLabel, sigNote)
	}
	line(w.signedBy, d.SignerName)
	line(w.signedAt, w.formatSigned(d.SignedAt))
	line(w.ip, d.SignerIP)
	line(w.version, strconv.Itoa(d.DocumentVersion))
	pdf.SetFont(sans, "B", 9.5)
	pdf.CellFormat(0, lineHeight, tr(w.contentHash), "", 1, "L", false, 0, "")
	pdf.SetFont(mono, "", 9)
	pdf.CellFormat(0, lineHeight, d.ContentSHA256, "", 1, "L", false, 0, "")
}

// signatureImage draws the image inside a box, keeping its proportions.
func (r *renderer) signatureImage(img []byte) {
	pdf := r.pdf
	info := pdf.RegisterImageOptionsReader("signature", fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(img))
	if pdf.Err() || info == nil {
		return // Output reports the error
	}
	w, h := info.Width(), info.Height()
	scale := min(sigBoxW/w, sigBoxH/h)
	w, h = w*scale, h*scale
	x, y := margin, pdf.GetY()
	pdf.SetDrawColor(180, 180, 180)
	pdf.Rect(x, y, sigBoxW, sigBoxH, "D")
	pdf.ImageOptions("signature", x+(sigBoxW-w)/2, y+(sigBoxH-h)/2, w, h, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	pdf.SetY(y + sigBoxH + 2)
}

// From sanitized HTML to blocks the PDF can lay out.

type blockKind int

const (
	paragraph blockKind = iota
	heading
	listItem
	tableRow
	rule
)

type run struct {
	text                    string
	bold, italic, underline bool
	link                    string
}

type block struct {
	kind   blockKind
	level  int    // heading level
	marker string // list item marker: a bullet or "3."
	indent int    // list depth
	runs   []run
}

type list struct {
	ordered bool
	next    int
}

type converter struct {
	blocks []block
	cur    *block
	lists  []list
	style  run // the inline style in effect
}

// blocksFromHTML turns sanitized HTML into headings, paragraphs, list items,
// table rows and rules, with bold, italic, underline and links kept.
func blocksFromHTML(s string) []block {
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, DataAtom: atom.Body, Data: "body"})
	if err != nil {
		return []block{{kind: paragraph, runs: []run{{text: s}}}}
	}
	c := &converter{}
	for _, n := range nodes {
		c.node(n)
	}
	c.flush()
	return c.blocks
}

func (c *converter) start(kind blockKind) {
	// A paragraph opening inside a list item that holds no text yet belongs
	// to that item.
	if c.cur != nil && c.cur.kind == listItem && len(c.cur.runs) == 0 && kind == paragraph {
		return
	}
	c.flush()
	c.cur = &block{kind: kind, indent: len(c.lists)}
}

func (c *converter) flush() {
	if c.cur == nil {
		return
	}
	b := *c.cur
	c.cur = nil
	b.runs = collapse(b.runs)
	if len(b.runs) > 0 || b.kind == rule {
		c.blocks = append(c.blocks, b)
	}
}

func (c *converter) text(t string) {
	if c.cur == nil {
		if strings.TrimSpace(t) == "" {
			return
		}
		c.start(paragraph)
	}
	x := c.style
	x.text = t
	c.cur.runs = append(c.cur.runs, x)
}

func (c *converter) children(n *html.Node) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.node(ch)
	}
}

func (c *converter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		c.text(n.Data)
		return
	case html.ElementNode:
	default:
		c.children(n)
		return
	}
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Head, atom.Title:
		return
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		c.start(heading)
		c.cur.level = int(n.Data[1] - '0')
		c.children(n)
		c.flush()
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Blockquote,
		atom.Address, atom.Pre, atom.Dt, atom.Dd, atom.Caption, atom.Table, atom.Thead, atom.Tbody, atom.Tfoot, atom.Dl:
		c.start(paragraph)
		c.children(n)
		c.flush()
	case atom.Ul, atom.Ol:
		c.flush()
		l := list{ordered: n.DataAtom == atom.Ol, next: 1}
		if v, err := strconv.Atoi(attr(n, "start")); err == nil {
			l.next = v
		}
		c.lists = append(c.lists, l)
		c.children(n)
		c.flush()
		c.lists = c.lists[:len(c.lists)-1]
	case atom.Li:
		c.flush()
		c.cur = &block{kind: listItem, indent: max(len(c.lists), 1), marker: "\u2022"}
		if k := len(c.lists) - 1; k >= 0 && c.lists[k].ordered {
			c.cur.marker = strconv.Itoa(c.lists[k].next) + "."
			c.lists[k].next++
		}
		c.children(n)
		c.flush()
	case atom.Tr:
		c.flush()
		c.cur = &block{kind: tableRow, indent: len(c.lists)}
		cells := 0
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.DataAtom != atom.Td && ch.DataAtom != atom.Th {
				continue
			}
			if cells > 0 {
				c.text(" | ")
			}
			cells++
			saved := c.style
			c.style.bold = c.style.bold || ch.DataAtom == atom.Th
			c.children(ch)
			c.style = saved
		}
		c.flush()
	case atom.Hr:
		c.flush()
		c.blocks = append(c.blocks, block{kind: rule})
	case atom.Br:
		c.text("\n")
	case atom.Strong, atom.B, atom.Em, atom.I, atom.U, atom.A:
		saved := c.style
		switch n.DataAtom {
		case atom.Strong, atom.B:
			c.style.bold = true
		case atom.Em, atom.I:
			c.style.italic = true
		case atom.U:
			c.style.underline = true
		case atom.A:
			c.style.link = attr(n, "href")
		}
		c.children(n)
		c.style = saved
		if n.DataAtom == atom.A {
			if href := attr(n, "href"); href != "" && !strings.Contains(href, strings.TrimSpace(textOf(n))) {
				c.text(" (" + strings.TrimPrefix(href, "mailto:") + ")")
			}
		}
	default:
		c.children(n)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(n)
	return b.String()
}

// collapse applies HTML's white-space rules: runs of white space become one
// space, none at the start or end of a block or around a line break.
func collapse(runs []run) []run {
	var out []run
	atStart := true // at the block start or just after a line break
	for _, x := range runs {
		if x.text == "\n" {
			if n := len(out); n > 0 {
				out[n-1].text = strings.TrimRight(out[n-1].text, " ")
			}
			out = append(out, x)
			atStart = true
			continue
		}
		t := strings.Join(strings.Fields(x.text), " ")
		if t == "" {
			if !atStart && len(x.text) > 0 && len(out) > 0 && !strings.HasSuffix(out[len(out)-1].text, " ") {
				out[len(out)-1].text += " "
			}
			continue
		}
		if isSpace(x.text[0]) && !atStart && len(out) > 0 && !strings.HasSuffix(out[len(out)-1].text, " ") {
			t = " " + t
		}
		if isSpace(x.text[len(x.text)-1]) {
			t += " "
		}
		x.text = t
		out = append(out, x)
		atStart = false
	}
	for len(out) > 0 {
		last := &out[len(out)-1]
		last.text = strings.TrimRight(last.text, " \n")
		if last.text != "" {
			break
		}
		out = out[:len(out)-1]
	}
	return out
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' || b == '\f' }
