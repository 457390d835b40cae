package filetype_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"applicantportal/internal/filetype"
	"applicantportal/internal/portal"
)

// zipWithFirstEntry is the start of a zip whose first entry is name.
func zipWithFirstEntry(name string) []byte {
	h := make([]byte, 30, 30+len(name)+32)
	copy(h, "PK\x03\x04")
	binary.LittleEndian.PutUint16(h[26:], uint16(len(name)))
	h = append(h, name...)
	return append(h, "compressed data..."...)
}

var (
	pdf      = []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj")
	png      = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	jpeg     = []byte("\xff\xd8\xff\xe0\x00\x10JFIF")
	gif87    = []byte("GIF87a\x01\x00\x01\x00")
	gif89    = []byte("GIF89a\x01\x00\x01\x00")
	ole      = []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00\x00\x00")
	docx     = zipWithFirstEntry("[Content_Types].xml")
	wordZip  = zipWithFirstEntry("word/document.xml")
	xlZip    = zipWithFirstEntry("xl/workbook.xml")
	relsZip  = zipWithFirstEntry("_rels/.rels")
	propsZip = zipWithFirstEntry("docProps/app.xml")
	plainZip = zipWithFirstEntry("evil.exe")
	mz       = []byte("MZ\x90\x00\x03\x00\x00\x00")
	elf      = []byte("\x7fELF\x02\x01\x01\x00")
	macho    = []byte("\xcf\xfa\xed\xfe\x07\x00\x00\x01")
	script   = []byte("#!/bin/sh\nrm -rf /\n")
	html     = []byte("<!DOCTYPE html><html><script>alert(1)</script>")
	svg      = []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)
	text     = []byte("just some notes\n")
)

const notAccepted = filetype.MsgNotAccepted

