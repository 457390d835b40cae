package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	paymentsandbox "applicantportal/internal/sandbox/payment"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// syncBuffer is a log buffer the server's goroutines may share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// paymentAPI is a company whose package holds $25.00 on self-pay: jane (a
// Texan) and carl (a Californian) in self-pay-required, bob verifying his
// identity. Everything the server and the store log goes to logs.
type paymentAPI struct {
	*harness
	tokens map[string]string
	logs   *syncBuffer
}

func eachPaymentAPI(t *testing.T, run func(t *testing.T, a *paymentAPI)) {
	t.Helper()
	logs := &syncBuffer{}
	cfg := storetest.Config(t)
	cfg.SelfPay = portal.SelfPayRules{ForbiddenStates: portal.DefaultSelfPayForbiddenStates}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) { run(t, newPaymentAPI(t, db, logs)) })
}

func newPaymentAPI(t *testing.T, db *store.DB, logs *syncBuffer) *paymentAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePackage(ctx, &portal.Package{CompanyID: c.ID, Name: "Drivers", SelfPayEnabled: true, SelfPayInitialHoldAmt: "25.00"}); err != nil {
		t.Fatal(err)
	}
	a := &paymentAPI{harness: newHarness(t, db, "192.0.2.1:1234"), tokens: map[string]string{}, logs: logs}
	for _, p := range []struct {
		who, state string
		status     portal.StatusID
	}{{"jane", "US-TX", portal.StatusSelfPayRequired}, {"carl", "US-CA", portal.StatusSelfPayRequired}, {"bob", "US-TX", portal.StatusIDVStarted}} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: p.who + "@example.com", FirstName: p.who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SubjectData().UpdateSubjectData(ctx, s.ID, portal.SubjectDataUpdate{
			Location: &portal.LocationUpdate{Residency: &portal.Place{State: p.state}}}); err != nil {
			t.Fatal(err)
		}
		if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, p.status); err != nil {
			t.Fatal(err)
		}
		a.tokens[p.who] = logIn(t, db, s)
	}
	svc := storeServices(db, nil)
	sb := paymentsandbox.New(paymentsandbox.Config{Records: db.SandboxRecords(), SlowDelay: 2 * time.Second, Secret: []byte("test")})
	svc.Payments = db.Payments(sb, 100*time.Millisecond)
	srv, err := httpapi.New(httpapi.Config{}, svc, testIndex, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	a.handler = srv.Handler()
	return a
}

func cardForm(key, number string) map[string]any {
	return map[string]any{"cardNumber": number, "expiry": "12/" + itoa(int64(time.Now().Year()%100+3)), "cvc": "123",
		"cardholderName": "Jane Doe", "postalCode": "73301", "idempotencyKey": key}
}

func (a *paymentAPI) pay(who string, body any) (int, map[string]any) {
	a.t.Helper()
	rec := a.send(request{Method: "POST", URL: "/api/v2/payment/auth", Body: body, Token: a.tokens[who]})
	return rec.Code, decode(a.t, rec)
}

