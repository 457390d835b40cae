package pdfform_test

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/pdfform"
)

// The demo forms and the fixtures are made by web/scripts/gen-demo-forms.mjs
// (--fixture) with pdf-lib, as the web app fills them.
var (
	idahoFields = []string{"applicant_full_name", "authorize_release", "birth_date", "contact_preference", "current_address",
		"idaho_counties", "other_names_used", "purpose", "signature_date", "signature_name"}
	mvrFields = []string{"birth_date", "commercial_license_last_3_years", "consent", "consent_date", "full_name",
		"issuing_state", "license_class", "license_number"}
)

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fieldNames(b []byte) ([]string, error) {
	return pdfform.NewReader().FieldNames(bytes.NewReader(b), int64(len(b)))
}

func TestFieldNamesOfForms(t *testing.T) {
	tests := []struct {
		name string
		path string
		want []string
	}{
		{"IdahoRelease", "../demo/forms/idaho-release.pdf", idahoFields},
		{"MVRRequest", "../demo/forms/mvr-request.pdf", mvrFields},
		{"FilledByPdfLibKeepsTheNames", "testdata/idaho-release-filled.pdf", idahoFields},
		{"NestedNamesAreQualified", "testdata/nested-fields.pdf", []string{"agree", "applicant.address.city", "applicant.name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fieldNames(read(t, tt.path))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("FieldNames = %q; want %q", got, tt.want)
			}
		})
	}
}

func TestFieldNamesRefusesWhatIsNotAForm(t *testing.T) {
	idaho := read(t, "../demo/forms/idaho-release.pdf")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	tests := []struct {
		name    string
		content []byte
		want    error // nil: any error but these two
	}{
		{"NoForm", read(t, "testdata/no-form.pdf"), pdfform.ErrNoFields},
		{"EmptyFieldsArray", buildPDF(`<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [] >> >>`, pages), pdfform.ErrNoFields},
		{"NotAPDF", png, pdfform.ErrNotPDF},
		{"Empty", nil, pdfform.ErrNotPDF},
		{"Text", []byte("hello, this is not a PDF"), pdfform.ErrNotPDF},
		{"Garbage", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, 500)...), nil},
		{"Truncated", idaho[:len(idaho)/2], nil},
		{"TailCutOff", idaho[:len(idaho)-40], nil},
		{"BadXrefOffset", bytes.Replace(idaho, []byte("startxref\n"), []byte("startxref\n9"), 1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fieldNames(tt.content)
			if err == nil {
				t.Fatalf("FieldNames = %q; want an error", got)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("err = %v; want %v", err, tt.want)
			}
			if tt.want == nil && (errors.Is(err, pdfform.ErrNoFields) || errors.Is(err, pdfform.ErrNotPDF)) {
				t.Errorf("err = %v; want a read error", err)
			}
		})
	}
}

const pages = `<< /Type /Pages /Kids [] /Count 0 >>`

// TestFieldNamesBoundsHostileTrees: a field whose kid is itself, and a tree
// wider than the limit, end in an error instead of running on.
func TestFieldNamesBoundsHostileTrees(t *testing.T) {
	t.Run("Cycle", func(t *testing.T) {
		b := buildPDF(`<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [3 0 R] >> >>`, pages,
			`<< /T (loop) /Kids [3 0 R] >>`)
		if got, err := fieldNames(b); err == nil {
			t.Fatalf("FieldNames = %q; want an error", got)
		}
	})
	t.Run("TooManyFields", func(t *testing.T) {
		objs := []string{"", pages}
		var refs bytes.Buffer
		for i := range pdfform.MaxFields + 1 {
			fmt.Fprintf(&refs, "%d 0 R ", i+3)
			objs = append(objs, fmt.Sprintf("<< /T (f%d) /FT /Tx >>", i))
		}
		objs[0] = fmt.Sprintf(`<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%s] >> >>`, refs.String())
		if got, err := fieldNames(buildPDF(objs...)); err == nil {
			t.Fatalf("FieldNames found %d names; want an error", len(got))
		}
	})
	t.Run("WidgetKidsAreNotFields", func(t *testing.T) {
		b := buildPDF(`<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [3 0 R 4 0 R] >> >>`, pages,
			`<< /T (a) /FT /Tx >>`, `<< /T (b) /Kids [5 0 R] >>`, `<< /Subtype /Widget /Parent 4 0 R >>`)
		got, err := fieldNames(b)
		if err != nil || !slices.Equal(got, []string{"a", "b"}) {
			t.Fatalf("FieldNames = %q, %v; want [a b]", got, err)
		}
	})
}

