package portal

import (
	"context"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"
)

// Continue on another device: a signed-in applicant asks for a one-time
// link to the page they are on; opened on a phone, the link signs the
// phone in (a new login of its own) and shows that page.
const (
	// HandoffTTL is how long a handoff link works: long enough to pick up
	// a phone and scan or open it, short enough that a link seen over a
	// shoulder or left in a mailbox is soon worthless.
	HandoffTTL = 10 * time.Minute
	// HandoffWindow and MaxHandoffsPerWindow bound how many links one
	// applicant may ask for, so the e-mail and text channels cannot be
	// used to flood anyone.
	HandoffWindow        = time.Hour
	MaxHandoffsPerWindow = 10
	// MaxHandoffPathLength bounds the page address a link carries.
	MaxHandoffPathLength = 2000
)

// Why a handoff link does not sign in. The token endpoint answers each
// with invalid_grant and 400, as RFC 6749 does (a 401 there would make the
// app sign out whoever is signed in on the device, for a stale link); the
// app's /continue page tells them apart by these texts
// (web/src/features/handoff/lib/refusal.ts), so they are part of the
// contract.
var (
	ErrHandoffUsed    = &Error{Code: EMALFORMED, Message: "This link has already been used. Each link works only once."}
	ErrHandoffExpired = &Error{Code: EMALFORMED, Message: "This link has expired. Each link works for 10 minutes."}
	ErrHandoffInvalid = &Error{Code: EMALFORMED, Message: "This link is not valid."}
)

// HandoffRequest asks for a link to Path (an app path with its query);
// Send is "", SendByEmail or SendByText. BaseURL is the portal's
// public address the link starts with.
type HandoffRequest struct {
	Path    string
	Send    string
	BaseURL string
}

// Handoff is a link made: its URL (BASE/continue?token=...), when it stops
// working, and where it was sent ("" when only shown), as the applicant
// may see it (the address, or the phone number's last digits).
type Handoff struct {
	URL       string
	ExpiresAt time.Time
	SentTo    string
}

// HandoffChannels says where a link can be sent: the account's e-mail
// address, and the last four digits of the mobile number on file ("" when
// there is none, and no text can be sent).
type HandoffChannels struct {
	Email       string
	PhoneEnding string
}

// HandoffRedemption is what a handoff link gives: a new login and the
// page to open.
type HandoffRedemption struct {
	Tokens *TokenPair
	Path   string
}

// HandoffService makes and redeems handoff links.
type HandoffService interface {
	// HandoffChannels says where the subject's links can be sent.
	HandoffChannels(ctx context.Context, subjectID int64) (*HandoffChannels, error)
	// CreateHandoff makes a link for the subject of sess (a login of
	// scope default) and, when asked, queues it to the subject's own
	// e-mail address or mobile number; at most MaxHandoffsPerWindow per
	// HandoffWindow.
	CreateHandoff(ctx context.Context, sess Session, req HandoffRequest) (*Handoff, error)
	// RedeemHandoff checks the client and spends the link's token: only
	// one use ever succeeds; others answer ErrHandoffUsed, ErrHandoffExpired
	// or ErrHandoffInvalid. ip is the redeeming device's address.
	RedeemHandoff(ctx context.Context, clientID, clientSecret, token, ip string) (*HandoffRedemption, error)
}

// noHandoffPages are app pages a link never opens: the link's own page,
// and the pages that take a link's token or exist for the signed-out.
var noHandoffPages = map[string]bool{
	"/continue": true, "/login": true, "/reset": true, "/confirm-email": true,
	"/new-link": true, "/reminders/stop": true, "/register": true,
}

// CheckHandoffPath answers the page address p as a link carries it (path
// and query, no fragment) when it is a page of the app (contract/
// routes.json) that a signed-in applicant can continue on, and a field
// error on "path" otherwise: never another site, a scheme, a host, or a
// query that carries a token.
func CheckHandoffPath(p string) (string, error) {
	var fe FieldErrors
	bad := func() (string, error) {
		fe.Add("path", "The page to continue on must be a page of the portal, such as /addresses.")
		return "", fe.Err()
	}
	switch {
	case p == "":
		fe.Add("path", "Enter the page to continue on, such as /addresses.")
		return "", fe.Err()
	case len(p) > MaxHandoffPathLength:
		fe.Add("path", "The page to continue on is too long.")
		return "", fe.Err()
	case !strings.HasPrefix(p, "/"), strings.HasPrefix(p, "//"), strings.Contains(p, `\`),
		strings.ContainsFunc(p, unicode.IsControl), strings.ContainsFunc(p, unicode.IsSpace):
		return bad()
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Fragment != "" || u.Opaque != "" {
		return bad()
	}
	clean := path.Clean(u.Path)
	if clean != u.Path && clean+"/" != u.Path || !IsAppPath(clean) {
		return bad()
	}
	if noHandoffPages[strings.ToLower(clean)] || strings.HasPrefix(strings.ToLower(clean), "/register/") {
		return bad()
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return bad()
	}
	for k := range q {
		if strings.EqualFold(k, "token") {
			return bad()
		}
	}
	if u.RawQuery == "" {
		return clean, nil
	}
	return clean + "?" + u.RawQuery, nil
}

// CheckHandoffSend checks how a link is to be sent.
func CheckHandoffSend(send string) error {
	switch send {
	case "", SendByEmail, SendByText:
		return nil
	}
	var fe FieldErrors
	fe.Add("send", "Choose how to send the link: email or sms.")
	return fe.Err()
}
