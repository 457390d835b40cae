package httpapi

import (
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
	s.answerCachedView(w, r, func() (any, error) {
		v, err := s.svc.SubjectData.FindSubjectView(r.Context(), callerFrom(r.Context()).SubjectID)
		if err != nil {
			return nil, err
		}
		// Each page's name and what it still misses are said in the applicant's language.
		l := portal.LocaleOf(r.Context())
		for n := range v.Pages {
			p := &v.Pages[n]
			p.Title = portal.TranslateText(l, p.Title)
			for i, m := range p.Missing {
				p.Missing[i] = portal.TranslateText(l, m)
			}
		}
		return map[string]*portal.SubjectView{"payload": v}, nil
	})
}
