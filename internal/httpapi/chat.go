package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"applicantportal/internal/portal"
)

// ChatKeepAlive is how often an open chat event stream sends a comment,
// which keeps proxies from closing an idle connection and marks the
// applicant present (portal.ChatAwayAfter is longer).
const ChatKeepAlive = 25 * time.Second

// MaxChatStreamsPerApplicant bounds one applicant's open event streams on
// one server: a tab each, a few at most, while each stream holds a
// connection and queries the database at every keep-alive. Past it the
// stream answers 429 and the app polls the unread count instead.
const MaxChatStreamsPerApplicant = 10

// chatStreams counts each applicant's open event streams.
type chatStreams struct {
	mu   sync.Mutex
	open map[int64]int
}

// enter takes one of subjectID's limit places and returns its release,
// or false when all are taken.
func (c *chatStreams) enter(subjectID int64, limit int) (leave func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open[subjectID] >= limit {
		return nil, false
	}
	if c.open == nil {
		c.open = map[int64]int{}
	}
	c.open[subjectID]++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.open[subjectID]--; c.open[subjectID] == 0 {
			delete(c.open, subjectID)
		}
	}, true
}

// chatPath is the applicant's conversation, under their profile.
const chatPath = "/api/v2/user/subject/profile/{profileId}/chat-messages"

func (s *Server) registerChatRoutes(mux *routes) {
	mux.HandleFunc("GET "+chatPath, s.require(applicantOnly, s.handleChatList))
	mux.HandleFunc("POST "+chatPath, s.require(applicantOnly, s.handleChatSend))
	mux.HandleFunc("GET "+chatPath+"/unread-messages", s.require(applicantOnly, s.handleChatUnread))
	mux.HandleFunc("POST "+chatPath+"/read", s.require(applicantOnly, s.handleChatRead))
	mux.HandleFunc("GET "+chatPath+"/download-file", s.require(applicantOnly, s.handleChatDownload))
	mux.HandleFunc("GET "+chatPath+"/events", s.require(applicantOnly, s.handleChatEvents))
}

// chatMessageJSON is a message as the API answers it (docs/api.md).
type chatMessageJSON struct {
	ID         int64   `json:"id"`
	Message    string  `json:"message"`
	Sender     string  `json:"sender"`
	SenderName string  `json:"senderName"`
	FileID     *int64  `json:"fileId"`
	FileName   *string `json:"fileName"`
	FileSize   *int64  `json:"fileSize"`
	FileType   *string `json:"fileType"`
	CreatedAt  string  `json:"createdAt"`
	ReadAt     *string `json:"readAt"`
}

func newChatMessageJSON(m portal.ChatMessage) chatMessageJSON {
	out := chatMessageJSON{ID: m.ID, Message: m.Message, Sender: m.Sender, SenderName: m.SenderName, CreatedAt: apiTime(m.CreatedAt)}
	if f := m.File; f != nil {
		out.FileID, out.FileName, out.FileSize, out.FileType = &f.ID, &f.Name, &f.Size, &f.ContentType
	}
	if m.ReadAt != nil {
		t := apiTime(*m.ReadAt)
		out.ReadAt = &t
	}
	return out
}

type unreadJSON struct {
	UnreadMessages int `json:"unreadMessages"`
}

// chatProfile reads the {profileId} path value; one that is no id is no
// profile of the caller.
func chatProfile(r *http.Request) (int64, error) {
	return pathID(r, "profileId", portal.Errorf(portal.ENOTFOUND, "Profile not found."))
}

