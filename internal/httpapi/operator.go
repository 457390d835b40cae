package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// registerOperatorRoutes serves the operator API: an employer's own systems
// call it with an API key of their company (`portal apikey create`), and
// every call acts within that company.
func (s *Server) registerOperatorRoutes(mux *routes) {
	mux.HandleFunc("POST /api/v2/operator/invitations", s.operatorOnly(s.handleOperatorInvitationCreate))
	mux.HandleFunc("GET /api/v2/operator/applicants", s.operatorOnly(s.handleOperatorApplicantList))
	mux.HandleFunc("GET /api/v2/operator/applicants/{id}", s.operatorOnly(s.handleOperatorApplicantShow))
	mux.HandleFunc("GET /api/v2/operator/banners", s.operatorOnly(s.handleOperatorBannerList))
	mux.HandleFunc("POST /api/v2/operator/banners", s.operatorOnly(s.handleOperatorBannerCreate))
	mux.HandleFunc("DELETE /api/v2/operator/banners/{id}", s.operatorOnly(s.handleOperatorBannerDelete))
	s.registerOperatorChatRoutes(mux)
	s.registerOperatorWebhookRoutes(mux)
	s.registerOperatorAdverseRoutes(mux)
	s.registerOperatorScreeningRoutes(mux)
	s.registerOperatorDisputeRoutes(mux)
}

type operatorKey struct{}

// operatorOnly admits a request bearing a live API key and hands the key
// to h (operatorFrom). A missing, unknown or revoked key is 401. Failed
// attempts are not throttled: a key holds 256 random bits, so guessing
// one is hopeless.
func (s *Server) operatorOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		secret, ok := bearerToken(r)
		if !ok {
			s.Error(w, r, portal.Errorf(portal.EUNAUTHORIZED, "Give an operator API key: Authorization: Bearer pk_..."))
			return
		}
		if s.svc.Operator.APIKeys == nil {
			s.Error(w, r, portal.Errorf(portal.EUNAVAILABLE, "The operator API is not available."))
			return
		}
		key, err := s.svc.Operator.APIKeys.AuthenticateAPIKey(r.Context(), secret)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		ctx := portal.WithActor(r.Context(), portal.Actor{Kind: portal.ActorAPIKey, ID: key.ID, Name: key.Name, Address: s.clientIP(r)})
		h(w, r.WithContext(context.WithValue(ctx, operatorKey{}, key)))
	}
}

// operatorFrom is the API key operatorOnly admitted; elsewhere it panics,
// which is a routing bug.
func operatorFrom(ctx context.Context) *portal.APIKey {
	key, ok := ctx.Value(operatorKey{}).(*portal.APIKey)
	if !ok {
		panic("httpapi: operatorFrom outside operatorOnly")
	}
	return key
}

// operatorTime is how the operator API writes times: RFC 3339 in UTC.
func operatorTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func operatorTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	v := operatorTime(*t)
	return &v
}

type operatorApplicant struct {
	ID          int64           `json:"id"`
	Email       string          `json:"email"`
	FirstName   string          `json:"firstName"`
	LastName    string          `json:"lastName"`
	Phone       string          `json:"phone"`
	FullProfile bool            `json:"fullProfile"`
	HasPassword bool            `json:"hasPassword"`
	StatusID    portal.StatusID `json:"statusId"`
	StatusText  string          `json:"statusText"`
	CreatedAt   string          `json:"createdAt"`
	// Locale is the applicant's language, of the e-mails and texts the
	// portal sends them.
	Locale portal.Locale `json:"locale"`
}

func newOperatorApplicant(s portal.Subject) operatorApplicant {
	return operatorApplicant{ID: s.ID, Email: s.Email, FirstName: s.FirstName, LastName: s.LastName, Phone: s.Phone,
		FullProfile: s.FullProfile, HasPassword: s.HasPassword, StatusID: s.StatusID, StatusText: s.StatusID.Text(),
		CreatedAt: operatorTime(s.CreatedAt), Locale: s.Locale}
}

