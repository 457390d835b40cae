package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"applicantportal/internal/portal"
)

// statusOf maps each domain error code to its one HTTP status.
var statusOf = map[string]int{
	portal.EMALFORMED:    http.StatusBadRequest,
	portal.EUNAUTHORIZED: http.StatusUnauthorized,
	portal.EFORBIDDEN:    http.StatusForbidden,
	portal.ENOTFOUND:     http.StatusNotFound,
	portal.ECONFLICT:     http.StatusConflict,
	portal.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	portal.EUNSUPPORTED:  http.StatusUnsupportedMediaType,
	portal.EINVALID:      http.StatusUnprocessableEntity,
	portal.ETHROTTLED:    http.StatusTooManyRequests,
	portal.EUNAVAILABLE:  http.StatusServiceUnavailable,
	portal.EDECLINED:     http.StatusPaymentRequired,
	portal.EUPSTREAM:     http.StatusBadGateway,
	portal.ETIMEOUT:      http.StatusGatewayTimeout,
	portal.ESTORAGEFULL:  http.StatusInsufficientStorage,
	portal.EINTERNAL:     http.StatusInternalServerError,
}

// errorBody is every API error answer: its texts in the request's language
// (portal.LocaleOf), each beside its stable code.
type errorBody struct {
	ErrorMessage string              `json:"errorMessage"`
	ErrorCode    string              `json:"errorCode,omitempty"`
	ErrorFields  []portal.FieldError `json:"errorFields,omitempty"`
	// The token endpoint adds the RFC 6749 error code and repeats the text
	// as message, which OAuth clients read.
	OAuthError string `json:"error,omitempty"`
	Message    string `json:"message,omitempty"`
}

// Error writes err as a JSON error. Only internal errors are logged, and
// their text never reaches the client.
func (s *Server) Error(w http.ResponseWriter, r *http.Request, err error) {
	s.writeError(w, r, err, "")
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error, oauthCode string) {
	err = s.classify(err)
	code := portal.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if code == portal.EINTERNAL {
		s.logger.ErrorContext(r.Context(), "internal error", slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	body := errorBody{OAuthError: oauthCode}
	pe := &portal.Error{Code: portal.EINTERNAL, Message: portal.InternalErrorMessage}
	if errors.As(err, &pe) && pe.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(pe.RetryAfter))
	}
	body.ErrorCode, body.ErrorMessage, body.ErrorFields = pe.Localize(portal.LocaleOf(r.Context()))
	if oauthCode != "" {
		body.Message = body.ErrorMessage
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="portal"`)
	}
	writeJSON(w, status, body)
}

// classify gives storage errors that mean the database is away or full
// their code (Services.Classify), which also notes the outage once.
func (s *Server) classify(err error) error {
	if s.svc.Classify == nil {
		return err
	}
	return s.svc.Classify(err)
}

// messageBody is a success answer's sentence for the applicant, in the
// request's language, beside its stable code.
func messageBody(r *http.Request, text string) map[string]string {
	return map[string]string{"message": portal.Translate(portal.LocaleOf(r.Context()), text), "messageCode": portal.MessageCode(text)}
}

// writeJSONBody is writeJSON of an answer already encoded as writeJSON
// encodes it (json.Encoder: HTML escaped, a newline at the end).
func writeJSONBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if v != nil {
		json.NewEncoder(w).Encode(v)
	}
}
