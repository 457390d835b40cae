// Package idvsandbox is the built-in identity-verification provider: a
// hosted verification page served by portal itself under /sandbox/idv/,
// with sessions that move through the real statuses, signed callbacks and
// expiry.
package idvsandbox

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/sandbox"
)

// Config is the sandbox provider's configuration.
type Config struct {
	Records sandbox.Records
	// Secret signs callbacks (HMAC-SHA256); the portal checks them with
	// the same secret.
	Secret []byte
	// CallbackURL is where callbacks are posted (the portal's
	// /api/v2/idv/callback); empty sends none.
	CallbackURL string
	// SessionTTL is how long a session stays open; CheckDelay how long the
	// "provider" takes to check what the applicant sent.
	SessionTTL time.Duration
	CheckDelay time.Duration
	HTTPClient *http.Client
	Logger     *slog.Logger
	Now        func() time.Time
}

// Defaults for what Config leaves out, matching cmd/portal's flags.
const (
	DefaultSessionTTL = 30 * time.Minute
	DefaultCheckDelay = 5 * time.Second
)

// SignatureHeader carries a callback's signature.
const SignatureHeader = "X-IDV-Signature"

// SignatureTolerance is how far a callback's signing time may lie from now,
// either way, before it is refused as a replay (or a badly set clock).
const SignatureTolerance = 5 * time.Minute

// recordKind is the sandbox records' namespace of this provider.
const recordKind = "idv-session"

// recordRetention keeps a session's record past its expiry, so a late poll
// or a late visit still finds it (and answers expired) instead of unknown.
const recordRetention = 7 * 24 * time.Hour

// callbackTimeout bounds one callback delivery; polling covers a slow or
// lost one, so there is no retry.
const callbackTimeout = 5 * time.Second

// Provider is the sandbox provider (portal.IDVProvider) and its pages.
type Provider struct{ cfg Config }

var _ portal.IDVProvider = (*Provider)(nil)

// New returns the sandbox provider.
func New(cfg Config) *Provider {
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = DefaultSessionTTL
	}
	if cfg.CheckDelay < 0 {
		cfg.CheckDelay = 0
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: callbackTimeout}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Provider{cfg}
}

// Env is always sandbox.
func (p *Provider) Env() string { return portal.IDVEnvSandbox }

// session is a session as the sandbox keeps it. Status and Decision are
// what the applicant's last action recorded; the delayed statuses of an
// approved session are derived from FinishedAt (state), as a real
// provider's check would finish on its own.
type session struct {
	ID         string             `json:"id"`
	TokenHash  string             `json:"tokenHash"`
	Reference  string             `json:"reference"`
	ReturnURL  string             `json:"returnURL"`
	Status     portal.IDVStatus   `json:"status"`
	Decision   portal.IDVDecision `json:"decision"`
	Steps      []string           `json:"steps"`
	CreatedAt  time.Time          `json:"createdAt"`
	ExpiresAt  time.Time          `json:"expiresAt"`
	FinishedAt *time.Time         `json:"finishedAt,omitempty"`
}

// The steps of the hosted page, in order.
const (
	stepDocument = "document"
	stepSelfie   = "selfie"
)

func (s *session) done(step string) bool {
	for _, d := range s.Steps {
		if d == step {
			return true
		}
	}
	return false
}

// state is where the session stands at now.
func (s *session) state(now time.Time, delay time.Duration) portal.IDVState {
	switch {
	case s.Status == portal.IDVActive:
		if !now.Before(s.ExpiresAt) {
			return portal.IDVState{Status: portal.IDVExpired}
		}
		return portal.IDVState{Status: portal.IDVActive}
	case s.Status == portal.IDVCompletedByUser && s.FinishedAt != nil:
		switch elapsed := now.Sub(*s.FinishedAt); {
		case elapsed >= 2*delay:
			return portal.IDVState{Status: portal.IDVDataCompleted, Decision: portal.IDVApproved}
		case elapsed >= delay:
			return portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}
		}
		return portal.IDVState{Status: portal.IDVCompletedByUser}
	}
	return portal.IDVState{Status: s.Status, Decision: s.Decision}
}

// open reports whether the applicant may still act on the session.
func (s *session) open(now time.Time) bool {
	return s.Status == portal.IDVActive && now.Before(s.ExpiresAt)
}

