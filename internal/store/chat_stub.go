package store

// Stubs of the chat until it is built (issue 13, chat-server): replaced by chat.go.

import (
	"context"
	"io"

	"applicantportal/internal/portal"
)

var errChatNotBuilt = portal.Errorf(portal.EUNAVAILABLE, "Chat is not built yet.")

// ChatService is portal.ChatService on the store.
type ChatService struct {
	*conn
	events portal.Events
}

var _ portal.ChatService = (*ChatService)(nil)

// Chat hands out the chat service, which publishes to events.
func (db *DB) Chat(events portal.Events) *ChatService { return &ChatService{conn: db.conn, events: events} }

func (s *ChatService) ChatMessages(ctx context.Context, subjectID, profileID int64) ([]portal.ChatMessage, error) {
	return nil, errChatNotBuilt
}
func (s *ChatService) UnreadChatMessages(ctx context.Context, subjectID, profileID int64) (int, error) {
	return 0, errChatNotBuilt
}
func (s *ChatService) SendChatMessage(ctx context.Context, subjectID, profileID int64, text string, file *portal.Upload) (*portal.ChatMessage, error) {
	return nil, errChatNotBuilt
}
func (s *ChatService) MarkChatRead(ctx context.Context, subjectID, profileID int64) (int, error) {
	return 0, errChatNotBuilt
}
func (s *ChatService) OpenChatFile(ctx context.Context, subjectID, profileID, fileID int64) (*portal.File, io.ReadCloser, error) {
	return nil, nil, errChatNotBuilt
}
func (s *ChatService) SeenChat(ctx context.Context, subjectID, profileID int64) error {
	return errChatNotBuilt
}

func (o *OperatorService) ChatThreads(ctx context.Context, companyID int64) ([]portal.ChatThread, error) {
	return nil, errChatNotBuilt
}
func (o *OperatorService) ChatConversation(ctx context.Context, companyID, subjectID int64) ([]portal.ChatMessage, error) {
	return nil, errChatNotBuilt
}
func (o *OperatorService) ReplyChat(ctx context.Context, req portal.ChatReply) (*portal.ChatMessage, error) {
	return nil, errChatNotBuilt
}
func (o *OperatorService) OpenChatAttachment(ctx context.Context, companyID, subjectID, fileID int64) (*portal.File, io.ReadCloser, error) {
	return nil, nil, errChatNotBuilt
}
