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
		out.Services = append(out.Services, orderServiceJSON{ID: svc.ID, Code: svc.Code, Name: svc.Name, Alias: svc.Alias,
			Status: status, HasError: svc.HasError})
	}
	writeJSON(w, http.StatusOK, out)
}
