package portal

import (
	"context"
	"time"
)

// MaintenanceService is the upkeep operators run by hand (serve runs it
// on its own too): the e-mail outbox and the sweep of expired rows.
type MaintenanceService interface {
	// Outbox lists the e-mail queued and sent, oldest first.
	Outbox(ctx context.Context) ([]Mail, error)
	// TextOutbox lists the text messages queued, sent and given up,
	// oldest first.
	TextOutbox(ctx context.Context) ([]TextMessage, error)
	// Sweep deletes what can no longer matter (expired throttle records,
	// tokens, invitations, reset and e-mail-change links).
	Sweep(ctx context.Context) (SweepResult, error)
}

// Mail is one message in the outbox.
type Mail struct {
	ID        int64
	To        string
	Subject   string
	Body      string
	CreatedAt time.Time
	SentAt    *time.Time
	// Attempts counts failed deliveries; LastError is the last one's.
	Attempts  int
	LastError string
	// BodyRemoved says the body was dropped, once the mail was delivered
	// or the link in it expired, so that no copy of the database holds a
	// working link; Body is then "".
	BodyRemoved bool
}

// Mailer delivers one e-mail (SMTP when configured). Without one, mail
// stays in the outbox, where `portal outbox` shows it.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// SweepResult counts the rows one sweep deleted, per kind.
type SweepResult struct {
	LoginFailures  int64 // failed logins older than the throttle window
	ResetRequests  int64 // password-reset requests older than their window
	Tokens         int64 // access and refresh tokens long expired
	TokenFamilies  int64 // logins whose every token expired long ago
	Invitations    int64 // invitation links used or expired long ago
	PasswordResets int64 // reset links used or expired long ago
	EmailChanges   int64 // e-mail change links used, replaced or expired long ago
	Handoffs       int64 // links to continue on another device, expired an hour ago
	Uploads        int64 // uploads left unfinished for a day
	OrphanedFiles  int64 // finished uploads nothing refers to (a crash between storing and linking), a day after they began
	SandboxRecords int64 // the built-in sandboxes' sessions and authorizations past their expiry
	Events         int64 // events published on SQLite, read by every process by now
	MailBodies     int64 // bodies of queued mails whose link expired (the rows stay)
	LoginCodes     int64 // sign-in codes used or expired long ago
	CodeRequests   int64 // sign-in code requests older than their window
	LinkRequests   int64 // new-link requests older than their window
	Drafts         int64 // form drafts past their expiry
}

// Total is the number of rows deleted.
func (r SweepResult) Total() int64 {
	return r.LoginFailures + r.ResetRequests + r.Tokens + r.TokenFamilies + r.Invitations + r.PasswordResets + r.EmailChanges + r.Handoffs + r.Uploads + r.OrphanedFiles + r.SandboxRecords + r.LoginCodes + r.CodeRequests + r.LinkRequests + r.Drafts
}
