package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// chatAPI is Acme (chat on) with jane and bob, and Globex (chat off) with
// carl, all logged in.
type chatAPI struct {
	*harness
	srv      *httpapi.Server
	ops      portal.OperatorServices
	ids      map[string]int64
	profiles map[string]int64
	tokens   map[string]string
}

func newChatAPI(t *testing.T, db *store.DB) *chatAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	a := &chatAPI{harness: newHarness(t, db, "192.0.2.1:1234"), ops: db.Operator(),
		ids: map[string]int64{}, profiles: map[string]int64{}, tokens: map[string]string{}}
	companies := map[bool]int64{}
	for _, on := range []bool{true, false} {
		c := &portal.Company{Name: map[bool]string{true: "Acme", false: "Globex"}[on]}
		c.Preferences.SubjectChat = on
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		companies[on] = c.ID
	}
	for _, who := range []string{"jane", "bob", "carl"} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: companies[who != "carl"], Email: who + "@example.com", FirstName: who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		p, err := db.Subjects().FindProfile(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		a.ids[who], a.profiles[who], a.tokens[who] = s.ID, p.ID, logIn(t, db, s)
	}
	a.srv = a.serve(httpapi.Config{}, nil, nil)
	return a
}

// url is the path of who's conversation plus rest.
func (a *chatAPI) url(who, rest string) string {
	return fmt.Sprintf("/api/v2/user/subject/profile/%d/chat-messages%s", a.profiles[who], rest)
}

func (a *chatAPI) reply(text string) *portal.ChatMessage {
	a.t.Helper()
	m, err := a.ops.Chat.ReplyChat(context.Background(), portal.ChatReply{SubjectID: a.ids["jane"], Message: text})
	if err != nil {
		a.t.Fatal(err)
	}
	return m
}

type chatMessageOut struct {
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

func decodeAs[T any](t *testing.T, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("answer %s: %v", rec.Body, err)
	}
	return v
}

