package portal

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// WebhookService keeps the employers' webhook endpoints and their
// deliveries. Events are queued by the services whose action they tell, in
// that action's transaction, one delivery per active endpoint of the
// applicant's company; a worker of `portal serve` delivers them
// (WebhookSender). Methods act within companyID (0 on the command line:
// every company); another company's endpoint or delivery is ENOTFOUND.
type WebhookService interface {
	// CreateWebhookEndpoint registers rawURL for the company and answers
	// its signing secret, which is shown this once (it is kept sealed, so
	// that the server can sign with it).
	CreateWebhookEndpoint(ctx context.Context, companyID int64, rawURL string) (*WebhookEndpoint, string, error)
	// FindWebhookEndpoints lists the endpoints, removed ones too.
	FindWebhookEndpoints(ctx context.Context, companyID int64) ([]WebhookEndpoint, error)
	// RemoveWebhookEndpoint stops deliveries to the endpoint at once; its
	// deliveries stay listed, those still pending are cancelled.
	RemoveWebhookEndpoint(ctx context.Context, companyID, endpointID int64) error
	// FindWebhookDeliveries lists deliveries newest first, each with its
	// attempts.
	FindWebhookDeliveries(ctx context.Context, f WebhookDeliveryFilter) ([]WebhookDelivery, error)
	// RetryWebhookDelivery sends a failed or cancelled delivery again at
	// the next run of the worker (one more attempt).
	RetryWebhookDelivery(ctx context.Context, companyID, deliveryID int64) error
}

// WebhookEndpoint is where a company's systems receive events.
type WebhookEndpoint struct {
	ID        int64
	CompanyID int64
	URL       string
	CreatedAt time.Time
	RemovedAt *time.Time
}

// WebhookDeliveryFilter selects deliveries: of one company (0: every
// company), of one endpoint (0: every endpoint), at most Limit (0:
// DefaultWebhookDeliveryLimit).
type WebhookDeliveryFilter struct {
	CompanyID  int64
	EndpointID int64
	Limit      int
}

// DefaultWebhookDeliveryLimit is how many deliveries a listing shows
// unless asked.
const DefaultWebhookDeliveryLimit = 50

// States of a webhook delivery.
const (
	WebhookPending   = "pending"   // waiting for its first or next attempt
	WebhookDelivered = "delivered" // the endpoint answered 2xx
	WebhookFailed    = "failed"    // MaxWebhookAttempts failed; retried only by hand
	WebhookCancelled = "cancelled" // its endpoint was removed before it was delivered
)

// MaxWebhookAttempts is how many failed attempts a delivery gets before it
// is given up: with WebhookBackoff, about three days of trying.
const MaxWebhookAttempts = 10

// webhookBackoff are the waits after the first, second ... failure; the
// last one repeats.
var webhookBackoff = []time.Duration{10 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute,
	2 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour}

// WebhookBackoff is how long a delivery waits after its failures-th
// failed attempt, before jitter: 10 s, 1 min, 5 min, 30 min, 2 h, 6 h,
// 12 h, then a day.
func WebhookBackoff(failures int) time.Duration {
	return webhookBackoff[min(max(failures, 1), len(webhookBackoff))-1]
}

// WebhookDelivery is one event on its way to one endpoint.
type WebhookDelivery struct {
	ID         int64
	EndpointID int64
	URL        string
	EventID    string // "evt_" and the event's number: the same on every attempt
	EventType  string
	SubjectID  int64
	State      string
	// LastStatus is the HTTP status of the last attempt (0: none, or no
	// answer); LastError what went wrong.
	LastStatus    int
	LastError     string
	NextAttemptAt *time.Time // while pending
	CreatedAt     time.Time
	DeliveredAt   *time.Time
	Attempts      []WebhookAttempt
}

// WebhookAttempt is one POST of a delivery.
type WebhookAttempt struct {
	At       time.Time
	Status   int // 0 when no answer came
	Error    string
	Duration time.Duration
}

// WebhookMessage is one signed POST: the sender signs Body with Secret.
type WebhookMessage struct {
	URL       string
	Secret    string
	EventID   string
	EventType string
	Body      []byte
}

// WebhookSender posts one message and answers the HTTP status (0 when none
// came) and an error for anything but a 2xx answer.
type WebhookSender interface {
	SendWebhook(ctx context.Context, m WebhookMessage) (status int, err error)
}

// CheckWebhookURL refuses an endpoint the server must not call: anything
// but https, and hosts that name the server itself or a private network
// (localhost, loopback, private, link-local and unspecified addresses), so
// that an API key cannot make the server reach inside its own network
// (server-side request forgery). allowInsecure (tests, local development)
// accepts http and such hosts. A host name is checked again when the
// sender resolves it.
func CheckWebhookURL(rawURL string, allowInsecure bool) error {
	var fe FieldErrors
	u, err := url.Parse(strings.TrimSpace(rawURL))
	switch {
	case rawURL == "":
		fe.Add("url", "Enter the address that receives the events, starting https://.")
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil:
		fe.Add("url", "Enter the address as a full URL, such as https://hr.example.com/portal-events.")
	case len(rawURL) > 2000:
		fe.Add("url", "An address is at most 2000 characters.")
	case allowInsecure:
	case u.Scheme != "https":
		fe.Add("url", "The address must start https:// (events are signed, but their content must not travel in clear).")
	case !PublicHost(u.Hostname()):
		fe.Add("url", "The address must be reachable on the internet, not a private or local one.")
	}
	return fe.Err()
}

// PublicHost says a host name or address may be called: not localhost,
// and not an address of a loopback, private, link-local, shared or
// unspecified network.
func PublicHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || host == "" {
		return false
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return net.ParseIP(host) == nil // a name: checked again once resolved
	}
	return PublicAddr(addr)
}

// cgnat is the shared address space of carrier-grade NAT (RFC 6598).
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// PublicAddr says an address is on the internet rather than inside a
// network.
func PublicAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsValid() && a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() && !cgnat.Contains(a)
}
