package httpapi

import (
	"context"
	"net/http"

	"applicantportal/internal/portal"
)

// The operator API's screening: an employer's or provider's system moves
// each service of an applicant's order, the order's status and the
// profile's, through the same OperatorScreeningService as `portal service
// set`, `portal order set` and `portal profile set`.
func (s *Server) registerOperatorScreeningRoutes(mux *routes) {
	const applicant = "/api/v2/operator/applicants/{id}"
	mux.HandleFunc("GET "+applicant+"/services", s.operatorOnly(s.handleOperatorServiceList))
	mux.HandleFunc("PUT "+applicant+"/services/{code}", s.operatorOnly(s.handleOperatorServiceSet))
	mux.HandleFunc("PUT "+applicant+"/order-status", s.operatorOnly(s.handleOperatorOrderStatusSet))
	mux.HandleFunc("PUT "+applicant+"/profile-status", s.operatorOnly(s.handleOperatorProfileStatusSet))
	mux.HandleFunc("GET /api/v2/operator/service-reasons", s.operatorOnly(s.handleOperatorServiceReasons))
}

// operatorServiceJSON is one service as the staff see it, their note
// included.
type operatorServiceJSON struct {
	Code      string              `json:"code"`
	Name      string              `json:"name"`
	State     portal.ServiceState `json:"state"`
	Reason    *string             `json:"reason"`
	Note      string              `json:"note"`
	ETADays   *portal.ETADays     `json:"etaDays"`
	Estimate  *estimateJSON       `json:"estimate"`
	UpdatedAt *string             `json:"updatedAt"`
}

func newOperatorServiceJSON(p portal.ServiceProgress) operatorServiceJSON {
	out := operatorServiceJSON{Code: p.Code, Name: p.Name, State: p.State, Note: p.Note, Estimate: newEstimateJSON(p.Estimate())}
	if p.Reason != "" {
		out.Reason = &p.Reason
	}
	if out.Estimate != nil {
		out.ETADays = &p.ETADays
	}
	if !p.UpdatedAt.IsZero() {
		out.UpdatedAt = operatorTimePtr(&p.UpdatedAt)
	}
	return out
}

func (s *Server) handleOperatorServiceList(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	list, err := s.svc.Operator.Screening.ServiceStates(r.Context(), operatorFrom(r.Context()).CompanyID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]operatorServiceJSON, 0, len(list))
	for _, p := range list {
		out = append(out, newOperatorServiceJSON(p))
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}

type operatorServiceRequest struct {
	State   portal.ServiceState `json:"state"`
	Reason  string              `json:"reason"`
	Note    string              `json:"note"`
	ETADays *portal.ETADays     `json:"etaDays"`
}

func (s *Server) handleOperatorServiceSet(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var body operatorServiceRequest
	if err := decodeJSON(w, r, &body); err != nil {
		s.Error(w, r, err)
		return
	}
	p, err := s.svc.Operator.Screening.SetServiceState(r.Context(), operatorFrom(r.Context()).CompanyID, portal.SetServiceStateRequest{
		SubjectID: id, Code: r.PathValue("code"), State: body.State, Reason: body.Reason, Note: body.Note, ETADays: body.ETADays})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newOperatorServiceJSON(*p))
}

type operatorStatusRequest struct {
	StatusID *int `json:"statusId"`
}

// decodeStatusID reads {"statusId": N}; a missing id is a field error,
// not status 0.
func decodeStatusID(w http.ResponseWriter, r *http.Request) (int, error) {
	var body operatorStatusRequest
	if err := decodeJSON(w, r, &body); err != nil {
		return 0, err
	}
	if body.StatusID == nil {
		return 0, portal.FieldErrors{{Field: "statusId", Message: "Give the status id."}}.Err()
	}
	return *body.StatusID, nil
}

// handleOperatorStatusSet reads {"statusId": N} for the applicant of the
// path, sets it and answers what answer makes of it.
func (s *Server) handleOperatorStatusSet(w http.ResponseWriter, r *http.Request,
	set func(ctx context.Context, companyID, subjectID int64, status int) error, answer func(status int) any) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	status, err := decodeStatusID(w, r)
	if err == nil {
		err = set(r.Context(), operatorFrom(r.Context()).CompanyID, id, status)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, answer(status))
}

func (s *Server) handleOperatorOrderStatusSet(w http.ResponseWriter, r *http.Request) {
	s.handleOperatorStatusSet(w, r, func(ctx context.Context, companyID, subjectID int64, status int) error {
		return s.svc.Operator.Screening.SetOrderStatus(ctx, companyID, subjectID, portal.StatusID(status))
	}, func(status int) any { return portal.NewStatus(portal.StatusID(status)) })
}

func (s *Server) handleOperatorProfileStatusSet(w http.ResponseWriter, r *http.Request) {
	s.handleOperatorStatusSet(w, r, s.svc.Operator.Screening.SetProfileStatus, func(status int) any {
		name, _ := portal.ProfileStatusName(status)
		return profileStatusJSON{StatusID: status, Status: name, Shown: portal.ProfileStatusShown(status)}
	})
}

type profileStatusJSON struct {
	StatusID int    `json:"statusId"`
	Status   string `json:"status"` // the spec's name
	Shown    string `json:"shown"`  // what the applicant is shown: pending, qa or complete
}

type serviceReasonCatalogueJSON struct {
	Code          string              `json:"code"`
	State         portal.ServiceState `json:"state"`
	ApplicantText string              `json:"applicantText"`
	OperatorText  string              `json:"operatorText"`
	Action        *reasonActionJSON   `json:"action"`
	NeedsDate     bool                `json:"needsDate"`
	AddDays       portal.ETADays      `json:"addDays"`
}

func (s *Server) handleOperatorServiceReasons(w http.ResponseWriter, r *http.Request) {
	out := make([]serviceReasonCatalogueJSON, 0, len(portal.ServiceReasons))
	for _, reason := range portal.ServiceReasons {
		out = append(out, serviceReasonCatalogueJSON{Code: reason.Code, State: reason.State, ApplicantText: reason.Applicant,
			OperatorText: reason.Operator, Action: newReasonActionJSON(reason.Action, portal.LocaleEnUS), NeedsDate: reason.NeedsDate, AddDays: reason.AddDays})
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}
