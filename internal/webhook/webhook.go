// Package webhook posts the portal's events to employers' endpoints,
// signed, and verifies such a signature: the sender the delivery worker
// uses (Sender) and what a receiver checks (Verify).
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"applicantportal/internal/portal"
)

// Headers of every delivery.
const (
	SignatureHeader = "Portal-Signature"
	EventIDHeader   = "Portal-Event-Id"
	EventTypeHeader = "Portal-Event-Type"
)

// ReplayWindow is how far a signature's time may be from the receiver's
// clock: an older request is a replay.
const ReplayWindow = 5 * time.Minute

// Sign is the Portal-Signature header of body sent at t:
// t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + body)>.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret, ts string, body []byte) []byte {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Errors of Verify.
var (
	ErrMalformedSignature = errors.New("webhook: malformed Portal-Signature header")
	ErrSignatureMismatch  = errors.New("webhook: signature does not match")
	ErrSignatureTooOld    = errors.New("webhook: signature time outside the replay window")
)

// Verify checks header (Portal-Signature) against body as received, with
// the endpoint's secret: some v1 must be its HMAC, and t within window of
// now (ReplayWindow is the portal's). Compare the whole raw body, before
// parsing it.
func Verify(secret, header string, body []byte, now time.Time, window time.Duration) error {
	var ts string
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return ErrMalformedSignature
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			sig, err := hex.DecodeString(v)
			if err != nil {
				return ErrMalformedSignature
			}
			sigs = append(sigs, sig)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrMalformedSignature
	}
	want := mac(secret, ts, body)
	matched := false
	for _, sig := range sigs {
		matched = matched || hmac.Equal(sig, want)
	}
	if !matched {
		return ErrSignatureMismatch
	}
	if d := now.Sub(time.Unix(sec, 0)); d > window || d < -window {
		return ErrSignatureTooOld
	}
	return nil
}

// Config is a Sender's.
type Config struct {
	// Timeout bounds one delivery, from the connection to the answer.
	Timeout time.Duration
	// AllowInsecure sends to http:// and to private and local addresses
	// (tests and local development); otherwise only https to addresses on
	// the internet, checked on every connection, so that a host name
	// resolving to an inside address is refused too.
	AllowInsecure bool
	// Now is the clock the signatures' times come from.
	Now func() time.Time
}

// Sender is portal.WebhookSender over HTTP.
type Sender struct {
	cfg    Config
	client *http.Client
}

var _ portal.WebhookSender = (*Sender)(nil)

// New makes a Sender.
func New(cfg Config) *Sender {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	dialer := &net.Dialer{Timeout: cfg.Timeout}
	if !cfg.AllowInsecure {
		dialer.Control = refuseInsideAddresses
	}
	transport := &http.Transport{
		Proxy:               nil, // a proxy would connect where the guard cannot see
		DialContext:         dialer.DialContext,
		TLSHandshakeTimeout: cfg.Timeout,
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     90 * time.Second,
	}
	return &Sender{cfg: cfg, client: &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		// A redirect is an answer, not 2xx: following it could lead inside.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// refuseInsideAddresses stops a connection to an address inside a network
// after the name was resolved (portal.PublicAddr).
func refuseInsideAddresses(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !portal.PublicAddr(ap.Addr()) {
		return fmt.Errorf("refused to connect to %s: not an internet address", address)
	}
	return nil
}

// SendWebhook posts m signed now and answers the status; anything but
// 2xx is an error.
func (s *Sender) SendWebhook(ctx context.Context, m portal.WebhookMessage) (int, error) {
	u, err := url.Parse(m.URL)
	if err != nil || (u.Scheme != "https" && !(s.cfg.AllowInsecure && u.Scheme == "http")) {
		return 0, fmt.Errorf("refused: the address must be https")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.URL, bytes.NewReader(m.Body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "ApplicantPortal-Webhooks/1")
	req.Header.Set(SignatureHeader, Sign(m.Secret, s.cfg.Now(), m.Body))
	req.Header.Set(EventIDHeader, m.EventID)
	req.Header.Set(EventTypeHeader, m.EventType)
	res, err := s.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is listed beside the error already
		}
		return 0, err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res.StatusCode, fmt.Errorf("answered %s", res.Status)
	}
	return res.StatusCode, nil
}
