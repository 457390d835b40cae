package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// The operator API's disputes: an employer's system lists, reads, answers
// and resolves its applicants' disputes through the same
// OperatorDisputeService as `portal dispute`.
func (s *Server) registerOperatorDisputeRoutes(mux *routes) {
	const one = "/api/v2/operator/disputes/{id}"
	mux.HandleFunc("GET /api/v2/operator/disputes", s.operatorOnly(s.handleOperatorDisputeList))
	mux.HandleFunc("GET "+one, s.operatorOnly(s.handleOperatorDisputeShow))
	mux.HandleFunc("POST "+one+"/answer", s.operatorOnly(s.handleOperatorDisputeAnswer))
	mux.HandleFunc("POST "+one+"/resolve", s.operatorOnly(s.handleOperatorDisputeResolve))
	mux.HandleFunc("GET "+one+"/files/{fileId}", s.operatorOnly(s.handleOperatorDisputeFile))
}

// operatorDisputeJSON is a dispute with whose it is.
type operatorDisputeJSON struct {
	disputeJSON
	Applicant operatorApplicant `json:"applicant"`
}

func (s *Server) writeOperatorDispute(w http.ResponseWriter, d *portal.OperatorDispute) {
	writeJSON(w, http.StatusOK, operatorDisputeJSON{newDisputeJSON(d.Dispute, s.now()), newOperatorApplicant(d.Applicant)})
}

// handleOperatorDisputeList lists the company's disputes, the soonest due
// first; ?state= keeps one state.
func (s *Server) handleOperatorDisputeList(w http.ResponseWriter, r *http.Request) {
	list, err := s.svc.Operator.Disputes.FindDisputes(r.Context(), portal.DisputeFilter{
		CompanyID: operatorFrom(r.Context()).CompanyID, State: r.URL.Query().Get("state")})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]operatorDisputeJSON, 0, len(list))
	for _, d := range list {
		out = append(out, operatorDisputeJSON{newDisputeJSON(d.Dispute, s.now()), newOperatorApplicant(d.Applicant)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}

func (s *Server) handleOperatorDisputeShow(w http.ResponseWriter, r *http.Request) {
	id, err := disputeID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	d, err := s.svc.Operator.Disputes.FindDispute(r.Context(), operatorFrom(r.Context()).CompanyID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeOperatorDispute(w, d)
}

// disputeAnswerJSON is an answer {"message"} or a resolution {"outcome",
// "message"}.
type disputeAnswerJSON struct {
	Outcome string `json:"outcome"`
	Message string `json:"message"`
}

func (s *Server) readDisputeAnswer(w http.ResponseWriter, r *http.Request) (int64, disputeAnswerJSON, error) {
	var in disputeAnswerJSON
	id, err := disputeID(r)
	if err != nil {
		return 0, in, err
	}
	if !isJSON(r) {
		return 0, in, portal.Errorf(portal.EUNSUPPORTED, "The request body must be JSON (Content-Type: application/json).")
	}
	err = decodeLongTextJSON(w, r, &in, maxDisputeJSONBody, fieldError("message", "The message is too long."))
	return id, in, err
}

func (s *Server) handleOperatorDisputeAnswer(w http.ResponseWriter, r *http.Request) {
	id, in, err := s.readDisputeAnswer(w, r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	d, err := s.svc.Operator.Disputes.AnswerDispute(r.Context(), operatorFrom(r.Context()).CompanyID, id, in.Message)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeOperatorDispute(w, d)
}

func (s *Server) handleOperatorDisputeResolve(w http.ResponseWriter, r *http.Request) {
	id, in, err := s.readDisputeAnswer(w, r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	d, err := s.svc.Operator.Disputes.ResolveDispute(r.Context(), operatorFrom(r.Context()).CompanyID, id, in.Outcome, in.Message)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeOperatorDispute(w, d)
}

func (s *Server) handleOperatorDisputeFile(w http.ResponseWriter, r *http.Request) {
	id, fileID, err := disputeFileIDs(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	f, rc, err := s.svc.Operator.Disputes.OpenDisputeAttachment(r.Context(), operatorFrom(r.Context()).CompanyID, id, fileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.serveFile(w, r, f, rc, f.Name)
}
