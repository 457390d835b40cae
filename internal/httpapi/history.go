package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// registerHistoryRoutes serves the applicant's other names, address history
// and notification preference.
func (s *Server) registerHistoryRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/subject/alias", s.require(applicantOnly, s.handleAliasesGet))
	mux.HandleFunc("PUT /api/v2/user/subject/alias", s.require(applicantOnly, s.handleAliasesPut))
	mux.HandleFunc("GET /api/v2/user/subject/address", s.require(applicantOnly, s.handleAddressesGet))
	mux.HandleFunc("PUT /api/v2/user/subject/address", s.require(applicantOnly, s.handleAddressesPut))
	mux.HandleFunc("PUT /api/v2/user/subject/notification", s.require(applicantOnly, s.handleNotificationPut))
}

// aliasesJSON is GET /api/v2/user/subject/alias.
type aliasesJSON struct {
	Payload struct {
		Aliases []portal.Alias `json:"aliases"`
		Saved   bool           `json:"saved"`
	} `json:"payload"`
}

func writeAliases(w http.ResponseWriter, l *portal.AliasList) {
	var out aliasesJSON
	out.Payload.Aliases, out.Payload.Saved = l.Aliases, l.Saved
	if out.Payload.Aliases == nil {
		out.Payload.Aliases = []portal.Alias{}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleAliasesGet(w http.ResponseWriter, r *http.Request) {
	l, err := s.svc.History.FindAliases(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeAliases(w, l)
}

func (s *Server) handleAliasesPut(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Aliases *[]portal.Alias `json:"aliases"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if req.Aliases == nil {
		s.Error(w, r, listRequired("aliases"))
		return
	}
	l, err := s.svc.History.SaveAliases(r.Context(), callerFrom(r.Context()).SubjectID, *req.Aliases)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeAliases(w, l)
}

// listRequired refuses a PUT without its list: an empty list is an answer,
// a missing one is a mistake.
func listRequired(field string) error {
	var fe portal.FieldErrors
	fe.Addf(field, "%s is required.", field)
	return fe.Err()
}

// addressesJSON is GET /api/v2/user/subject/address.
type addressesJSON struct {
	Payload struct {
		Addresses           []portal.Address    `json:"addresses"`
		Saved               bool                `json:"saved"`
		RequiredYears       int                 `json:"requiredYears"`
		CoverageStart       string              `json:"coverageStart"`
		Gaps                []portal.MonthRange `json:"gaps"`
		ReleaseFormRequired bool                `json:"releaseFormRequired"`
	} `json:"payload"`
}

func writeAddresses(w http.ResponseWriter, h *portal.AddressHistory) {
	var out addressesJSON
	p := &out.Payload
	p.Addresses, p.Saved, p.RequiredYears, p.CoverageStart = h.Addresses, h.Saved, h.RequiredYears, h.CoverageStart
	p.Gaps, p.ReleaseFormRequired = h.Gaps, h.ReleaseFormRequired
	if p.Addresses == nil {
		p.Addresses = []portal.Address{}
	}
	if p.Gaps == nil {
		p.Gaps = []portal.MonthRange{}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleAddressesGet(w http.ResponseWriter, r *http.Request) {
	h, err := s.svc.History.FindAddresses(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeAddresses(w, h)
}

func (s *Server) handleAddressesPut(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Addresses *[]portal.Address `json:"addresses"`
		Draft     bool              `json:"draft"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if req.Addresses == nil {
		s.Error(w, r, listRequired("addresses"))
		return
	}
	h, err := s.svc.History.SaveAddresses(r.Context(), callerFrom(r.Context()).SubjectID, *req.Addresses, req.Draft)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeAddresses(w, h)
}

// notificationJSON is the answer of PUT /api/v2/user/subject/notification.
type notificationJSON struct {
	Payload struct {
		PrimaryNotificationMethod portal.NotificationMethod `json:"primaryNotificationMethod"`
	} `json:"payload"`
}

func (s *Server) handleNotificationPut(w http.ResponseWriter, r *http.Request) {
	var req portal.NotificationMethod
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	m, err := s.svc.History.SaveNotificationMethod(r.Context(), callerFrom(r.Context()).SubjectID, req)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var out notificationJSON
	out.Payload.PrimaryNotificationMethod = m
	writeJSON(w, http.StatusOK, out)
}
