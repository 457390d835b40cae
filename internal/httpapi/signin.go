package httpapi

import (
	"net/http"
	"strings"

	"applicantportal/internal/portal"
)

// registerSignInRoutes serves the ways back in without a password or a
// working link: a new link on request, and one-time sign-in codes (the
// codes' grant is on the token endpoint, auth.go). All public.
func (s *Server) registerSignInRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/links/status", s.handleLinkStatus)
	mux.HandleFunc("POST /api/v2/links/renew", s.handleLinkRenew)
	mux.HandleFunc("POST /api/v2/login/code", s.handleLoginCodeRequest)
}

type linkStatusResponse struct {
	Kind  string `json:"kind"`
	State string `json:"state"`
}

// handleLinkStatus tells the holder of a link that no longer works why:
// expired, used or not recognised. Only the token's holder can ask, so it
// reveals nothing to anyone else.
func (s *Server) handleLinkStatus(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	kind := q.Get("kind")
	state, err := s.svc.SignIn.LinkState(r.Context(), kind, strings.TrimSpace(q.Get("token")))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, linkStatusResponse{Kind: kind, State: state})
}

type linkRenewRequest struct {
	Kind  string `json:"kind"`
	Token string `json:"token"`
	Email string `json:"email"`
}

// handleLinkRenew answers every well-formed request with the same 202,
// whether or not the address or token is known and whether or not the
// throttle held the mail back.
func (s *Server) handleLinkRenew(w http.ResponseWriter, r *http.Request) {
	var req linkRenewRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	err := s.svc.SignIn.RenewLink(r.Context(), portal.LinkRenewal{Kind: req.Kind, Token: req.Token, Email: req.Email,
		IP: s.clientIP(r), BaseURL: s.cfg.BaseURL})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, messageBody(r, portal.LinkRenewalMessage))
}

type loginCodeRequest struct {
	Username string `json:"username"`
	Channel  string `json:"channel"`
}

// handleLoginCodeRequest sends a sign-in code; the same 202 whatever the
// address, as for resets.
func (s *Server) handleLoginCodeRequest(w http.ResponseWriter, r *http.Request) {
	var req loginCodeRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if req.Channel == "" {
		req.Channel = portal.SendByEmail
	}
	err := s.svc.SignIn.RequestLoginCode(r.Context(), portal.LoginCodeRequest{Username: req.Username, Channel: req.Channel, IP: s.clientIP(r)})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, messageBody(r, portal.LoginCodeSentMessage))
}
