package portal

import (
	"context"
	"time"
)

// IDVStatus is an identity-verification session's status, with the ids of
// spec section 4.
type IDVStatus int

// Identity-verification session statuses (spec section 4).
const (
	IDVActive          IDVStatus = 0
	IDVCompletedByUser IDVStatus = 1
	IDVCheckCompleted  IDVStatus = 2
	IDVDataCompleted   IDVStatus = 3
	IDVExpired         IDVStatus = 4
)

var idvStatusTexts = map[IDVStatus]string{
	IDVActive:          "active",
	IDVCompletedByUser: "completedByUser",
	IDVCheckCompleted:  "checkCompleted",
	IDVDataCompleted:   "dataCompleted",
	IDVExpired:         "expired",
}

// Text is the status's name in the spec (active, completedByUser, ...).
func (s IDVStatus) Text() string { return idvStatusTexts[s] }

// Valid reports whether s is a known status.
func (s IDVStatus) Valid() bool {
	_, ok := idvStatusTexts[s]
	return ok
}

// IDVDecision is the provider's verdict on the applicant's identity; it is
// empty until the provider has checked what the applicant sent.
type IDVDecision string

// Decisions of the provider.
const (
	IDVUndecided IDVDecision = ""
	IDVApproved  IDVDecision = "approved"
	IDVDeclined  IDVDecision = "declined"
)

// IDV environments (spec section 9).
const (
	IDVEnvSandbox    = "sandbox"
	IDVEnvProduction = "production"
)

// IDVState is what the provider says about a session.
type IDVState struct {
	Status   IDVStatus
	Decision IDVDecision
}

// Finished reports whether the applicant is done with identity
// verification: the session is neither active nor expired (spec section 4)
// and the provider has not declined it. A declined or expired session needs
// a new one.
func (s IDVState) Finished() bool {
	return s.Status != IDVActive && s.Status != IDVExpired && s.Decision != IDVDeclined
}

// Coherent reports whether s is a state a session can be in: a known
// status, and a known decision only once the provider's check is done
// (checkCompleted or dataCompleted).
func (s IDVState) Coherent() bool {
	switch s.Decision {
	case IDVUndecided:
		return s.Status.Valid()
	case IDVApproved, IDVDeclined:
		return s.Status == IDVCheckCompleted || s.Status == IDVDataCompleted
	}
	return false
}

// Later reports whether next may replace s: statuses only move forward and
// a decision, once made, stays. Callbacks and polls may arrive in any
// order; an older one never undoes a newer one. A state that is not
// Coherent never replaces one.
func (s IDVState) Later(next IDVState) bool {
	switch {
	case !next.Coherent(), s.Status == IDVExpired, s.Decision != IDVUndecided && next.Decision != s.Decision:
		return false
	case next.Status == IDVExpired:
		return s.Status == IDVActive // a finished session never expires
	}
	return next.Status > s.Status || (next.Status == s.Status && next.Decision != s.Decision)
}

// IDVSession is an applicant's identity-verification session as the portal
// keeps it. Token opens the provider's page for this session; it is sealed
// at rest and answered only to its applicant.
type IDVSession struct {
	ID        string
	SubjectID int64
	Token     string
	Env       string
	IDVState
	CreatedAt time.Time
	UpdatedAt time.Time
	ExpiresAt time.Time
}

// IDVSessionRequest is what the provider is told about a new session.
type IDVSessionRequest struct {
	// Reference is the portal's opaque reference of the applicant (never
	// a name or an SSN): the provider hands it back in callbacks.
	Reference string
	// ReturnURL is where the provider's page sends the applicant when
	// they are done (the app's /idv/success).
	ReturnURL string
}

// IDVProviderSession is a session the provider created.
type IDVProviderSession struct {
	ID        string
	Token     string
	ExpiresAt time.Time
}

// IDVCallback is a provider's signed notice that a session changed.
type IDVCallback struct {
	SessionID string
	IDVState
}

// IDVProvider is the outside identity-verification party: the sandbox built
// into portal, or an adapter for a real provider.
type IDVProvider interface {
	// Env is the provider's environment: IDVEnvSandbox or IDVEnvProduction.
	Env() string
	// CreateSession opens a session for one applicant.
	CreateSession(ctx context.Context, req IDVSessionRequest) (IDVProviderSession, error)
	// SessionState asks the provider where a session stands (polling
	// covers a lost callback). An unknown session is ENOTFOUND.
	SessionState(ctx context.Context, id string) (IDVState, error)
	// VerifyCallback checks a callback's signature header and reads its
	// body; a bad or stale signature is EUNAUTHORIZED.
	VerifyCallback(signature string, body []byte) (IDVCallback, error)
}

// IDVSessionFailedMessage is shown when the provider cannot create a
// session (spec section 8).
const IDVSessionFailedMessage = "IdentitySource session could not be created. Please contact customer support for assistance."

// IDVService keeps the applicants' identity-verification sessions.
type IDVService interface {
	// StartSession answers the applicant's active session, or opens a new
	// one with the provider when there is none (the last expired, was
	// declined or finished). Only an applicant in idv-started may start
	// one (ECONFLICT otherwise); a provider failure is EUPSTREAM with
	// IDVSessionFailedMessage.
	StartSession(ctx context.Context, subjectID int64) (*IDVSession, error)
	// Session answers one of the applicant's sessions (another's is
	// ENOTFOUND). While it is active the provider is asked again, so a
	// lost callback does not leave it active forever; past its expiry it
	// is expired.
	Session(ctx context.Context, subjectID int64, id string) (*IDVSession, error)
	// ApplyCallback checks a provider callback's signature (EUNAUTHORIZED
	// when it is bad or stale) and records its state. An unknown session
	// is ENOTFOUND; an older state than the one recorded is ignored.
	ApplyCallback(ctx context.Context, signature string, body []byte) error
}
