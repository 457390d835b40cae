package portal

import (
	"context"
	"strconv"
	"time"
)

// Actor is who did something the audit trail records. The HTTP layer puts
// the applicant or the API key into the request's context (WithActor), the
// command line the operator's login; a service that records an action
// reads it back (ActorFrom), so no method takes it as a parameter.
type Actor struct {
	Kind string // ActorApplicant, ActorCommandLine, ActorAPIKey or ActorSystem
	// ID is the subject's id for an applicant, the key's for an API key.
	ID int64
	// Name is the operator's login on the command line.
	Name string
	// Address is the client's IP address over HTTP.
	Address string
}

// Kinds of actor.
const (
	ActorApplicant   = "applicant"
	ActorCommandLine = "command-line"
	ActorAPIKey      = "api-key"
	ActorSystem      = "system"
)

type actorKey struct{}

// WithActor returns a context that carries who acts.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom is who acts in ctx; the system (a background job) when nobody
// was named.
func ActorFrom(ctx context.Context) Actor {
	if a, ok := ctx.Value(actorKey{}).(Actor); ok {
		return a
	}
	return Actor{Kind: ActorSystem}
}

// AuditEntry is one row of the append-only audit trail.
type AuditEntry struct {
	ID        int64
	CompanyID int64
	SubjectID int64
	Actor     Actor
	Action    string
	// Detail says what changed in words an operator reads ("background
	// check: waiting on the applicant, employer-not-responding"); it never
	// holds personal data.
	Detail string
	At     time.Time
}

// AuditFilter selects audit rows: one company's (0 means every company,
// the command line), one applicant's (0 means every applicant), newest
// first, at most Limit (0 means DefaultAuditLimit).
type AuditFilter struct {
	CompanyID int64
	SubjectID int64
	Limit     int
}

// DefaultAuditLimit is how many rows a listing shows unless asked.
const DefaultAuditLimit = 200

// AuditService reads the audit trail; every service that acts on a
// screening writes it in the transaction of the action.
type AuditService interface {
	FindAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
	// VerifyChain walks the trail's hash chain in order and tells where
	// it first breaks.
	VerifyChain(ctx context.Context) (*AuditChainCheck, error)
}

// AuditChainCheck is what a walk of the audit chain found: how many rows
// it checked and the last one's hash, or where the chain first breaks.
type AuditChainCheck struct {
	Rows     int64
	LastHash string
	Broken   *AuditBreak
}

// AuditBreak is the first row at which the chain breaks: its id, its
// place in the chain (seq) and what differs.
type AuditBreak struct {
	ID      int64
	Seq     int64
	Problem string
}

// Notice is a message to the applicant about their screening, sent by
// their primaryNotificationMethod: Subject and Body by e-mail, Text by
// text message. Neither holds a link that signs in or personal data
// beyond the applicant's first name.
type Notice struct {
	Subject string
	Body    string
	Text    string
}

// ScreeningTopic is the topic of an applicant's screening events (a
// service moved, a report was attached, a dispute or an adverse action
// changed): the applicant's event stream passes them on as "screening"
// events, and the app reloads what it shows. The payload is
// ScreeningEvent.
func ScreeningTopic(subjectID int64) string {
	return "screening." + strconv.FormatInt(subjectID, 10)
}

// ScreeningEvent is the payload of a ScreeningTopic event: what changed,
// so the app reloads only that.
type ScreeningEvent struct {
	Kind string `json:"kind"` // one of the ScreeningChanged... kinds
}

// What a ScreeningEvent says changed.
const (
	ScreeningChangedServices = "services" // a service, the order or the profile status
	ScreeningChangedReport   = "report"
	ScreeningChangedDispute  = "dispute"
	ScreeningChangedAdverse  = "adverse-action"
)

// Webhook event types sent to the employers' systems.
const (
	WebhookApplicantInvited   = "applicant.invited"
	WebhookSetupCompleted     = "applicant.setup_completed"
	WebhookSubmitted          = "applicant.submitted"
	WebhookServiceChanged     = "service.changed"
	WebhookOrderChanged       = "order.changed"
	WebhookProfileChanged     = "profile.changed"
	WebhookReportAttached     = "report.attached"
	WebhookDisputeOpened      = "dispute.opened"
	WebhookDisputeUpdated     = "dispute.updated"
	WebhookDisputeResolved    = "dispute.resolved"
	WebhookPreAdverseAction   = "adverse_action.pre"
	WebhookFinalAdverseAction = "adverse_action.final"
)
