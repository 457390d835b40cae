package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
)

// registerAdverseActionRoutes serves the applicant's adverse-action notice:
// the pre-adverse notice with its waiting period counted by the server's
// clock, then the final notice.
func (s *Server) registerAdverseActionRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/adverse-action", s.require(applicantOnly, s.handleAdverseActionGet))
}

// adverseActionJSON is an adverse action as the applicant and the operator
// API read it. Times are RFC 3339 in UTC, endsOn a date.
type adverseActionJSON struct {
	ApplicantID      int64    `json:"applicantId"`
	State            string   `json:"state"` // "pre" | "final"
	CompanyName      string   `json:"companyName"`
	SentAt           string   `json:"sentAt"`
	WaitingDays      int      `json:"waitingDays"`
	EndsOn           string   `json:"endsOn"`
	BusinessDaysLeft int      `json:"businessDaysLeft"`
	Note             string   `json:"note"`
	BasedOn          []string `json:"basedOn"`
	FinalAt          *string  `json:"finalAt"`
	FinalNote        string   `json:"finalNote"`
	// SummaryOfRights is sanitized HTML (the sample text until an operator
	// loads counsel's).
	SummaryOfRights string `json:"summaryOfRights,omitempty"`
}

func newAdverseActionJSON(a *portal.AdverseAction) adverseActionJSON {
	out := adverseActionJSON{ApplicantID: a.SubjectID, State: a.State(), CompanyName: a.CompanyName, SentAt: operatorTime(a.SentAt),
		WaitingDays: a.WaitingDays, EndsOn: a.EndsOn.Format(time.DateOnly), BusinessDaysLeft: a.BusinessDaysLeft, Note: a.Note,
		BasedOn: a.BasedOn, FinalAt: operatorTimePtr(a.FinalAt), FinalNote: a.FinalNote}
	if out.BasedOn == nil {
		out.BasedOn = []string{}
	}
	return out
}

// handleAdverseActionGet answers the caller's notice with the Summary of
// Rights, or null when none was sent, which is the usual case and no
// error for the app.
func (s *Server) handleAdverseActionGet(w http.ResponseWriter, r *http.Request) {
	a, err := s.svc.AdverseAction.FindAdverseAction(r.Context(), callerFrom(r.Context()).SubjectID)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		writeJSON(w, http.StatusOK, json.RawMessage("null"))
		return
	} else if err != nil {
		s.Error(w, r, err)
		return
	}
	out := newAdverseActionJSON(a)
	out.SummaryOfRights = legaltext.SummaryOfRights(portal.LocaleOf(r.Context()))
	writeJSON(w, http.StatusOK, out)
}
