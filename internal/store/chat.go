package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"applicantportal/internal/portal"
)

// ChatService is portal.ChatService on the store: the applicant's side of
// the chat. The operators' side is OperatorChatService (below).
type ChatService struct {
	*conn
	files  *FileStore
	events portal.Events
}

var _ portal.ChatService = (*ChatService)(nil)

// OperatorChatService is portal.OperatorChatService on the store. It
// publishes through the database (DB.Publish), so a command-line process
// reaches the applicants' open chats without event streams of its own.
type OperatorChatService struct{ db *DB }

var _ portal.OperatorChatService = (*OperatorChatService)(nil)

// Chat hands out the chat service, which publishes to events.
func (db *DB) Chat(events portal.Events) *ChatService {
	return &ChatService{conn: db.conn, files: NewFileStore(db), events: events}
}

// errChatOff is every chat call of an applicant whose company has chat
// switched off: the words the API answers for a resource out of reach.
var errChatOff = portal.Errorf(portal.EFORBIDDEN,
	"Access Denied: You do not have access to that resource. Please contact support if you feel this is in error.")

// chatBodyPlace binds a message's sealed body to its row, so a body copied
// into another message (of this or another applicant) does not open.
func chatBodyPlace(subjectID, messageID int64) string {
	return fmt.Sprintf("chat_messages.body/%d/%d", subjectID, messageID)
}

// chatSubject is what the chat needs to know of an applicant.
type chatSubject struct {
	id, companyID   int64
	profileID       int64
	chatOn          bool
	email, fullName string
	firstName       string
	companyName     string
	locale          portal.Locale
}

func findChatSubject(ctx context.Context, q queryer, subjectID int64) (*chatSubject, error) {
	var c chatSubject
	var first, last string
	err := q.QueryRowContext(ctx, `SELECT s.id, s.company_id, COALESCE((SELECT p.id FROM profiles p WHERE p.subject_id = s.id), 0),
			c.subject_chat, s.email, s.first_name, s.last_name, c.name, s.locale
		FROM subjects s JOIN companies c ON c.id = s.company_id WHERE s.id = $1`, subjectID).
		Scan(&c.id, &c.companyID, &c.profileID, &c.chatOn, &c.email, &first, &last, &c.companyName, &c.locale)
	if err != nil {
		return nil, notFound(err, "Applicant")
	}
	c.firstName, c.fullName = first, strings.TrimSpace(first+" "+last)
	return &c, nil
}

