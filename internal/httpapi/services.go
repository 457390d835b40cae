package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
)

// registerServiceRoutes serves the package's service definitions, the
// fields each page requires, and the subject read model.
func (s *Server) registerServiceRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/service", s.require(applicantOnly, s.handleServiceList))
	mux.HandleFunc("GET /api/v2/user/subject/required-fields", s.require(applicantOnly, s.handleRequiredFields))
	mux.HandleFunc("GET /api/v2/user/subject", s.require(applicantOnly, s.handleSubjectView))
}

func (s *Server) handleServiceList(w http.ResponseWriter, r *http.Request) {
	list, err := s.svc.SubjectData.FindServices(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	// The labels, hints and options in the request's language.
	for i := range list {
		list[i].Service.Fields = servicedefs.Localize(list[i].Service.Fields, portal.LocaleOf(r.Context()))
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": list})
}

func (s *Server) handleRequiredFields(w http.ResponseWriter, r *http.Request) {
	req, err := s.svc.SubjectData.FindRequiredFields(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": req})
}

// handleSubjectView answers the read model, from the view cache while the
// applicant's version is unchanged (viewcache.go).
func (s *Server) handleSubjectView(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	subjectID := callerFrom(ctx).SubjectID
	l := portal.LocaleOf(ctx)
	key := viewKey{subjectID: subjectID, locale: l}
	version, cacheable, err := s.svc.SubjectData.SubjectViewVersion(ctx, subjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if cacheable {
		if body, ok := s.views.get(key, version); ok {
			writeJSONBody(w, http.StatusOK, body)
			return
		}
	}
	v, err := s.svc.SubjectData.FindSubjectView(ctx, subjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	// Each page's name and what it still misses are said in the applicant's language.
	for n := range v.Pages {
		p := &v.Pages[n]
		p.Title = portal.TranslateText(l, p.Title)
		for i, m := range p.Missing {
			p.Missing[i] = portal.TranslateText(l, m)
		}
	}
	var body bytes.Buffer
	if err := json.NewEncoder(&body).Encode(map[string]*portal.SubjectView{"payload": v}); err != nil {
		s.Error(w, r, fmt.Errorf("httpapi: encode the subject view: %w", err))
		return
	}
	if cacheable {
		s.views.put(key, version, body.Bytes())
	}
	writeJSONBody(w, http.StatusOK, body.Bytes())
}
