package httpapi

import (
	"errors"
	"io"
	"net/http"

	"applicantportal/internal/portal"
)

// MaxIDVCallbackBody bounds a provider callback: a few fields of JSON.
const MaxIDVCallbackBody = 64 << 10

// IDVSignatureHeader carries a provider callback's signature.
const IDVSignatureHeader = "X-IDV-Signature"

func (s *Server) registerIDVRoutes(mux *routes) {
	if s.svc.IDV == nil {
		return
	}
	mux.HandleFunc("PUT /api/v2/idv/session", s.require(applicantOnly, s.handleIDVSessionStart))
	mux.HandleFunc("GET /api/v2/idv/session/{id}", s.require(applicantOnly, s.handleIDVSessionGet))
	// The provider calls this one: it proves itself with the signature,
	// not with a bearer token.
	mux.HandleFunc("POST /api/v2/idv/callback", s.handleIDVCallback)
}

// idvSessionJSON is a session as the app sees it; Token only when it is
// started (it opens the provider's page).
type idvSessionJSON struct {
	ID         string  `json:"id"`
	Token      string  `json:"token,omitempty"`
	Env        string  `json:"env"`
	Status     int     `json:"status"`
	StatusText string  `json:"statusText"`
	Decision   *string `json:"decision"`
	ExpiresAt  string  `json:"expiresAt"`
}

func newIDVSessionJSON(sess *portal.IDVSession, withToken bool) idvSessionJSON {
	out := idvSessionJSON{ID: sess.ID, Env: sess.Env, Status: int(sess.Status), StatusText: sess.Status.Text(),
		ExpiresAt: apiTime(sess.ExpiresAt)}
	if withToken {
		out.Token = sess.Token
	}
	if sess.Decision != portal.IDVUndecided {
		d := string(sess.Decision)
		out.Decision = &d
	}
	return out
}

var errIDVSessionNotFound = portal.Errorf(portal.ENOTFOUND, "No such identity-verification session.")

func (s *Server) handleIDVSessionStart(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	var body struct {
		SubjectID *int64 `json:"subjectId"`
	}
	if err := decodeJSON(w, r, &body); err != nil {
		s.Error(w, r, err)
		return
	}
	if body.SubjectID == nil {
		var fe portal.FieldErrors
		fe.Add("subjectId", "subjectId is required: your own subject id.")
		s.Error(w, r, fe.Err())
		return
	}
	// Another applicant's id is answered as if it did not exist.
	if *body.SubjectID != sess.SubjectID {
		s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "Subject not found."))
		return
	}
	started, err := s.svc.IDV.StartSession(r.Context(), sess.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newIDVSessionJSON(started, true))
}

func (s *Server) handleIDVSessionGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	id := r.PathValue("id")
	if id == "" || len(id) > 128 {
		s.Error(w, r, errIDVSessionNotFound)
		return
	}
	found, err := s.svc.IDV.Session(r.Context(), sess.SubjectID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newIDVSessionJSON(found, false))
}

// handleIDVCallback reads the body as sent: the signature covers its exact
// bytes, so it is not decoded before the service checks it.
func (s *Server) handleIDVCallback(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxIDVCallbackBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			s.Error(w, r, jsonError(err))
			return
		}
		s.Error(w, r, portal.Errorf(portal.EMALFORMED, "The callback's body could not be read."))
		return
	}
	if err := checkCallbackText(body); err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.IDV.ApplyCallback(r.Context(), r.Header.Get(IDVSignatureHeader), body); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
