package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"applicantportal/internal/lookup"
	"applicantportal/internal/phone"
	"applicantportal/internal/portal"
)

func (s *Server) registerPersonalRoutes(mux *http.ServeMux) {
	mux.HandleFunc("PUT /api/v2/user", s.authed(false, s.handlePersonalInfoPut))
	mux.HandleFunc("GET /api/v2/lookup/statesByCountryId", s.handleStatesByCountry)
	mux.HandleFunc("GET /api/v2/lookup/{key}", s.handleLookup)
}

// handlePersonalInfoPut saves the full personal information. The app only
// ever sees the last four digits of a saved SSN, so an empty ssn keeps the
// SSN on file.
func (s *Server) handlePersonalInfoPut(w http.ResponseWriter, r *http.Request, sess *portal.Session) {
	var p portal.PersonalInfo
	if err := decodeJSON(w, r, &p); err != nil {
		s.Error(w, r, err)
		return
	}
	ctx := r.Context()
	view, err := s.svc.Subjects.FindUserView(ctx, sess.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	onFile := view.Personal != nil && view.Personal.SSN != ""
	if onFile && !p.NoSSN && strings.TrimSpace(p.SSN) == "" {
		p.SSN, p.ConfirmSSN = view.Personal.SSN, view.Personal.SSN
	}
	rules := portal.PersonalRules{
		RequireSSN:   view.Company.Preferences.RequireSSN,
		SSNOnFile:    onFile,
		ValidGender:  lookup.IsGender,
		ValidSuffix:  lookup.IsSuffix,
		ValidState:   lookup.IsStateCode,
		ValidCountry: lookup.IsCountry,
		ValidRegion:  lookup.IsRegionID,
		ValidPhone:   phone.Valid,
	}
	if err := p.Validate(s.now(), rules); err != nil {
		s.Error(w, r, err)
		return
	}
	p.Normalize()
	// The app sends a licence's region id; its name comes from the lookup.
	for i := range p.Licenses {
		p.Licenses[i].RegionName = lookup.RegionName(p.Licenses[i].RegionID)
	}
	if err := s.checkSignedLastFour(r, sess.SubjectID, p); err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Subjects.SavePersonalInfo(ctx, sess.SubjectID, &p); err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeUser(w, r, sess.SubjectID)
}

// checkSignedLastFour: an SSN saved during setup must end in the last four
// digits the applicant typed when signing.
func (s *Server) checkSignedLastFour(r *http.Request, subjectID int64, p portal.PersonalInfo) error {
	if s.svc.Legal == nil || p.NoSSN {
		return nil
	}
	file, err := s.svc.Legal.FindLegalDocuments(r.Context(), subjectID)
	if err != nil {
		return err
	}
	return file.CheckSSNAgainstSignatures(p.SSN)
}

// Lookups are public reference data shipped in the binary, the same for
// everyone, so browsers may cache them.
func (s *Server) handleLookup(w http.ResponseWriter, r *http.Request) {
	data, ok := lookup.Get(r.PathValue("key"))
	if !ok {
		s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "No lookup named %q; try one of %s.", r.PathValue("key"), strings.Join(lookup.Keys(), ", ")))
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, http.StatusOK, data)
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
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, http.StatusOK, lookup.StatesByCountryID(id))
}
