package paymentsandbox_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	paymentsandbox "applicantportal/internal/sandbox/payment"
)

// memRecords is sandbox.Records in memory.
type memRecords struct {
	mu   sync.Mutex
	recs map[string][]byte
}

func (m *memRecords) Insert(_ context.Context, kind, key string, value []byte, _ time.Time) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs == nil {
		m.recs = map[string][]byte{}
	}
	if v, ok := m.recs[kind+"/"+key]; ok {
		return v, false, nil
	}
	m.recs[kind+"/"+key] = value
	return value, true, nil
}

func (m *memRecords) Get(_ context.Context, kind, key string) ([]byte, int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.recs[kind+"/"+key]; ok {
		return v, 1, nil
	}
	return nil, 0, portal.Errorf(portal.ENOTFOUND, "No such %s.", kind)
}

func (m *memRecords) Replace(context.Context, string, string, int64, []byte) (bool, error) {
	return false, errors.New("not used")
}

var now = time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)

func newProcessor(slow time.Duration) (*paymentsandbox.Processor, *memRecords) {
	recs := &memRecords{}
	return paymentsandbox.New(paymentsandbox.Config{Records: recs, SlowDelay: slow, Now: time.Now, Secret: []byte("test")}), recs
}

func card(number string) portal.Card {
	cvc := "123"
	if strings.HasPrefix(number, "37") || strings.HasPrefix(number, "34") {
		cvc = "1234"
	}
	return portal.Card{Number: number, ExpMonth: 12, ExpYear: time.Now().Year() + 2, CVC: cvc, Name: "Jane Doe", PostalCode: "94103"}
}

func request(key string, c portal.Card) portal.AuthorizeRequest {
	return portal.AuthorizeRequest{IdempotencyKey: key, Amount: portal.Money{Cents: 2500, Currency: "USD"}, Card: c, Reference: "s1"}
}

func fieldMessage(err error, field string) string {
	var pe *portal.Error
	if errors.As(err, &pe) {
		for _, f := range pe.Fields {
			if f.Field == field {
				return f.Message
			}
		}
	}
	return ""
}

func TestLuhnAndBrand(t *testing.T) {
	for _, c := range []struct {
		number   string
		luhn     bool
		brand    string
		lengthOK bool
	}{
		{"4242424242424242", true, "Visa", true},
		{"4222222222222", true, "Visa", true},
		{"4242424242424241", false, "Visa", true},
		{"424242424242424", true, "Visa", false},
		{"5555555555554444", true, "Mastercard", true},
		{"2223003122003222", true, "Mastercard", true},
		{"2721000000000004", true, "", false},
		{"378282246310005", true, "American Express", true},
		{"371449635398431", true, "American Express", true},
		{"3782822463100050", false, "American Express", false},
		{"6011111111111117", true, "Discover", true},
		{"6500000000000002", true, "Discover", true},
		{"3530111333300000", true, "", false}, // JCB: not taken
		{"", false, "", false},
	} {
		if got := paymentsandbox.Luhn(c.number); got != c.luhn {
			t.Errorf("Luhn(%q) = %v, want %v", c.number, got, c.luhn)
		}
		if brand, ok := paymentsandbox.Brand(c.number); brand != c.brand || ok != c.lengthOK {
			t.Errorf("Brand(%q) = %q, %v; want %q, %v", c.number, brand, ok, c.brand, c.lengthOK)
		}
	}
}