func (s *Server) handleChatList(w http.ResponseWriter, r *http.Request) {
	profileID, err := chatProfile(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	msgs, err := s.svc.Chat.ChatMessages(r.Context(), callerFrom(r.Context()).SubjectID, profileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeChatMessages(w, msgs)
}

// writeChatMessages answers a conversation: {"payload": [message, ...]}.
func writeChatMessages(w http.ResponseWriter, msgs []portal.ChatMessage) {
	out := make([]chatMessageJSON, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, newChatMessageJSON(m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}

func (s *Server) handleChatUnread(w http.ResponseWriter, r *http.Request) {
	profileID, err := chatProfile(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	n, err := s.svc.Chat.UnreadChatMessages(r.Context(), callerFrom(r.Context()).SubjectID, profileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, unreadJSON{n})
}

// handleChatRead marks the employer's messages read. The body's profileId
// (the app sends it) adds nothing to the path's and is not read.
func (s *Server) handleChatRead(w http.ResponseWriter, r *http.Request) {
	profileID, err := chatProfile(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	n, err := s.svc.Chat.MarkChatRead(r.Context(), callerFrom(r.Context()).SubjectID, profileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, unreadJSON{n})
}

// maxChatJSONBody bounds a JSON message: 5000 characters, each escaped at
// worst as two \uXXXX (a character outside the BMP, escaped by a client
// that escapes all but ASCII), and the framing.
const maxChatJSONBody = 12*portal.MaxChatMessageLength + 1024

// maxChatTextPart bounds the message part of a multipart message: 5000
// characters of at most 4 bytes. Longer is too long whatever it holds.
const maxChatTextPart = 4 * portal.MaxChatMessageLength

var errChatTooLong = fieldError("message", "A message is at most "+strconv.Itoa(portal.MaxChatMessageLength)+" characters.")

// handleChatSend adds the applicant's message (readChatPost).
func (s *Server) handleChatSend(w http.ResponseWriter, r *http.Request) {
	profileID, err := chatProfile(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	subjectID := callerFrom(r.Context()).SubjectID
	post, err := s.readChatPost(w, r, applicantUploader(subjectID))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	defer post.release()
	m, err := s.svc.Chat.SendChatMessage(r.Context(), subjectID, profileID, post.text, post.file)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, newChatMessageJSON(*m))
}

// chatPost is a chat message as posted, before the service checks it.
type chatPost struct {
	text string
	// senderName is the operator API's name for an employer's message.
	senderName string
	file       *portal.Upload // nil without an attachment
	// release frees the upload slot once the file is read.
	release func()
}

// readChatPost reads a message: JSON {"message": "..."}, or multipart
// with the text field message first and an optional file part, which the
// chat service then reads as it arrives, like a document upload, in one of
// the uploader's slots. A bad text is left to the service.
func (s *Server) readChatPost(w http.ResponseWriter, r *http.Request, who uploader) (chatPost, error) {
	post := chatPost{release: func() {}}
	if isJSON(r) {
		in, err := decodeChatJSON(w, r)
		post.text, post.senderName = in.Message, in.SenderName
		return post, err
	}
	mr, release, err := s.startUpload(w, r, who)
	if err != nil {
		return post, err
	}
	part, err := nextPart(mr)
	if err == nil && part.FormName() == "senderName" {
		var b []byte
		if b, err = io.ReadAll(io.LimitReader(part, maxSenderNamePart+1)); err != nil {
			err = uploadReadError(err)
		} else if len(b) > maxSenderNamePart {
			err = fieldError("senderName", fmt.Sprintf("A sender name is at most %d characters.", portal.MaxChatSenderName))
		}
		post.senderName = string(b)
		if err == nil {
			part, err = nextPart(mr)
		}
	}
	switch {
	case errors.Is(err, io.EOF):
		// No part: the service says to write a message.
		post.release = release
		return post, nil
	case err != nil:
	case part.FormName() == "message":
		var b []byte
		if b, err = io.ReadAll(io.LimitReader(part, maxChatTextPart+1)); err != nil {
			err = uploadReadError(err)
		} else if len(b) > maxChatTextPart {
			err = errChatTooLong
		}
		post.text = string(b)
		if err == nil {
			part, err = nextPart(mr)
			if errors.Is(err, io.EOF) {
				post.release = release
				return post, nil
			}
		}
	}
	if err == nil && part.FormName() != "file" {
		err = errUnreadableUpload
	}
	if err != nil {
		release()
		return post, err
	}
	post.file = &portal.Upload{Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Body: &lastPart{mr: mr, part: part}}
	post.release = release
	return post, nil
}

// maxSenderNamePart is the most read of a multipart senderName field.
const maxSenderNamePart = 4 * portal.MaxChatSenderName

// chatJSON is a message posted as JSON; senderName is read by the
// operator API only.
type chatJSON struct {
	Message    string `json:"message"`
	SenderName string `json:"senderName"`
}

// decodeChatJSON reads {"message": "..."}. It does not go through
// decodeJSON: a message is longer than MaxJSONString and may hold line
// breaks, which portal.ChatText allows; keys are checked as in any body.
func decodeChatJSON(w http.ResponseWriter, r *http.Request) (chatJSON, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxChatJSONBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return chatJSON{}, errChatTooLong
	}
	if err != nil {
		return chatJSON{}, jsonError(err)
	}
	if trimmed := bytes.TrimSpace(body); len(trimmed) == 0 || trimmed[0] != '{' {
		return chatJSON{}, portal.Errorf(portal.EMALFORMED, "The request body must be a JSON object.")
	}
	if err := checkJSONKeys(body); err != nil {
		return chatJSON{}, err
	}
	var in chatJSON
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&in); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return chatJSON{}, wrongType(body, typeErr)
		}
		return chatJSON{}, jsonError(err)
	}
	if dec.More() {
		return chatJSON{}, portal.Errorf(portal.EMALFORMED, "The request body must hold one JSON object.")
	}
	return in, nil
}

// chatFileID reads the fileId query of a download; one that is no id is
// no attachment of the conversation.
func chatFileID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.URL.Query().Get("fileId"), 10, 64)
	if err != nil || id <= 0 {
		return 0, portal.Errorf(portal.ENOTFOUND, "File not found.")
	}
	return id, nil
}

