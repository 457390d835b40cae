package pdfform

// SetParseStarted makes rd call f as each parse takes its slot.
func SetParseStarted(rd *Reader, f func()) { rd.started = f }
