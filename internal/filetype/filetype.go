// Package filetype decides what an uploaded file really is from its first
// bytes, checks that against what the browser declared and what the name
// says, and cleans the name before it is stored (issue 11's contract: the
// families an applicant may upload, and nothing that a browser could run).
package filetype

import (
	"bytes"
	"encoding/binary"
	"mime"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"applicantportal/internal/portal"
)

// HeadSize is how many first bytes Check needs to decide.
const HeadSize = 512

// Family is a group of formats told apart by the same magic bytes.
type Family string

const (
	PDF   Family = "pdf"
	PNG   Family = "png"
	JPEG  Family = "jpeg"
	GIF   Family = "gif"
	OLE   Family = "ole"   // Word .doc and Excel .xls (OLE compound files)
	OOXML Family = "ooxml" // Word .docx and Excel .xlsx (zip with OOXML parts)
)

// Content types the portal stores.
const (
	TypePDF     = "application/pdf"
	TypePNG     = "image/png"
	TypeJPEG    = "image/jpeg"
	TypeGIF     = "image/gif"
	TypeDoc     = "application/msword"
	TypeXls     = "application/vnd.ms-excel"
	TypeOffice  = "application/vnd.ms-office"
	TypeDocx    = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	TypeXlsx    = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	TypeUnknown = "application/octet-stream"
)

// Kind is what Check found: the family and the content type to store.
type Kind struct {
	Family      Family
	ContentType string
}

// Ext is the extension of the kind's stored type, for a name that has none.
func (k Kind) Ext() string {
	switch k.ContentType {
	case TypePDF:
		return ".pdf"
	case TypePNG:
		return ".png"
	case TypeJPEG:
		return ".jpg"
	case TypeGIF:
		return ".gif"
	case TypeXls:
		return ".xls"
	case TypeDocx:
		return ".docx"
	case TypeXlsx:
		return ".xlsx"
	case TypeDoc:
		return ".doc"
	case TypeOffice:
		// A generic office file keeps its container's extension: an OOXML
		// zip named .doc would be stored under a name its content
		// contradicts (FuzzCheck found it).
		if k.Family == OOXML {
			return ".docx"
		}
		return ".doc"
	}
	return ""
}

// Messages of the refusals (contract.md).
const (
	MsgNotAccepted = "This file type is not accepted. Upload a PDF, an image (JPEG, PNG or GIF), or a Word or Excel document."
	MsgEmpty       = "The file is empty."
)

// ErrNotAccepted is a type that is not on the list (an .exe, HTML, a plain
// zip...).
var ErrNotAccepted = &portal.Error{Code: portal.EUNSUPPORTED, Message: MsgNotAccepted}

// ErrTooLarge is an applicant's upload past portal.MaxUploadSize.
var ErrTooLarge = &portal.Error{Code: portal.ETOOLARGE,
	Message: "The file is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution."}

// ErrEmpty is an upload of no bytes.
var ErrEmpty = &portal.Error{Code: portal.EINVALID, Message: portal.ValidationMessage,
	Fields: []portal.FieldError{{Field: "file", Message: MsgEmpty}}}

// errNotReal is a file whose content is not what its type or name claims.
func errNotReal(claim string) error {
	return portal.Errorf(portal.EUNSUPPORTED, "The file's content does not match its type: it is not a real %s.", claim)
}

// claim is what a declared type or an extension says the file is: a
// family, the type it implies (empty when the family decides), and how the
// applicant would name it in a message.
type claim struct {
	family Family
	typ    string
	name   string
}

// byExtension are the extensions accepted (lower case).
var byExtension = map[string]claim{
	".pdf":  {PDF, TypePDF, "PDF"},
	".png":  {PNG, TypePNG, "PNG image"},
	".jpg":  {JPEG, TypeJPEG, "JPEG image"},
	".jpeg": {JPEG, TypeJPEG, "JPEG image"},
	".gif":  {GIF, TypeGIF, "GIF image"},
	".doc":  {OLE, TypeDoc, "Word document"},
	".xls":  {OLE, TypeXls, "Excel workbook"},
	".docx": {OOXML, TypeDocx, "Word document"},
	".xlsx": {OOXML, TypeXlsx, "Excel workbook"},
}

