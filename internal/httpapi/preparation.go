package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// registerPreparationRoutes serves the Welcome step's list of what the
// applicant will need and its time estimate. The setup credential reaches
// them: the Welcome step comes before the password.
func (s *Server) registerPreparationRoutes(mux *routes) {
	if s.svc.Preparation == nil {
		return
	}
	mux.HandleFunc("GET /api/v2/user/preparation", s.require(setupAllowed, s.handlePreparationGet))
	mux.HandleFunc("PUT /api/v2/user/preparation/{id}", s.require(setupAllowed, s.handlePreparationMark))
}

func (s *Server) handlePreparationGet(w http.ResponseWriter, r *http.Request) {
	p, err := s.svc.Preparation.FindPreparation(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handlePreparationMark(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	// An id the portal does not know is absent, before the body is read.
	if !portal.IsPreparationItem(id) {
		s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "This item is not on your list."))
		return
	}
	var req struct {
		Later *bool `json:"later"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if req.Later == nil {
		var fe portal.FieldErrors
		fe.Add("later", "Say whether you will find this later: true or false.")
		s.Error(w, r, fe.Err())
		return
	}
	p, err := s.svc.Preparation.MarkPreparationItem(r.Context(), callerFrom(r.Context()).SubjectID, id, *req.Later)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}
