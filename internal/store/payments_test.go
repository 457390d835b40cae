package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"applicantportal/internal/portal"
	paymentsandbox "applicantportal/internal/sandbox/payment"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// paymentsWorld is a company whose package holds $25.00 on self-pay, with
// jane (a Texan) and carl (a Californian) in self-pay-required and bob
// still verifying his identity.
type paymentsWorld struct {
	db               *store.DB
	sandbox          *paymentsandbox.Processor
	svc              *store.PaymentService
	jane, carl, bob  int64
	clock            *testClock
	processorTimeout time.Duration
}

// testClock is the store's clock, which a test moves on.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) Now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *testClock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// Short delays keep the slow card's tests fast, with room for a slow
// machine: the store waits 250ms, the slow card answers after 750ms.
const (
	testPaymentTimeout = 250 * time.Millisecond
	testSlowDelay      = 750 * time.Millisecond
)

func eachPaymentsDB(t *testing.T, run func(t *testing.T, w *paymentsWorld)) {
	t.Helper()
	clock := &testClock{}
	cfg := storetest.Config(t)
	cfg.Now = clock.Now
	cfg.SelfPay = portal.SelfPayRules{ForbiddenStates: portal.DefaultSelfPayForbiddenStates}
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) { run(t, newPaymentsWorld(t, db, clock)) })
}

func newPaymentsWorld(t *testing.T, db *store.DB, clock *testClock) *paymentsWorld {
	t.Helper()
	ctx := context.Background()
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePackage(ctx, &portal.Package{CompanyID: c.ID, Name: "Drivers", SelfPayEnabled: true, SelfPayInitialHoldAmt: "25.00"}); err != nil {
		t.Fatal(err)
	}
	sb := paymentsandbox.New(paymentsandbox.Config{Records: db.SandboxRecords(), SlowDelay: testSlowDelay, Secret: []byte("test secret")})
	w := &paymentsWorld{db: db, sandbox: sb, svc: db.Payments(sb, testPaymentTimeout), clock: clock, processorTimeout: testPaymentTimeout}
	for _, p := range []struct {
		id     *int64
		who    string
		state  string
		status portal.StatusID
	}{
		{&w.jane, "jane", "US-TX", portal.StatusSelfPayRequired},
		{&w.carl, "carl", "US-CA", portal.StatusSelfPayRequired},
		{&w.bob, "bob", "US-TX", portal.StatusIDVStarted},
	} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: p.who + "@example.com", FirstName: p.who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		*p.id = s.ID
		if _, err := db.SubjectData().UpdateSubjectData(ctx, s.ID, portal.SubjectDataUpdate{
			Location: &portal.LocationUpdate{Residency: &portal.Place{State: p.state}}}); err != nil {
			t.Fatal(err)
		}
		if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, p.status); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// payment is a valid self-pay form with the given card and key.
func payment(key, number string) portal.PaymentRequest {
	cvc := "123"
	if strings.HasPrefix(number, "37") {
		cvc = "1234"
	}
	return portal.PaymentRequest{IdempotencyKey: key, Card: portal.Card{Number: number, ExpMonth: 12, ExpYear: time.Now().Year() + 3,
		CVC: cvc, Name: "Jane Doe", PostalCode: "73301"}}
}

func wantPaymentError(t *testing.T, err error, code, message string) {
	t.Helper()
	if portal.ErrorCode(err) != code || (message != "" && portal.ErrorMessage(err) != message) {
		t.Fatalf("error = %v; want %s %q", err, code, message)
	}
}

// rows counts the subject's payments rows by status.
func (w *paymentsWorld) rows(t *testing.T, subjectID int64) map[string]int {
	t.Helper()
	rows, err := w.db.SQL().Query(`SELECT status, COUNT(*) FROM payments WHERE subject_id = $1 GROUP BY status`, subjectID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			t.Fatal(err)
		}
		out[s] = n
	}
	return out
}