func TestPaymentOverHTTP(t *testing.T) {
	eachPaymentAPI(t, func(t *testing.T, a *paymentAPI) {
		rec := a.send(request{Method: "GET", URL: "/api/v2/payment", Token: a.tokens["jane"]})
		got := decode(t, rec)
		if rec.Code != 200 || got["required"] != true || got["amount"] != "25.00" || got["currency"] != "USD" ||
			got["exemptState"] != nil || got["authorization"] != nil {
			t.Errorf("GET /api/v2/payment = %d %v", rec.Code, got)
		}
		for _, c := range []struct {
			name   string
			change func(map[string]any)
			status int
			field  string
			msg    string
		}{
			{"Luhn", func(b map[string]any) { b["cardNumber"] = "4242 4242 4242 4241" }, 422, "cardNumber", "Enter a valid card number."},
			{"expiry text", func(b map[string]any) { b["expiry"] = "December" }, 422, "expiry", "Enter the expiry date as MM/YY."},
			{"expiry month", func(b map[string]any) { b["expiry"] = "13/30" }, 422, "expiry", paymentsandbox.MessageExpiryMonth},
			{"expired", func(b map[string]any) { b["expiry"] = "01/2020" }, 422, "expiry", paymentsandbox.MessageCardExpired},
			{"CVC", func(b map[string]any) { b["cvc"] = "12" }, 422, "cvc", paymentsandbox.MessageCVC},
			{"name", func(b map[string]any) { b["cardholderName"] = "" }, 422, "cardholderName", "Enter the name on the card."},
			{"ZIP", func(b map[string]any) { b["postalCode"] = "00000" }, 422, "postalCode", "We could not find this ZIP code."},
			{"key", func(b map[string]any) { b["idempotencyKey"] = "x" }, 422, "idempotencyKey", ""},
			{"declined", func(b map[string]any) { b["cardNumber"] = "4000 0000 0000 0002" }, 402, "", "Your card was declined. Please use another card."},
			{"insufficient funds", func(b map[string]any) { b["cardNumber"] = "4000 0000 0000 9995" }, 402, "", "Your card has insufficient funds. Please use another card."},
			{"wrong CVC", func(b map[string]any) { b["cardNumber"] = "4000 0000 0000 0127" }, 402, "cvc", "The security code is incorrect."},
			{"expired by the processor", func(b map[string]any) { b["cardNumber"] = "4000 0000 0000 0069" }, 402, "expiry", "Your card has expired."},
			{"slow", func(b map[string]any) { b["cardNumber"] = "4000 0000 0000 0119" }, 504, "",
				"The payment processor did not answer in time. Please try again: you will not be charged twice."},
			{"earlier attempt still processed", func(b map[string]any) {}, 409, "",
				"Your earlier payment attempt is still being processed. Please wait a moment and try again."},
		} {
			t.Run(c.name, func(t *testing.T) {
				body := cardForm("attempt-key-"+strings.ReplaceAll(c.name, " ", "-"), "4242 4242 4242 4242")
				c.change(body)
				status, got := a.pay("jane", body)
				if status != c.status {
					t.Fatalf("status %d %v, want %d", status, got, c.status)
				}
				if c.field != "" {
					if m := fieldsOf(got)[c.field]; m == "" || (c.msg != "" && m != c.msg) {
						t.Errorf("fields %v, want %s %q", got["errorFields"], c.field, c.msg)
					}
				} else if c.msg != "" && got["errorMessage"] != c.msg {
					t.Errorf("errorMessage %q, want %q", got["errorMessage"], c.msg)
				}
			})
		}
		// Once the slow card's hold is known, any attempt answers it.
		time.Sleep(2100 * time.Millisecond)
		rec = a.send(request{Method: "POST", URL: "/api/v2/payment/auth", Body: func() map[string]any {
			b := cardForm("", "4242424242424242")
			delete(b, "idempotencyKey")
			return b
		}(), Token: a.tokens["jane"], Header: map[string]string{"Idempotency-Key": "header-key-1"}})
		got = decode(t, rec)
		auth, _ := got["authorization"].(map[string]any)
		if rec.Code != 200 || got["message"] != "Payment successfully authorized" || auth == nil ||
			!strings.HasPrefix(auth["id"].(string), "auth_") || auth["last4"] != "0119" || auth["brand"] != "Visa" ||
			auth["amount"] != "25.00" || auth["currency"] != "USD" || auth["authorizedAt"] == "" {
			t.Fatalf("POST after the slow card = %d %v", rec.Code, got)
		}
		status, again := a.pay("jane", cardForm("another-key-2", "5555 5555 5555 4444"))
		if status != 200 || again["authorization"].(map[string]any)["id"] != auth["id"] {
			t.Errorf("paying again = %d %v; want the same authorization", status, again)
		}
		rec = a.send(request{Method: "GET", URL: "/api/v2/payment", Token: a.tokens["jane"]})
		if got := decode(t, rec); got["authorization"].(map[string]any)["id"] != auth["id"] {
			t.Errorf("GET after paying = %v", got)
		}
	})
}

