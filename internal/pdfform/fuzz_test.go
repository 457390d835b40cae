package pdfform_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/pdfform"
)

// Bounds a single parse must stay within, whatever the bytes: the reader's
// own deadline is three seconds (guard.go), so a parse past fuzzParseTime
// (generous: fuzzing instruments the code, on a shared machine) is a loop
// the budget does not end; fuzzParseAlloc is far above what a real form
// takes (under a megabyte) and far below the gigabyte a bomb would take
// without the guards.
const (
	fuzzParseTime  = 20 * time.Second
	fuzzParseAlloc = 512 << 20
)

// FuzzFieldNames: any bytes read as a filled form end in names or an
// error, never a panic, within the time and allocation bounds; the names
// are sorted, distinct, non-empty and at most MaxFields; and reading the
// same bytes again answers the same.
func FuzzFieldNames(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pdf")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	catalog := `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [3 0 R] >> >>`
	form := buildPDF(catalog, pages, `<< /T (name) /FT /Tx >>`)
	f.Add(form)
	f.Add(buildPDF(catalog, pages, `<< /T (loop) /Kids [3 0 R] >>`))
	// The loops that run until the read budget ends them (a /Prev or
	// /Extends of itself) are TestFieldNamesEndsLoopsAndHugeTables': as
	// seeds each would cost a second, and each of their mutations too.
	f.Add(bytes.Replace(form, []byte("/Size 4"), []byte("/Si#7Ae 4000000000"), 1))
	f.Add([]byte("%PDF-"))
	f.Add([]byte("not a pdf"))

	f.Fuzz(func(t *testing.T, data []byte) {
		// A reader of its own: a parse that never ends (which fails the
		// input) keeps its slot.
		rd := pdfform.NewReader()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		type result struct {
			names []string
			err   error
		}
		done := make(chan result, 1)
		go func() {
			names, err := rd.FieldNamesOf(data)
			done <- result{names, err}
		}()
		var names []string
		var err error
		select {
		case r := <-done:
			names, err = r.names, r.err
		case <-time.After(fuzzParseTime):
			t.Fatalf("the parse of these %d bytes ran past %v", len(data), fuzzParseTime)
		}
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > fuzzParseAlloc {
			t.Errorf("the parse allocated %d MB; the bound is %d MB", alloc>>20, fuzzParseAlloc>>20)
		}
		if err != nil {
			if names != nil {
				t.Fatalf("names %q with the error %v", names, err)
			}
			return
		}
		if len(names) == 0 || len(names) > pdfform.MaxFields {
			t.Fatalf("%d names without an error", len(names))
		}
		if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) || slices.Contains(names, "") {
			t.Fatalf("names not sorted, distinct and non-empty: %q", names)
		}
		again, err := rd.FieldNames(bytes.NewReader(data), int64(len(data)))
		if err != nil && strings.Contains(err.Error(), "too much work") {
			return // the deadline, on a busy machine
		}
		if err != nil || !slices.Equal(again, names) {
			t.Fatalf("read again: %q, %v; first %q", again, err, names)
		}
	})
}