func TestCardChecks(t *testing.T) {
	p := paymentsandbox.New(paymentsandbox.Config{Records: &memRecords{}, Now: func() time.Time { return now }})
	ok := portal.Card{Number: "4242 4242 4242 4242", ExpMonth: 6, ExpYear: 2025, CVC: "123"}
	for _, c := range []struct {
		name    string
		change  func(*portal.Card)
		field   string
		message string
	}{
		{"Luhn fails", func(c *portal.Card) { c.Number = "4242 4242 4242 4241" }, "cardNumber", paymentsandbox.MessageCardNumber},
		{"letters", func(c *portal.Card) { c.Number = "4242-4242-abcd-4242" }, "cardNumber", paymentsandbox.MessageCardNumber},
		{"empty", func(c *portal.Card) { c.Number = "" }, "cardNumber", paymentsandbox.MessageCardNumber},
		{"Visa of 15 digits", func(c *portal.Card) { c.Number = "424242424242428" }, "cardNumber", paymentsandbox.MessageCardNumber},
		{"Amex of 16 digits", func(c *portal.Card) { c.Number = "3400000000000009"; c.CVC = "1234" }, "cardNumber", paymentsandbox.MessageCardNumber},
		{"unknown brand", func(c *portal.Card) { c.Number = "3530111333300000" }, "cardNumber", paymentsandbox.MessageCardBrand},
		{"month 0", func(c *portal.Card) { c.ExpMonth = 0 }, "expiry", paymentsandbox.MessageExpiryMonth},
		{"month 13", func(c *portal.Card) { c.ExpMonth = 13 }, "expiry", paymentsandbox.MessageExpiryMonth},
		{"two-digit year", func(c *portal.Card) { c.ExpYear = 27 }, "expiry", paymentsandbox.MessageExpiryYear},
		{"last month", func(c *portal.Card) { c.ExpMonth = 5 }, "expiry", paymentsandbox.MessageCardExpired},
		{"last year", func(c *portal.Card) { c.ExpMonth, c.ExpYear = 12, 2024 }, "expiry", paymentsandbox.MessageCardExpired},
		{"CVC of 2 digits", func(c *portal.Card) { c.CVC = "12" }, "cvc", paymentsandbox.MessageCVC},
		{"CVC of 4 digits on a Visa", func(c *portal.Card) { c.CVC = "1234" }, "cvc", paymentsandbox.MessageCVC},
		{"CVC with a letter", func(c *portal.Card) { c.CVC = "12a" }, "cvc", paymentsandbox.MessageCVC},
		{"Amex CVC of 3 digits", func(c *portal.Card) { c.Number = "378282246310005"; c.CVC = "123" }, "cvc", paymentsandbox.MessageCVCAmex},
	} {
		t.Run(c.name, func(t *testing.T) {
			cd := ok
			c.change(&cd)
			_, err := p.Authorize(context.Background(), request("key-"+c.name, cd))
			if portal.ErrorCode(err) != portal.EINVALID || fieldMessage(err, c.field) != c.message {
				t.Fatalf("Authorize = %v, want %s %q", err, c.field, c.message)
			}
			if strings.Contains(err.Error(), cd.Digits()) && cd.Digits() != "" {
				t.Errorf("the error %v holds the card number", err)
			}
		})
	}
	t.Run("valid through the end of the expiry month", func(t *testing.T) {
		if _, err := p.Authorize(context.Background(), request("end-of-month", ok)); err != nil {
			t.Fatal(err)
		}
	})
}

func TestTestCards(t *testing.T) {
	p, _ := newProcessor(time.Hour)
	for _, c := range []struct {
		number, brand string
		code, message string
		field         string
	}{
		{"4242 4242 4242 4242", "Visa", "", "", ""},
		{"5555 5555 5555 4444", "Mastercard", "", "", ""},
		{"3782 822463 10005", "American Express", "", "", ""},
		{"6011 1111 1111 1117", "Discover", "", "", ""},
		{"4000 0000 0000 0002", "", portal.EDECLINED, paymentsandbox.MessageDeclined, ""},
		{"4000 0000 0000 9995", "", portal.EDECLINED, paymentsandbox.MessageInsufficientFunds, ""},
		{"4000 0000 0000 0127", "", portal.EDECLINED, paymentsandbox.MessageIncorrectCVC, "cvc"},
		{"4000 0000 0000 0069", "", portal.EDECLINED, paymentsandbox.MessageExpiredCard, "expiry"},
		{"4111 1111 1111 1111", "", portal.EDECLINED, paymentsandbox.MessageDeclined, ""},
	} {
		t.Run(c.number, func(t *testing.T) {
			a, err := p.Authorize(context.Background(), request("key-"+c.number, card(c.number)))
			if c.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(a.ID, "auth_") || a.Brand != c.brand || a.Last4 != c.number[len(c.number)-4:] || a.Amount.Cents != 2500 {
					t.Errorf("Authorize = %+v", a)
				}
				return
			}
			if portal.ErrorCode(err) != c.code || portal.ErrorMessage(err) != c.message || (c.field != "" && fieldMessage(err, c.field) == "") {
				t.Errorf("Authorize = %v, want %s %q (field %q)", err, c.code, c.message, c.field)
			}
		})
	}
}

