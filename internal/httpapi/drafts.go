package httpapi

import (
	"encoding/json"
	"net/http"

	"applicantportal/internal/portal"
)

// registerDraftRoutes serves the forms' drafts: what the applicant typed
// and has not submitted, kept on the server so that it follows them to any
// device (portal.DraftService).
func (s *Server) registerDraftRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/drafts", s.require(applicantOnly, s.handleDraftsGet))
	mux.HandleFunc("GET /api/v2/user/drafts/{form}", s.require(applicantOnly, s.handleDraftGet))
	mux.HandleFunc("PUT /api/v2/user/drafts/{form}", s.require(applicantOnly, s.handleDraftPut))
	mux.HandleFunc("DELETE /api/v2/user/drafts/{form}", s.require(applicantOnly, s.handleDraftDelete))
}

// draftJSON is one draft; Fields is left out of the PUT's answer, which
// the app already holds.
type draftJSON struct {
	Form      string                     `json:"form"`
	Fields    map[string]json.RawMessage `json:"fields,omitempty"`
	UpdatedAt string                     `json:"updatedAt"`
	ExpiresAt string                     `json:"expiresAt"`
}

func draftOf(d portal.Draft, withFields bool) draftJSON {
	out := draftJSON{Form: d.Form, UpdatedAt: apiTime(d.UpdatedAt), ExpiresAt: apiTime(d.ExpiresAt)}
	if withFields {
		out.Fields = d.Fields
		if out.Fields == nil {
			out.Fields = map[string]json.RawMessage{}
		}
	}
	return out
}

func (s *Server) handleDraftsGet(w http.ResponseWriter, r *http.Request) {
	drafts, err := s.svc.Drafts.FindDrafts(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var out struct {
		Payload struct {
			Drafts []draftJSON `json:"drafts"`
		} `json:"payload"`
	}
	out.Payload.Drafts = []draftJSON{}
	for _, d := range drafts {
		out.Payload.Drafts = append(out.Payload.Drafts, draftOf(d, true))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleDraftGet(w http.ResponseWriter, r *http.Request) {
	d, err := s.svc.Drafts.FindDraft(r.Context(), callerFrom(r.Context()).SubjectID, r.PathValue("form"))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]draftJSON{"payload": draftOf(*d, true)})
}

// draftBodyLimit leaves room around a draft's largest change for the
// request's own keys.
const draftBodyLimit = portal.MaxDraftSize + 4<<10

func (s *Server) handleDraftPut(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Fields map[string]json.RawMessage `json:"fields"`
	}
	if err := decodeJSONLimit(w, r, &req, draftBodyLimit); err != nil {
		s.Error(w, r, err)
		return
	}
	d, err := s.svc.Drafts.SaveDraft(r.Context(), callerFrom(r.Context()).SubjectID, r.PathValue("form"), req.Fields)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]draftJSON{"payload": draftOf(*d, false)})
}

func (s *Server) handleDraftDelete(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Drafts.DeleteDraft(r.Context(), callerFrom(r.Context()).SubjectID, r.PathValue("form")); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
