package pdfform

// SetParseStarted sets the hook a parse calls as it takes its slot.
func SetParseStarted(f func()) { parseStarted = f }