func TestIdempotencyKeys(t *testing.T) {
	ctx := context.Background()
	p, recs := newProcessor(time.Hour)
	first, err := p.Authorize(ctx, request("key-1", card("4242424242424242")))
	if err != nil {
		t.Fatal(err)
	}
	again, err := p.Authorize(ctx, request("key-1", card("4242 4242 4242 4242")))
	if err != nil || *again != *first {
		t.Fatalf("the same key again = %+v, %v; want %+v", again, err, first)
	}
	looked, err := p.Lookup(ctx, "key-1")
	if err != nil || *looked != *first {
		t.Fatalf("Lookup = %+v, %v", looked, err)
	}
	other := card("5555555555554444")
	if _, err := p.Authorize(ctx, request("key-1", other)); portal.ErrorCode(err) != portal.ECONFLICT || portal.ErrorMessage(err) != paymentsandbox.MessageKeyReused {
		t.Errorf("the same key with another card = %v", err)
	}
	more := request("key-1", card("4242424242424242"))
	more.Amount.Cents = 5000
	if _, err := p.Authorize(ctx, more); portal.ErrorCode(err) != portal.ECONFLICT {
		t.Errorf("the same key with another amount = %v", err)
	}
	if _, err := p.Lookup(ctx, "never-used"); portal.ErrorCode(err) != portal.ENOTFOUND {
		t.Errorf("Lookup of an unknown key = %v", err)
	}
	// A decline is the key's answer too, even if a retry "fixes" the CVC.
	if _, err := p.Authorize(ctx, request("key-2", card(paymentsandbox.CardIncorrectCVC))); portal.ErrorCode(err) != portal.EDECLINED {
		t.Fatal(err)
	}
	fixed := card(paymentsandbox.CardIncorrectCVC)
	fixed.CVC = "999"
	if _, err := p.Authorize(ctx, request("key-2", fixed)); portal.ErrorCode(err) != portal.EDECLINED {
		t.Errorf("a retry of a declined key = %v", err)
	}
	if _, err := p.Lookup(ctx, "key-2"); portal.ErrorCode(err) != portal.EDECLINED {
		t.Errorf("Lookup of a declined key = %v", err)
	}
	for k, v := range recs.recs {
		for _, secret := range []string{"4242424242424242", "4242 4242", "5555555555554444", "4000000000000127", "\"123\"", "\"999\""} {
			if strings.Contains(string(v), secret) {
				t.Errorf("record %s holds %q: %s", k, secret, v)
			}
		}
	}
}

func TestConcurrentAttemptsWithOneKeyAuthorizeOnce(t *testing.T) {
	p, _ := newProcessor(time.Hour)
	ids := make(chan string, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := p.Authorize(context.Background(), request("same", card("4242424242424242")))
			if err != nil {
				t.Error(err)
				return
			}
			ids <- a.ID
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		seen[id] = true
	}
	if len(seen) != 1 {
		t.Errorf("authorizations %v, want one", seen)
	}
}

func TestSlowCard(t *testing.T) {
	const slow = 150 * time.Millisecond
	p, _ := newProcessor(slow)
	ctx := context.Background()
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := p.Authorize(short, request("slow", card(paymentsandbox.CardSlow))); portal.ErrorCode(err) != portal.ETIMEOUT {
		t.Fatalf("the slow card within a short deadline = %v, want ETIMEOUT", err)
	}
	if _, err := p.Lookup(ctx, "slow"); portal.ErrorCode(err) != portal.ECONFLICT {
		t.Errorf("Lookup while processing = %v, want ECONFLICT", err)
	}
	// A retry with the key waits for the same hold.
	a, err := p.Authorize(ctx, request("slow", card(paymentsandbox.CardSlow)))
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < slow {
		t.Errorf("the slow card answered after %v, before its delay", time.Since(start))
	}
	b, err := p.Authorize(ctx, request("slow", card(paymentsandbox.CardSlow)))
	if err != nil || b.ID != a.ID {
		t.Errorf("a later retry = %+v, %v; want %s", b, err, a.ID)
	}
	if c, err := p.Lookup(ctx, "slow"); err != nil || c.ID != a.ID {
		t.Errorf("Lookup when ready = %+v, %v", c, err)
	}
	if a.Brand != "Visa" || a.Last4 != "0119" {
		t.Errorf("authorization %+v", a)
	}
}

func TestCardNeverPrinted(t *testing.T) {
	c := card("4242 4242 4242 4242")
	req := request("k", c)
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%v %+v %#v %s", c, c, c, c), fmt.Sprintf("%+v %#v", req, req)} {
		if strings.Contains(strings.ReplaceAll(s, " ", ""), "42424242") {
			t.Errorf("printed card: %s", s)
		}
	}
}
