package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"applicantportal/internal/portal"
)

// MaxPaymentBody is the limit of the self-pay form's body: a few short
// fields.
const MaxPaymentBody = 16 << 10

func (s *Server) registerPaymentRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/payment", s.require(applicantOnly, s.handlePaymentGet))
	mux.HandleFunc("POST /api/v2/payment/auth", s.require(applicantOnly, s.handlePaymentAuthorize))
}

type authorizationJSON struct {
	ID           string `json:"id"`
	Amount       string `json:"amount"`
	Currency     string `json:"currency"`
	Last4        string `json:"last4"`
	Brand        string `json:"brand"`
	AuthorizedAt string `json:"authorizedAt"`
}

type paymentJSON struct {
	Required      bool               `json:"required"`
	Amount        string             `json:"amount"`
	Currency      string             `json:"currency"`
	ExemptState   *string            `json:"exemptState"`
	Authorization *authorizationJSON `json:"authorization"`
}

type paymentAuthorizedJSON struct {
	Message       string             `json:"message"`
	MessageCode   string             `json:"messageCode"`
	Authorization *authorizationJSON `json:"authorization"`
}

func newAuthorizationJSON(a *portal.Authorization) *authorizationJSON {
	if a == nil {
		return nil
	}
	return &authorizationJSON{ID: a.ID, Amount: a.Amount.Text(), Currency: a.Amount.Currency, Last4: a.Last4,
		Brand: a.Brand, AuthorizedAt: apiTime(a.AuthorizedAt)}
}

func (s *Server) handlePaymentGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	sp, err := s.svc.Payments.SelfPay(r.Context(), sess.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := paymentJSON{Required: sp.Required, Amount: sp.Amount.Text(), Currency: sp.Amount.Currency,
		Authorization: newAuthorizationJSON(sp.Authorization)}
	if out.Currency == "" {
		out.Currency = "USD"
	}
	if sp.ExemptState != "" {
		out.ExemptState = &sp.ExemptState
	}
	writeJSON(w, http.StatusOK, out)
}

// paymentRequest is the self-pay form. The card number and CVC pass
// through to the processor and are never logged or stored.
type paymentRequest struct {
	CardNumber     string `json:"cardNumber"`
	Expiry         string `json:"expiry"`
	CVC            string `json:"cvc"`
	CardholderName string `json:"cardholderName"`
	PostalCode     string `json:"postalCode"`
	IdempotencyKey string `json:"idempotencyKey"`
}

// msgExpiry is the expiry field's message when it is not MM/YY.
const msgExpiry = "Enter the expiry date as MM/YY."

func (s *Server) handlePaymentAuthorize(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	var req paymentRequest
	if err := decodeJSONLimit(w, r, &req, MaxPaymentBody); err != nil {
		s.Error(w, r, err)
		return
	}
	key := strings.TrimSpace(req.IdempotencyKey)
	if key == "" {
		key = strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	}
	month, year, ok := parseExpiry(req.Expiry)
	if !ok {
		var fe portal.FieldErrors
		fe.Add("expiry", msgExpiry)
		s.Error(w, r, fe.Err())
		return
	}
	a, err := s.svc.Payments.Authorize(r.Context(), sess.SubjectID, portal.PaymentRequest{IdempotencyKey: key, Card: portal.Card{
		Number: req.CardNumber, ExpMonth: month, ExpYear: year, CVC: req.CVC, Name: req.CardholderName, PostalCode: req.PostalCode,
	}})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, paymentAuthorizedJSON{
		Message:       portal.Translate(portal.LocaleOf(r.Context()), portal.PaymentSuccessMessage),
		MessageCode:   portal.MessageCode(portal.PaymentSuccessMessage),
		Authorization: newAuthorizationJSON(a),
	})
}

// parseExpiry reads "MM/YY" or "MM/YYYY" (spaces allowed around the
// slash, a one-digit month too); the processor judges the month's range
// and whether the card has expired.
func parseExpiry(text string) (month, year int, ok bool) {
	m, y, found := strings.Cut(strings.TrimSpace(text), "/")
	m, y = strings.TrimSpace(m), strings.TrimSpace(y)
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	if !found || !digits(m) || !digits(y) || len(m) > 2 || (len(y) != 2 && len(y) != 4) {
		return 0, 0, false
	}
	month, _ = strconv.Atoi(m)
	year, _ = strconv.Atoi(y)
	if len(y) == 2 {
		year += 2000
	}
	return month, year, true
}