// holds counts the authorizations the sandbox processor placed.
func (w *paymentsWorld) holds(t *testing.T) int {
	t.Helper()
	var n int
	if err := w.db.SQL().QueryRow(`SELECT COUNT(*) FROM sandbox_records WHERE kind = 'payment' AND value LIKE '%"authorization":{%'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSelfPayAnswersWhatIsOwed(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		sp, err := w.svc.SelfPay(ctx, w.jane)
		if err != nil {
			t.Fatal(err)
		}
		if !sp.Required || sp.Amount != (portal.Money{Cents: 2500, Currency: "USD"}) || sp.ExemptState != "" || sp.Authorization != nil {
			t.Errorf("jane's SelfPay = %+v", sp)
		}
		sp, err = w.svc.SelfPay(ctx, w.carl)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Required || sp.ExemptState != "US-CA" {
			t.Errorf("carl's SelfPay = %+v, want exempt", sp)
		}
		_, err = w.svc.Authorize(ctx, w.carl, payment("carl-key-1", "4242424242424242"))
		wantPaymentError(t, err, portal.ECONFLICT, "")
		if w.holds(t) != 0 {
			t.Error("an exempt applicant's card was charged")
		}
		view, err := w.db.Subjects().FindUserView(ctx, w.carl)
		if err != nil || view.Finalization.ExemptState() != "US-CA" || view.Finalization.PaymentRequired() {
			t.Errorf("carl's user view = %+v, %v; want exempt", view.Finalization, err)
		}
		if view, _ := w.db.Subjects().FindUserView(ctx, w.jane); view.Finalization.ExemptState() != "" || !view.Finalization.PaymentRequired() {
			t.Errorf("jane's user view = %+v; want a payment required", view.Finalization)
		}
		facts, err := w.db.FindStatusFacts(ctx, w.carl)
		if err != nil || facts.PaymentRequired {
			t.Errorf("carl's status facts = %+v, %v; payment must not be required", facts, err)
		}
	})
}

func TestAuthorizeTakesOneHold(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		a, err := w.svc.Authorize(ctx, w.jane, payment("jane-key-1", "4242 4242 4242 4242"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(a.ID, "auth_") || a.Last4 != "4242" || a.Brand != "Visa" || a.Amount.Text() != "25.00" || a.AuthorizedAt.IsZero() {
			t.Errorf("Authorize = %+v", a)
		}
		again, err := w.svc.Authorize(ctx, w.jane, payment("jane-key-1", "4242 4242 4242 4242"))
		if err != nil || again.ID != a.ID {
			t.Errorf("the same key again = %+v, %v", again, err)
		}
		// Paid: another key, even another card, answers the same hold.
		other, err := w.svc.Authorize(ctx, w.jane, payment("jane-key-2", "5555555555554444"))
		if err != nil || other.ID != a.ID || other.Last4 != "4242" {
			t.Errorf("another key once paid = %+v, %v", other, err)
		}
		sp, err := w.svc.SelfPay(ctx, w.jane)
		if err != nil || sp.Authorization == nil || sp.Authorization.ID != a.ID {
			t.Errorf("SelfPay after paying = %+v, %v", sp, err)
		}
		if got := w.rows(t, w.jane); got["authorized"] != 1 || w.holds(t) != 1 {
			t.Errorf("rows %v, holds %d; want one authorized", got, w.holds(t))
		}
		// Paid: the status may move on to finalization.
		if err := w.db.Subjects().MoveSubjectStatus(ctx, w.jane, portal.StatusMove{To: portal.StatusFinalizationComplete}); err != nil {
			t.Errorf("move to finalization after paying: %v", err)
		}
		// Later still, the receipt is answered, not a 409.
		if again, err := w.svc.Authorize(ctx, w.jane, payment("jane-key-3", "4242424242424242")); err != nil || again.ID != a.ID {
			t.Errorf("Authorize after finalization = %+v, %v", again, err)
		}
	})
}

func TestAuthorizeRefusesOutOfStep(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		_, err := w.svc.Authorize(context.Background(), w.bob, payment("bob-key-1", "4242424242424242"))
		wantPaymentError(t, err, portal.ECONFLICT, "")
		if w.holds(t) != 0 {
			t.Error("a hold was placed out of step")
		}
	})
}

func TestAuthorizeChecksTheForm(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		for _, c := range []struct {
			name   string
			change func(*portal.PaymentRequest)
			field  string
		}{
			{"no key", func(r *portal.PaymentRequest) { r.IdempotencyKey = "" }, "idempotencyKey"},
			{"short key", func(r *portal.PaymentRequest) { r.IdempotencyKey = "abc" }, "idempotencyKey"},
			{"key with a space", func(r *portal.PaymentRequest) { r.IdempotencyKey = "abc def ghi" }, "idempotencyKey"},
			{"long key", func(r *portal.PaymentRequest) { r.IdempotencyKey = strings.Repeat("k", 101) }, "idempotencyKey"},
			{"no name", func(r *portal.PaymentRequest) { r.Card.Name = "  " }, "cardholderName"},
			{"long name", func(r *portal.PaymentRequest) { r.Card.Name = strings.Repeat("é", 101) }, "cardholderName"},
			{"ZIP of 4 digits", func(r *portal.PaymentRequest) { r.Card.PostalCode = "7330" }, "postalCode"},
			{"unknown ZIP", func(r *portal.PaymentRequest) { r.Card.PostalCode = "00000" }, "postalCode"},
			{"bad ZIP+4", func(r *portal.PaymentRequest) { r.Card.PostalCode = "73301-12" }, "postalCode"},
			{"Luhn", func(r *portal.PaymentRequest) { r.Card.Number = "4242424242424241" }, "cardNumber"},
			{"expired", func(r *portal.PaymentRequest) { r.Card.ExpYear = 2020 }, "expiry"},
			{"CVC", func(r *portal.PaymentRequest) { r.Card.CVC = "1" }, "cvc"},
		} {
			t.Run(c.name, func(t *testing.T) {
				req := payment("form-key-"+strings.NewReplacer(" ", "-", "+", "-").Replace(c.name), "4242424242424242")
				c.change(&req)
				_, err := w.svc.Authorize(context.Background(), w.jane, req)
				var pe *portal.Error
				if !errors.As(err, &pe) || pe.Code != portal.EINVALID || len(pe.Fields) != 1 || pe.Fields[0].Field != c.field {
					t.Fatalf("Authorize = %v; want a %s field error", err, c.field)
				}
				if c.name == "unknown ZIP" && pe.Fields[0].Message != "We could not find this ZIP code." {
					t.Errorf("message %q", pe.Fields[0].Message)
				}
			})
		}
		ok := payment("zip-plus-four", "4242424242424242")
		ok.Card.PostalCode = "73301-0001"
		if _, err := w.svc.Authorize(context.Background(), w.jane, ok); err != nil {
			t.Errorf("after the mistakes, a good form: %v", err)
		}
		if w.holds(t) != 1 {
			t.Errorf("holds = %d", w.holds(t))
		}
	})
}

func TestDeclinesLetTheApplicantTryAgain(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		for i, c := range []struct{ number, message, field string }{
			{paymentsandbox.CardDeclined, "Your card was declined. Please use another card.", ""},
			{paymentsandbox.CardInsufficientFunds, "Your card has insufficient funds. Please use another card.", ""},
			{paymentsandbox.CardIncorrectCVC, paymentsandbox.MessageIncorrectCVC, "cvc"},
			{paymentsandbox.CardExpired, paymentsandbox.MessageExpiredCard, "expiry"},
		} {
			_, err := w.svc.Authorize(ctx, w.jane, payment("decline-key-"+string(rune('a'+i)), c.number))
			wantPaymentError(t, err, portal.EDECLINED, c.message)
			var pe *portal.Error
			if errors.As(err, &pe) && c.field != "" && (len(pe.Fields) != 1 || pe.Fields[0].Field != c.field) {
				t.Errorf("%s fields = %v", c.number, pe.Fields)
			}
		}
		if got := w.rows(t, w.jane); got["declined"] != 4 || got["authorized"] != 0 {
			t.Errorf("rows %v", got)
		}
		a, err := w.svc.Authorize(ctx, w.jane, payment("decline-key-z", "3782 822463 10005"))
		if err != nil || a.Brand != "American Express" {
			t.Fatalf("another card after declines = %+v, %v", a, err)
		}
	})
}

func TestTimeoutThenRetryWithTheSameKey(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		req := payment("slow-key-1", paymentsandbox.CardSlow)
		start := time.Now()
		_, err := w.svc.Authorize(ctx, w.jane, req)
		wantPaymentError(t, err, portal.ETIMEOUT, "The payment processor did not answer in time. Please try again: you will not be charged twice.")
		if got := w.rows(t, w.jane); got["pending"] != 1 {
			t.Errorf("rows after a timeout %v; want one pending", got)
		}
		time.Sleep(testSlowDelay - time.Since(start) + 150*time.Millisecond)
		a, err := w.svc.Authorize(ctx, w.jane, req)
		if err != nil {
			t.Fatal(err)
		}
		if a.Last4 != "0119" || w.holds(t) != 1 {
			t.Errorf("retry = %+v, holds %d", a, w.holds(t))
		}
		if got := w.rows(t, w.jane); got["authorized"] != 1 || got["pending"] != 0 {
			t.Errorf("rows %v", got)
		}
	})
}

func TestTimeoutThenRetryWithANewKey(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		start := time.Now()
		_, err := w.svc.Authorize(ctx, w.jane, payment("slow-key-1", paymentsandbox.CardSlow))
		wantPaymentError(t, err, portal.ETIMEOUT, "")
		// While the first attempt is processed, a new one waits for it.
		_, err = w.svc.Authorize(ctx, w.jane, payment("slow-key-2", "4242424242424242"))
		wantPaymentError(t, err, portal.ECONFLICT, "Your earlier payment attempt is still being processed. Please wait a moment and try again.")
		time.Sleep(testSlowDelay - time.Since(start) + 150*time.Millisecond)
		// Then the first attempt's hold is the payment, whatever the new
		// attempt's card.
		a, err := w.svc.Authorize(ctx, w.jane, payment("slow-key-3", "4242424242424242"))
		if err != nil {
			t.Fatal(err)
		}
		if a.Last4 != "0119" || w.holds(t) != 1 {
			t.Errorf("retry with a new key = %+v, holds %d; want the slow card's one hold", a, w.holds(t))
		}
		if got := w.rows(t, w.jane); got["authorized"] != 1 || got["pending"] != 0 || len(got) != 1 {
			t.Errorf("rows %v", got)
		}
	})
}

// lostProcessor loses the attempts of the keys it is told to: it answers
// ETIMEOUT without the processor ever taking them, as a network failure
// on the way would. during runs inside a call, as another instance might.
type lostProcessor struct {
	portal.PaymentProcessor
	lose   map[string]bool
	during func()
}

func (p *lostProcessor) Authorize(ctx context.Context, req portal.AuthorizeRequest) (*portal.Authorization, error) {
	for k := range p.lose {
		if strings.HasSuffix(req.IdempotencyKey, "-"+k) {
			return nil, portal.Errorf(portal.ETIMEOUT, "lost")
		}
	}
	if p.during != nil {
		p.during()
	}
	return p.PaymentProcessor.Authorize(ctx, req)
}

func TestALostAttemptIsSettledByLookup(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		svc := w.db.Payments(&lostProcessor{PaymentProcessor: w.sandbox, lose: map[string]bool{"lost-key-1": true}}, testPaymentTimeout)
		_, err := svc.Authorize(ctx, w.jane, payment("lost-key-1", "4242424242424242"))
		wantPaymentError(t, err, portal.ETIMEOUT, "")
		// Just after, the lost attempt might still reach the processor.
		_, err = svc.Authorize(ctx, w.jane, payment("lost-key-2", "4242424242424242"))
		wantPaymentError(t, err, portal.ECONFLICT, "")
		// Once its call has surely ended, the processor's "never seen"
		// settles it as failed and the new attempt goes on.
		w.clock.Advance(testPaymentTimeout + 11*time.Second)
		a, err := svc.Authorize(ctx, w.jane, payment("lost-key-2", "4242424242424242"))
		if err != nil {
			t.Fatal(err)
		}
		if got := w.rows(t, w.jane); got["authorized"] != 1 || got["failed"] != 1 || got["pending"] != 0 || w.holds(t) != 1 {
			t.Errorf("rows %v, holds %d; authorization %+v", got, w.holds(t), a)
		}
	})
}

func TestASecondHoldIsNeverRecorded(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		// Another instance records a hold while this one's attempt is at
		// the processor (which, being wrong, places a second one).
		p := &lostProcessor{PaymentProcessor: w.sandbox}
		p.during = func() {
			now := time.Now().UnixMilli()
			if _, err := w.db.SQL().Exec(`INSERT INTO payments (subject_id, idempotency_key, status, amount_cents, currency,
				authorization_id, last4, brand, created_at, updated_at) VALUES ($1, 'other-instance', 'authorized', 2500, 'USD',
				'auth_first', '4444', 'Mastercard', $2, $2)`, w.jane, now); err != nil {
				t.Error(err)
			}
		}
		a, err := w.db.Payments(p, testPaymentTimeout).Authorize(ctx, w.jane, payment("second-key", "4242424242424242"))
		if err != nil || a.ID != "auth_first" {
			t.Fatalf("Authorize = %+v, %v; want the first hold", a, err)
		}
		if got := w.rows(t, w.jane); got["authorized"] != 1 || got["failed"] != 1 {
			t.Errorf("rows %v", got)
		}
	})
}

func TestConcurrentAttemptsTakeOneHold(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		keys := []string{"same-key-1", "same-key-1", "same-key-1", "other-key-2", "other-key-3", "other-key-4"}
		var wg sync.WaitGroup
		ids := make([]string, len(keys))
		errs := make([]error, len(keys))
		for i, k := range keys {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, err := w.svc.Authorize(ctx, w.jane, payment(k, "4242424242424242"))
				if a != nil {
					ids[i] = a.ID
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		first := ""
		for i := range keys {
			switch {
			case errs[i] == nil && (first == "" || ids[i] == first):
				first = ids[i]
			case portal.ErrorCode(errs[i]) == portal.ECONFLICT:
			default:
				t.Errorf("attempt %d (%s) = %s, %v", i, keys[i], ids[i], errs[i])
			}
		}
		if first == "" || w.holds(t) != 1 || w.rows(t, w.jane)["authorized"] != 1 {
			t.Errorf("holds %d, rows %v; want one", w.holds(t), w.rows(t, w.jane))
		}
	})
}

func TestCardNumbersAreNeverStored(t *testing.T) {
	eachPaymentsDB(t, func(t *testing.T, w *paymentsWorld) {
		ctx := context.Background()
		numbers := []string{"4000000000000002", "4000000000000127", "4242424242424242"}
		for i, n := range numbers {
			w.svc.Authorize(ctx, w.jane, payment("stored-key-"+string(rune('a'+i)), n))
		}
		w.svc.Authorize(ctx, w.jane, payment("stored-key-x", "4242424242424241")) // refused: Luhn
		for _, table := range []string{"payments", "sandbox_records"} {
			rows, err := w.db.SQL().Query(`SELECT * FROM ` + table)
			if err != nil {
				t.Fatal(err)
			}
			cols, _ := rows.Columns()
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				for i, v := range vals {
					var text string
					switch v := v.(type) {
					case string:
						text = v
					case []byte:
						text = string(v)
					default:
						continue
					}
					for _, n := range append(numbers, "4242424242424241") {
						if strings.Contains(text, n) || strings.Contains(text, n[:12]) {
							t.Errorf("%s.%s holds a card number: %s", table, cols[i], text)
						}
					}
				}
			}
			rows.Close()
		}
	})
}
