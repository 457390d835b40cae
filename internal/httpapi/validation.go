package httpapi

import (
	"net/http"

	"applicantportal/internal/address"
	"applicantportal/internal/portal"
)

// registerValidationRoutes serves the address checks the address forms
// call as the applicant types. They read no stored data, so the setup
// credential may call them too.
func (s *Server) registerValidationRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/validation/address", s.require(setupAllowed, s.handleValidateUSAddress))
	mux.HandleFunc("GET /api/v2/validation/internationaladdress", s.require(setupAllowed, s.handleValidateInternationalAddress))
}

// The checks answer 200 whether or not the address is valid: an invalid
// address is the answer asked for, not a failed request.
func (s *Server) handleValidateUSAddress(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res := address.US(q.Get("street"), q.Get("city"), q.Get("state"), q.Get("zip"))
	writeJSON(w, http.StatusOK, map[string]any{"payload": localizeProblems(r, res)})
}

func (s *Server) handleValidateInternationalAddress(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res := address.International(q.Get("country"), q.Get("street"), q.Get("locality"),
		q.Get("administrative_area"), q.Get("postal_code"))
	writeJSON(w, http.StatusOK, map[string]any{"payload": localizeProblems(r, res)})
}

// localizeProblems says a check's problems in the request's language, each
// with its code, as an error's field messages are.
func localizeProblems(r *http.Request, res address.Result) address.Result {
	l := portal.LocaleOf(r.Context())
	for i, p := range res.Problems {
		f := portal.FieldError{Field: p.Field, Message: p.Message}.Localize(l)
		res.Problems[i].Message, res.Problems[i].Code = f.Message, f.Code
	}
	return res
}