type operatorInvitationRequest struct {
	Email       string `json:"email"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	Phone       string `json:"phone"`
	FullProfile bool   `json:"fullProfile"`
	WorkState   string `json:"workState"`
	// Locale is the language to invite in; empty is en-US.
	Locale portal.Locale `json:"locale"`
}

func (s *Server) handleOperatorInvitationCreate(w http.ResponseWriter, r *http.Request) {
	key := operatorFrom(r.Context())
	var body operatorInvitationRequest
	if err := decodeJSON(w, r, &body); err != nil {
		s.Error(w, r, err)
		return
	}
	res, err := s.svc.Operator.Invitations.InviteApplicant(r.Context(), portal.InviteRequest{
		NewSubject: portal.NewSubject{CompanyID: key.CompanyID, Email: body.Email, FirstName: body.FirstName,
			LastName: body.LastName, Phone: body.Phone, FullProfile: body.FullProfile, Locale: body.Locale},
		Work:    portal.Place{State: body.WorkState},
		BaseURL: s.cfg.BaseURL,
	})
	if err != nil {
		s.Error(w, r, renameWorkFields(err))
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"applicant":     newOperatorApplicant(*res.Subject),
		"invitationUrl": strings.TrimRight(s.cfg.BaseURL, "/") + "/setup?token=" + res.Token,
	})
}

// renameWorkFields names the place of work's errors as the request names
// its field (workState), not as the service does (work.state).
func renameWorkFields(err error) error {
	var pe *portal.Error
	if !errors.As(err, &pe) || len(pe.Fields) == 0 {
		return err
	}
	out := *pe
	out.Fields = make([]portal.FieldError, len(pe.Fields))
	for i, f := range pe.Fields {
		if f.Field == "work.state" {
			f.Field = "workState"
		}
		out.Fields[i] = f
	}
	return &out
}

func (s *Server) handleOperatorApplicantList(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Query().Get("stalled") {
	case "", "false":
	case "true":
		s.handleOperatorStalledList(w, r)
		return
	default:
		var fe portal.FieldErrors
		fe.Add("stalled", "Use stalled=true to list the stalled applicants, or leave it out")
		s.Error(w, r, fe.Err())
		return
	}
	list, err := s.svc.Operator.Applicants.FindApplicants(r.Context(), portal.ApplicantFilter{CompanyID: operatorFrom(r.Context()).CompanyID})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]operatorApplicant, 0, len(list))
	for _, a := range list {
		out = append(out, newOperatorApplicant(a.Subject))
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}

type operatorApplicantDetail struct {
	operatorApplicant
	CompanyName string   `json:"companyName"`
	Missing     []string `json:"missing"`
	UnreadChat  int      `json:"unreadChat"`
	DeclaredAt  *string  `json:"declaredAt"`
}

func (s *Server) handleOperatorApplicantShow(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	d, err := s.svc.Operator.Applicants.ApplicantDetail(r.Context(), operatorFrom(r.Context()).CompanyID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := operatorApplicantDetail{operatorApplicant: newOperatorApplicant(d.Subject), CompanyName: d.CompanyName,
		Missing: d.Missing, UnreadChat: d.UnreadChat}
	if out.Missing == nil {
		out.Missing = []string{}
	}
	if d.DeclaredAt != nil {
		at := operatorTime(*d.DeclaredAt)
		out.DeclaredAt = &at
	}
	writeJSON(w, http.StatusOK, out)
}

type operatorBanner struct {
	ID        int64   `json:"id"`
	Message   string  `json:"message"`
	CreatedAt string  `json:"createdAt"`
	EndsAt    *string `json:"endsAt"`
}

func newOperatorBanner(b portal.OperatorBanner) operatorBanner {
	return operatorBanner{ID: b.ID, Message: b.Message, CreatedAt: operatorTime(b.CreatedAt), EndsAt: operatorTimePtr(b.EndsAt)}
}

func (s *Server) handleOperatorBannerList(w http.ResponseWriter, r *http.Request) {
	list, err := s.svc.Operator.Banners.FindBanners(r.Context(), operatorFrom(r.Context()).CompanyID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]operatorBanner, 0, len(list))
	for _, b := range list {
		out = append(out, newOperatorBanner(b))
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}

func (s *Server) handleOperatorBannerCreate(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Message string `json:"message"`
		EndsAt  string `json:"endsAt"`
	}
	if err := decodeJSON(w, r, &body); err != nil {
		s.Error(w, r, err)
		return
	}
	req := portal.BannerRequest{Message: body.Message, CompanyID: operatorFrom(r.Context()).CompanyID}
	if body.EndsAt != "" {
		t, err := time.Parse(time.RFC3339, body.EndsAt)
		if err != nil {
			var fe portal.FieldErrors
			fe.Add("endsAt", "Give the end as an RFC 3339 time, such as 2026-11-24T06:00:00Z.")
			s.Error(w, r, fe.Err())
			return
		}
		req.EndsAt = &t
	}
	b, err := s.svc.Operator.Banners.PostBanner(r.Context(), req)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, newOperatorBanner(*b))
}

func (s *Server) handleOperatorBannerDelete(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", portal.Errorf(portal.ENOTFOUND, "Banner not found."))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Operator.Banners.ClearBanner(r.Context(), operatorFrom(r.Context()).CompanyID, id); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