func (s *Server) handleChatDownload(w http.ResponseWriter, r *http.Request) {
	profileID, err := chatProfile(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	fileID, err := chatFileID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	f, rc, err := s.svc.Chat.OpenChatFile(r.Context(), callerFrom(r.Context()).SubjectID, profileID, fileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.serveFile(w, r, f, rc, f.Name)
}

// handleChatEvents streams the conversation's events (docs/api.md). It
// subscribes before it counts the unread messages, so nothing that
// happens between the two is missed; it ends when the access token
// expires or is revoked, when chat is switched off, when the subscription
// closes (events may have been missed: the client reconnects and reads
// afresh), or when the client leaves.
func (s *Server) handleChatEvents(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	sess := callerFrom(ctx)
	profileID, err := chatProfile(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if s.svc.Events == nil {
		s.Error(w, r, portal.Errorf(portal.EUNAVAILABLE, "Live chat updates are not available; check for new messages instead."))
		return
	}
	events, cancel := s.svc.Events.Subscribe(ctx, portal.ChatTopic(sess.SubjectID))
	defer cancel()
	if err := s.svc.Chat.SeenChat(ctx, sess.SubjectID, profileID); err != nil {
		s.Error(w, r, err)
		return
	}
	unread, err := s.svc.Chat.UnreadChatMessages(ctx, sess.SubjectID, profileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	leave, ok := s.chatStreams.enter(sess.SubjectID, s.chatStreamsPerApplicant())
	if !ok {
		s.Error(w, r, &portal.Error{Code: portal.ETHROTTLED, RetryAfter: int(ChatKeepAlive.Seconds()),
			Message: "Too many chat windows are open; close one, or wait, and the chat checks for new messages."})
		return
	}
	defer leave()
	if err := Stream(w); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.logger.WarnContext(ctx, "chat events: cannot lift the deadlines", "err", err)
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // a proxy must pass each event on at once
	w.WriteHeader(http.StatusOK)
	send := func(format string, args ...any) bool {
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: 3000\n\nevent: ready\ndata: {\"unreadMessages\":%d}\n\n", unread) {
		return
	}
	var expired <-chan time.Time
	if !sess.ExpiresAt.IsZero() {
		t := time.NewTimer(sess.ExpiresAt.Sub(s.now()))
		defer t.Stop()
		expired = t.C
	}
	keepAlive := time.NewTicker(s.chatKeepAlive())
	defer keepAlive.Stop()
	token, _ := bearerToken(r)
	var data bytes.Buffer
	for {
		select {
		case <-ctx.Done():
			return
		case <-expired:
			return
		case ev, ok := <-events:
			if !ok {
				// Events may have been missed (the database came
				// back, or this stream fell behind): the app should
				// reconnect, and read afresh, soon; spread over a
				// second, so that every stream of the server does not
				// come back at the same moment.
				send("retry: %d\n\n", resubscribeRetry.Milliseconds()+rand.Int64N(1000))
				return
			}
			// A data line holds no line break; the payload is JSON,
			// which compacts to one line.
			data.Reset()
			if json.Compact(&data, ev.Payload) != nil {
				continue
			}
			if !send("event: chat\ndata: %s\n\n", data.Bytes()) {
				return
			}
		case <-keepAlive.C:
			if !send(": keep-alive\n\n") {
				return
			}
			// A logout, or chat switched off, ends the stream too. A
			// database briefly away does not: the stream carries on,
			// and resumes when it answers.
			if _, err := s.svc.Auth.Authenticate(ctx, token); err != nil && !s.unavailable(err) {
				return
			}
			if err := s.svc.Chat.SeenChat(ctx, sess.SubjectID, profileID); err != nil && !s.unavailable(err) {
				return
			}
		}
	}
}

// resubscribeRetry is the least time the app waits before it reconnects
// to a stream that ended because events may have been missed.
const resubscribeRetry = 250 * time.Millisecond

// unavailable reports whether err means the database is away for now.
func (s *Server) unavailable(err error) bool {
	return portal.ErrorCode(s.classify(err)) == portal.EUNAVAILABLE
}

// chatStreamsPerApplicant is MaxChatStreamsPerApplicant unless a test
// changed it.
func (s *Server) chatStreamsPerApplicant() int {
	if s.streamsPerApplicant > 0 {
		return s.streamsPerApplicant
	}
	return MaxChatStreamsPerApplicant
}

// chatKeepAlive is ChatKeepAlive unless a test shortened it.
func (s *Server) chatKeepAlive() time.Duration {
	if s.keepAliveEvery > 0 {
		return s.keepAliveEvery
	}
	return ChatKeepAlive
}
