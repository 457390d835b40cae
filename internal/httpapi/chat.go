package httpapi

import (
	"bytes"
	"context"
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
	mux.HandleFunc("GET "+userEventsPath, s.require(setupAllowed, s.handleUserEvents))
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

var errChatTooLong = fieldError("message", "A message is at most %d characters.", portal.MaxChatMessageLength)

// The 429's messages past MaxChatStreamsPerApplicant.
const (
	msgTooManyChatStreams  = "Too many chat windows are open; close one, or wait, and the chat checks for new messages."
	msgTooManyEventStreams = "Too many portal windows are open; close one, or wait, and the page checks for changes."
)

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
			err = fieldError("senderName", "A sender name is at most %d characters.", portal.MaxChatSenderName)
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

// decodeChatJSON reads {"message": "..."}.
func decodeChatJSON(w http.ResponseWriter, r *http.Request) (chatJSON, error) {
	var in chatJSON
	err := decodeLongTextJSON(w, r, &in, maxChatJSONBody, errChatTooLong)
	return in, err
}

// decodeLongTextJSON reads a JSON object whose text has its own rules (a
// chat message, a dispute's message: longer than MaxJSONString, with line
// breaks), which the service checks; keys are checked as in any body. A
// body past limit is tooLong.
func decodeLongTextJSON(w http.ResponseWriter, r *http.Request, v any, limit int64, tooLong error) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return tooLong
	}
	if err != nil {
		return jsonError(err)
	}
	if trimmed := bytes.TrimSpace(body); len(trimmed) == 0 || trimmed[0] != '{' {
		return portal.Errorf(portal.EMALFORMED, "The request body must be a JSON object.")
	}
	if err := checkJSONKeys(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return wrongType(body, typeErr)
		}
		return jsonError(err)
	}
	if dec.More() {
		return portal.Errorf(portal.EMALFORMED, "The request body must hold one JSON object.")
	}
	return nil
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

// userEventsPath is the applicant's one event stream: the banner's changes
// and, when chat is on, the conversation's. Browsers keep about six
// connections per host over HTTP/1.1, so a page holds one stream, not one
// per feature.
const userEventsPath = "/api/v2/user/events"

// eventStream is what one event stream carries: up to four topics, each
// sent as its named event (a fixed number, so the stream's loop selects on
// them without a goroutine of its own), the ready event's data, and what
// each keep-alive checks besides the token.
type eventStream struct {
	topics [4]string
	names  [4]string
	// subscriptions are the topics' channels (nil for an unused place).
	subscriptions [4]<-chan portal.Event
	ready         []byte
	// tooMany is the 429's message past MaxChatStreamsPerApplicant.
	tooMany string
	// keepAlive runs at each keep-alive: an error that is not the database
	// being away ends the stream.
	keepAlive func(ctx context.Context) error
}

// subscribe subscribes to topic, sent as event name, in the next free place.
func (st *eventStream) subscribe(ctx context.Context, events portal.Events, topic, name string) func() {
	for i := range st.topics {
		if st.topics[i] == "" {
			st.topics[i], st.names[i] = topic, name
			var cancel func()
			st.subscriptions[i], cancel = events.Subscribe(ctx, topic)
			return cancel
		}
	}
	panic("httpapi: an event stream carries at most four topics")
}

// handleChatEvents streams the conversation's events (docs/api.md), the
// older stream the chat had alone. It subscribes before it counts the
// unread messages, so nothing that happens between the two is missed.
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
	var st eventStream
	defer st.subscribe(ctx, s.svc.Events, portal.ChatTopic(sess.SubjectID), "chat")()
	unread, err := s.seeChat(ctx, sess.SubjectID, profileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	st.ready = fmt.Appendf(nil, `{"unreadMessages":%d}`, unread)
	st.tooMany = msgTooManyChatStreams
	st.keepAlive = func(ctx context.Context) error { return s.svc.Chat.SeenChat(ctx, sess.SubjectID, profileID) }
	s.streamEvents(w, r, &st)
}

// seeChat records the applicant present in the chat and counts the
// unread messages.
func (s *Server) seeChat(ctx context.Context, subjectID, profileID int64) (int, error) {
	if err := s.svc.Chat.SeenChat(ctx, subjectID, profileID); err != nil {
		return 0, err
	}
	return s.svc.Chat.UnreadChatMessages(ctx, subjectID, profileID)
}

// userEventsReady is the ready event of the applicant's stream: whether it
// carries the chat, and then the unread count.
type userEventsReady struct {
	Chat           bool `json:"chat"`
	UnreadMessages *int `json:"unreadMessages,omitempty"`
}

