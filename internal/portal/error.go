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
	Field   string `json:"field"`
	Message string `json:"message"`
	// Code names a failure the app reacts to beyond showing the message,
	// such as EventSSNMismatch; most field errors have none.
	Code string `json:"code,omitempty"`
}

// Error is an error the client may see.
type Error struct {
	Code    string
	Message string
	Fields  []FieldError
	// RetryAfter is the number of seconds a throttled (ETHROTTLED) or
	// turned-away (EUNAVAILABLE) client should wait.
	RetryAfter int
	// Err is the cause, when the error stands for a lower-level one (the
	// database unreachable, its disk full): kept for the server's log,
	// never shown to the client.
	Err error
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
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldErrors collects field messages; Err returns nil when there are none.
type FieldErrors []FieldError

// Add records a message for a field.
func (fe *FieldErrors) Add(field, message string) {
	*fe = append(*fe, FieldError{Field: field, Message: message})
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
	return "Internal error. Please try again later."
}