func notReal(what string) string {
	return "The file's content does not match its type: it is not a real " + what + "."
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name, file, declared string
		head                 []byte
		wantType             string // the stored type when accepted
		wantCode, wantMsg    string // the refusal
	}{
		// Every family, declared as browsers declare it.
		{"PDF", "form.pdf", "application/pdf", pdf, filetype.TypePDF, "", ""},
		{"PNG", "scan.png", "image/png", png, filetype.TypePNG, "", ""},
		{"JPEG", "photo.jpg", "image/jpeg", jpeg, filetype.TypeJPEG, "", ""},
		{"JPEGLongExtension", "photo.JPEG", "image/jpeg", jpeg, filetype.TypeJPEG, "", ""},
		{"GIF87a", "a.gif", "image/gif", gif87, filetype.TypeGIF, "", ""},
		{"GIF89a", "a.gif", "image/gif", gif89, filetype.TypeGIF, "", ""},
		{"Doc", "cv.doc", "application/msword", ole, filetype.TypeDoc, "", ""},
		{"Xls", "hours.xls", "application/vnd.ms-excel", ole, filetype.TypeXls, "", ""},
		{"OLENamedNeither", "scan", "application/vnd.ms-office", ole, filetype.TypeOffice, "", ""},
		{"Docx", "cv.docx", filetype.TypeDocx, docx, filetype.TypeDocx, "", ""},
		{"Xlsx", "hours.xlsx", filetype.TypeXlsx, docx, filetype.TypeXlsx, "", ""},
		{"DocxStartingWithWord", "cv.docx", "", wordZip, filetype.TypeDocx, "", ""},
		{"DocxStartingWithRels", "cv.docx", "", relsZip, filetype.TypeDocx, "", ""},
		{"XlsxStartingWithDocProps", "b.xlsx", "", propsZip, filetype.TypeXlsx, "", ""},
		{"OOXMLUnnamedWordByFirstEntry", "upload", "", wordZip, filetype.TypeDocx, "", ""},
		{"OOXMLUnnamedExcelByFirstEntry", "upload", "", xlZip, filetype.TypeXlsx, "", ""},
		{"OOXMLGenericOffice", "upload", "application/vnd.ms-office", docx, filetype.TypeOffice, "", ""},
		{"DeclaredWithParameters", "form.pdf", "Application/PDF; charset=binary", pdf, filetype.TypePDF, "", ""},
		{"DeclaredAliasImageJpg", "photo.jpg", "image/jpg", jpeg, filetype.TypeJPEG, "", ""},
		// Octet-stream and no declared type: the content decides.
		{"OctetStreamPDF", "form.pdf", "application/octet-stream", pdf, filetype.TypePDF, "", ""},
		{"EmptyDeclaredPNG", "scan.png", "", png, filetype.TypePNG, "", ""},
		{"OctetStreamNoExtension", "IMG_0001", "application/octet-stream", jpeg, filetype.TypeJPEG, "", ""},
		{"OctetStreamDoc", "cv.doc", "application/octet-stream", ole, filetype.TypeDoc, "", ""},
		{"NameWithDotsNotAnExtension", "J. Smith diploma", "application/pdf", pdf, filetype.TypePDF, "", ""},

		// Declared type against content.
		{"ErrDeclaredPNGWithPDFBytes", "x", "image/png", pdf, "", portal.EUNSUPPORTED, notReal("PNG image")},
		{"ErrDeclaredPDFWithJPEGBytes", "x", "application/pdf", jpeg, "", portal.EUNSUPPORTED, notReal("PDF")},
		{"ErrDeclaredDocxWithOLEBytes", "x", filetype.TypeDocx, ole, "", portal.EUNSUPPORTED, notReal("Word document")},
		{"ErrDeclaredGIFWithPNGBytes", "x", "image/gif", png, "", portal.EUNSUPPORTED, notReal("GIF image")},
		// Extension against content.
		{"ErrPDFNameWithMZBytes", "x.pdf", "application/octet-stream", mz, "", portal.EUNSUPPORTED, notReal("PDF")},
		{"ErrPDFNameWithPNGBytes", "x.pdf", "", png, "", portal.EUNSUPPORTED, notReal("PDF")},
		{"ErrJPGNameWithGIFBytes", "x.jpg", "application/octet-stream", gif89, "", portal.EUNSUPPORTED, notReal("JPEG image")},
		{"ErrDocNameWithDocxBytes", "x.doc", "", docx, "", portal.EUNSUPPORTED, notReal("Word document")},
		{"ErrXlsxNameWithOLEBytes", "x.xlsx", "", ole, "", portal.EUNSUPPORTED, notReal("Excel workbook")},
		{"ErrDeclaredPDFWithHTMLBytes", "x", "application/pdf", html, "", portal.EUNSUPPORTED, notReal("PDF")},
		// Extensions and declared types not on the list.
		{"ErrExe", "setup.exe", "application/octet-stream", mz, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrExeWithPDFBytes", "setup.exe", "application/pdf", pdf, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrHTML", "page.html", "text/html", html, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrSVG", "logo.svg", "image/svg+xml", svg, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrZip", "files.zip", "application/zip", plainZip, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrDeclaredHTMLWithPDFBytes", "x", "text/html", pdf, "", portal.EUNSUPPORTED, notAccepted},
		// The extension is the stored name's: what sanitizing drops (a
		// trailing dot or space, a zero-width or control character) must
		// not hide one that is not on the list.
		{"ErrHTMLBehindTrailingDot", "x.html.", "application/pdf", pdf, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrHTMLBehindTrailingSpace", "x.html ", "application/pdf", pdf, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrHTMLSplitByZeroWidth", "x.ht\u200Bml", "application/pdf", pdf, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrHTMLSplitByTab", "x.ht\tml", "", pdf, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrSVGSplitByBidiMark", "x.s\u200Evg", "", pdf, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrExeBehindDotsAndSpaces", "setup.exe . .", "", pdf, "", portal.EUNSUPPORTED, notAccepted},
		{"PDFBehindTrailingDot", "form.pdf.", "application/pdf", pdf, filetype.TypePDF, "", ""},
		// Content of no family.
		{"ErrMZ", "x", "application/octet-stream", mz, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrELF", "x", "", elf, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrMachO", "x", "", macho, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrScript", "run", "", script, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrHTMLBytes", "x", "application/octet-stream", html, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrSVGBytes", "x", "", svg, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrPlainZipBytes", "x", "", plainZip, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrPlainZipNamedDocx", "x.docx", "", plainZip, "", portal.EUNSUPPORTED, notReal("Word document")},
		{"ErrText", "notes", "", text, "", portal.EUNSUPPORTED, notAccepted},
		{"ErrEmpty", "x.pdf", "application/pdf", nil, "", portal.EINVALID, portal.ValidationMessage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := filetype.Check(tt.file, tt.declared, tt.head)
			if tt.wantCode == "" {
				if err != nil || k.ContentType != tt.wantType {
					t.Fatalf("Check = %+v, %v; want %s", k, err, tt.wantType)
				}
				return
			}
			if portal.ErrorCode(err) != tt.wantCode || portal.ErrorMessage(err) != tt.wantMsg {
				t.Fatalf("Check = %+v, %v; want %s %q", k, err, tt.wantCode, tt.wantMsg)
			}
		})
	}
	t.Run("ErrEmptyNamesTheFileField", func(t *testing.T) {
		_, err := filetype.Check("x.pdf", "", nil)
		var pe *portal.Error
		if !asPortal(err, &pe) || len(pe.Fields) != 1 || pe.Fields[0].Field != "file" || pe.Fields[0].Message != "The file is empty." {
			t.Errorf("err = %v", err)
		}
	})
}

func asPortal(err error, pe **portal.Error) bool {
	p, ok := err.(*portal.Error)
	*pe = p
	return ok
}

func TestSanitizeName(t *testing.T) {
	pdfKind := filetype.Kind{Family: filetype.PDF, ContentType: filetype.TypePDF}
	pngKind := filetype.Kind{Family: filetype.PNG, ContentType: filetype.TypePNG}
	long := strings.Repeat("a", 300)
	tests := []struct {
		name, in string
		kind     filetype.Kind
		want     string
	}{
		{"Plain", "license.pdf", pdfKind, "license.pdf"},
		{"Unicode", "Führerschein Müller.pdf", pdfKind, "Führerschein Müller.pdf"},
		{"PathTraversal", "../../etc/passwd.pdf", pdfKind, "passwd.pdf"},
		{"WindowsPath", `C:\Users\jane\Documents\diploma.pdf`, pdfKind, "diploma.pdf"},
		{"MixedSeparators", `a/b\c.png`, pngKind, "c.png"},
		{"TrailingSeparator", "folder/", pdfKind, "document.pdf"},
		{"ControlCharacters", "lic\x00en\x1bse\r\n.pdf", pdfKind, "license.pdf"},
		{"BidiOverride", "invoice\u202Efdp.exe", pdfKind, "invoicefdp.exe"},
		{"BidiIsolatesAndMarks", "\u2066scan\u2069\u200E\u200F.png", pngKind, "scan.png"},
		{"ZeroWidth", "sc\u200Ban\u200D\uFEFF.png", pngKind, "scan.png"},
		{"SpacesCollapsed", "  my \t  driver's   license .pdf", pdfKind, "my driver's license .pdf"},
		{"DotsAndSpacesTrimmed", " ..hidden.pdf.. ", pdfKind, "hidden.pdf"},
		{"OnlyDots", "....", pdfKind, "document.pdf"},
		{"Empty", "", pngKind, "document.png"},
		{"OnlyControls", "\x01\x02\u202E", pngKind, "document.png"},
		{"NoExtensionGetsTheKinds", "IMG_0001", pngKind, "IMG_0001.png"},
		{"VeryLongKeepsExtension", long + ".pdf", pdfKind, strings.Repeat("a", 146) + ".pdf"},
		{"VeryLongMultibyte", strings.Repeat("é", 200) + ".png", pngKind, strings.Repeat("é", 146) + ".png"},
		{"VeryLongWithoutExtension", long, pdfKind, strings.Repeat("a", 146) + ".pdf"},
		{"InvalidUTF8", "sc\xffan.pdf", pdfKind, "scan.pdf"},
		{"GenericOfficeZipIsDocx", "", filetype.Kind{Family: filetype.OOXML, ContentType: filetype.TypeOffice}, "document.docx"},
		{"GenericOfficeOLEIsDoc", "", filetype.Kind{Family: filetype.OLE, ContentType: filetype.TypeOffice}, "document.doc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := filetype.SanitizeName(tt.in, tt.kind)
			if got != tt.want {
				t.Errorf("SanitizeName(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if n := len([]rune(got)); n > filetype.MaxNameLength {
				t.Errorf("%d characters, more than %d", n, filetype.MaxNameLength)
			}
		})
	}
}
