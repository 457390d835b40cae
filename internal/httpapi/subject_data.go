package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// registerSubjectDataRoutes serves the subject data: for now the location
// that decides which legal documents apply; the data pages (aliases,
// addresses, history, service data) add their keys to it.
func (s *Server) registerSubjectDataRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v2/user/data", s.require(applicantOnly, s.handleSubjectDataGet))
	mux.HandleFunc("POST /api/v2/user/data", s.require(applicantOnly, s.handleSubjectDataCreate))
}

// subjectDataJSON is GET /api/v2/user/data: {"payload": {"data": {...}}}.
type subjectDataJSON struct {
	Payload struct {
		Data struct {
			Location        portal.Location `json:"location"`
			NoDataAvailable map[string]bool `json:"noDataAvailable"`
		} `json:"data"`
	} `json:"payload"`
}

func writeSubjectData(w http.ResponseWriter, d *portal.SubjectData) {
	var out subjectDataJSON
	out.Payload.Data.Location = d.Location
	out.Payload.Data.NoDataAvailable = map[string]bool{"credential": false, "education": false, "employment": false}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleSubjectDataGet(w http.ResponseWriter, r *http.Request) {
	d, err := s.svc.SubjectData.FindSubjectData(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeSubjectData(w, d)
}

// subjectDataRequest is POST /api/v2/user/data; keys other than location
// are not stored yet.
type subjectDataRequest struct {
	Location *struct {
		Residency  *portal.Place `json:"residency"`
		Employment *portal.Place `json:"employment"`
	} `json:"location"`
}

func (s *Server) handleSubjectDataCreate(w http.ResponseWriter, r *http.Request) {
	var req subjectDataRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	var upd portal.SubjectDataUpdate
	if l := req.Location; l != nil {
		upd.Location = &portal.LocationUpdate{Residency: l.Residency, Employment: l.Employment}
	}
	d, err := s.svc.SubjectData.UpdateSubjectData(r.Context(), callerFrom(r.Context()).SubjectID, upd)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeSubjectData(w, d)
}
