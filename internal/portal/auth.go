package portal

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"applicantportal/internal/password"
)

// Token scopes. A setup-scoped credential comes from an invitation link and
// allows only the setup steps before a password exists.
const (
	ScopeDefault = "default"
	ScopeSetup   = "setup"
)

// Errors of the token endpoint. They are compared by identity so the HTTP
// layer can give each its RFC 6749 error code.
var (
	ErrBadCredentials = &Error{Code: EUNAUTHORIZED, Message: "The user credentials were incorrect."}
	ErrInvalidClient  = &Error{Code: EUNAUTHORIZED, Message: "Client authentication failed."}
	ErrInvalidRefresh = &Error{Code: EUNAUTHORIZED, Message: "The refresh token is invalid."}
	ErrInvalidToken   = &Error{Code: EUNAUTHORIZED, Message: "The access token is invalid or has expired."}
	ErrInvitation     = &Error{Code: EFORBIDDEN, Message: "This invitation link is invalid, has expired or has already been used."}
)

// TokenPair is what a successful grant answers.
type TokenPair struct {
	AccessToken  string
	RefreshToken string // empty for a setup-scoped credential
	ExpiresIn    time.Duration
	Scope        string
	SubjectID    int64
}

// Session is what an access token stands for.
type Session struct {
	SubjectID int64
	Scope     string
	FamilyID  int64
	ClientID  string
}

// Credentials identify a client and a user for the password grant.
type Credentials struct {
	ClientID     string
	ClientSecret string
	Username     string
	Password     string
	IP           string
}

// AuthService issues, rotates, checks and revokes tokens, and keeps the
// invitation and password-reset links.
type AuthService interface {
	// Login checks the client and the user's password, throttling repeated
	// failures by username and by IP.
	Login(ctx context.Context, c Credentials) (*TokenPair, error)
	// Refresh rotates a refresh token; reusing a spent one revokes its family.
	Refresh(ctx context.Context, clientID, clientSecret, refreshToken string) (*TokenPair, error)
	// Authenticate resolves an access token.
	Authenticate(ctx context.Context, accessToken string) (*Session, error)
	// Revoke ends the session the access token belongs to.
	Revoke(ctx context.Context, accessToken string) error
	// TokenLogin exchanges an invitation token for a setup-scoped credential.
	TokenLogin(ctx context.Context, invitationToken string) (*TokenPair, error)
	// CreateInvitation makes a new invitation link token for a subject.
	CreateInvitation(ctx context.Context, subjectID int64) (string, error)
	// SetInitialPassword sets the password of a subject who has none and
	// consumes its invitations.
	SetInitialPassword(ctx context.Context, subjectID int64, password string) error
	// ChangePassword checks the current password and sets a new one for the
	// subject of sess, ending the subject's other sessions while sess goes
	// on. A wrong current password counts as a failed login from ip.
	ChangePassword(ctx context.Context, sess Session, ip, current, next string) error
	// RequestPasswordReset queues a reset e-mail when the username exists,
	// within a limit per username and per ip; the answer is the same either way.
	RequestPasswordReset(ctx context.Context, username, ip, resetURLBase string) error
	// ConfirmPasswordReset sets a new password with a reset token.
	ConfirmPasswordReset(ctx context.Context, token, password string) error
	// VerifyPasswordReset tells whether a reset token is usable (nil) or
	// not (a field error on token), without spending it.
	VerifyPasswordReset(ctx context.Context, token string) error
	// RequestEmailChange checks the current password of the subject of
	// sess (a wrong one counts as a failed login from ip), records the
	// change, replacing a pending one, mails a confirmation link to the new
	// address and a notice to the current one. The address does not change
	// yet.
	RequestEmailChange(ctx context.Context, sess Session, ip, currentPassword, newEmail, confirmURLBase string) error
	// ConfirmEmailChange makes a pending change take effect with the token
	// of its link: the e-mail and the username become the new address.
	ConfirmEmailChange(ctx context.Context, token string) error
}