// byDeclared are the declared types accepted (spec section 5), with the
// few aliases browsers and phones send. Octet-stream and an empty type
// claim nothing: the content decides.
var byDeclared = map[string][]claim{
	TypePDF:             {{PDF, TypePDF, "PDF"}},
	"application/x-pdf": {{PDF, TypePDF, "PDF"}},
	TypePNG:             {{PNG, TypePNG, "PNG image"}},
	TypeJPEG:            {{JPEG, TypeJPEG, "JPEG image"}},
	"image/jpg":         {{JPEG, TypeJPEG, "JPEG image"}},
	"image/pjpeg":       {{JPEG, TypeJPEG, "JPEG image"}},
	TypeGIF:             {{GIF, TypeGIF, "GIF image"}},
	TypeDoc:             {{OLE, TypeDoc, "Word document"}},
	TypeXls:             {{OLE, TypeXls, "Excel workbook"}},
	TypeDocx:            {{OOXML, TypeDocx, "Word document"}},
	TypeXlsx:            {{OOXML, TypeXlsx, "Excel workbook"}},
	// The generic office type covers both kinds of office files.
	TypeOffice: {{OLE, "", "Office document"}, {OOXML, "", "Office document"}},
}

// Check decides the kind of a file named name, declared as declared by the
// browser, whose first bytes are head (at least HeadSize of them unless the
// file is shorter). The content decides; the declared type and the name's
// extension must agree with it. Errors: ErrEmpty (EINVALID) for no bytes,
// EUNSUPPORTED with the contract's messages for the rest.
func Check(name, declared string, head []byte) (Kind, error) {
	if len(head) == 0 {
		return Kind{}, ErrEmpty
	}
	// The name and the declared type are checked first: a type not on the
	// list is refused whatever the content.
	// The extension is the one the stored name will have (SanitizeName):
	// "x.html." or "x.ht\u200Bml" is stored as x.html.
	var byName *claim
	if ext := strings.ToLower(extension(cleanName(name))); ext != "" {
		c, ok := byExtension[ext]
		if !ok {
			return Kind{}, ErrNotAccepted
		}
		byName = &c
	}
	var declaredClaims []claim
	if mt := mediaType(declared); mt != "" && mt != TypeUnknown {
		c, ok := byDeclared[mt]
		if !ok {
			return Kind{}, ErrNotAccepted
		}
		declaredClaims = c
	}

	fam := sniff(head)
	if fam == "" {
		// Executables, scripts, HTML, SVG, plain zips, text...
		switch {
		case byName != nil:
			return Kind{}, errNotReal(byName.name)
		case len(declaredClaims) > 0:
			return Kind{}, errNotReal(declaredClaims[0].name)
		}
		return Kind{}, ErrNotAccepted
	}
	var declaredType string
	if len(declaredClaims) > 0 {
		match := false
		for _, c := range declaredClaims {
			if c.family == fam {
				match, declaredType = true, c.typ
			}
		}
		if !match {
			return Kind{}, errNotReal(declaredClaims[0].name)
		}
	}
	if byName != nil && byName.family != fam {
		return Kind{}, errNotReal(byName.name)
	}

	k := Kind{Family: fam}
	switch fam {
	case PDF:
		k.ContentType = TypePDF
	case PNG:
		k.ContentType = TypePNG
	case JPEG:
		k.ContentType = TypeJPEG
	case GIF:
		k.ContentType = TypeGIF
	case OLE, OOXML:
		// Word or Excel: the name says, else the declared type, else (for
		// OOXML) the first part's folder; an OLE file that nothing names
		// is a generic office file.
		switch {
		case byName != nil:
			k.ContentType = byName.typ
		case declaredType != "":
			k.ContentType = declaredType
		case fam == OOXML:
			k.ContentType = ooxmlTypeOf(head)
		default:
			k.ContentType = TypeOffice
		}
	}
	return k, nil
}

