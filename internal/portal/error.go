// Package portal holds the applicant portal's domain: its types, their
// validation, the rules (status machine, legal visibility and order, field
// rules) and the interfaces of the services that store and serve them.
package portal

import (
	"errors"
	"fmt"
)

// Error codes. The HTTP layer maps each to one status code; anything that is
// not a *Error is internal and is never shown to the client.
const (
	ECONFLICT     = "conflict"     // 409: a transition or state that is not allowed now
	EDECLINED     = "declined"     // 402: the payment processor declined the card
	EFORBIDDEN    = "forbidden"    // 403
	EINTERNAL     = "internal"     // 500
	EINVALID      = "invalid"      // 422: field validation
	EMALFORMED    = "malformed"    // 400: the request itself cannot be read
	ENOTFOUND     = "not_found"    // 404: absent, or not the caller's
	ETHROTTLED    = "throttled"    // 429
	ETOOLARGE     = "too_large"    // 413
	EUNAUTHORIZED = "unauthorized" // 401
	EUNAVAILABLE  = "unavailable"  // 503: busy now; RetryAfter says when to try again
	EUNSUPPORTED  = "unsupported"  // 415
	ESTORAGEFULL  = "storage_full" // 507: the database or its disk is full; nothing was saved
	EUPSTREAM     = "upstream"     // 502: an outside party (identity verification, payment) failed
	ETIMEOUT      = "timeout"      // 504: an outside party did not answer in time
)

// ValidationMessage is the errorMessage of every field-validation error, as
// the app expects it.
const ValidationMessage = "validation error"

// FieldError is one field's message, as the app shows it next to the field.
type FieldError struct {
	Field string `json:"field"`
	// Message is the text in English, for logs and tests; the answer is
	// rendered in the request's language (Localize).
	Message string `json:"message"`
	// Code is the message's stable code (messages/en-US.json), which the
	// answer carries; the domain sets it itself only where a rule reads it,
	// such as EventSSNMismatch.
	Code string `json:"code,omitempty"`
	// args are the values Addf put into the format (Message's catalogue
	// key); none when Message is the format itself.
	format string
	args   []any
}

// Error is an error the client may see.
type Error struct {
	Code string
	// Message is the text in English (for logs and tests); the answer is
	// rendered in the request's language (Localize).
	Message string
	Fields  []FieldError
	// RetryAfter is the number of seconds a throttled (ETHROTTLED) or
	// turned-away (EUNAVAILABLE) client should wait.
	RetryAfter int
	// Err is the cause, when the error stands for a lower-level one (the
	// database unreachable, its disk full): kept for the server's log,
	// never shown to the client.
	Err error
	// format and args are what Errorf was given: the catalogue's key and its
	// values. A literal Error has none: its Message is the key.
	format string
	args   []any
}

func (e *Error) Error() string {
	var s string
	if len(e.Fields) > 0 {
		s = fmt.Sprintf("portal error: code=%s message=%s fields=%v", e.Code, e.Message, e.Fields)
	} else {
		s = fmt.Sprintf("portal error: code=%s message=%s", e.Code, e.Message)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns a client-visible error with the given code.
// The format is the English text of messages/en-US.json, which the answer
// translates.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), format: format, args: args}
}

// FieldErrors collects field messages; Err returns nil when there are none.
type FieldErrors []FieldError

// Add records a message for a field: a text of messages/en-US.json.
func (fe *FieldErrors) Add(field, message string) {
	*fe = append(*fe, FieldError{Field: field, Message: message})
}

// Addf records a message made from a format of messages/en-US.json, which
// the answer translates with the same values.
func (fe *FieldErrors) Addf(field, format string, args ...any) {
	*fe = append(*fe, FieldErrorf(field, format, args...))
}

// Has reports whether field already has a message, so a rule can skip
// follow-up checks on a field that already failed.
func (fe FieldErrors) Has(field string) bool {
	for _, f := range fe {
		if f.Field == field {
			return true
		}
	}
	return false
}

// Err returns the validation error, or nil when no field failed.
func (fe FieldErrors) Err() error {
	if len(fe) == 0 {
		return nil
	}
	return &Error{Code: EINVALID, Message: ValidationMessage, Fields: fe}
}

// ErrorCode returns the code of a client-visible error, EINTERNAL otherwise.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of a client-visible error, or a generic
// message that reveals nothing about an internal one.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return InternalErrorMessage
}

// InternalErrorMessage is the message of every internal error, which
// reveals nothing of its cause.
const InternalErrorMessage = "Internal error. Please try again later."
