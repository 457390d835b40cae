package pdfform

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"time"

	"github.com/ledongthuc/pdf"
)

// The PDF library was written for trusted files. Panics are recovered, but
// two kinds of hostile input are not panics: a loop (a cross-reference
// section whose /Prev is itself, an object stream that /Extends itself)
// and a huge allocation (a table as large as "/Size 4000000000", which
// ends the process). budgetReader ends the first, checkSizes refuses the
// second before the library sees the file.

// errTooMuchWork ends a parse that reads far more than the file holds or
// runs too long: real forms take milliseconds.
var errTooMuchWork = errors.New("pdfform: the PDF takes too much work to read")

const (
	// readBudgetFactor and readBudgetExtra bound the bytes the library may
	// read: each object stream is read again for each object in it, so a
	// sound file is read a few times over, never hundreds.
	readBudgetFactor = 64
	readBudgetExtra  = 4 << 20
	// parseTimeout bounds the wall time of one parse (decompression
	// included: the reader is asked for more compressed input as it goes).
	parseTimeout = 3 * time.Second
	// maxObjects bounds the object numbers (and so the library's table of
	// them); maxColumns the predictor rows it allocates.
	maxObjects = 1 << 20
	maxColumns = 1 << 16
)

// budgetReader panics (recovered by FieldNames) once the parse read more
// than its budget or ran past its deadline.
type budgetReader struct {
	data     []byte
	left     int64
	deadline time.Time
}