func TestPaymentRefusals(t *testing.T) {
	eachPaymentAPI(t, func(t *testing.T, a *paymentAPI) {
		if status, got := a.pay("bob", cardForm("bob-key-1", "4242424242424242")); status != 409 {
			t.Errorf("out of step = %d %v", status, got)
		}
		if status, got := a.pay("carl", cardForm("carl-key-1", "4242424242424242")); status != 409 {
			t.Errorf("exempt = %d %v", status, got)
		}
		rec := a.send(request{Method: "POST", URL: "/api/v2/payment/auth", Body: cardForm("anon-key-1", "4242424242424242")})
		if rec.Code != 401 {
			t.Errorf("without a token = %d", rec.Code)
		}
		big := cardForm("big-key-1", "4242424242424242")
		big["cardholderName"] = strings.Repeat("x", 17<<10)
		if status, _ := a.pay("jane", big); status != http.StatusRequestEntityTooLarge {
			t.Errorf("a large body = %d", status)
		}
		rec = a.send(request{Method: "GET", URL: "/api/v2/payment", Token: a.tokens["carl"]})
		got := decode(t, rec)
		if got["required"] != false || got["exemptState"] != "US-CA" || got["amount"] != "25.00" {
			t.Errorf("carl's GET /api/v2/payment = %v", got)
		}
	})
}

func TestUserPreferencesSayExemptApplicantsDoNotPay(t *testing.T) {
	eachPaymentAPI(t, func(t *testing.T, a *paymentAPI) {
		for who, want := range map[string][2]any{"carl": {"0", "US-CA"}, "jane": {"1", nil}} {
			rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: a.tokens[who]})
			prefs := decode(t, rec)["package"].(map[string]any)["preferences"].(map[string]any)
			if prefs["applicant_self_pay_enabled"] != want[0] || prefs["applicant_self_pay_exempt_state"] != want[1] ||
				prefs["applicant_self_pay_initial_hold_amount"] != "25.00" {
				t.Errorf("%s's preferences = %v", who, prefs)
			}
		}
	})
}

// The user answer carries the server's own decisions of the steps after
// identity verification, for the app to follow.
func TestUserFinalizationIsTheServersDecision(t *testing.T) {
	eachPaymentAPI(t, func(t *testing.T, a *paymentAPI) {
		for _, tt := range []struct {
			who      string
			required bool
			after    portal.StatusID
		}{
			{"jane", true, portal.StatusSelfPayRequired},
			{"bob", true, portal.StatusSelfPayRequired},
			{"carl", false, portal.StatusFinalizationComplete}, // exempt
		} {
			rec := a.send(request{Method: "GET", URL: "/api/v2/user", Token: a.tokens[tt.who]})
			var got struct {
				Subject      struct{ ApplicantCollectionSiteSelection bool }
				Finalization struct {
					PaymentRequired bool
					StatusAfterIdv  portal.Status
				}
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", tt.who, rec.Code, rec.Body)
			}
			if got.Subject.ApplicantCollectionSiteSelection || got.Finalization.PaymentRequired != tt.required ||
				got.Finalization.StatusAfterIdv != portal.NewStatus(tt.after) {
				t.Errorf("%s: %s", tt.who, rec.Body)
			}
		}
	})
}

func TestCardNumbersNeverReachTheLog(t *testing.T) {
	eachPaymentAPI(t, func(t *testing.T, a *paymentAPI) {
		numbers := []string{"4000 0000 0000 0002", "4242 4242 4242 4241", "4000 0000 0000 0127", "4000 0000 0000 0119", "4242 4242 4242 4242"}
		for i, n := range numbers {
			body := cardForm("log-key-"+itoa(int64(i)), n)
			body["cvc"] = "987"
			a.pay("jane", body)
		}
		// An internal failure is logged in full: still no card.
		a.send(request{Method: "POST", URL: "/api/v2/payment/auth", Body: `{"cardNumber": 4242424242424242}`, ContentType: "application/json", Token: a.tokens["jane"]})
		logs := a.logs.String()
		if !strings.Contains(logs, "/api/v2/payment/auth") {
			t.Fatalf("the requests were not logged:\n%s", logs)
		}
		for _, n := range numbers {
			digits := strings.ReplaceAll(n, " ", "")
			if strings.Contains(logs, digits) || strings.Contains(logs, n) || strings.Contains(logs, digits[:12]) {
				t.Errorf("the log holds %s:\n%s", n, logs)
			}
		}
		// The CVC as a value of its own: random request ids, durations
		// ("duration=987.714µs") and times may hold the digits 987 by chance.
		if regexp.MustCompile(`(^|[^0-9A-Za-z.])987($|[^0-9A-Za-z.µ])`).MatchString(logs) {
			t.Errorf("the log holds the CVC:\n%s", logs)
		}
	})
}