// buildPDF writes a classic PDF (cross-reference table) whose object i+1 is
// objs[i]; object 1 is the catalog.
func buildPDF(objs ...string) []byte { return buildPDFTrailer("", objs...) }

// buildPDFTrailer is buildPDF with more trailer entries; XREF in them is
// the cross-reference table's offset.
func buildPDFTrailer(trailer string, objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	trailer = strings.ReplaceAll(trailer, "XREF", strconv.Itoa(xref))
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, xref)
	return b.Bytes()
}

// TestFieldNamesEndsLoopsAndHugeTables: inputs that are not panics but
// would hang the parse or take all memory end in an error, quickly.
func TestFieldNamesEndsLoopsAndHugeTables(t *testing.T) {
	catalog := `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [3 0 R] >> >>`
	form := buildPDF(catalog, pages, `<< /T (name) /FT /Tx >>`)
	if got, err := fieldNames(form); err != nil || !slices.Equal(got, []string{"name"}) {
		t.Fatalf("the sound form: %q, %v", got, err)
	}
	tests := []struct {
		name    string
		content []byte
	}{
		{"PrevIsItself", buildPDFTrailer("/Prev XREF", catalog, pages, `<< /T (name) /FT /Tx >>`)},
		{"ObjectStreamExtendsItself", extendsItself()},
		{"HugeSize", bytes.Replace(form, []byte("/Size 4"), []byte("/Size 4000000000"), 1)},
		{"HugeSizeEscaped", bytes.Replace(form, []byte("/Size 4"), []byte("/Si#7Ae 4000000000"), 1)},
		{"HugeSizeOverflowing", bytes.Replace(form, []byte("/Size 4"), []byte("/Size 99999999999999999999999"), 1)},
		{"HugeXrefSubsection", bytes.Replace(form, []byte("xref\n0 4"), []byte("xref\n4000000000 4"), 1)},
		{"HugeWidths", append(form[:len(form):len(form)], []byte("\n% /W [1 4000000000 2]\n")...)},
		{"HugeColumns", append(form[:len(form):len(form)], []byte("\n% /DecodeParms << /Columns 99999999 >>\n")...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			got, err := fieldNames(tt.content)
			if err == nil {
				t.Fatalf("FieldNames = %q; want an error", got)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			t.Logf("err = %v", err)
		})
	}
}

// extendsItself is a PDF whose field lives in an object stream that does
// not hold it and /Extends itself: the library would look forever.
func extendsItself() []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	off1 := b.Len()
	b.WriteString("1 0 obj\n<< /Type /Catalog /AcroForm << /Fields [2 0 R] >> >>\nendobj\n")
	off3 := b.Len()
	content := "9 0 << /T (x) >>"
	fmt.Fprintf(&b, "3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Extends 3 0 R /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(content), content)
	off4 := b.Len()
	var xref bytes.Buffer
	entry := func(typ byte, v2, v3 int) {
		xref.Write([]byte{typ, byte(v2 >> 24), byte(v2 >> 16), byte(v2 >> 8), byte(v2), byte(v3 >> 8), byte(v3)})
	}
	entry(0, 0, 0xffff)
	entry(1, off1, 0)
	entry(2, 3, 0)
	entry(1, off3, 0)
	entry(1, off4, 0)
	fmt.Fprintf(&b, "4 0 obj\n<< /Type /XRef /Size 5 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", xref.Len())
	b.Write(xref.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", off4)
	return b.Bytes()
}

// objStmPDF is a PDF whose catalog (object 1) is in an object stream with
// the filter filter, holding the catalog then pad bytes of 'A' in a string;
// wrap encodes the stream's content (one zlib layer per Flate filter).
func objStmPDF(t *testing.T, filter string, layers int, pad int) []byte {
	t.Helper()
	var content bytes.Buffer
	content.WriteString("1 0 << /Type /Catalog /AcroForm << /Fields [] >> /X (")
	content.Write(bytes.Repeat([]byte("A"), pad))
	content.WriteString(") >>")
	data := content.Bytes()
	for range layers {
		var z bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
		zw.Write(data)
		zw.Close()
		data = z.Bytes()
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	off2 := b.Len()
	fmt.Fprintf(&b, "2 0 obj\n<< /Type /ObjStm /N 1 /First 4 %s /Length %d >>\nstream\n", filter, len(data))
	b.Write(data)
	b.WriteString("\nendstream\nendobj\n")
	off3 := b.Len()
	var xref bytes.Buffer
	entry := func(typ byte, v2, v3 int) {
		xref.Write([]byte{typ, byte(v2 >> 24), byte(v2 >> 16), byte(v2 >> 8), byte(v2), byte(v3 >> 8), byte(v3)})
	}
	entry(0, 0, 0xffff)
	entry(2, 2, 0)
	entry(1, off2, 0)
	entry(1, off3, 0)
	fmt.Fprintf(&b, "3 0 obj\n<< /Type /XRef /Size 4 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", xref.Len())
	b.Write(xref.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", off3)
	return b.Bytes()
}

// TestFieldNamesBoundsDecompression: a stream decoded through two filters
// (a Flate bomb inside a Flate bomb) inflates without the parse reading
// its input, so no time or read budget would stop it: such chains, and
// filters the dictionary does not name directly, are refused before the
// library sees them. One Flate layer is read as before.
func TestFieldNamesBoundsDecompression(t *testing.T) {
	tests := []struct {
		name    string
		content []byte
		want    error // nil: a read error (not ErrNoFields, not ErrNotPDF)
	}{
		{"OneFlateLayerIsRead", objStmPDF(t, "/Filter /FlateDecode", 1, 10), pdfform.ErrNoFields},
		{"OneFlateLayerInAnArrayIsRead", objStmPDF(t, "/Filter [/FlateDecode]", 1, 10), pdfform.ErrNoFields},
		{"FlateInsideFlate", objStmPDF(t, "/Filter [/FlateDecode /FlateDecode]", 2, 64<<20), nil},
		{"FlateInsideFlateEscaped", objStmPDF(t, "/Fil#74er [/FlateDecode/FlateDecode]", 2, 64<<20), nil},
		{"FlateInsideASCII85", objStmPDF(t, "/Filter [/ASCII85Decode /FlateDecode]", 1, 10), nil},
		{"IndirectFilter", objStmPDF(t, "/Filter 5 0 R", 1, 10), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			got, err := fieldNames(tt.content)
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			switch {
			case tt.want != nil && !errors.Is(err, tt.want):
				t.Fatalf("FieldNames = %q, %v; want %v", got, err, tt.want)
			case tt.want == nil && (err == nil || errors.Is(err, pdfform.ErrNoFields) || errors.Is(err, pdfform.ErrNotPDF)):
				t.Fatalf("FieldNames = %q, %v; want a read error", got, err)
			}
		})
	}
}

// TestFieldNamesRunsFewParsesAtOnce: however many uploads arrive at once,
// at most MaxParallelParses PDFs are parsed together, so what hostile
// files cost in memory adds up over few.
func TestFieldNamesRunsFewParsesAtOnce(t *testing.T) {
	form := buildPDF(`<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [3 0 R] >> >>`, pages, `<< /T (name) /FT /Tx >>`)
	var mu sync.Mutex
	running, most := 0, 0
	reader := pdfform.NewReader()
	pdfform.SetParseStarted(reader, func() {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for range 4 * pdfform.MaxParallelParses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := reader.FieldNamesOf(form); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most > pdfform.MaxParallelParses || most == 0 {
		t.Errorf("%d parses ran at once; want at most %d", most, pdfform.MaxParallelParses)
	}
}