// tokenMatches compares in constant time, so the answer's timing tells
// nothing about the stored hash.
func (s *session) tokenMatches(token string) bool {
	sum := sha256.Sum256([]byte(token))
	want, err := hex.DecodeString(s.TokenHash)
	return err == nil && token != "" && subtle.ConstantTimeCompare(sum[:], want) == 1
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID is "idv_" and 20 base32 characters (100 random bits).
func newID() (string, error) {
	b := make([]byte, 13)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("idvsandbox: random id: %w", err)
	}
	return "idv_" + idEncoding.EncodeToString(b)[:20], nil
}

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("idvsandbox: random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// CreateSession opens a session for one applicant.
func (p *Provider) CreateSession(ctx context.Context, req portal.IDVSessionRequest) (portal.IDVProviderSession, error) {
	if p.cfg.Records == nil {
		return portal.IDVProviderSession{}, errors.New("idvsandbox: no records store configured")
	}
	token, err := newToken()
	if err != nil {
		return portal.IDVProviderSession{}, err
	}
	sum := sha256.Sum256([]byte(token))
	now := p.cfg.Now().UTC()
	s := session{TokenHash: hex.EncodeToString(sum[:]), Reference: req.Reference, ReturnURL: req.ReturnURL,
		Steps: []string{}, CreatedAt: now, ExpiresAt: now.Add(p.cfg.SessionTTL)}
	// A clash of 100 random bits is next to impossible; a few tries
	// cost nothing and keep Insert's "already there" from being fatal.
	for range 3 {
		if s.ID, err = newID(); err != nil {
			return portal.IDVProviderSession{}, err
		}
		value, err := json.Marshal(s)
		if err != nil {
			return portal.IDVProviderSession{}, fmt.Errorf("idvsandbox: encode session: %w", err)
		}
		_, inserted, err := p.cfg.Records.Insert(ctx, recordKind, s.ID, value, s.ExpiresAt.Add(recordRetention))
		if err != nil {
			return portal.IDVProviderSession{}, fmt.Errorf("idvsandbox: store session: %w", err)
		}
		if inserted {
			return portal.IDVProviderSession{ID: s.ID, Token: token, ExpiresAt: s.ExpiresAt}, nil
		}
	}
	return portal.IDVProviderSession{}, errors.New("idvsandbox: could not find a free session id")
}

// load reads a session and the version a Replace needs.
func (p *Provider) load(ctx context.Context, id string) (*session, int64, error) {
	value, version, err := p.cfg.Records.Get(ctx, recordKind, id)
	if err != nil {
		if portal.ErrorCode(err) == portal.ENOTFOUND {
			return nil, 0, portal.Errorf(portal.ENOTFOUND, "No such identity-verification session.")
		}
		return nil, 0, err
	}
	var s session
	if err := json.Unmarshal(value, &s); err != nil {
		return nil, 0, fmt.Errorf("idvsandbox: decode session %s: %w", id, err)
	}
	return &s, version, nil
}

// SessionState asks where a session stands.
func (p *Provider) SessionState(ctx context.Context, id string) (portal.IDVState, error) {
	s, _, err := p.load(ctx, id)
	if err != nil {
		return portal.IDVState{}, err
	}
	return s.state(p.cfg.Now(), p.cfg.CheckDelay), nil
}

// errSessionClosed is an action on a session that is finished or expired.
var errSessionClosed = portal.Errorf(portal.ECONFLICT, "This session is closed.")

// update applies change to a session that is still open, retrying when
// another writer (a second tab) came first.
func (p *Provider) update(ctx context.Context, id string, change func(s *session, now time.Time) error) (*session, error) {
	for range 5 {
		s, version, err := p.load(ctx, id)
		if err != nil {
			return nil, err
		}
		now := p.cfg.Now().UTC()
		if !s.open(now) {
			return s, errSessionClosed
		}
		if err := change(s, now); err != nil {
			return s, err
		}
		value, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("idvsandbox: encode session: %w", err)
		}
		ok, err := p.cfg.Records.Replace(ctx, recordKind, id, version, value)
		if err != nil {
			return nil, err
		}
		if ok {
			return s, nil
		}
	}
	return nil, portal.Errorf(portal.ECONFLICT, "The session changed meanwhile; please try again.")
}

// callbackBody is what a callback carries.
type callbackBody struct {
	SessionID  string              `json:"sessionId"`
	Status     *portal.IDVStatus   `json:"status"`
	Decision   *portal.IDVDecision `json:"decision"`
	OccurredAt time.Time           `json:"occurredAt"`
}