// applicantChat checks an applicant's call: chat off for their company is
// EFORBIDDEN, a profile that is not theirs ENOTFOUND.
func applicantChat(ctx context.Context, q queryer, subjectID, profileID int64) (*chatSubject, error) {
	c, err := findChatSubject(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	if !c.chatOn {
		return nil, errChatOff
	}
	if c.profileID == 0 || c.profileID != profileID {
		return nil, portal.Errorf(portal.ENOTFOUND, "Profile not found.")
	}
	return c, nil
}

// operatorChat checks an operator's call: an applicant of another company
// than companyID (0: any) is ENOTFOUND.
func operatorChat(ctx context.Context, q queryer, companyID, subjectID int64) (*chatSubject, error) {
	c, err := findChatSubject(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	if companyID != 0 && c.companyID != companyID {
		return nil, portal.Errorf(portal.ENOTFOUND, "Applicant not found.")
	}
	return c, nil
}

// chatMessages lists a conversation, oldest first, with the bodies opened
// and the attachments' details.
func (s *conn) chatMessages(ctx context.Context, q queryer, subjectID int64) ([]portal.ChatMessage, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, sender, sender_name, body, COALESCE(file_id, 0), created_at, read_at
		FROM chat_messages WHERE subject_id = $1 ORDER BY id`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: chat messages: %w", err)
	}
	defer rows.Close()
	out := []portal.ChatMessage{}
	var fileIDs []int64
	for rows.Next() {
		m := portal.ChatMessage{SubjectID: subjectID}
		var body []byte
		var fileID, created int64
		var read sql.NullInt64
		if err := rows.Scan(&m.ID, &m.Sender, &m.SenderName, &body, &fileID, &created, &read); err != nil {
			return nil, fmt.Errorf("store: chat messages: %w", err)
		}
		if m.Message, err = s.openChatBody(subjectID, m.ID, body); err != nil {
			return nil, err
		}
		m.CreatedAt, m.ReadAt = fromMS(created), nullTime(read)
		out = append(out, m)
		fileIDs = append(fileIDs, fileID)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: chat messages: %w", err)
	}
	rows.Close()
	for i, id := range fileIDs {
		if id == 0 {
			continue
		}
		f, err := s.chatFile(ctx, q, subjectID, id)
		if portal.ErrorCode(err) == portal.ENOTFOUND {
			continue // an attachment whose upload never finished
		}
		if err != nil {
			return nil, err
		}
		out[i].File = f
	}
	return out, nil
}

// chatFile is an attachment of the subject's conversation; any other file
// is ENOTFOUND.
func (s *conn) chatFile(ctx context.Context, q queryer, subjectID, fileID int64) (*portal.File, error) {
	var f portal.File
	err := s.scanFile(q.QueryRowContext(ctx, `SELECT `+fileColumns+` FROM files f
		WHERE f.id = $1 AND f.complete = TRUE AND EXISTS (SELECT 1 FROM chat_messages m WHERE m.subject_id = $2 AND m.file_id = f.id)`,
		fileID, subjectID), &f)
	if err != nil {
		return nil, notFound(err, "File")
	}
	return &f, nil
}

func (s *conn) openChatBody(subjectID, messageID int64, sealed []byte) (string, error) {
	if s.cfg.Sealer == nil {
		return "", errNoDataKey
	}
	plain, err := s.cfg.Sealer.OpenFor(sealed, chatBodyPlace(subjectID, messageID))
	if err != nil {
		// Altered, another key, or moved from another row: an internal
		// error that names no content.
		return "", fmt.Errorf("store: open chat message %d of subject %d: %w", messageID, subjectID, err)
	}
	return string(plain), nil
}

// storeChatFile stores an attachment under the document upload rules
// (putUpload); nil up stores nothing.
func storeChatFile(ctx context.Context, files *FileStore, subjectID int64, up *portal.Upload) (*portal.File, error) {
	if up == nil {
		return nil, nil
	}
	return putUpload(ctx, files, subjectID, *up)
}

// dropChatFile deletes an attachment stored for a message that then
// failed (dropFile); nil is none.
func dropChatFile(ctx context.Context, files *FileStore, file *portal.File) error {
	if file == nil {
		return nil
	}
	return dropFile(ctx, files, file.ID)
}

// insertChatMessage adds a message with its body sealed to its row. The
// row is numbered first, so the body can be bound to its id.
func (s *conn) insertChatMessage(ctx context.Context, tx *sql.Tx, m *portal.ChatMessage) error {
	if s.cfg.Sealer == nil {
		return errNoDataKey
	}
	var fileID any
	if m.File != nil {
		fileID = m.File.ID
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO chat_messages (subject_id, sender, sender_name, body, file_id, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		m.SubjectID, m.Sender, m.SenderName, []byte{}, fileID, ms(m.CreatedAt)).Scan(&m.ID)
	if err != nil {
		return fmt.Errorf("store: add chat message: %w", err)
	}
	sealed, err := s.cfg.Sealer.SealFor([]byte(m.Message), chatBodyPlace(m.SubjectID, m.ID))
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE chat_messages SET body = $1 WHERE id = $2`, sealed, m.ID); err != nil {
		return fmt.Errorf("store: add chat message: %w", err)
	}
	return nil
}

// publishChat tells the conversation's open streams that it changed. The
// change is saved: a failure to tell is logged, not returned.
func publishChat(ctx context.Context, publish func(context.Context, string, []byte) error, log func(string, ...any), subjectID int64, ev portal.ChatEvent) {
	payload, err := json.Marshal(ev)
	if err == nil {
		err = publish(ctx, portal.ChatTopic(subjectID), payload)
	}
	if err != nil {
		log("chat: publishing an event failed", "subject", subjectID, "kind", ev.Kind, "err", err)
	}
}

func (s *ChatService) publish(ctx context.Context, subjectID int64, ev portal.ChatEvent) {
	publish := (&DB{s.conn}).Publish
	if s.events != nil {
		publish = s.events.Publish
	}
	publishChat(ctx, publish, s.cfg.Logger.Warn, subjectID, ev)
}

// markSeen records that the applicant has the chat open now.
func (s *conn) markSeen(ctx context.Context, q queryer, subjectID int64) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO chat_presence (subject_id, seen_at) VALUES ($1, $2)
		ON CONFLICT (subject_id) DO UPDATE SET seen_at = excluded.seen_at`, subjectID, ms(s.now())); err != nil {
		return fmt.Errorf("store: chat presence: %w", err)
	}
	return nil
}

// ChatMessages lists the conversation and counts as the applicant being
// present.
func (s *ChatService) ChatMessages(ctx context.Context, subjectID, profileID int64) ([]portal.ChatMessage, error) {
	var out []portal.ChatMessage
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := applicantChat(ctx, tx, subjectID, profileID); err != nil {
			return err
		}
		if err := s.markSeen(ctx, tx, subjectID); err != nil {
			return err
		}
		var err error
		out, err = s.chatMessages(ctx, tx, subjectID)
		return err
	})
	return out, err
}

func unreadEmployerMessages(ctx context.Context, q queryer, subjectID int64) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM chat_messages WHERE subject_id = $1 AND sender = $2 AND read_at IS NULL`,
		subjectID, portal.ChatSenderEmployer).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: unread chat messages: %w", err)
	}
	return n, nil
}