// mediaType is the declared type without parameters, in lower case.
func mediaType(declared string) string {
	declared = strings.TrimSpace(declared)
	if declared == "" {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(declared); err == nil {
		return mt
	}
	return strings.ToLower(declared)
}

// sniff names the family of the content, or "" when it is none of them.
func sniff(head []byte) Family {
	switch {
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return PDF
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return GIF
	case bytes.HasPrefix(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}):
		return OLE
	case ooxmlFirstEntry(head) != "":
		return OOXML
	}
	return ""
}

// ooxmlFirstEntry is the name of a zip's first entry when it is one an
// OOXML package starts with, else "" (a plain zip, or not a zip).
func ooxmlFirstEntry(head []byte) string {
	// A zip local file header: signature, then the name's length at 26,
	// the extra field's at 28, the name at 30.
	if len(head) < 30 || !bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		return ""
	}
	n := int(binary.LittleEndian.Uint16(head[26:28]))
	if n == 0 || 30+n > len(head) {
		return ""
	}
	name := string(head[30 : 30+n])
	if name == "[Content_Types].xml" {
		return name
	}
	for _, prefix := range []string{"_rels/", "docProps/", "word/", "xl/"} {
		if strings.HasPrefix(name, prefix) {
			return name
		}
	}
	return ""
}

// ooxmlTypeOf guesses Word or Excel from the first entry; most packages
// start with [Content_Types].xml, which says neither.
func ooxmlTypeOf(head []byte) string {
	switch name := ooxmlFirstEntry(head); {
	case strings.HasPrefix(name, "word/"):
		return TypeDocx
	case strings.HasPrefix(name, "xl/"):
		return TypeXlsx
	}
	return TypeOffice
}

// MaxNameLength is the most characters a stored name keeps.
const MaxNameLength = 150

// baseName is the part of name after the last / or \ (a browser on
// Windows may send C:\Users\...\scan.pdf).
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}

// extension is the name's extension with its dot, or "" when what follows
// the last dot is no extension ("J. Smith diploma", ".profile").
func extension(name string) string {
	ext := path.Ext(name)
	if len(ext) < 2 || len(ext) > 11 || ext == name {
		return ""
	}
	for _, r := range ext[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return ""
		}
	}
	return ext
}

// SanitizeName is name as it is stored: the part after the last / or \,
// without control, bidi or zero-width characters (which could disguise
// "fdp.exe" as "exe.pdf"), spaces collapsed, dots and spaces trimmed, at
// most MaxNameLength characters keeping the extension. Nothing left gives
// "document" with the kind's extension; a name without an extension gets
// it.
func SanitizeName(name string, k Kind) string {
	clean := cleanName(name)
	if clean == "" {
		return "document" + k.Ext()
	}
	ext := extension(clean)
	if ext == "" {
		if e := k.Ext(); e != "" {
			clean += e
			ext = e
		}
	}
	if runes := []rune(clean); len(runes) > MaxNameLength {
		extRunes := []rune(ext)
		stem := strings.TrimRight(string(runes[:MaxNameLength-len(extRunes)]), ". ")
		if stem == "" {
			stem = "document"
		}
		clean = stem + string(extRunes)
	}
	return clean
}

// cleanName is the part of name after the last / or \, without control,
// bidi or zero-width characters, spaces collapsed, dots and spaces
// trimmed: SanitizeName before it adds an extension or shortens.
func cleanName(name string) string {
	var b strings.Builder
	space := false
	for _, r := range baseName(name) {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			// Cf holds the bidi controls (U+202A..U+202E, U+2066..U+2069,
			// LRM, RLM, ALM) and the zero-width ones (U+200B..U+200D,
			// U+2060, U+FEFF).
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return strings.Trim(b.String(), ". ")
}
