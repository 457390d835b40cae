package portal

import (
	"context"
	"strings"
	"time"
)

// Ways back in for an applicant without a working link or password: a new
// invitation or reset link on request, and a one-time code sent by e-mail
// or text in place of the password.

// LoginCodeTTL is how long a sign-in code works; MaxCodeAttempts wrong
// tries spend it before then.
const (
	LoginCodeTTL    = 10 * time.Minute
	MaxCodeAttempts = 5
	LoginCodeDigits = 6
)

// The kinds of link a new one can be asked for.
const (
	LinkInvitation = "invitation"
	LinkReset      = "reset"
)

// The states of a link as its holder may learn them (the token is the
// proof: nobody else can ask about it).
const (
	LinkValid   = "valid"
	LinkExpired = "expired"
	LinkUsed    = "used"
	LinkUnknown = "unknown"
)

// The channels a link to continue on another device or a sign-in code
// goes by (the API's "send" and "channel"; not primaryNotificationMethod,
// whose text channel is "text").
const (
	SendByEmail = "email"
	SendByText  = "sms"
)

// The one answer to every request for a new link or a sign-in code, for
// known and unknown addresses, let through or throttled alike.
const (
	LinkRenewalMessage   = "If we know this address, a new link is on its way. It can take a few minutes to arrive: check your spam folder too."
	LoginCodeSentMessage = "If we know this address, a sign-in code is on its way. It works once, for 10 minutes."
)

// ErrBadCode is a wrong, spent or expired sign-in code (or an unknown
// username): one message for all, as for passwords.
var ErrBadCode = &Error{Code: EUNAUTHORIZED, Message: "The sign-in code is incorrect or has expired. Check the code, or ask for a new one."}

// LinkRenewal asks for a new link: with the old link's token, or with the
// address the link was sent to.
type LinkRenewal struct {
	Kind    string
	Token   string
	Email   string
	IP      string
	BaseURL string // the portal's address, for the e-mailed link
}

// Validate checks the kind and that one of token and e-mail is given.
func (r LinkRenewal) Validate() error {
	var fe FieldErrors
	if r.Kind != LinkInvitation && r.Kind != LinkReset {
		fe.Add("kind", "Choose invitation or reset")
	}
	token, email := strings.TrimSpace(r.Token), strings.TrimSpace(r.Email)
	switch {
	case token == "" && email == "":
		fe.Add("email", "Enter your e-mail address")
	case email != "" && (len(email) > MaxUsernameLength || !strings.Contains(email, "@")):
		fe.Add("email", "Enter an e-mail address in the correct format, like name@example.com")
	}
	return fe.Err()
}

// LoginCodeRequest asks for a sign-in code for username by channel.
type LoginCodeRequest struct {
	Username string
	Channel  string
	IP       string
}

// Validate checks the username's presence and the channel.
func (r LoginCodeRequest) Validate() error {
	var fe FieldErrors
	if strings.TrimSpace(r.Username) == "" {
		fe.Add("username", "Enter your e-mail address")
	} else if len(r.Username) > MaxUsernameLength {
		fe.Add("username", "Enter an e-mail address of at most 254 characters")
	}
	if r.Channel != SendByEmail && r.Channel != SendByText {
		fe.Add("channel", "Choose e-mail or text message")
	}
	return fe.Err()
}

// CodeCredentials sign in with a code in place of the password.
type CodeCredentials struct {
	ClientID     string
	ClientSecret string
	Username     string
	Code         string
	IP           string
}

// NormalizeCode keeps the digits of a typed code ("123 456", "123-456").
func NormalizeCode(c string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		if r == ' ' || r == '-' {
			return -1
		}
		return 'x' // anything else makes the code wrong, not shorter
	}, strings.TrimSpace(c))
}

// SignInService renews links and signs in with one-time codes.
type SignInService interface {
	// LinkState tells the holder of an invitation or reset token whether
	// it is valid, expired, used or unknown.
	LinkState(ctx context.Context, kind, token string) (string, error)
	// RenewLink sends a new link to the address on file of the token's or
	// the e-mail's account, if any and within the throttle: a fresh
	// invitation before a password exists, a reset link after. It answers
	// nil either way, revealing nothing.
	RenewLink(ctx context.Context, r LinkRenewal) error
	// RequestLoginCode sends a new sign-in code, ending the older ones, to
	// an account that has a password, within the throttle; nil either way.
	RequestLoginCode(ctx context.Context, r LoginCodeRequest) error
	// LoginWithCode checks the client and the code under the login
	// throttle and spends the code: one use, whoever comes first.
	LoginWithCode(ctx context.Context, c CodeCredentials) (*TokenPair, error)
}