func TestChatMessagesAPI(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newChatAPI(t, db)
		jane := a.tokens["jane"]
		t.Run("EmptyConversation", func(t *testing.T) {
			rec := a.send(request{Method: "GET", URL: a.url("jane", ""), Token: jane})
			if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"payload":[]}` {
				t.Errorf("GET = %d %s", rec.Code, rec.Body)
			}
		})
		const html = "<b>hi</b>\n<script>alert(1)</script> & \"quotes\""
		t.Run("SendJSONKeepsHTMLAsText", func(t *testing.T) {
			rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: jane, Body: map[string]any{"message": html}})
			if rec.Code != 201 {
				t.Fatalf("POST = %d %s", rec.Code, rec.Body)
			}
			if strings.Contains(rec.Body.String(), "<script>") {
				t.Errorf("the answer holds raw markup: %s", rec.Body)
			}
			m := decodeAs[chatMessageOut](t, rec)
			if m.Message != html || m.Sender != "subject" || m.SenderName != "jane Doe" || m.FileID != nil || m.FileName != nil || m.ReadAt != nil {
				t.Errorf("message = %+v", m)
			}
			rec = a.send(request{Method: "GET", URL: a.url("jane", ""), Token: jane})
			list := decodeAs[struct{ Payload []chatMessageOut }](t, rec)
			if len(list.Payload) != 1 || list.Payload[0].Message != html || !strings.Contains(rec.Body.String(), `"fileId":null`) {
				t.Errorf("GET = %s", rec.Body)
			}
		})
		bad := []struct {
			name        string
			body        any
			contentType string
			status      int
			field       string
		}{
			{"EmptyRefused", map[string]any{"message": "  "}, "", 422, "Write a message or attach a file."},
			{"NoMessageRefused", map[string]any{}, "", 422, "Write a message or attach a file."},
			{"Over5000Refused", map[string]any{"message": strings.Repeat("x", 5001)}, "", 422, "A message is at most 5000 characters."},
			{"FarOverTheBodyLimitRefused", map[string]any{"message": strings.Repeat("x", 100000)}, "", 422, "A message is at most 5000 characters."},
			{"NotJSON", `{"message":`, "application/json", 400, ""},
			{"WrongType", `{"message": 5}`, "application/json", 422, ""},
			{"Array", `["hi"]`, "application/json", 400, ""},
			{"TwoObjects", `{"message":"a"}{"message":"b"}`, "application/json", 400, ""},
			{"NotMultipart", "hello", "text/plain", 400, ""},
			// As in any JSON body (request.go), never "the last one wins".
			{"DuplicateKeyRefused", `{"message":"a","message":"b"}`, "application/json", 400, ""},
			{"DuplicateKeyInAnotherCaseRefused", `{"message":"a","Message":"b"}`, "application/json", 400, ""},
		}
		for _, tt := range bad {
			t.Run(tt.name, func(t *testing.T) {
				rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: jane, Body: tt.body, ContentType: tt.contentType})
				if rec.Code != tt.status {
					t.Fatalf("POST = %d %s, want %d", rec.Code, rec.Body, tt.status)
				}
				if tt.field != "" && !strings.Contains(rec.Body.String(), `{"field":"message","message":"`+tt.field+`",`) {
					t.Errorf("answer %s lacks the message field error %q", rec.Body, tt.field)
				}
			})
		}
		t.Run("Exactly5000Accepted", func(t *testing.T) {
			rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: jane, Body: map[string]any{"message": strings.Repeat("é", 5000)}})
			if rec.Code != 201 {
				t.Errorf("POST = %d %s", rec.Code, rec.Body)
			}
		})
		// A client that escapes all but ASCII (Python's json.dumps does)
		// sends a character outside the BMP as two \uXXXX escapes.
		t.Run("Exactly5000EscapedEmojiAccepted", func(t *testing.T) {
			body := `{"message":"` + strings.Repeat(`\ud83d\ude00`, 5000) + `"}`
			rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: jane, Body: body, ContentType: "application/json"})
			if rec.Code != 201 {
				t.Errorf("POST = %d %.200s", rec.Code, rec.Body)
			}
		})
		var fileID int64
		png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 3000)...)
		t.Run("SendMultipartWithFileAndDownload", func(t *testing.T) {
			body, ct := multipartStream(textPart("message", "see <attached>"), filePart("pay stub.png", "image/png", png))
			rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: jane, Body: mustRead(t, body), ContentType: ct})
			if rec.Code != 201 {
				t.Fatalf("POST = %d %s", rec.Code, rec.Body)
			}
			m := decodeAs[chatMessageOut](t, rec)
			if m.Message != "see <attached>" || m.FileID == nil || *m.FileName != "pay stub.png" || *m.FileSize != int64(len(png)) || *m.FileType != "image/png" {
				t.Fatalf("message = %+v", m)
			}
			fileID = *m.FileID
			rec = a.send(request{Method: "GET", URL: a.url("jane", fmt.Sprintf("/download-file?fileId=%d", fileID)), Token: jane})
			if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), png) || !strings.HasPrefix(rec.Header().Get("Content-Disposition"), `attachment; filename="pay stub.png"`) {
				t.Errorf("download = %d %q %d bytes", rec.Code, rec.Header().Get("Content-Disposition"), rec.Body.Len())
			}
		})
		t.Run("MultipartFileOnly", func(t *testing.T) {
			body, ct := multipartStream(textPart("message", ""), filePart("a.png", "image/png", png))
			if rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: jane, Body: mustRead(t, body), ContentType: ct}); rec.Code != 201 {
				t.Errorf("POST = %d %s", rec.Code, rec.Body)
			}
		})
		multipartBad := []struct {
			name   string
			parts  []uploadPart
			status int
		}{
			{"MultipartTextOnlyEmptyRefused", []uploadPart{textPart("message", " ")}, 422},
			{"MultipartTextTooLong", []uploadPart{textPart("message", strings.Repeat("x", 5001))}, 422},
			{"MultipartTextFarTooLong", []uploadPart{textPart("message", strings.Repeat("x", 30000))}, 422},
			{"MultipartRefusedType", []uploadPart{textPart("message", "x"), filePart("run.exe", "application/octet-stream", []byte("MZ\x90\x00 program"))}, 415},
			{"MultipartUnknownPart", []uploadPart{textPart("message", "x"), textPart("other", "y")}, 400},
			{"MultipartTwoFiles", []uploadPart{textPart("message", "x"), filePart("a.png", "image/png", png), filePart("b.png", "image/png", png)}, 400},
		}
		for _, tt := range multipartBad {
			t.Run(tt.name, func(t *testing.T) {
				body, ct := multipartStream(tt.parts...)
				if rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: jane, Body: mustRead(t, body), ContentType: ct}); rec.Code != tt.status {
					t.Errorf("POST = %d %s, want %d", rec.Code, rec.Body, tt.status)
				}
			})
		}
		t.Run("DownloadOfNoAttachmentNotFound", func(t *testing.T) {
			for _, q := range []string{"", "?fileId=abc", "?fileId=-1", "?fileId=999999"} {
				if rec := a.send(request{Method: "GET", URL: a.url("jane", "/download-file"+q), Token: jane}); rec.Code != 404 {
					t.Errorf("download %q = %d %s", q, rec.Code, rec.Body)
				}
			}
			if rec := a.send(request{Method: "GET", URL: a.url("bob", fmt.Sprintf("/download-file?fileId=%d", fileID)), Token: a.tokens["bob"]}); rec.Code != 404 {
				t.Errorf("bob downloading jane's attachment = %d", rec.Code)
			}
		})
		t.Run("UnreadAndRead", func(t *testing.T) {
			a.reply("one")
			a.reply("two")
			rec := a.send(request{Method: "GET", URL: a.url("jane", "/unread-messages"), Token: jane})
			if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"unreadMessages":2}` {
				t.Errorf("unread = %d %s", rec.Code, rec.Body)
			}
			rec = a.send(request{Method: "POST", URL: a.url("jane", "/read"), Token: jane, Body: map[string]any{"profileId": a.profiles["jane"]}})
			if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"unreadMessages":0}` {
				t.Errorf("read = %d %s", rec.Code, rec.Body)
			}
			rec = a.send(request{Method: "GET", URL: a.url("jane", "/unread-messages"), Token: jane})
			if strings.TrimSpace(rec.Body.String()) != `{"unreadMessages":0}` {
				t.Errorf("unread after read = %s", rec.Body)
			}
			list := decodeAs[struct{ Payload []chatMessageOut }](t, a.send(request{Method: "GET", URL: a.url("jane", ""), Token: jane}))
			last := list.Payload[len(list.Payload)-1]
			if last.Sender != "employer" || last.SenderName != "Acme" || last.ReadAt == nil {
				t.Errorf("the employer's last message = %+v", last)
			}
		})
		for _, route := range []struct{ method, rest string }{
			{"GET", ""}, {"POST", ""}, {"GET", "/unread-messages"}, {"POST", "/read"}, {"GET", "/download-file?fileId=1"}, {"GET", "/events"},
		} {
			t.Run("Scope"+route.method+strings.ReplaceAll(route.rest, "/", "_"), func(t *testing.T) {
				var body any
				if route.method == "POST" {
					body = map[string]any{"message": "hi"}
				}
				cases := []struct {
					name, token, path string
					status            int
				}{
					{"OtherSubjectsProfile", jane, a.url("bob", route.rest), 404},
					{"ProfileNotANumber", jane, strings.Replace(a.url("jane", route.rest), fmt.Sprint(a.profiles["jane"]), "abc", 1), 404},
					{"ChatOff", a.tokens["carl"], a.url("carl", route.rest), 403},
					{"NoToken", "", a.url("jane", route.rest), 401},
				}
				for _, c := range cases {
					rec := a.send(request{Method: route.method, URL: c.path, Token: c.token, Body: body})
					if rec.Code != c.status {
						t.Errorf("%s: %s %s = %d %s, want %d", c.name, route.method, c.path, rec.Code, rec.Body, c.status)
					}
					if c.status == 403 && !strings.Contains(rec.Body.String(), "Access Denied: You do not have access to that resource.") {
						t.Errorf("%s: 403 body %s", c.name, rec.Body)
					}
				}
			})
		}
	})
}

func mustRead(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sseStream is an open event stream read line by line.
type sseStream struct {
	resp  *http.Response
	lines chan string
}

func openStream(t *testing.T, ts *httptest.Server, path, token string) *sseStream {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("events = %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	s := &sseStream{resp: resp, lines: make(chan string, 100)}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	return s
}

// expect waits for each line in turn (skipping others) within 5 s.
func (s *sseStream) expect(t *testing.T, want ...string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for _, w := range want {
		for found := false; !found; {
			select {
			case line, ok := <-s.lines:
				if !ok {
					t.Fatalf("the stream ended before %q", w)
				}
				found = line == w
			case <-deadline:
				t.Fatalf("no %q within 5 s", w)
			}
		}
	}
}

// ends waits for the stream to end within d.
func (s *sseStream) ends(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case _, ok := <-s.lines:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatalf("the stream still open after %s", d)
		}
	}
}

func TestChatEventStream(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		a := newChatAPI(t, db)
		a.srv.SetChatKeepAlive(100 * time.Millisecond)
		ts := httptest.NewServer(a.handler)
		defer ts.Close()
		a.reply("before the stream")
		s := openStream(t, ts, a.url("jane", "/events"), a.tokens["jane"])
		s.expect(t, "retry: 3000", "event: ready", `data: {"unreadMessages":1}`)
		m := a.reply("hello from Acme")
		s.expect(t, "event: chat", fmt.Sprintf(`data: {"kind":"message","messageId":%d,"sender":"employer"}`, m.ID))
		rec := a.send(request{Method: "POST", URL: a.url("jane", ""), Token: a.tokens["jane"], Body: map[string]any{"message": "thanks"}})
		mine := decodeAs[chatMessageOut](t, rec)
		s.expect(t, "event: chat", fmt.Sprintf(`data: {"kind":"message","messageId":%d,"sender":"subject"}`, mine.ID))
		a.send(request{Method: "POST", URL: a.url("jane", "/read"), Token: a.tokens["jane"], Body: map[string]any{}})
		s.expect(t, "event: chat", `data: {"kind":"read"}`)
		s.expect(t, ": keep-alive")
		t.Run("AnOpenStreamKeepsTheApplicantPresent", func(t *testing.T) {
			// bob has done nothing but open the stream.
			bob := openStream(t, ts, a.url("bob", "/events"), a.tokens["bob"])
			bob.expect(t, "event: ready")
			if _, err := a.ops.Chat.ReplyChat(context.Background(), portal.ChatReply{SubjectID: a.ids["bob"], Message: "no mail: bob is watching"}); err != nil {
				t.Fatal(err)
			}
			mails, _ := db.Outbox(context.Background())
			for _, m := range mails {
				if m.To == "bob@example.com" {
					t.Errorf("a mail went to an applicant with the stream open: %+v", m)
				}
			}
		})
		t.Run("LogoutEndsTheStream", func(t *testing.T) {
			if rec := a.send(request{Method: "DELETE", URL: "/oauth/access_token", Token: a.tokens["jane"]}); rec.Code >= 300 {
				t.Fatalf("logout = %d %s", rec.Code, rec.Body)
			}
			s.ends(t, 5*time.Second)
		})
	})
}

// nextEvent reads the stream's next event as "name data", skipping
// comments, retry lines and blank lines, within 5 s.
func (s *sseStream) nextEvent(t *testing.T) string {
	t.Helper()
	deadline := time.After(5 * time.Second)
	name := ""
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				t.Fatal("the stream ended")
			}
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				return name + " " + strings.TrimPrefix(line, "data: ")
			}
		case <-deadline:
			t.Fatal("no event within 5 s")
		}
	}
}

// TestUserEventStream: the applicant's one stream carries the banner's
// changes for everyone and for their own company (not another's), and the
// chat when their company has it on.
func TestUserEventStream(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a := newChatAPI(t, db)
		a.srv.SetChatKeepAlive(100 * time.Millisecond)
		ts := httptest.NewServer(a.handler)
		t.Cleanup(ts.Close) // after the streams' own cleanups, which close them
		company := func(who string) int64 {
			s, err := db.Subjects().FindSubjectByID(ctx, a.ids[who])
			if err != nil {
				t.Fatal(err)
			}
			return s.CompanyID
		}
		acme, globex := company("jane"), company("carl")
		a.reply("before the stream")
		// On SQLite its event is delivered at the next poll: past it, the
		// streams below see only what follows.
		time.Sleep(2 * store.EventPoll)
		jane := openStream(t, ts, "/api/v2/user/events", a.tokens["jane"])
		carl := openStream(t, ts, "/api/v2/user/events", a.tokens["carl"])
		tests := []struct {
			name       string
			change     func() error
			jane, carl []string // the events each then reads, in order
		}{
			{"ReadySaysWhetherChatIsOn", func() error { return nil },
				[]string{`ready {"chat":true,"unreadMessages":1}`}, []string{`ready {"chat":false}`}},
			{"ABannerForEveryoneReachesEveryone", func() error {
				_, err := a.ops.Banners.PostBanner(ctx, portal.BannerRequest{Message: "Maintenance at 6"})
				return err
			}, []string{`banner {"kind":"posted"}`}, []string{`banner {"kind":"posted"}`}},
			{"ACompanysBannerReachesItsApplicantsOnly", func() error {
				_, err := a.ops.Banners.PostBanner(ctx, portal.BannerRequest{Message: "Acme only", CompanyID: acme})
				return err
			}, []string{`banner {"kind":"posted"}`}, nil},
			{"ClearingAnotherCompanysBannersTellsItsApplicants", func() error { return a.ops.Banners.ClearBanner(ctx, globex, 0) },
				nil, []string{`banner {"kind":"cleared"}`}},
			{"ChatGoesToAnApplicantWithChatOn", func() error { a.reply("hello"); return nil },
				[]string{`chat {"kind":"message","messageId":`}, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if err := tt.change(); err != nil {
					t.Fatal(err)
				}
				for _, want := range tt.jane {
					if got := jane.nextEvent(t); !strings.HasPrefix(got, want) {
						t.Errorf("jane read %s; want %s", got, want)
					}
				}
				for _, want := range tt.carl {
					if got := carl.nextEvent(t); got != want {
						t.Errorf("carl read %s; want %s", got, want)
					}
				}
			})
		}
		t.Run("ASetupCredentialGetsTheBannerAlone", func(t *testing.T) {
			dana, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme, Email: "dana@example.com", FirstName: "Dana", LastName: "Doe"})
			if err != nil {
				t.Fatal(err)
			}
			invite, err := db.Auth().CreateInvitation(ctx, dana.ID)
			if err != nil {
				t.Fatal(err)
			}
			rec := a.send(request{Method: "GET", URL: "/api/user?token=" + url.QueryEscape(invite)})
			if rec.Code != 200 {
				t.Fatalf("token login = %d %s", rec.Code, rec.Body)
			}
			setup := openStream(t, ts, "/api/v2/user/events", decode(t, rec)["access_token"].(string))
			if got := setup.nextEvent(t); got != `ready {"chat":false}` {
				t.Errorf("a setup credential read %s", got)
			}
		})
		t.Run("LogoutEndsTheStream", func(t *testing.T) {
			if rec := a.send(request{Method: "DELETE", URL: "/oauth/access_token", Token: a.tokens["jane"]}); rec.Code >= 300 {
				t.Fatalf("logout = %d %s", rec.Code, rec.Body)
			}
			jane.ends(t, 5*time.Second)
		})
	})
}

func TestChatEventStreamEndsWhenTheTokenExpires(t *testing.T) {
	cfg := storetest.Config(t)
	cfg.AccessTokenTTL = 1500 * time.Millisecond
	a := newChatAPI(t, storetest.OpenSQLite(t, cfg))
	ts := httptest.NewServer(a.handler)
	defer ts.Close()
	s := openStream(t, ts, a.url("jane", "/events"), a.tokens["jane"])
	s.expect(t, "event: ready")
	s.ends(t, 5*time.Second)
}

// TestChatEventStreamsPerApplicantCapped: one applicant's token opened 500
// streams on one server (found by QA), each a connection, a goroutine and
// two queries every keep-alive. An applicant has a few tabs at most; past
// MaxChatStreamsPerApplicant the answer is 429 and the app polls instead.
func TestChatEventStreamsPerApplicantCapped(t *testing.T) {
	a := newChatAPI(t, storetest.OpenSQLite(t, storetest.Config(t)))
	ts := httptest.NewServer(a.handler)
	t.Cleanup(ts.Close) // after the streams' own cleanups, which close them
	status := func(who string) (int, string) {
		req, _ := http.NewRequest("GET", ts.URL+a.url(who, "/events"), nil)
		req.Header.Set("Authorization", "Bearer "+a.tokens[who])
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Retry-After")
	}
	var open []*sseStream
	for range httpapi.MaxChatStreamsPerApplicant {
		s := openStream(t, ts, a.url("jane", "/events"), a.tokens["jane"])
		s.expect(t, "event: ready")
		open = append(open, s)
	}
	t.Run("OneMoreIsTooMany", func(t *testing.T) {
		if code, retry := status("jane"); code != http.StatusTooManyRequests || retry == "" {
			t.Errorf("stream %d = %d, Retry-After %q; want 429 with Retry-After", httpapi.MaxChatStreamsPerApplicant+1, code, retry)
		}
	})
	t.Run("AnotherApplicantIsNotCounted", func(t *testing.T) {
		openStream(t, ts, a.url("bob", "/events"), a.tokens["bob"]).expect(t, "event: ready")
	})
	t.Run("AClosedStreamFreesItsPlace", func(t *testing.T) {
		open[0].resp.Body.Close()
		deadline := time.Now().Add(5 * time.Second)
		for {
			req, _ := http.NewRequest("GET", ts.URL+a.url("jane", "/events"), nil)
			req.Header.Set("Authorization", "Bearer "+a.tokens["jane"])
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("events = %d 5 s after a stream closed", resp.StatusCode)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// TestChatThousandEventStreamsUnder128KiBEach opens 1000 event streams
// through a real server on SQLite and checks that each costs less than 128
// KiB of heap and stack together, both ends of the connection counted
// (48 to 68 KiB measured: the heap's own bookkeeping and what earlier
// tests leave to the collector move it, so the ceiling leaves room for
// that and still catches a buffer or goroutine per stream), and no
// goroutine of its own beyond the
// four of a connection held open (the server's connection and its
// background read, the client's read and write loops).
func TestChatThousandEventStreamsUnder128KiBEach(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1000 connections")
	}
	const streams, perStream = 1000, 128 << 10
	a := newChatAPI(t, storetest.OpenSQLite(t, storetest.Config(t)))
	// One applicant's streams measure what any stream costs.
	a.srv.SetChatStreamsPerApplicant(streams)
	ts := httptest.NewServer(a.handler)
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1}}
	defer client.CloseIdleConnections()
	path, token := ts.URL+a.url("jane", "/events"), a.tokens["jane"]

	measure := func() (mem uint64, goroutines int) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse + ms.StackInuse, runtime.NumGoroutine()
	}
	memBefore, goBefore := measure()
	bodies := make([]io.ReadCloser, streams)
	var wg sync.WaitGroup
	errs := make(chan error, streams)
	sem := make(chan struct{}, 32)
	for i := range streams {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			req, _ := http.NewRequest("GET", path, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := client.Do(req)
			if err != nil {
				errs <- err
				return
			}
			// Read up to the ready event, so the stream is fully open.
			br := bufio.NewReaderSize(resp.Body, 128)
			for {
				line, err := br.ReadString('\n')
				if err != nil {
					errs <- fmt.Errorf("stream %d: %v", i, err)
					resp.Body.Close()
					return
				}
				if strings.HasPrefix(line, "data: ") {
					break
				}
			}
			bodies[i] = resp.Body
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	memOpen, goOpen := measure()
	for _, b := range bodies {
		b.Close()
	}
	perMem := (int64(memOpen) - int64(memBefore)) / streams
	perGo := float64(goOpen-goBefore) / streams
	t.Logf("%d streams: %d bytes and %.1f goroutines each", streams, perMem, perGo)
	if perMem >= perStream {
		t.Errorf("each stream holds %d bytes, want under %d", perMem, perStream)
	}
	if perGo > 4 {
		t.Errorf("each stream runs %.1f goroutines, want at most 4 (server and client ends together)", perGo)
	}
}
