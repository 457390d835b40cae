package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// chatWorld is Acme (chat on) with jane and bob, and Globex (chat off)
// with carl, on a clock the test moves.
type chatWorld struct {
	db                *store.DB
	clock             *clock
	events            *store.Events
	chat              *store.ChatService
	ops               portal.OperatorServices
	acme, globex      int64
	jane, bob, carl   int64
	janeP, bobP, carP int64
}

func newChatWorld(t *testing.T, run func(t *testing.T, w *chatWorld)) {
	c := newClock()
	storetest.Each(t, sessionConfig(t, c), func(t *testing.T, db *store.DB) {
		c.t = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		ctx := context.Background()
		w := &chatWorld{db: db, clock: c, events: openEvents(t, db), ops: db.Operator()}
		w.chat = db.Chat(w.events)
		for _, co := range []struct {
			id   *int64
			name string
			chat bool
		}{{&w.acme, "Acme", true}, {&w.globex, "Globex", false}} {
			comp := &portal.Company{Name: co.name}
			comp.Preferences.SubjectChat = co.chat
			if err := db.CreateCompany(ctx, comp); err != nil {
				t.Fatal(err)
			}
			*co.id = comp.ID
		}
		for _, p := range []struct {
			id, profile *int64
			who         string
			company     int64
		}{{&w.jane, &w.janeP, "jane", w.acme}, {&w.bob, &w.bobP, "bob", w.acme}, {&w.carl, &w.carP, "carl", w.globex}} {
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: p.company, Email: p.who + "@example.com", FirstName: p.who, LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			prof, err := db.Subjects().FindProfile(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			*p.id, *p.profile = s.ID, prof.ID
		}
		run(t, w)
	})
}

func (w *chatWorld) reply(t *testing.T, subjectID int64, text string) *portal.ChatMessage {
	t.Helper()
	m, err := w.ops.Chat.ReplyChat(context.Background(), portal.ChatReply{SubjectID: subjectID, Message: text})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (w *chatWorld) send(t *testing.T, text string) *portal.ChatMessage {
	t.Helper()
	m, err := w.chat.SendChatMessage(context.Background(), w.jane, w.janeP, text, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (w *chatWorld) unread(t *testing.T) int {
	t.Helper()
	n, err := w.chat.UnreadChatMessages(context.Background(), w.jane, w.janeP)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestChatScoping(t *testing.T) {
	newChatWorld(t, func(t *testing.T, w *chatWorld) {
		ctx := context.Background()
		file := w.send(t, "hello")
		calls := map[string]func(subjectID, profileID int64) error{
			"ChatMessages": func(s, p int64) error { _, err := w.chat.ChatMessages(ctx, s, p); return err },
			"Unread":       func(s, p int64) error { _, err := w.chat.UnreadChatMessages(ctx, s, p); return err },
			"Send": func(s, p int64) error {
				_, err := w.chat.SendChatMessage(ctx, s, p, "hi", nil)
				return err
			},
			"MarkRead": func(s, p int64) error { _, err := w.chat.MarkChatRead(ctx, s, p); return err },
			"OpenFile": func(s, p int64) error { _, _, err := w.chat.OpenChatFile(ctx, s, p, 1); return err },
			"Seen":     func(s, p int64) error { return w.chat.SeenChat(ctx, s, p) },
		}
		for name, call := range calls {
			t.Run(name+"OtherSubjectsProfileNotFound", func(t *testing.T) {
				if err := call(w.jane, w.bobP); portal.ErrorCode(err) != portal.ENOTFOUND {
					t.Errorf("jane with bob's profile = %v, want ENOTFOUND", err)
				}
			})
			t.Run(name+"ChatOffForbidden", func(t *testing.T) {
				err := call(w.carl, w.carP)
				if portal.ErrorCode(err) != portal.EFORBIDDEN || !strings.HasPrefix(portal.ErrorMessage(err), "Access Denied") {
					t.Errorf("carl (chat off) = %v, want EFORBIDDEN Access Denied", err)
				}
			})
		}
		t.Run("OperatorOfAnotherCompanySeesNoApplicant", func(t *testing.T) {
			if _, err := w.ops.Chat.ChatConversation(ctx, w.globex, w.jane); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("ChatConversation = %v", err)
			}
			if _, err := w.ops.Chat.ReplyChat(ctx, portal.ChatReply{CompanyID: w.globex, SubjectID: w.jane, Message: "x"}); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("ReplyChat = %v", err)
			}
			threads, err := w.ops.Chat.ChatThreads(ctx, w.globex)
			if err != nil || len(threads) != 0 {
				t.Errorf("Globex's threads = %+v, %v; want none", threads, err)
			}
			if _, _, err := w.ops.Chat.OpenChatAttachment(ctx, w.globex, w.jane, file.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("OpenChatAttachment = %v", err)
			}
		})
		t.Run("ReplyWithChatOffForbidden", func(t *testing.T) {
			if _, err := w.ops.Chat.ReplyChat(ctx, portal.ChatReply{SubjectID: w.carl, Message: "x"}); portal.ErrorCode(err) != portal.EFORBIDDEN {
				t.Errorf("ReplyChat = %v", err)
			}
		})
		t.Run("UnknownApplicantNotFound", func(t *testing.T) {
			if _, err := w.ops.Chat.ReplyChat(ctx, portal.ChatReply{SubjectID: 987654, Message: "x"}); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("ReplyChat = %v", err)
			}
		})
	})
}

func TestChatTextLimits(t *testing.T) {
	newChatWorld(t, func(t *testing.T, w *chatWorld) {
		tests := []struct {
			name, text string
			withFile   bool
			want       string // the stored text, or "" for refused
			wantMsg    string
		}{
			{"EmptyRefused", "", false, "", "Write a message or attach a file."},
			{"OnlySpacesRefused", " \n\t ", false, "", "Write a message or attach a file."},
			{"Over5000Refused", strings.Repeat("é", 5001), false, "", "A message is at most 5000 characters."},
			{"Exactly5000Kept", strings.Repeat("é", 5000), false, strings.Repeat("é", 5000), ""},
			{"Trimmed", "  hi there \n", false, "hi there", ""},
			{"HTMLKeptAsText", "<b>bold</b> & <script>", false, "<b>bold</b> & <script>", ""},
			{"EmptyWithFileKept", "", true, "", ""},
			{"NULRefused", "a\x00b", false, "", "The message holds characters that cannot be sent."},
			{"InvalidUTF8Refused", "a\xff\xfeb", false, "", "The message holds characters that cannot be sent."},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var up *portal.Upload
				if tt.withFile {
					up = &portal.Upload{Name: "a.png", ContentType: "image/png", Body: bytes.NewReader(pngBytes(100))}
				}
				m, err := w.chat.SendChatMessage(context.Background(), w.jane, w.janeP, tt.text, up)
				if tt.wantMsg != "" {
					var pe *portal.Error
					if portal.ErrorCode(err) != portal.EINVALID || !errorsAs(err, &pe) || len(pe.Fields) != 1 ||
						pe.Fields[0].Field != "message" || pe.Fields[0].Message != tt.wantMsg {
						t.Fatalf("Send = %v, want EINVALID message %q", err, tt.wantMsg)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				msgs, err := w.chat.ChatMessages(context.Background(), w.jane, w.janeP)
				if err != nil {
					t.Fatal(err)
				}
				got := msgs[len(msgs)-1]
				if got.ID != m.ID || got.Message != tt.want || got.Sender != portal.ChatSenderSubject || got.SenderName != "jane Doe" {
					t.Errorf("stored %+v, want text %q", got, tt.want)
				}
			})
		}
	})
}

// TestChatSenderName: an employer's sender name is one line of text,
// refused with a field error, never stored as it came: PostgreSQL refuses
// a NUL or invalid UTF-8 in text (found by QA as a 500 on PostgreSQL), and
// a control character would reach the applicant's screen and the operators'
// terminals.
func TestChatSenderName(t *testing.T) {
	newChatWorld(t, func(t *testing.T, w *chatWorld) {
		const bad = "A sender name is one line of text without control characters."
		tests := []struct {
			name, senderName string
			want             string // the stored name, or "" for refused
			wantMsg          string
		}{
			{"EmptyIsTheCompany", "", "Acme", ""},
			{"Trimmed", "  Acme HR ", "Acme HR", ""},
			{"Exactly200Kept", strings.Repeat("é", 200), strings.Repeat("é", 200), ""},
			{"Over200Refused", strings.Repeat("é", 201), "", "A sender name is at most 200 characters."},
			{"NULRefused", "HR\x00", "", bad},
			{"InvalidUTF8Refused", "HR\xff\xfe", "", bad},
			{"EscapeRefused", "HR\x1b[2J", "", bad},
			{"LineBreakRefused", "HR\nBcc: x", "", bad},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				m, err := w.ops.Chat.ReplyChat(context.Background(), portal.ChatReply{CompanyID: w.acme, SubjectID: w.jane, Message: "hi", SenderName: tt.senderName})
				if tt.wantMsg != "" {
					var pe *portal.Error
					if portal.ErrorCode(err) != portal.EINVALID || !errorsAs(err, &pe) || len(pe.Fields) != 1 ||
						pe.Fields[0].Field != "senderName" || pe.Fields[0].Message != tt.wantMsg {
						t.Fatalf("Reply = %v, want EINVALID senderName %q", err, tt.wantMsg)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				msgs, err := w.chat.ChatMessages(context.Background(), w.jane, w.janeP)
				if err != nil {
					t.Fatal(err)
				}
				if got := msgs[len(msgs)-1]; got.ID != m.ID || got.SenderName != tt.want {
					t.Errorf("stored sender %q, want %q", got.SenderName, tt.want)
				}
			})
		}
	})
}

func errorsAs(err error, pe **portal.Error) bool {
	e, ok := err.(*portal.Error)
	*pe = e
	return ok
}

func TestChatAttachments(t *testing.T) {
	newChatWorld(t, func(t *testing.T, w *chatWorld) {
		ctx := context.Background()
		content := pngBytes(2*store.FileChunkSize + 7)
		m, err := w.chat.SendChatMessage(ctx, w.jane, w.janeP, "my licence", &portal.Upload{Name: "licence.png", ContentType: "image/png", Body: bytes.NewReader(content)})
		if err != nil {
			t.Fatal(err)
		}
		if m.File == nil || m.File.Name != "licence.png" || m.File.ContentType != "image/png" || m.File.Size != int64(len(content)) {
			t.Fatalf("message file = %+v", m.File)
		}
		t.Run("ApplicantAndOperatorOpenIt", func(t *testing.T) {
			for name, open := range map[string]func() (*portal.File, io.ReadCloser, error){
				"applicant": func() (*portal.File, io.ReadCloser, error) {
					return w.chat.OpenChatFile(ctx, w.jane, w.janeP, m.File.ID)
				},
				"operator": func() (*portal.File, io.ReadCloser, error) {
					return w.ops.Chat.OpenChatAttachment(ctx, w.acme, w.jane, m.File.ID)
				},
			} {
				f, rc, err := open()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, _ := io.ReadAll(rc)
				rc.Close()
				if f.Name != "licence.png" || !bytes.Equal(got, content) {
					t.Errorf("%s opened %+v with %d bytes", name, f, len(got))
				}
			}
			msgs, err := w.chat.ChatMessages(ctx, w.jane, w.janeP)
			if err != nil || len(msgs) != 1 || msgs[0].File == nil || msgs[0].File.ID != m.File.ID {
				t.Errorf("ChatMessages = %+v, %v", msgs, err)
			}
		})
		t.Run("AnotherApplicantsAttachmentNotFound", func(t *testing.T) {
			if _, _, err := w.chat.OpenChatFile(ctx, w.bob, w.bobP, m.File.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("bob opening jane's attachment = %v", err)
			}
			if _, _, err := w.ops.Chat.OpenChatAttachment(ctx, 0, w.bob, m.File.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("operator opening jane's attachment as bob's = %v", err)
			}
		})
		t.Run("AFileThatIsNoAttachmentNotFound", func(t *testing.T) {
			doc, err := store.NewFileStore(w.db).Put(ctx, portal.FileMeta{SubjectID: w.jane, Name: "other.png", ContentType: "image/png"}, bytes.NewReader(pngBytes(10)), 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := w.chat.OpenChatFile(ctx, w.jane, w.janeP, doc.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("opening a file that is not an attachment = %v", err)
			}
		})
		files, _ := countRows(t, w.db)
		refused := []struct {
			name string
			body io.Reader
			file string
			code string
		}{
			{"RefusedType", strings.NewReader("MZ\x90\x00 an executable"), "run.exe", portal.EUNSUPPORTED},
			{"TooLarge", io.MultiReader(bytes.NewReader(pngBytes(10)), &endlessReader{}), "big.png", portal.ETOOLARGE},
		}
		for _, tt := range refused {
			t.Run(tt.name, func(t *testing.T) {
				_, err := w.chat.SendChatMessage(ctx, w.jane, w.janeP, "see attached", &portal.Upload{Name: tt.file, Body: tt.body})
				if portal.ErrorCode(err) != tt.code {
					t.Fatalf("Send = %v, want %s", err, tt.code)
				}
				if after, _ := countRows(t, w.db); after != files {
					t.Errorf("%d files after a refused attachment, want %d", after, files)
				}
				if _, err := w.ops.Chat.ReplyChat(ctx, portal.ChatReply{SubjectID: w.jane, File: &portal.Upload{Name: tt.file, Body: strings.NewReader("MZ\x90\x00")}}); portal.ErrorCode(err) != portal.EUNSUPPORTED {
					t.Errorf("ReplyChat with an executable = %v", err)
				}
			})
		}
		t.Run("FileNotReadWhenChatOff", func(t *testing.T) {
			r := &endlessReader{}
			if _, err := w.chat.SendChatMessage(ctx, w.carl, w.carP, "x", &portal.Upload{Name: "a.png", Body: r}); portal.ErrorCode(err) != portal.EFORBIDDEN {
				t.Fatal(err)
			}
			if r.n != 0 {
				t.Errorf("read %d bytes of a refused upload", r.n)
			}
		})
	})
}

func TestChatUnreadAndRead(t *testing.T) {
	newChatWorld(t, func(t *testing.T, w *chatWorld) {
		ctx := context.Background()
		if n := w.unread(t); n != 0 {
			t.Fatalf("unread before any message = %d", n)
		}
		w.send(t, "question one")
		w.send(t, "question two")
		if n := w.unread(t); n != 0 {
			t.Errorf("the applicant's own messages count as unread: %d", n)
		}
		w.reply(t, w.jane, "answer one")
		w.reply(t, w.jane, "answer two")
		w.reply(t, w.bob, "to bob")
		if n := w.unread(t); n != 2 {
			t.Errorf("unread = %d, want 2", n)
		}
		threads, err := w.ops.Chat.ChatThreads(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(threads) != 2 || threads[0].Applicant.ID != w.bob || threads[1].Applicant.ID != w.jane ||
			threads[1].Messages != 4 || threads[1].Unread != 2 || threads[1].Last.Message != "answer two" || threads[0].Unread != 0 {
			t.Errorf("threads = %+v", threads)
		}
		left, err := w.chat.MarkChatRead(ctx, w.jane, w.janeP)
		if err != nil || left != 0 || w.unread(t) != 0 {
			t.Errorf("MarkChatRead = %d, %v; unread after %d", left, err, w.unread(t))
		}
		msgs, err := w.ops.Chat.ChatConversation(ctx, w.acme, w.jane)
		if err != nil || len(msgs) != 4 {
			t.Fatalf("ChatConversation = %+v, %v", msgs, err)
		}
		for _, m := range msgs {
			if m.Sender == portal.ChatSenderEmployer && m.ReadAt == nil {
				t.Errorf("employer's message %d not read after MarkChatRead", m.ID)
			}
		}
		threads, _ = w.ops.Chat.ChatThreads(ctx, w.acme)
		if threads[1].Unread != 0 {
			t.Errorf("the applicant's messages are unread after ChatConversation: %+v", threads[1])
		}
		msgs, _ = w.chat.ChatMessages(ctx, w.jane, w.janeP)
		for _, m := range msgs {
			if m.ReadAt == nil {
				t.Errorf("message %d (%s) has no read time after both sides read", m.ID, m.Sender)
			}
		}
	})
}

func TestChatSealedAtRest(t *testing.T) {
	newChatWorld(t, func(t *testing.T, w *chatWorld) {
		ctx := context.Background()
		const secret = "my SSN is 123-45-6789"
		mine := w.send(t, secret)
		w.reply(t, w.jane, "thanks, "+secret)
		rows, err := w.db.SQL().Query(`SELECT body FROM chat_messages`)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var body []byte
			rows.Scan(&body)
			if bytes.Contains(body, []byte("123-45-6789")) {
				t.Error("a message body is stored in the clear")
			}
			n++
		}
		rows.Close()
		if n != 2 {
			t.Fatalf("%d rows", n)
		}
		t.Run("BodyMovedToAnotherRowDoesNotOpen", func(t *testing.T) {
			theirs, err := w.ops.Chat.ReplyChat(ctx, portal.ChatReply{SubjectID: w.bob, Message: "hello bob"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.db.SQL().Exec(`UPDATE chat_messages SET body = (SELECT body FROM chat_messages WHERE id = $1) WHERE id = $2`, mine.ID, theirs.ID); err != nil {
				t.Fatal(err)
			}
			if msgs, err := w.ops.Chat.ChatConversation(ctx, 0, w.bob); err == nil {
				t.Errorf("a body moved to bob's message opened: %+v", msgs)
			}
		})
	})
}

func TestChatAwayMail(t *testing.T) {
	newChatWorld(t, func(t *testing.T, w *chatWorld) {
		ctx := context.Background()
		mails := func() []store.Mail {
			t.Helper()
			out, err := w.db.Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		const secret = "your result: 123-45-6789"
		w.reply(t, w.jane, secret)
		got := mails()
		if len(got) != 1 || got[0].To != "jane@example.com" || got[0].Subject != "New message from Acme about your background check" {
			t.Fatalf("outbox after a message to an applicant who never opened the chat = %+v", got)
		}
		if strings.Contains(got[0].Body, "123-45-6789") || !strings.Contains(got[0].Body, "log in") {
			t.Errorf("mail body = %q; want no message text and a word to log in", got[0].Body)
		}
		w.clock.advance(time.Hour)
		w.reply(t, w.jane, "a second one")
		if n := len(mails()); n != 1 {
			t.Errorf("%d mails after a second unread message, want still 1", n)
		}
		if _, err := w.chat.MarkChatRead(ctx, w.jane, w.janeP); err != nil {
			t.Fatal(err)
		}
		w.clock.advance(portal.ChatAwayAfter + time.Second)
		w.reply(t, w.jane, "after reading, away again")
		if n := len(mails()); n != 2 {
			t.Errorf("%d mails after reading and going away, want 2", n)
		}
		t.Run("NoMailWhilePresent", func(t *testing.T) {
			if err := w.chat.SeenChat(ctx, w.bob, w.bobP); err != nil {
				t.Fatal(err)
			}
			w.clock.advance(portal.ChatAwayAfter - time.Second)
			before := len(mails())
			w.reply(t, w.bob, "bob is here")
			if n := len(mails()); n != before {
				t.Errorf("a mail went to an applicant present %s ago", portal.ChatAwayAfter-time.Second)
			}
		})
		t.Run("ReadingCountsAsPresent", func(t *testing.T) {
			if _, err := w.chat.MarkChatRead(ctx, w.bob, w.bobP); err != nil {
				t.Fatal(err)
			}
			w.clock.advance(time.Minute)
			if _, err := w.chat.ChatMessages(ctx, w.bob, w.bobP); err != nil {
				t.Fatal(err)
			}
			w.clock.advance(time.Minute)
			before := len(mails())
			w.reply(t, w.bob, "still here")
			if n := len(mails()); n != before {
				t.Error("a mail went to an applicant who read the messages a minute ago")
			}
		})
	})
}

func TestChatPublishes(t *testing.T) {
	newChatWorld(t, func(t *testing.T, w *chatWorld) {
		ctx := context.Background()
		ch, cancel := w.events.Subscribe(ctx, portal.ChatTopic(w.jane))
		defer cancel()
		want := func(kind, sender string, id int64) {
			t.Helper()
			e, ok := next(t, ch)
			var got portal.ChatEvent
			if !ok || json.Unmarshal(e.Payload, &got) != nil || got != (portal.ChatEvent{Kind: kind, MessageID: id, Sender: sender}) {
				t.Errorf("event %+v (open %v) = %s, want %s %s %d", e, ok, e.Payload, kind, sender, id)
			}
		}
		mine := w.send(t, "hi")
		want("message", portal.ChatSenderSubject, mine.ID)
		theirs := w.reply(t, w.jane, "hello")
		want("message", portal.ChatSenderEmployer, theirs.ID)
		if _, err := w.chat.MarkChatRead(ctx, w.jane, w.janeP); err != nil {
			t.Fatal(err)
		}
		want("read", "", 0)
		if _, err := w.ops.Chat.ChatConversation(ctx, 0, w.jane); err != nil {
			t.Fatal(err)
		}
		want("read", "", 0)
	})
}
