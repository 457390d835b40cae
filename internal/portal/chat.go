package portal

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits of one chat message.
const (
	// MaxChatMessageLength is the longest message, in characters.
	MaxChatMessageLength = 5000
	// MaxChatSenderName is the longest name an employer's message may be
	// signed with.
	MaxChatSenderName = 200
	// ChatAwayAfter is how long after an applicant last had the chat open
	// (ChatService.SeenChat) they count as away: an employer's message to
	// an applicant who is away is e-mailed to them, once until they read.
	ChatAwayAfter = 2 * time.Minute
)

// Who wrote a chat message.
const (
	ChatSenderSubject  = "subject"  // the applicant
	ChatSenderEmployer = "employer" // an operator, for the company
)

// ChatMessage is one message of the conversation between an applicant and
// their employer.
type ChatMessage struct {
	ID        int64
	SubjectID int64
	Sender    string // ChatSenderSubject or ChatSenderEmployer
	// SenderName is the employer's name for its messages ("Acme support"),
	// the applicant's full name for theirs.
	SenderName string
	Message    string
	// File is the attachment, or nil.
	File      *File
	CreatedAt time.Time
	// ReadAt is when the other side read it, or nil.
	ReadAt *time.Time
}

// ChatSenderName checks an employer's name for its message and answers it
// trimmed: one line of UTF-8 without control characters (a NUL or invalid
// UTF-8 would not even reach PostgreSQL's text), at most MaxChatSenderName
// characters; EINVALID on the field "senderName" otherwise.
func ChatSenderName(name string) (string, error) {
	n := strings.TrimSpace(name)
	switch {
	case !utf8.ValidString(n) || strings.ContainsFunc(n, unicode.IsControl):
		return "", FieldErrors{{Field: "senderName", Message: "A sender name is one line of text without control characters."}}.Err()
	case utf8.RuneCountInString(n) > MaxChatSenderName:
		return "", FieldErrors{FieldErrorf("senderName", "A sender name is at most %d characters.", MaxChatSenderName)}.Err()
	}
	return n, nil
}

// ChatText checks a message's text and answers it trimmed: empty or longer
// than MaxChatMessageLength characters is EINVALID on the field
// "message". A message with an attachment may have no text.
func ChatText(text string, hasFile bool) (string, error) {
	t := strings.TrimSpace(text)
	switch {
	case !utf8.ValidString(t) || strings.ContainsRune(t, 0):
		return "", FieldErrors{{Field: "message", Message: "The message holds characters that cannot be sent."}}.Err()
	case t == "" && !hasFile:
		return "", FieldErrors{{Field: "message", Message: "Write a message or attach a file."}}.Err()
	case utf8.RuneCountInString(t) > MaxChatMessageLength:
		return "", FieldErrors{FieldErrorf("message", "A message is at most %d characters.", MaxChatMessageLength)}.Err()
	}
	return t, nil
}

// ChatTopic is the events topic (Events) of one applicant's conversation.
// Its payload is a ChatEvent.
func ChatTopic(subjectID int64) string {
	return "chat." + strconv.FormatInt(subjectID, 10)
}

// ChatEvent is the notice published on ChatTopic when the conversation
// changes; subscribers read the messages afresh.
type ChatEvent struct {
	// Kind is "message" (a new message, MessageID) or "read" (messages
	// were marked read).
	Kind      string `json:"kind"`
	MessageID int64  `json:"messageId,omitempty"`
	Sender    string `json:"sender,omitempty"`
}

// ChatService is an applicant's side of the chat, on their own profile
// only: a profile id that is not the applicant's is ENOTFOUND. When the
// company's preference company_subject_chat is off every method is
// EFORBIDDEN.
type ChatService interface {
	// ChatMessages lists the conversation, oldest first.
	ChatMessages(ctx context.Context, subjectID, profileID int64) ([]ChatMessage, error)
	// UnreadChatMessages counts the employer's messages the applicant has
	// not read.
	UnreadChatMessages(ctx context.Context, subjectID, profileID int64) (int, error)
	// SendChatMessage adds the applicant's message, with an optional
	// attachment under the document upload rules (MaxUploadSize, the
	// document file types: ETOOLARGE, EUNSUPPORTED), and publishes a
	// ChatEvent. The text is checked with ChatText.
	SendChatMessage(ctx context.Context, subjectID, profileID int64, text string, file *Upload) (*ChatMessage, error)
	// MarkChatRead marks the employer's messages read and answers the
	// unread count left (0).
	MarkChatRead(ctx context.Context, subjectID, profileID int64) (int, error)
	// OpenChatFile opens an attachment of the conversation; any other
	// file is ENOTFOUND.
	OpenChatFile(ctx context.Context, subjectID, profileID, fileID int64) (*File, io.ReadCloser, error)
	// SeenChat records that the applicant has the chat open now (see
	// ChatAwayAfter). It is EFORBIDDEN like the rest when chat is off.
	SeenChat(ctx context.Context, subjectID, profileID int64) error
}

// OperatorChatService is the employer's side of the chat, as operators
// answer it.
type OperatorChatService interface {
	// ChatThreads lists the conversations, the most recent first.
	ChatThreads(ctx context.Context, companyID int64) ([]ChatThread, error)
	// ChatConversation lists one applicant's conversation, oldest first,
	// and marks the applicant's messages read by the employer.
	ChatConversation(ctx context.Context, companyID, subjectID int64) ([]ChatMessage, error)
	// ReplyChat adds an employer's message (with an optional attachment
	// under the document upload rules), publishes it to the applicant's
	// open chat, and e-mails an applicant who is away (ChatAwayAfter),
	// once until they read. Chat switched off for the company is
	// EFORBIDDEN.
	ReplyChat(ctx context.Context, req ChatReply) (*ChatMessage, error)
	// OpenChatAttachment opens a file attached to the applicant's
	// conversation.
	OpenChatAttachment(ctx context.Context, companyID, subjectID, fileID int64) (*File, io.ReadCloser, error)
}

// ChatThread is one applicant's conversation as operators list it.
type ChatThread struct {
	Applicant Subject
	Messages  int
	// Unread counts the applicant's messages no operator has read.
	Unread int
	Last   ChatMessage
}

// ChatReply is an employer's message to an applicant.
type ChatReply struct {
	CompanyID int64 // the caller's company, 0 for any
	SubjectID int64
	// SenderName is shown beside the message; empty means the company's
	// name.
	SenderName string
	Message    string
	File       *Upload
}
