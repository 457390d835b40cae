package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// The operator API's adverse action: an employer's system sends the
// pre-adverse and final notices and reads where they stand, through the
// same OperatorAdverseActionService as `portal adverse`.
func (s *Server) registerOperatorAdverseRoutes(mux *routes) {
	const adverse = "/api/v2/operator/applicants/{id}/adverse-action"
	mux.HandleFunc("GET "+adverse, s.operatorOnly(s.handleOperatorAdverseShow))
	mux.HandleFunc("POST "+adverse+"/pre", s.operatorOnly(s.handleOperatorAdversePre))
	mux.HandleFunc("POST "+adverse+"/final", s.operatorOnly(s.handleOperatorAdverseFinal))
}

func (s *Server) handleOperatorAdverseShow(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	a, err := s.svc.Operator.AdverseActions.FindAdverseAction(r.Context(), operatorFrom(r.Context()).CompanyID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newAdverseActionJSON(a))
}

type operatorAdversePreRequest struct {
	WaitingDays *int     `json:"waitingDays"`
	Note        string   `json:"note"`
	BasedOn     []string `json:"basedOn"`
}

func (s *Server) handleOperatorAdversePre(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var body operatorAdversePreRequest
	if err := decodeJSON(w, r, &body); err != nil {
		s.Error(w, r, err)
		return
	}
	a, err := s.svc.Operator.AdverseActions.SendPreAdverseAction(r.Context(), portal.PreAdverseRequest{
		CompanyID: operatorFrom(r.Context()).CompanyID, SubjectID: id, WaitingDays: body.WaitingDays, Note: body.Note, BasedOn: body.BasedOn})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, newAdverseActionJSON(a))
}

type operatorAdverseFinalRequest struct {
	Note string `json:"note"`
}

func (s *Server) handleOperatorAdverseFinal(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var body operatorAdverseFinalRequest
	if err := decodeJSON(w, r, &body); err != nil {
		s.Error(w, r, err)
		return
	}
	a, err := s.svc.Operator.AdverseActions.SendFinalAdverseAction(r.Context(), portal.FinalAdverseRequest{
		CompanyID: operatorFrom(r.Context()).CompanyID, SubjectID: id, Note: body.Note})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newAdverseActionJSON(a))
}