// Sign is the signature header of body signed at t with secret:
// "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>".
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

var errBadSignature = portal.Errorf(portal.EUNAUTHORIZED, "The callback's signature is missing, wrong or too old.")

// VerifyCallback checks a callback's signature header and reads its body.
func (p *Provider) VerifyCallback(signature string, body []byte) (portal.IDVCallback, error) {
	var ts string
	var sigs [][]byte
	for _, part := range strings.Split(signature, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			// Several v1 values let a provider sign with an old and a new
			// secret while the secret is changed.
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 || len(p.cfg.Secret) == 0 {
		return portal.IDVCallback{}, errBadSignature
	}
	if d := p.cfg.Now().Sub(time.Unix(sec, 0)); d > SignatureTolerance || d < -SignatureTolerance {
		return portal.IDVCallback{}, errBadSignature
	}
	want := mac(p.cfg.Secret, ts, body)
	ok := false
	for _, sig := range sigs {
		// Every value is compared, so the timing does not say which
		// one matched.
		ok = hmac.Equal(sig, want) || ok
	}
	if !ok {
		return portal.IDVCallback{}, errBadSignature
	}
	var cb callbackBody
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&cb); err != nil || cb.SessionID == "" || cb.Status == nil || !cb.Status.Valid() {
		return portal.IDVCallback{}, portal.Errorf(portal.EMALFORMED, "The callback's body is not a session notice.")
	}
	decision := portal.IDVUndecided
	if cb.Decision != nil {
		decision = *cb.Decision
	}
	if decision != portal.IDVUndecided && decision != portal.IDVApproved && decision != portal.IDVDeclined {
		return portal.IDVCallback{}, portal.Errorf(portal.EMALFORMED, "The callback's decision is unknown.")
	}
	state := portal.IDVState{Status: *cb.Status, Decision: decision}
	if !state.Coherent() {
		return portal.IDVCallback{}, portal.Errorf(portal.EMALFORMED, "The callback's decision comes only with a finished check (status 2 or 3).")
	}
	return portal.IDVCallback{SessionID: cb.SessionID, IDVState: state}, nil
}

// notify posts the session's state to the portal: as it is when notify
// runs, or as it is at asOf when that is set (a delayed status, which a
// late timer must still report as that status, not a later one). It runs
// in its own goroutine with its own deadline: the applicant's request does
// not wait for it, and a failure is only logged because the portal polls
// a session it does not know to be settled.
func (p *Provider) notify(id string, asOf time.Time) {
	if p.cfg.CallbackURL == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), callbackTimeout)
	defer cancel()
	s, _, err := p.load(ctx, id)
	if err != nil {
		p.cfg.Logger.Warn("idv sandbox: callback not sent", "session", id, "err", err)
		return
	}
	if asOf.IsZero() {
		asOf = p.cfg.Now()
	}
	state := s.state(asOf, p.cfg.CheckDelay)
	cb := callbackBody{SessionID: id, Status: &state.Status, OccurredAt: asOf.UTC().Truncate(time.Second)}
	if state.Decision != portal.IDVUndecided {
		cb.Decision = &state.Decision
	}
	body, err := json.Marshal(cb)
	if err != nil {
		return
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.CallbackURL, bytes.NewReader(body))
	if err != nil {
		p.cfg.Logger.Warn("idv sandbox: callback not sent", "session", id, "err", err)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, Sign(p.cfg.Secret, p.cfg.Now(), body))
	resp, err := p.cfg.HTTPClient.Do(req)
	if err != nil {
		p.cfg.Logger.Warn("idv sandbox: callback failed; polling will cover it", "session", id, "err", err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		p.cfg.Logger.Warn("idv sandbox: callback refused; polling will cover it", "session", id, "status", resp.StatusCode)
	}
}

// notifyChanges sends a callback now and, for an approved session, one at
// each delayed status.
func (p *Provider) notifyChanges(s *session) {
	if p.cfg.CallbackURL == "" {
		return
	}
	go p.notify(s.ID, time.Time{})
	if s.Status == portal.IDVCompletedByUser && s.FinishedAt != nil {
		for _, after := range []time.Duration{p.cfg.CheckDelay, 2 * p.cfg.CheckDelay} {
			asOf := s.FinishedAt.Add(after)
			time.AfterFunc(after, func() { p.notify(s.ID, asOf) })
		}
	}
}
