package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

func (s *Server) registerPersonalRoutes(mux *routes) {
	mux.HandleFunc("PUT /api/v2/user", s.require(applicantOnly, s.handlePersonalInfoPut))
	mux.HandleFunc("GET /api/v2/lookup/statesByCountryId", s.handleStatesByCountry)
	mux.HandleFunc("GET /api/v2/lookup/{key}", s.handleLookup)
}

// personalSavedJSON is the answer of PUT /api/v2/user: the part of the
// GET /api/v2/user answer that the save changed, in the same place, so the
// app puts it into the user it holds. Nothing else of that answer depends
// on the personal information, and rebuilding all of it was most of the
// save's cost.
type personalSavedJSON struct {
	Subject struct {
		PersonalInformation portal.PersonalSnapshot `json:"personalInformation"`
	} `json:"subject"`
}

// handlePersonalInfoPut saves the full personal information
// (PersonalService.UpdatePersonalInfo checks it against the company's rules
// and the signatures) and answers what was saved as GET /api/v2/user shows
// it.
func (s *Server) handlePersonalInfoPut(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	var p portal.PersonalInfo
	if err := decodeJSON(w, r, &p); err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Personal.UpdatePersonalInfo(r.Context(), sess.SubjectID, &p); err != nil {
		s.Error(w, r, err)
		return
	}
	var out personalSavedJSON
	out.Subject.PersonalInformation = p.Snapshot()
	writeJSON(w, http.StatusOK, out)
}

// Lookups are public reference data shipped in the binary, the same for
// everyone who reads the same language, so browsers may cache them per
// language (lookupCaching).
func (s *Server) handleLookup(w http.ResponseWriter, r *http.Request) {
	data, ok := lookup.GetJSON(r.PathValue("key"), portal.LocaleOf(r.Context()))
	if !ok {
		s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "No lookup named %q; try one of %s.", r.PathValue("key"), strings.Join(lookup.Keys(), ", ")))
		return
	}
	lookupCaching(w)
	writeEncodedJSON(w, data)
}

// writeEncodedJSON answers 200 with JSON encoded beforehand (the lookups,
// encoded once per language).
func writeEncodedJSON(w http.ResponseWriter, data []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(data)
}

// lookupCaching lets a lookup's answer be cached for an hour, apart for
// each language: the names follow the locale cookie and Accept-Language.
func lookupCaching(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Add("Vary", "Accept-Language, Cookie")
}

func (s *Server) handleStatesByCountry(w http.ResponseWriter, r *http.Request) {
	id := int64(lookup.USCountryID)
	if v := r.URL.Query().Get("countryId"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			var fe portal.FieldErrors
			fe.Add("countryId", "countryId must be a number, such as 1 for the United States.")
			s.Error(w, r, fe.Err())
			return
		}
		id = n
	}
	lookupCaching(w)
	writeEncodedJSON(w, lookup.StatesByCountryIDJSON(id, portal.LocaleOf(r.Context())))
}