// UnreadChatMessages counts the employer's messages the applicant has not
// read.
func (s *ChatService) UnreadChatMessages(ctx context.Context, subjectID, profileID int64) (int, error) {
	if _, err := applicantChat(ctx, s.db, subjectID, profileID); err != nil {
		return 0, err
	}
	return unreadEmployerMessages(ctx, s.db, subjectID)
}

// SendChatMessage checks the call and the text before it reads the
// attachment, stores the attachment, then adds the message in one
// transaction (checking again: chat may have been switched off while the
// file streamed). A refused message leaves no file behind. A message
// without attachment is checked once, in the transaction, call first and
// text second as with one.
func (s *ChatService) SendChatMessage(ctx context.Context, subjectID, profileID int64, text string, up *portal.Upload) (*portal.ChatMessage, error) {
	var file *portal.File
	if up != nil {
		if _, err := applicantChat(ctx, s.db, subjectID, profileID); err != nil {
			return nil, err
		}
		var err error
		if text, err = portal.ChatText(text, true); err != nil {
			return nil, err
		}
		if file, err = storeChatFile(ctx, s.files, subjectID, up); err != nil {
			return nil, err
		}
	}
	m := &portal.ChatMessage{SubjectID: subjectID, Sender: portal.ChatSenderSubject, File: file, CreatedAt: s.now()}
	inTx := s.publishesInTx()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		c, err := applicantChat(ctx, tx, subjectID, profileID)
		if err != nil {
			return err
		}
		if m.Message, err = portal.ChatText(text, up != nil); err != nil {
			return err
		}
		m.SenderName = c.fullName
		// Writing is being present as much as reading.
		if err := s.markSeen(ctx, tx, subjectID); err != nil {
			return err
		}
		if err := s.insertChatMessage(ctx, tx, m); err != nil {
			return err
		}
		if !inTx {
			return nil
		}
		payload, err := json.Marshal(portal.ChatEvent{Kind: "message", MessageID: m.ID, Sender: m.Sender})
		if err != nil {
			return fmt.Errorf("store: chat event: %w", err)
		}
		return s.publishIn(ctx, tx, portal.ChatTopic(subjectID), payload)
	})
	if err != nil && file != nil {
		return nil, errors.Join(err, dropChatFile(ctx, s.files, file))
	} else if err != nil {
		return nil, err
	}
	m.CreatedAt = fromMS(ms(m.CreatedAt))
	if inTx {
		if e, ok := s.events.(*Events); ok {
			e.published()
		}
	} else {
		s.publish(ctx, subjectID, portal.ChatEvent{Kind: "message", MessageID: m.ID, Sender: m.Sender})
	}
	return m, nil
}

// publishesInTx reports whether the chat's events go through this
// database (DB.Publish, or Events over it), so that a message's event can
// be published in the message's transaction (conn.publishIn) rather than
// by a write of its own after it.
func (s *ChatService) publishesInTx() bool {
	switch e := s.events.(type) {
	case nil:
		return true
	case *Events:
		return e.db.conn == s.conn
	}
	return false
}

