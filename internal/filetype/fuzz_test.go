package filetype_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"applicantportal/internal/filetype"
	"applicantportal/internal/portal"
)

// knownKinds are every answer Check may give: each family with the types
// it is stored as.
var knownKinds = map[filetype.Kind]bool{
	{Family: filetype.PDF, ContentType: filetype.TypePDF}:      true,
	{Family: filetype.PNG, ContentType: filetype.TypePNG}:      true,
	{Family: filetype.JPEG, ContentType: filetype.TypeJPEG}:    true,
	{Family: filetype.GIF, ContentType: filetype.TypeGIF}:      true,
	{Family: filetype.OLE, ContentType: filetype.TypeDoc}:      true,
	{Family: filetype.OLE, ContentType: filetype.TypeXls}:      true,
	{Family: filetype.OLE, ContentType: filetype.TypeOffice}:   true,
	{Family: filetype.OOXML, ContentType: filetype.TypeDocx}:   true,
	{Family: filetype.OOXML, ContentType: filetype.TypeXlsx}:   true,
	{Family: filetype.OOXML, ContentType: filetype.TypeOffice}: true,
}

// FuzzCheck: whatever the name, declared type and first bytes, Check
// answers one of the known kinds or a refusal with the codes uploads
// answer (EINVALID for no bytes, EUNSUPPORTED for the rest); it decides
// from the first HeadSize bytes alone (the uploads read no more before
// deciding); and the name it is stored under (SanitizeName) is accepted
// for the same family, so the stored extension agrees with the content
// (it may name the type more closely: a generic office file stored as
// .doc is a Word document).
func FuzzCheck(f *testing.F) {
	for _, head := range [][]byte{pdf, png, jpeg, gif87, gif89, ole, docx, wordZip, xlZip, relsZip, propsZip, plainZip,
		mz, elf, macho, script, html, svg, text} {
		f.Add("scan.pdf", "application/pdf", head)
		f.Add("", "", head)
	}
	f.Add("report.docx", "application/vnd.ms-office", docx)
	f.Add("book.xls", "application/octet-stream", ole)
	f.Add("x.ht\u200bml", "image/png; charset=x", png)
	f.Add("invoice\u202efdp.exe", "", pdf)
	f.Add("photo", "IMAGE/JPG", jpeg)
	f.Fuzz(func(t *testing.T, name, declared string, head []byte) {
		k, err := filetype.Check(name, declared, head)
		if err != nil {
			var pe *portal.Error
			if !errors.As(err, &pe) || (pe.Code != portal.EUNSUPPORTED && pe.Code != portal.EINVALID) {
				t.Fatalf("Check refused with %v; want an EUNSUPPORTED or EINVALID portal.Error", err)
			}
		} else if !knownKinds[k] || k.Ext() == "" {
			t.Fatalf("Check = %+v, not a known kind", k)
		}
		if len(head) > filetype.HeadSize {
			k2, err2 := filetype.Check(name, declared, head[:filetype.HeadSize])
			if k2 != k || (err == nil) != (err2 == nil) {
				t.Fatalf("on the first %d bytes Check = %+v, %v; on all %d = %+v, %v", filetype.HeadSize, k2, err2, len(head), k, err)
			}
		}
		if err != nil {
			return
		}
		stored := filetype.SanitizeName(name, k)
		if k2, err := filetype.Check(stored, declared, head); err != nil || k2.Family != k.Family {
			t.Fatalf("the stored name %q is checked as %+v, %v; the upload was %+v", stored, k2, err, k)
		}
	})
}

// FuzzSanitizeName: the stored name is never empty, at most MaxNameLength
// characters, valid UTF-8 without path separators, control, bidi or
// zero-width characters, without leading or trailing dots and spaces;
// and sanitizing it again changes nothing.
func FuzzSanitizeName(f *testing.F) {
	for _, name := range []string{"license.pdf", "../../etc/passwd.pdf", `C:\Users\jane\diploma.pdf`, "lic\x00en\x1bse\r\n.pdf",
		"invoice\u202efdp.exe", "sc\u200ban\u200d\ufeff.png", "  my \t  driver's   license .pdf", " ..hidden.pdf.. ", "....", "",
		"IMG_0001", strings.Repeat("a", 300) + ".pdf", strings.Repeat("é", 200) + ".png", "sc\xffan.pdf", "a. .pdf"} {
		f.Add(name, uint8(0))
	}
	kinds := []filetype.Kind{}
	for k := range knownKinds {
		kinds = append(kinds, k)
	}
	f.Fuzz(func(t *testing.T, name string, kind uint8) {
		k := kinds[int(kind)%len(kinds)]
		got := filetype.SanitizeName(name, k)
		switch {
		case got == "":
			t.Fatal("an empty name")
		case !utf8.ValidString(got):
			t.Fatalf("%q is not valid UTF-8", got)
		case utf8.RuneCountInString(got) > filetype.MaxNameLength:
			t.Fatalf("%q has %d characters", got, utf8.RuneCountInString(got))
		case strings.ContainsAny(got, `/\`):
			t.Fatalf("%q holds a path separator", got)
		case strings.IndexFunc(got, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0:
			t.Fatalf("%q holds a control, bidi or zero-width character", got)
		case strings.Trim(got, ". ") != got:
			t.Fatalf("%q starts or ends with a dot or a space", got)
		}
		if again := filetype.SanitizeName(got, k); again != got {
			t.Fatalf("SanitizeName(%q) = %q; sanitized again %q", name, got, again)
		}
	})
}
