package portal

import (
	"context"
	"time"
)

// TextMessage is one text to an applicant in the SMS outbox.
type TextMessage struct {
	ID         int64
	SubjectID  int64
	To         string // E.164
	Body       string
	CreatedAt  time.Time
	SentAt     *time.Time
	FailedAt   *time.Time // given up: refused by the provider, or too many tries
	ProviderID string     // the provider's id of the sent message
	// Attempts counts failed sends; LastError is the last one's.
	Attempts  int
	LastError string
}

// SMSProvider sends one text message and answers the provider's id of it.
// An error that is a *TextRefused will fail again however often it is
// tried (an invalid or landline number); any other is worth a retry.
type SMSProvider interface {
	SendText(ctx context.Context, to, body string) (providerID string, err error)
}

// TextRefused is an SMS provider's permanent refusal of a message.
type TextRefused struct{ Reason string }

func (e *TextRefused) Error() string { return "refused: " + e.Reason }

// MaxTextAttempts is how many failed sends a text gets before the outbox
// gives up on it.
const MaxTextAttempts = 10