// handleUserEvents streams what an applicant's open page shows live
// (docs/api.md): the maintenance banner's changes, for everyone and for
// their company, and, for a logged-in applicant whose company has chat on,
// the conversation's. Each subscription comes before the state the app
// then reads.
func (s *Server) handleUserEvents(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	sess := callerFrom(ctx)
	if s.svc.Events == nil {
		s.Error(w, r, portal.Errorf(portal.EUNAVAILABLE, "Live updates are not available; reload the page to see changes."))
		return
	}
	subject, err := s.svc.Subjects.FindSubjectByID(ctx, sess.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var st eventStream
	defer st.subscribe(ctx, s.svc.Events, portal.BannerTopic(0), "banner")()
	defer st.subscribe(ctx, s.svc.Events, portal.BannerTopic(subject.CompanyID), "banner")()
	var ready userEventsReady
	if sess.Scope != portal.ScopeSetup {
		profile, err := s.svc.Subjects.FindProfile(ctx, sess.SubjectID)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		// The screening's changes after submission (a service moved, a
		// report, a dispute, an adverse action).
		defer st.subscribe(ctx, s.svc.Events, portal.ScreeningTopic(sess.SubjectID), "screening")()
		cancel := st.subscribe(ctx, s.svc.Events, portal.ChatTopic(sess.SubjectID), "chat")
		unread, err := s.seeChat(ctx, sess.SubjectID, profile.ID)
		switch {
		case portal.ErrorCode(err) == portal.EFORBIDDEN:
			// Chat is off for the company: the stream carries the banner alone.
			cancel()
			st.topics[3], st.subscriptions[3] = "", nil
		case err != nil:
			cancel()
			s.Error(w, r, err)
			return
		default:
			defer cancel()
			ready = userEventsReady{Chat: true, UnreadMessages: &unread}
			st.keepAlive = func(ctx context.Context) error { return s.svc.Chat.SeenChat(ctx, sess.SubjectID, profile.ID) }
		}
	}
	st.ready, _ = json.Marshal(ready)
	st.tooMany = msgTooManyEventStreams
	s.streamEvents(w, r, &st)
}

// streamEvents answers text/event-stream for as long as the client stays:
// the ready event, then each event of st's topics, and a keep-alive
// comment every ChatKeepAlive. It ends when the access token expires or is
// revoked, when st.keepAlive fails, when a subscription closes (events may
// have been missed: the client reconnects and reads afresh), or when the
// client leaves. An applicant has at most MaxChatStreamsPerApplicant open.
func (s *Server) streamEvents(w http.ResponseWriter, r *http.Request, st *eventStream) {
	ctx := r.Context()
	sess := callerFrom(ctx)
	leave, ok := s.chatStreams.enter(sess.SubjectID, s.chatStreamsPerApplicant())
	if !ok {
		s.Error(w, r, &portal.Error{Code: portal.ETHROTTLED, RetryAfter: int(ChatKeepAlive.Seconds()),
			Message: st.tooMany})
		return
	}
	defer leave()
	if err := Stream(w); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.logger.WarnContext(ctx, "events: cannot lift the deadlines", "err", err)
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
	if !send("retry: 3000\n\nevent: ready\ndata: %s\n\n", st.ready) {
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
		var ev portal.Event
		var name string
		var open bool
		select {
		case <-ctx.Done():
			return
		case <-expired:
			return
		case ev, open = <-st.subscriptions[0]:
			name = st.names[0]
		case ev, open = <-st.subscriptions[1]:
			name = st.names[1]
		case ev, open = <-st.subscriptions[2]:
			name = st.names[2]
		case ev, open = <-st.subscriptions[3]:
			name = st.names[3]
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
			if st.keepAlive != nil {
				if err := st.keepAlive(ctx); err != nil && !s.unavailable(err) {
					return
				}
			}
			continue
		}
		if !open {
			// Events may have been missed (the database came back, or
			// this stream fell behind): the app should reconnect, and
			// read afresh, soon; spread over a second, so that every
			// stream of the server does not come back at the same
			// moment.
			send("retry: %d\n\n", resubscribeRetry.Milliseconds()+rand.Int64N(1000)) // #nosec G404 -- jitter for reconnects, not a secret
			return
		}
		// A data line holds no line break; the payload is JSON, which
		// compacts to one line.
		data.Reset()
		if json.Compact(&data, ev.Payload) != nil {
			continue
		}
		if !send("event: %s\ndata: %s\n\n", name, data.Bytes()) {
			return
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