// Maximum password length in characters: long enough for any passphrase,
// short enough that hashing cannot be used to burn CPU.
const MaxPasswordLength = 128

// MinPasswordVariety is how many different characters a password needs.
const MinPasswordVariety = 4

// MinIdentityPartLength is the shortest e-mail local part a password may
// not contain: "jo" inside a passphrase is chance, "jane.doe" is not.
const MinIdentityPartLength = 4

// The password rules' messages, in the order they are checked; a password
// gets the first that fails. docs/api.md lists them for the app, which
// shows the same rules before submit.
const (
	MsgPasswordRequired = "Password is required"
	MsgPasswordControl  = "Your password must not contain control characters."
	MsgPasswordTooShort = "Password must be at least %d characters long."
	MsgPasswordTooLong  = "Password must be at most %d characters long."
	MsgPasswordVariety  = "Use a password with more variety: at least 4 different characters."
	MsgPasswordIdentity = "Your password must not contain your username or e-mail address."
	MsgPasswordCommon   = "Choose a less common password: this one appears in lists of leaked passwords."
)

// PasswordRule is one rule of the password policy (NIST SP 800-63B 5.1.1.2).
type PasswordRule struct {
	Name    string
	Message string
}

// PasswordRules lists the policy in the order ValidatePassword applies it.
// Characters are Unicode code points of the NFKC form of the password.
var PasswordRules = []PasswordRule{
	{"required", MsgPasswordRequired},
	{"no control characters (Unicode category Cc, NUL included)", MsgPasswordControl},
	{"at least the company's minimum length", MsgPasswordTooShort},
	{"at most 128 characters", MsgPasswordTooLong},
	{"at least 4 different characters, not only whitespace", MsgPasswordVariety},
	{"does not contain the username, the e-mail address or its local part (4+ characters), ignoring case", MsgPasswordIdentity},
	{"not in the common-password list, nor a listed password repeated", MsgPasswordCommon},
}

// ValidatePassword checks a new password against the policy: the
// company's minimum length and the rules of PasswordRules. identities are
// the username and e-mail address the password must not contain. Length
// and the other rules apply to the NFKC form, which is also what is hashed.
func ValidatePassword(field, pw string, minLength int, identities ...string) error {
	var fe FieldErrors
	if msg := passwordProblem(pw, minLength, identities); msg != "" {
		fe.Add(field, msg)
	}
	return fe.Err()
}

func passwordProblem(pw string, minLength int, identities []string) string {
	if pw == "" {
		return MsgPasswordRequired
	}
	if strings.ContainsFunc(pw, unicode.IsControl) {
		return MsgPasswordControl
	}
	norm := password.Normalize(pw)
	n := utf8.RuneCountInString(norm)
	switch {
	case n < minLength:
		return fmt.Sprintf(MsgPasswordTooShort, minLength)
	case n > MaxPasswordLength:
		return fmt.Sprintf(MsgPasswordTooLong, MaxPasswordLength)
	}
	distinct := map[rune]bool{}
	for _, r := range norm {
		distinct[r] = true
	}
	if len(distinct) < MinPasswordVariety || strings.TrimFunc(norm, unicode.IsSpace) == "" {
		return MsgPasswordVariety
	}
	folded := password.Fold(norm)
	for _, id := range identities {
		id = password.Fold(strings.TrimSpace(id))
		parts := []string{id}
		if local, _, ok := strings.Cut(id, "@"); ok && utf8.RuneCountInString(local) >= MinIdentityPartLength {
			parts = append(parts, local)
		}
		for _, part := range parts {
			if part != "" && strings.Contains(folded, part) {
				return MsgPasswordIdentity
			}
		}
	}
	if password.IsCommon(norm) || password.IsRepeatedCommon(norm) {
		return MsgPasswordCommon
	}
	return ""
}
