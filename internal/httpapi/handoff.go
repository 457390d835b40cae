package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// Continue on another device (docs/api.md): the signed-in applicant asks
// for a one-time link to the page they are on; the token endpoint's
// handoff grant (handleHandoffGrant) redeems it on the other device.
func (s *Server) registerHandoffRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/handoff", s.require(applicantOnly, s.handleHandoffChannels))
	mux.HandleFunc("POST /api/v2/user/handoff", s.require(applicantOnly, s.handleHandoffCreate))
}

type handoffChannelsJSON struct {
	Email string `json:"email"`
	// Phone is the last four digits of the mobile number a link can be
	// texted to; null when there is none.
	Phone            *string `json:"phone"`
	ExpiresInSeconds int     `json:"expiresInSeconds"`
}

func (s *Server) handleHandoffChannels(w http.ResponseWriter, r *http.Request) {
	ch, err := s.svc.Handoffs.HandoffChannels(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := handoffChannelsJSON{Email: ch.Email, ExpiresInSeconds: int(portal.HandoffTTL.Seconds())}
	if ch.PhoneEnding != "" {
		out.Phone = &ch.PhoneEnding
	}
	writeJSON(w, http.StatusOK, out)
}

type handoffCreateRequest struct {
	Path string  `json:"path"`
	Send *string `json:"send"`
}

type handoffJSON struct {
	URL       string  `json:"url"`
	ExpiresAt string  `json:"expiresAt"`
	SentTo    *string `json:"sentTo"`
}

func (s *Server) handleHandoffCreate(w http.ResponseWriter, r *http.Request) {
	var req handoffCreateRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	send := ""
	if req.Send != nil {
		send = *req.Send
		if send == "" {
			// "send": "" is no choice made, which null says.
			send = "?"
		}
	}
	h, err := s.svc.Handoffs.CreateHandoff(r.Context(), *callerFrom(r.Context()),
		portal.HandoffRequest{Path: req.Path, Send: send, BaseURL: s.cfg.BaseURL})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := handoffJSON{URL: h.URL, ExpiresAt: apiTime(h.ExpiresAt)}
	if h.SentTo != "" {
		out.SentTo = &h.SentTo
	}
	writeJSON(w, http.StatusCreated, out)
}

// handoffTokenResponse is the handoff grant's answer: the usual tokens
// and the page to open.
type handoffTokenResponse struct {
	tokenResponse
	Path string `json:"path"`
}

// handleHandoffGrant is the token endpoint's grant_type=handoff.
func (s *Server) handleHandoffGrant(w http.ResponseWriter, r *http.Request, req tokenRequest) error {
	red, err := s.svc.Handoffs.RedeemHandoff(r.Context(), req.ClientID, req.ClientSecret, req.HandoffToken, s.clientIP(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, handoffTokenResponse{tokenResponse: newTokenResponse(red.Tokens), Path: red.Path})
	return nil
}