// MarkChatRead marks the employer's messages read; it publishes only when
// it marked any.
func (s *ChatService) MarkChatRead(ctx context.Context, subjectID, profileID int64) (int, error) {
	var marked int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := applicantChat(ctx, tx, subjectID, profileID); err != nil {
			return err
		}
		if err := s.markSeen(ctx, tx, subjectID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE chat_messages SET read_at = $1 WHERE subject_id = $2 AND sender = $3 AND read_at IS NULL`,
			ms(s.now()), subjectID, portal.ChatSenderEmployer)
		if err != nil {
			return fmt.Errorf("store: mark chat read: %w", err)
		}
		marked, _ = res.RowsAffected()
		return nil
	})
	if err != nil {
		return 0, err
	}
	if marked > 0 {
		s.publish(ctx, subjectID, portal.ChatEvent{Kind: "read"})
	}
	return 0, nil
}

// OpenChatFile opens an attachment of the applicant's conversation.
func (s *ChatService) OpenChatFile(ctx context.Context, subjectID, profileID, fileID int64) (*portal.File, io.ReadCloser, error) {
	if _, err := applicantChat(ctx, s.db, subjectID, profileID); err != nil {
		return nil, nil, err
	}
	return openChatFile(ctx, s.conn, s.files, subjectID, fileID)
}

func openChatFile(ctx context.Context, s *conn, files *FileStore, subjectID, fileID int64) (*portal.File, io.ReadCloser, error) {
	if _, err := s.chatFile(ctx, s.db, subjectID, fileID); err != nil {
		return nil, nil, err
	}
	f, rc, err := files.Get(ctx, fileID)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		return nil, nil, portal.Errorf(portal.ENOTFOUND, "File not found.")
	}
	return f, rc, err
}

// SeenChat records that the applicant has the chat open now.
func (s *ChatService) SeenChat(ctx context.Context, subjectID, profileID int64) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := applicantChat(ctx, tx, subjectID, profileID); err != nil {
			return err
		}
		return s.markSeen(ctx, tx, subjectID)
	})
}

// ChatThreads lists the conversations of companyID's applicants (every
// company's when 0), the most recent first.
func (s *OperatorChatService) ChatThreads(ctx context.Context, companyID int64) ([]portal.ChatThread, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+subjectColumns+`,
			(SELECT COUNT(*) FROM chat_messages m WHERE m.subject_id = subjects.id),
			(SELECT COUNT(*) FROM chat_messages m WHERE m.subject_id = subjects.id AND m.sender = $2 AND m.read_at IS NULL),
			(SELECT MAX(m.id) FROM chat_messages m WHERE m.subject_id = subjects.id) AS last_id
		FROM subjects
		WHERE (CAST($1 AS BIGINT) = 0 OR company_id = $1) AND EXISTS (SELECT 1 FROM chat_messages m WHERE m.subject_id = subjects.id)
		ORDER BY last_id DESC`, companyID, portal.ChatSenderSubject)
	if err != nil {
		return nil, fmt.Errorf("store: chat threads: %w", err)
	}
	defer rows.Close()
	out := []portal.ChatThread{}
	var lastIDs []int64
	for rows.Next() {
		var t portal.ChatThread
		var lastID int64
		sub, err := scanSubject(scanWith(rows, &t.Messages, &t.Unread, &lastID))
		if err != nil {
			return nil, fmt.Errorf("store: chat threads: %w", err)
		}
		t.Applicant = *sub
		out = append(out, t)
		lastIDs = append(lastIDs, lastID)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: chat threads: %w", err)
	}
	rows.Close()
	for i, id := range lastIDs {
		m, err := s.chatMessage(ctx, out[i].Applicant.ID, id)
		if err != nil {
			return nil, err
		}
		out[i].Last = *m
	}
	return out, nil
}

// chatMessage reads one message, without its attachment's details.
func (s *OperatorChatService) chatMessage(ctx context.Context, subjectID, id int64) (*portal.ChatMessage, error) {
	m := portal.ChatMessage{ID: id, SubjectID: subjectID}
	var body []byte
	var created int64
	var read sql.NullInt64
	err := s.db.db.QueryRowContext(ctx, `SELECT sender, sender_name, body, created_at, read_at FROM chat_messages WHERE id = $1`, id).
		Scan(&m.Sender, &m.SenderName, &body, &created, &read)
	if err != nil {
		return nil, fmt.Errorf("store: chat message %d: %w", id, err)
	}
	m.CreatedAt, m.ReadAt = fromMS(created), nullTime(read)
	m.Message, err = s.db.openChatBody(subjectID, id, body)
	return &m, err
}

// ChatConversation lists the conversation and marks the applicant's
// messages read by the employer (publishing "read" when it marked any).
// Reading stays possible when the company's chat is off: the messages are
// a record.
func (s *OperatorChatService) ChatConversation(ctx context.Context, companyID, subjectID int64) ([]portal.ChatMessage, error) {
	var out []portal.ChatMessage
	var marked int64
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := operatorChat(ctx, tx, companyID, subjectID); err != nil {
			return err
		}
		var err error
		if out, err = s.db.chatMessages(ctx, tx, subjectID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE chat_messages SET read_at = $1 WHERE subject_id = $2 AND sender = $3 AND read_at IS NULL`,
			ms(s.db.now()), subjectID, portal.ChatSenderSubject)
		if err != nil {
			return fmt.Errorf("store: mark chat read: %w", err)
		}
		marked, _ = res.RowsAffected()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if marked > 0 {
		publishChat(ctx, s.db.Publish, s.db.cfg.Logger.Warn, subjectID, portal.ChatEvent{Kind: "read"})
	}
	return out, nil
}

