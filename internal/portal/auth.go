package portal

import (
	"context"
	"time"
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
	// ExpiresAt is when the access token expires (zero: unknown); a
	// long-lived answer such as an event stream ends then.
	ExpiresAt time.Time
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
	// VerifyPasswordReset tells whether a reset token is usable (its
	// user's username) or not (a field error on token), without spending
	// it. The link's holder reads the user's mail, so may know the username;
	// the reset page shows the password rule about it before submit.
	VerifyPasswordReset(ctx context.Context, token string) (username string, err error)
	// RequestEmailChange checks the current password of the subject of
	// sess (a wrong one counts as a failed login from ip), records the
	// change, replacing a pending one, mails a confirmation link to the new
	// address and a notice to the current one. The address does not change
	// yet.
	RequestEmailChange(ctx context.Context, sess Session, ip, currentPassword, newEmail, confirmURLBase string) error
	// ConfirmEmailChange makes a pending change take effect with the token
	// of its link: the e-mail and the username become the new address.
	ConfirmEmailChange(ctx context.Context, token string) error
	// UpdateAccount is PATCH /api/v2/user: a setup credential may only
	// create the password (SetInitialPassword); otherwise a new password
	// (ChangePassword), a new e-mail address (RequestEmailChange, never
	// with a new password in one call) and the subject's own fields
	// (SubjectService.UpdateSubject), after checking all of them first.
	UpdateAccount(ctx context.Context, sess Session, ch AccountChange) error
}

// AccountChange is a change of the applicant's own account; nil fields
// stay as they are.
type AccountChange struct {
	Password        *string
	CurrentPassword string
	Subject         SubjectUpdate // Email here asks for an e-mail change
	IP              string        // the caller's, for the login throttle
	ConfirmURLBase  string        // the portal's address, for the e-mailed link
}
