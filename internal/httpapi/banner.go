package httpapi

import (
	"net/http"
	"strconv"

	"applicantportal/internal/portal"
)

func (s *Server) registerBannerRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/banner/active", s.require(setupAllowed, s.handleBannerActive))
	mux.HandleFunc("POST /api/v2/banner/dismiss/{id}", s.require(setupAllowed, s.handleBannerDismiss))
}

func (s *Server) handleBannerActive(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	b, err := s.svc.Banners.ActiveBanner(r.Context(), sess.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": map[string]any{"banner": b}})
}

func (s *Server) handleBannerDismiss(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "Banner not found."))
		return
	}
	if err := s.svc.Banners.DismissBanner(r.Context(), sess.SubjectID, id); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