// ReplyChat adds an employer's message and, in the same transaction,
// queues the e-mail to an applicant who is away (ChatAwayAfter) when no
// earlier employer message is unread: one e-mail until they read.
func (s *OperatorChatService) ReplyChat(ctx context.Context, req portal.ChatReply) (*portal.ChatMessage, error) {
	c, err := operatorChat(ctx, s.db.db, req.CompanyID, req.SubjectID)
	if err != nil {
		return nil, err
	}
	if !c.chatOn {
		return nil, portal.Errorf(portal.EFORBIDDEN, "Chat is off for %s: set company_subject_chat to true first.", c.companyName)
	}
	text, err := portal.ChatText(req.Message, req.File != nil)
	if err != nil {
		return nil, err
	}
	senderName, err := portal.ChatSenderName(req.SenderName)
	if err != nil {
		return nil, err
	}
	files := NewFileStore(s.db)
	file, err := storeChatFile(ctx, files, req.SubjectID, req.File)
	if err != nil {
		return nil, err
	}
	now := s.db.now()
	m := &portal.ChatMessage{SubjectID: req.SubjectID, Sender: portal.ChatSenderEmployer, Message: text, File: file, CreatedAt: now}
	err = s.db.tx(ctx, func(tx *sql.Tx) error {
		c, err := operatorChat(ctx, tx, req.CompanyID, req.SubjectID)
		if err != nil {
			return err
		}
		if !c.chatOn {
			return portal.Errorf(portal.EFORBIDDEN, "Chat is off for %s: set company_subject_chat to true first.", c.companyName)
		}
		m.SenderName = senderName
		if m.SenderName == "" {
			m.SenderName = c.companyName
		}
		unread, err := unreadEmployerMessages(ctx, tx, req.SubjectID)
		if err != nil {
			return err
		}
		var seen sql.NullInt64
		err = tx.QueryRowContext(ctx, `SELECT seen_at FROM chat_presence WHERE subject_id = $1`, req.SubjectID).Scan(&seen)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: chat presence: %w", err)
		}
		if err := s.db.insertChatMessage(ctx, tx, m); err != nil {
			return err
		}
		// What it says is not written: the trail keeps no conversation.
		if err := s.db.audit(ctx, tx, req.SubjectID, "chat.replied", fmt.Sprintf("message %d", m.ID)); err != nil {
			return err
		}
		away := !seen.Valid || fromMS(seen.Int64).Before(now.Add(-portal.ChatAwayAfter))
		if !away || unread > 0 {
			return nil
		}
		subject, body := messagesIn(c.locale).chatWaitingMail(c.companyName, c.firstName)
		return s.db.enqueueMail(ctx, tx, now, c.email, subject, body, 0)
	})
	if err != nil {
		return nil, errors.Join(err, dropChatFile(ctx, files, file))
	}
	m.CreatedAt = fromMS(ms(m.CreatedAt))
	publishChat(ctx, s.db.Publish, s.db.cfg.Logger.Warn, req.SubjectID, portal.ChatEvent{Kind: "message", MessageID: m.ID, Sender: m.Sender})
	return m, nil
}

// OpenChatAttachment opens a file attached to the applicant's
// conversation.
func (s *OperatorChatService) OpenChatAttachment(ctx context.Context, companyID, subjectID, fileID int64) (*portal.File, io.ReadCloser, error) {
	if _, err := operatorChat(ctx, s.db.db, companyID, subjectID); err != nil {
		return nil, nil, err
	}
	return openChatFile(ctx, s.db.conn, NewFileStore(s.db), subjectID, fileID)
}
