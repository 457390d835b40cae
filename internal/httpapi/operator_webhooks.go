package httpapi

import (
	"net/http"

	"applicantportal/internal/portal"
)

// registerOperatorWebhookRoutes serves a company's webhook endpoints and
// their deliveries to its own systems (the API key's company).
func (s *Server) registerOperatorWebhookRoutes(mux *routes) {
	mux.HandleFunc("POST /api/v2/operator/webhooks", s.operatorOnly(s.handleOperatorWebhookCreate))
	mux.HandleFunc("GET /api/v2/operator/webhooks", s.operatorOnly(s.handleOperatorWebhookList))
	mux.HandleFunc("DELETE /api/v2/operator/webhooks/{id}", s.operatorOnly(s.handleOperatorWebhookDelete))
	mux.HandleFunc("GET /api/v2/operator/webhooks/{id}/deliveries", s.operatorOnly(s.handleOperatorWebhookDeliveries))
}

type operatorWebhook struct {
	ID        int64   `json:"id"`
	URL       string  `json:"url"`
	CreatedAt string  `json:"createdAt"`
	RemovedAt *string `json:"removedAt"`
	// Secret is in the answer of the creation only.
	Secret string `json:"secret,omitempty"`
}

func newOperatorWebhook(e portal.WebhookEndpoint) operatorWebhook {
	return operatorWebhook{ID: e.ID, URL: e.URL, CreatedAt: operatorTime(e.CreatedAt), RemovedAt: operatorTimePtr(e.RemovedAt)}
}

type operatorWebhookAttempt struct {
	At         string `json:"at"`
	Status     int    `json:"status"`
	Error      string `json:"error"`
	DurationMS int64  `json:"durationMs"`
}

type operatorWebhookDelivery struct {
	ID            int64                    `json:"id"`
	EventID       string                   `json:"eventId"`
	EventType     string                   `json:"eventType"`
	ApplicantID   int64                    `json:"applicantId"`
	State         string                   `json:"state"`
	LastStatus    int                      `json:"lastStatus"`
	LastError     string                   `json:"lastError"`
	NextAttemptAt *string                  `json:"nextAttemptAt"`
	CreatedAt     string                   `json:"createdAt"`
	DeliveredAt   *string                  `json:"deliveredAt"`
	Attempts      []operatorWebhookAttempt `json:"attempts"`
}

func (s *Server) handleOperatorWebhookCreate(w http.ResponseWriter, r *http.Request) {
	var body struct {
		URL string `json:"url"`
	}
	if err := decodeJSON(w, r, &body); err != nil {
		s.Error(w, r, err)
		return
	}
	e, secret, err := s.svc.Operator.Webhooks.CreateWebhookEndpoint(r.Context(), operatorFrom(r.Context()).CompanyID, body.URL)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := newOperatorWebhook(*e)
	out.Secret = secret
	writeJSON(w, http.StatusCreated, out)
}

func (s *Server) handleOperatorWebhookList(w http.ResponseWriter, r *http.Request) {
	list, err := s.svc.Operator.Webhooks.FindWebhookEndpoints(r.Context(), operatorFrom(r.Context()).CompanyID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]operatorWebhook, 0, len(list))
	for _, e := range list {
		out = append(out, newOperatorWebhook(e))
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}

func (s *Server) handleOperatorWebhookDelete(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", portal.Errorf(portal.ENOTFOUND, "Webhook endpoint not found."))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Operator.Webhooks.RemoveWebhookEndpoint(r.Context(), operatorFrom(r.Context()).CompanyID, id); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleOperatorWebhookDeliveries(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", portal.Errorf(portal.ENOTFOUND, "Webhook endpoint not found."))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	list, err := s.svc.Operator.Webhooks.FindWebhookDeliveries(r.Context(), portal.WebhookDeliveryFilter{
		CompanyID: operatorFrom(r.Context()).CompanyID, EndpointID: id})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]operatorWebhookDelivery, 0, len(list))
	for _, d := range list {
		o := operatorWebhookDelivery{ID: d.ID, EventID: d.EventID, EventType: d.EventType, ApplicantID: d.SubjectID, State: d.State,
			LastStatus: d.LastStatus, LastError: d.LastError, NextAttemptAt: operatorTimePtr(d.NextAttemptAt),
			CreatedAt: operatorTime(d.CreatedAt), DeliveredAt: operatorTimePtr(d.DeliveredAt), Attempts: []operatorWebhookAttempt{}}
		for _, a := range d.Attempts {
			o.Attempts = append(o.Attempts, operatorWebhookAttempt{At: operatorTime(a.At), Status: a.Status, Error: a.Error,
				DurationMS: a.Duration.Milliseconds()})
		}
		out = append(out, o)
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}
