package httpapi

import (
	"net/http"
	"time"

	"applicantportal/internal/portal"
)

// registerOrderRoutes serves the applicant's orders one by one (the list is
// in GET /api/v2/user/profile).
func (s *Server) registerOrderRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/order/{id}", s.require(applicantOnly, s.handleOrderGet))
}

// orderDetailJSON is GET /api/v2/user/order/{id}.
type orderDetailJSON struct {
	ID          int64              `json:"id"`
	StatusID    portal.StatusID    `json:"statusId"`
	StatusText  string             `json:"statusText"`
	PackageName string             `json:"packageName"`
	CreatedAt   string             `json:"createdAt"`
	Services    []orderServiceJSON `json:"services"`
}

type orderServiceJSON struct {
	ID       int64  `json:"id"`
	Code     string `json:"code"`
	Name     string `json:"name"`
	Alias    string `json:"alias"`
	Status   string `json:"status"` // "pending" | "complete"
	HasError bool   `json:"hasError"`
	// Where the staff set the service; the staff's note is theirs alone
	// (a reason's date is in its text).
	State     portal.ServiceState `json:"state"`
	Reason    *serviceReasonJSON  `json:"reason"`
	Estimate  *estimateJSON       `json:"estimate"`
	UpdatedAt *string             `json:"updatedAt"`
}

type serviceReasonJSON struct {
	Code   string            `json:"code"`
	Text   string            `json:"text"`
	Action *reasonActionJSON `json:"action"`
}

type reasonActionJSON struct {
	Label string `json:"label"`
	Path  string `json:"path"`
}

type estimateJSON struct {
	Earliest string `json:"earliest"` // YYYY-MM-DD
	Latest   string `json:"latest"`
}

func newEstimateJSON(e *portal.Estimate) *estimateJSON {
	if e == nil {
		return nil
	}
	return &estimateJSON{Earliest: e.Earliest.Format(time.DateOnly), Latest: e.Latest.Format(time.DateOnly)}
}

// newServiceReasonJSON is the reason of p as the applicant reads it; nil
// when none, or when the service is complete.
// Its text and action are in the applicant's language l.
func newServiceReasonJSON(l portal.Locale, p portal.ServiceProgress) *serviceReasonJSON {
	r, ok := portal.FindServiceReason(p.Reason)
	if !ok || p.State == portal.ServiceComplete {
		return nil
	}
	out := &serviceReasonJSON{Code: r.Code, Text: portal.TranslateText(l, r.ApplicantText(p.Note)), Action: newReasonActionJSON(r.Action)}
	if out.Action != nil {
		out.Action.Label = portal.TranslateText(l, out.Action.Label)
	}
	return out
}

func newReasonActionJSON(a *portal.ReasonAction) *reasonActionJSON {
	if a == nil {
		return nil
	}
	return &reasonActionJSON{Label: a.Label, Path: a.Path}
}

// handleOrderGet answers one of the caller's orders; any other id, a
// malformed one included, is 404 as if it did not exist.
func (s *Server) handleOrderGet(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", portal.Errorf(portal.ENOTFOUND, "Order not found."))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	o, err := s.svc.Orders.FindOrder(r.Context(), callerFrom(r.Context()).SubjectID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := orderDetailJSON{ID: o.ID, StatusID: o.StatusID, StatusText: o.StatusID.Text(), PackageName: o.PackageName,
		CreatedAt: o.CreatedAt.UTC().Format(time.RFC3339), Services: []orderServiceJSON{}}
	for _, svc := range o.Services {
		status := "pending"
		if svc.Complete {
			status = "complete"
		}
		// A complete order completes every service, whatever was set.
		p := svc.Progress
		if svc.Complete {
			p.State = portal.ServiceComplete
		}
		var updated *string
		if !p.UpdatedAt.IsZero() {
			updated = operatorTimePtr(&p.UpdatedAt)
		}
		out.Services = append(out.Services, orderServiceJSON{ID: svc.ID, Code: svc.Code, Name: svc.Name, Alias: svc.Alias,
			Status: status, HasError: svc.HasError, State: p.State, Reason: newServiceReasonJSON(portal.LocaleOf(r.Context()), p),
			Estimate: newEstimateJSON(p.Estimate()), UpdatedAt: updated})
	}
	writeJSON(w, http.StatusOK, out)
}
