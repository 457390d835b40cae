// Package pdfform reads the field names of a PDF's AcroForm, so the server
// can tell whether a filled PDF is a copy of a form template. It reads
// untrusted uploads: every failure, including the PDF library's panics, is
// an error, and the work is bounded.
package pdfform

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/ledongthuc/pdf"
)

var (
	// ErrNotPDF is content that does not start with the PDF signature.
	ErrNotPDF = errors.New("pdfform: not a PDF")
	// ErrNoFields is a readable PDF without form fields.
	ErrNoFields = errors.New("pdfform: the PDF has no form fields")
)

// Bounds on what a form may hold, so a hostile PDF (deep or cyclic field
// trees) cannot keep the server busy. Real forms have tens of fields and a
// depth of two or three.
const (
	MaxFields = 2000
	MaxDepth  = 32
	// maxNodes bounds the field dictionaries visited, widgets included:
	// a tree whose kids point back at their parents ends here.
	maxNodes = 20000
	// MaxSize is the largest PDF read: it is read whole into memory.
	MaxSize = 100 << 20
)

// Reader reads forms' field names, at most MaxParallelParses at once. One
// serves a whole process (the store holds it), so the bound holds however
// many uploads arrive.
type Reader struct {
	parses chan struct{}
	// started, when set (by tests), is called as a parse takes its slot.
	started func()
}

// NewReader returns a reader with its own MaxParallelParses slots.
func NewReader() *Reader { return &Reader{parses: make(chan struct{}, MaxParallelParses)} }

// FieldNames returns the fully qualified names of the form's terminal
// fields (partial names joined with "."), sorted and without duplicates.
func (rd *Reader) FieldNames(r io.ReaderAt, size int64) (names []string, err error) {
	if size > MaxSize {
		return nil, fmt.Errorf("pdfform: the PDF is larger than %d bytes", MaxSize)
	}
	data := make([]byte, max(size, 0))
	if n, err := r.ReadAt(data, 0); int64(n) < size {
		return nil, fmt.Errorf("pdfform: read PDF: %w", err)
	}
	return rd.FieldNamesOf(data)
}

// FieldNamesOf is FieldNames of a PDF already in memory.
func (rd *Reader) FieldNamesOf(data []byte) (names []string, err error) {
	size := int64(len(data))
	if size > MaxSize {
		return nil, fmt.Errorf("pdfform: the PDF is larger than %d bytes", MaxSize)
	}
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		return nil, ErrNotPDF
	}
	if err := checkSizes(data); err != nil {
		return nil, err
	}
	rd.parses <- struct{}{}
	defer func() { <-rd.parses }()
	if rd.started != nil {
		rd.started()
	}
	// The library panics on many malformed inputs (it was written for
	// trusted files); a hostile upload must be an error, not a crash.
	defer func() {
		if x := recover(); x != nil {
			names, err = nil, fmt.Errorf("pdfform: malformed PDF: %v", x)
		}
	}()
	budget := &budgetReader{data: data, left: readBudgetFactor*size + readBudgetExtra, deadline: time.Now().Add(parseTimeout)}
	doc, err := pdf.NewReader(budget, size)
	if err != nil {
		return nil, fmt.Errorf("pdfform: read PDF: %w", err)
	}
	if err := checkObjectStreams(doc); err != nil {
		return nil, err
	}
	fields := doc.Trailer().Key("Root").Key("AcroForm").Key("Fields")
	if fields.Kind() != pdf.Array || fields.Len() == 0 {
		return nil, ErrNoFields
	}
	w := walker{seen: map[string]bool{}}
	for i := 0; i < fields.Len(); i++ {
		if err := w.walk(fields.Index(i), "", 1); err != nil {
			return nil, err
		}
	}
	if len(w.seen) == 0 {
		return nil, ErrNoFields
	}
	names = make([]string, 0, len(w.seen))
	for name := range w.seen {
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}

// MaxParallelParses bounds the parses that run at once; the others wait.
// A Flate bomb in a single layer is stopped by the deadline, but by then
// the library holds up to about 1 GB of what it inflated (measured: one
// parse 1 GB, eight at once on two cores 4 GB): a few at a time bounds
// that whatever the number of cores or upload slots. Real forms parse in
// milliseconds, so the wait costs them nothing.
const MaxParallelParses = 2

type walker struct {
	seen  map[string]bool
	nodes int
}

// walk adds the terminal fields under field, whose parent's qualified name
// is prefix. A kid without a partial name (T) is a widget, not a field: a
// field whose kids are all widgets is terminal.
func (w *walker) walk(field pdf.Value, prefix string, depth int) error {
	if field.Kind() != pdf.Dict {
		return nil
	}
	w.nodes++
	if depth > MaxDepth || w.nodes > maxNodes {
		return fmt.Errorf("pdfform: the form's field tree is deeper or larger than allowed")
	}
	name := prefix
	if t := field.Key("T"); t.Kind() == pdf.String {
		if partial := t.Text(); partial != "" {
			name = joinName(prefix, partial)
		}
	}
	kids := field.Key("Kids")
	terminal := true
	for i := 0; i < kids.Len(); i++ {
		kid := kids.Index(i)
		if kid.Kind() == pdf.Dict && kid.Key("T").Kind() == pdf.String {
			terminal = false
			if err := w.walk(kid, name, depth+1); err != nil {
				return err
			}
		}
	}
	if terminal && name != "" && !w.seen[name] {
		if len(w.seen) >= MaxFields {
			return fmt.Errorf("pdfform: the form has more than %d fields", MaxFields)
		}
		w.seen[name] = true
	}
	return nil
}

func joinName(prefix, partial string) string {
	if prefix == "" {
		return partial
	}
	return prefix + "." + partial
}
