package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// registerSubjectDataRoutes serves the subject data: the location that
// decides which legal documents apply, the service data of the data pages
// (GET/POST /api/v2/user/data, POST /api/v2/user/profile), and the
// package's service definitions and the read model (services.go).
func (s *Server) registerSubjectDataRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/data", s.require(applicantOnly, s.handleSubjectDataGet))
	mux.HandleFunc("POST /api/v2/user/data", s.require(applicantOnly, s.handleSubjectDataCreate))
	mux.HandleFunc("POST /api/v2/user/profile", s.require(applicantOnly, s.handleProfileSave))
	s.registerServiceRoutes(mux)
}

// subjectDataDoc is the SubjectDataDoc of docs/api.md.
type subjectDataDoc struct {
	Location        portal.Location                  `json:"location"`
	NoDataAvailable map[string]bool                  `json:"noDataAvailable"`
	Services        map[string][]portal.ServiceEntry `json:"services"`
}

// subjectDataJSON is GET /api/v2/user/data: {"payload": {"data": {...}}}.
type subjectDataJSON struct {
	Payload struct {
		Data subjectDataDoc `json:"data"`
	} `json:"payload"`
}

func writeSubjectData(w http.ResponseWriter, d *portal.SubjectData) {
	var out subjectDataJSON
	out.Payload.Data = subjectDataDoc{Location: d.Location, NoDataAvailable: d.NoDataAvailable, Services: d.Services}
	if out.Payload.Data.NoDataAvailable == nil {
		out.Payload.Data.NoDataAvailable = portal.NoDataMap(nil)
	}
	if out.Payload.Data.Services == nil {
		out.Payload.Data.Services = map[string][]portal.ServiceEntry{}
	}
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

// serviceDataRequest is the service part of POST /api/v2/user/data and
// POST /api/v2/user/profile: only the aliases present change.
type serviceDataRequest struct {
	NoDataAvailable map[string]bool             `json:"noDataAvailable"`
	Services        map[string][]map[string]any `json:"services"`
}

// subjectDataRequest is POST /api/v2/user/data (the in-flight save).
type subjectDataRequest struct {
	Location *struct {
		Residency  *portal.Place `json:"residency"`
		Employment *portal.Place `json:"employment"`
	} `json:"location"`
	serviceDataRequest
}

func (s *Server) handleSubjectDataCreate(w http.ResponseWriter, r *http.Request) {
	var req subjectDataRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	upd := portal.SubjectDataUpdate{NoDataAvailable: req.NoDataAvailable, Services: req.Services}
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

// handleProfileSave is POST /api/v2/user/profile: the validated save of
// the service data (every entry fully validated).
func (s *Server) handleProfileSave(w http.ResponseWriter, r *http.Request) {
	var req serviceDataRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	upd := portal.SubjectDataUpdate{NoDataAvailable: req.NoDataAvailable, Services: req.Services, Validated: true}
	d, err := s.svc.SubjectData.UpdateSubjectData(r.Context(), callerFrom(r.Context()).SubjectID, upd)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeSubjectData(w, d)
}