func (b *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	b.left -= int64(len(p))
	if b.left < 0 || time.Now().After(b.deadline) {
		panic(errTooMuchWork)
	}
	if off < 0 || off >= int64(len(b.data)) {
		return 0, io.EOF
	}
	n := copy(p, b.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// errFilterChain is a stream decoded through more than one filter, or
// through filters not named in its dictionary. The library inflates as it
// parses: one Flate layer asks the budgetReader for input every 4 kB it
// decompresses (at most about 4 MB of output), so the deadline stops a
// Flate bomb; a Flate layer inside another inflates from memory, and a
// 2 kB file grows gigabytes with no read to stop it. pdf-lib writes one
// filter, by name.
var errFilterChain = errors.New("pdfform: the PDF decodes a stream through more than one filter")

// checkSizes refuses a file whose cross-reference data asks for tables
// larger than any form needs: /Size, /Index and xref table subsections
// past maxObjects, /W widths past 8 bytes, /Columns past maxColumns. These
// live in plain (uncompressed) dictionaries and tables, so a scan of the
// raw bytes finds them. It also refuses filter chains (errFilterChain):
// a stream's dictionary is never compressed either.
func checkSizes(data []byte) error {
	tooLarge := errors.New("pdfform: the PDF declares more objects than a form can have")
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '/':
			name, next := readName(data, i+1)
			i = next - 1
			switch name {
			case "Size":
				if !intWithin(data, next, maxObjects) {
					return tooLarge
				}
			case "Columns":
				if !intWithin(data, next, maxColumns) {
					return tooLarge
				}
			case "W":
				if !intsWithin(data, next, 8) {
					return tooLarge
				}
			case "Index":
				if !intsWithin(data, next, maxObjects) {
					return tooLarge
				}
			case "Filter":
				if !oneFilter(data, next) {
					return errFilterChain
				}
			}
		case bytes.HasPrefix(data[i:], []byte("xref")) && (i == 0 || isSpace(data[i-1])):
			if !xrefTableWithin(data, i+4) {
				return tooLarge
			}
		}
	}
	return nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelimiter(c byte) bool {
	return isSpace(c) || bytes.IndexByte([]byte("()<>[]{}/%"), c) >= 0
}

// readName reads a name's characters from i, decoding #hh escapes as the
// library does; next is where the name ends.
func readName(data []byte, i int) (name string, next int) {
	var b []byte
	for i < len(data) && !isDelimiter(data[i]) && len(b) < 32 {
		if data[i] == '#' && i+2 < len(data) && isHex(data[i+1]) && isHex(data[i+2]) {
			b = append(b, unhex(data[i+1])<<4|unhex(data[i+2]))
			i += 3
			continue
		}
		b = append(b, data[i])
		i++
	}
	return string(b), i
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// intWithin reports whether the integer after i (past white space) is at
// most limit; anything but digits there (a reference, a real number) is
// left to the library, which refuses it itself.
func intWithin(data []byte, i int, limit int64) bool {
	n, _, _, overflow := scanInt(data, skipSpace(data, i))
	return !overflow && n <= limit
}

// scanInt reads the digits at i: digits is false when there are none,
// overflow true when the number is past any limit here.
func scanInt(data []byte, i int) (n int64, next int, digits, overflow bool) {
	start := i
	for i < len(data) && '0' <= data[i] && data[i] <= '9' {
		if n > 1<<40 {
			overflow = true
		} else {
			n = n*10 + int64(data[i]-'0')
		}
		i++
	}
	return n, i, i > start, overflow
}

// intsWithin reports whether the array after i holds no integer past limit
// (an indirect array, or anything else, is left to the library).
func intsWithin(data []byte, i int, limit int64) bool {
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != '[' {
		return true
	}
	for i++; i < len(data) && data[i] != ']'; {
		n, next, digits, overflow := scanInt(data, i)
		if !digits {
			i++
			continue
		}
		if overflow || n > limit {
			return false
		}
		i = next
	}
	return true
}

// xrefTableWithin checks the subsection headers ("first count") of the
// cross-reference table starting at i, reading its entries ("offset
// generation n|f") as tokens, up to the trailer or anything else.
func xrefTableWithin(data []byte, i int) bool {
	for {
		first, next, digits, overflow := scanInt(data, skipSpace(data, i))
		if !digits {
			return true
		}
		count, next, digits, overflow2 := scanInt(data, skipSpace(data, next))
		if !digits {
			return true
		}
		if overflow || overflow2 || first+count > maxObjects {
			return false
		}
		i = next
		for range count {
			if _, i, digits, _ = scanInt(data, skipSpace(data, i)); !digits {
				return true
			}
			if _, i, digits, _ = scanInt(data, skipSpace(data, i)); !digits {
				return true
			}
			if i = skipSpace(data, i); i >= len(data) || data[i] != 'n' && data[i] != 'f' {
				return true
			}
			i++
		}
	}
}

// oneFilter reports whether the /Filter value after i is one filter named
// directly: a name, or an array of at most one name. An indirect
// reference (digits) or an array of more is refused; anything else (the
// name in a string) is left to the library.
func oneFilter(data []byte, i int) bool {
	i = skipSpace(data, i)
	switch {
	case i >= len(data):
		return true
	case '0' <= data[i] && data[i] <= '9':
		return false
	case data[i] != '[':
		return true
	}
	names := 0
	for i++; ; {
		i = skipSpace(data, i)
		switch {
		case i >= len(data):
			return true
		case data[i] == ']':
			return names <= 1
		case data[i] != '/':
			return false
		}
		_, i = readName(data, i+1)
		names++
	}
}

// errNestedObjectStream is a PDF whose cross-reference table puts an object
// stream inside an object stream, which PDF forbids (ISO 32000-1, 7.5.7).
// The library follows such a chain by recursion, reading nothing, so a
// cycle (object 8 in stream 9, 9 in stream 8) is stopped by no budget or
// deadline and overflows the goroutine's stack: a fatal error that no
// recover catches, ending the whole server (FuzzFieldNames found it).
var errNestedObjectStream = errors.New("pdfform: the PDF puts an object stream inside an object stream")

// errLibraryChanged refuses every PDF when the library's table is not
// where checkObjectStreams looks: the tests of real forms then fail, so
// an upgrade of the library cannot silently drop the check.
var errLibraryChanged = errors.New("pdfform: the PDF library's cross-reference table is not as expected")

// checkObjectStreams refuses a table in which an object's containing
// stream is itself in an object stream (errNestedObjectStream). The
// library keeps the table unexported (Reader.xref, entries {ptr,
// inStream, stream, offset}); reflect reads it without changing it.
func checkObjectStreams(doc *pdf.Reader) error {
	if doc == nil {
		return errLibraryChanged
	}
	table := reflect.ValueOf(doc).Elem().FieldByName("xref")
	if table.Kind() != reflect.Slice {
		return errLibraryChanged
	}
	inStream := func(i int) (bool, uint64, error) {
		e := table.Index(i)
		in, stream := e.FieldByName("inStream"), e.FieldByName("stream")
		if in.Kind() != reflect.Bool || stream.Kind() != reflect.Struct {
			return false, 0, errLibraryChanged
		}
		id := stream.FieldByName("id")
		if id.Kind() != reflect.Uint32 {
			return false, 0, errLibraryChanged
		}
		return in.Bool(), id.Uint(), nil
	}
	for i := range table.Len() {
		in, container, err := inStream(i)
		if err != nil {
			return err
		}
		if !in || container >= uint64(table.Len()) { // #nosec G115 -- a table length is never negative
			continue // the library answers null for a container past the table
		}
		nested, _, err := inStream(int(container)) // #nosec G115 -- container < table.Len(), checked above
		if err != nil {
			return err
		}
		if nested {
			return errNestedObjectStream
		}
	}
	return nil
}
