package idvsandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
)

const returnURL = "https://portal.example.com/idv/success"

// pageVisit is an applicant's browser on the sandbox's pages.
type pageVisit struct {
	t       *testing.T
	p       *idvsandbox.Provider
	handler http.Handler
	id      string
	token   string
}

func newVisit(t *testing.T, p *idvsandbox.Provider) *pageVisit {
	t.Helper()
	s, err := p.CreateSession(context.Background(), portal.IDVSessionRequest{Reference: "subject-1", ReturnURL: returnURL})
	if err != nil {
		t.Fatal(err)
	}
	return &pageVisit{t: t, p: p, handler: p.Handler(), id: s.ID, token: s.Token}
}

func (v *pageVisit) get(path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	v.handler.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec
}

func (v *pageVisit) page() *httptest.ResponseRecorder {
	return v.get("/sandbox/idv/" + v.id + "?token=" + url.QueryEscape(v.token))
}

// submit posts a plain form (the sample and outcome buttons).
func (v *pageVisit) submit(action string, fields url.Values) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/sandbox/idv/"+v.id+"/"+action, strings.NewReader(fields.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	v.handler.ServeHTTP(rec, req)
	return rec
}

// upload posts a photo as the file input's form does.
func (v *pageVisit) upload(action, token string, photo []byte) *httptest.ResponseRecorder {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("token", token)
	fw, _ := mw.CreateFormFile("file", "photo.jpg")
	fw.Write(photo)
	mw.Close()
	req := httptest.NewRequest("POST", "/sandbox/idv/"+v.id+"/"+action, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	v.handler.ServeHTTP(rec, req)
	return rec
}

// wantBack checks a step answered 303 back to the page, with error when
// the page should name a problem.
func (v *pageVisit) wantBack(rec *httptest.ResponseRecorder, problem string) {
	v.t.Helper()
	want := "/sandbox/idv/" + v.id + "?token=" + url.QueryEscape(v.token)
	if problem != "" {
		want += "&error=" + problem
	}
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want {
		v.t.Fatalf("answer %d to %q; want 303 to %q", rec.Code, rec.Header().Get("Location"), want)
	}
}

func (v *pageVisit) wantPage(status int, contains ...string) string {
	v.t.Helper()
	rec := v.page()
	body := rec.Body.String()
	if rec.Code != status {
		v.t.Fatalf("page answered %d; want %d:\n%s", rec.Code, status, body)
	}
	for _, c := range contains {
		if !strings.Contains(body, c) {
			v.t.Errorf("page lacks %q:\n%s", c, body)
		}
	}
	return body
}

func (v *pageVisit) state() portal.IDVState {
	v.t.Helper()
	st, err := v.p.SessionState(context.Background(), v.id)
	if err != nil {
		v.t.Fatal(err)
	}
	return st
}

// throughSteps sends the sample document and selfie.
func (v *pageVisit) throughSteps() {
	v.t.Helper()
	v.wantBack(v.submit("document", url.Values{"token": {v.token}, "sample": {"1"}}), "")
	v.wantBack(v.submit("selfie", url.Values{"token": {v.token}, "sample": {"1"}}), "")
}

var (
	jpegPhoto = append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, bytes.Repeat([]byte{1}, 2000)...)
	pngPhoto  = append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{2}, 2000)...)
	heicPhoto = append([]byte("\x00\x00\x00\x18ftypheic"), bytes.Repeat([]byte{3}, 2000)...)
)

func TestPageSteps(t *testing.T) {
	c := newClock()
	v := newVisit(t, newProvider(c))
	// Every step tells the framing portal (and only the portal's origin) its height.
	body := v.wantPage(http.StatusOK, "Step 1 of 3", `accept="image/*"`, `capture="environment"`, "Use sample document",
		"Sandbox: no real verification happens", `<label for="file">`, `src="/sandbox/idv/assets/frame-size.js"`,
		`data-parent-origin="https://portal.example.com"`)
	if strings.Contains(body, "finished.js") {
		t.Error("an open session's page runs the finished script")
	}

	t.Run("NotAnImageIsRefused", func(t *testing.T) {
		v.wantBack(v.upload("document", v.token, []byte("<html><script>alert(1)</script></html>")), "notimage")
		rec := v.get("/sandbox/idv/" + v.id + "?token=" + url.QueryEscape(v.token) + "&error=notimage")
		if !strings.Contains(rec.Body.String(), `role="alert"`) || !strings.Contains(rec.Body.String(), "This file is not an image") ||
			!strings.Contains(rec.Body.String(), `aria-describedby="file-error file-hint"`) {
			t.Errorf("page with error=notimage:\n%s", rec.Body.String())
		}
	})
	t.Run("EmptyFileIsRefused", func(t *testing.T) {
		v.wantBack(v.upload("document", v.token, nil), "missing")
	})
	t.Run("TooLargeIsRefused", func(t *testing.T) {
		v.wantBack(v.upload("document", v.token, append(jpegPhoto, make([]byte, idvsandbox.MaxPhotoSize)...)), "toolarge")
	})
	t.Run("ApproveBeforeTheStepsIsRefused", func(t *testing.T) {
		v.wantBack(v.submit("approve", url.Values{"token": {v.token}}), "order")
		if st := v.state(); st.Status != portal.IDVActive {
			t.Errorf("state = %+v; want active", st)
		}
	})
	t.Run("WrongTokenCannotAct", func(t *testing.T) {
		if rec := v.upload("document", "wrong", jpegPhoto); rec.Code != http.StatusForbidden {
			t.Errorf("upload with a wrong token answered %d; want 403", rec.Code)
		}
		if rec := v.submit("abandon", url.Values{"token": {"wrong"}}); rec.Code != http.StatusForbidden {
			t.Errorf("abandon with a wrong token answered %d; want 403", rec.Code)
		}
	})
	t.Run("UploadedDocumentMovesToSelfie", func(t *testing.T) {
		v.wantBack(v.upload("document", v.token, pngPhoto), "")
		v.wantPage(http.StatusOK, "Step 2 of 3", `capture="user"`, "Use sample selfie")
	})
	t.Run("UploadedSelfieMovesToReview", func(t *testing.T) {
		v.wantBack(v.upload("selfie", v.token, heicPhoto), "")
		v.wantPage(http.StatusOK, "Step 3 of 3", "Approve (test outcome)", "Decline (test outcome)", "Abandon the session (test outcome)")
	})
	if st := v.state(); st.Status != portal.IDVActive {
		t.Errorf("state after the steps = %+v; want active", st)
	}
}

func TestPageOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		action  string
		after   time.Duration
		want    portal.IDVState
		heading string
	}{
		{"ApproveIsCompletedByUserAtOnce", "approve", 0, portal.IDVState{Status: portal.IDVCompletedByUser}, "Thank you, you are done"},
		{"ApproveIsCheckedAfterTheDelay", "approve", testDelay, portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved}, "Thank you"},
		{"ApproveIsDataCompletedAfterTwoDelays", "approve", 2 * testDelay, portal.IDVState{Status: portal.IDVDataCompleted, Decision: portal.IDVApproved}, "Thank you"},
		{"ApprovedNeverExpires", "approve", 2 * testTTL, portal.IDVState{Status: portal.IDVDataCompleted, Decision: portal.IDVApproved}, "Thank you"},
		{"DeclineIsCheckedAndDeclinedAtOnce", "decline", 0, portal.IDVState{Status: portal.IDVCheckCompleted, Decision: portal.IDVDeclined}, "Verification not successful"},
		{"AbandonIsExpired", "abandon", 0, portal.IDVState{Status: portal.IDVExpired}, "Verification stopped"},
		{"UntouchedExpiresAfterTheTTL", "", testTTL, portal.IDVState{Status: portal.IDVExpired}, "This session has expired"},
		{"UntouchedIsActiveBeforeTheTTL", "", testTTL - time.Second, portal.IDVState{Status: portal.IDVActive}, "Step 1 of 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			v := newVisit(t, newProvider(c))
			if tt.action != "" {
				if tt.action != "abandon" {
					v.throughSteps()
				}
				v.wantBack(v.submit(tt.action, url.Values{"token": {v.token}}), "")
			}
			c.advance(tt.after)
			if got := v.state(); got != tt.want {
				t.Errorf("state = %+v; want %+v", got, tt.want)
			}
			status := http.StatusOK
			if tt.name == "UntouchedExpiresAfterTheTTL" {
				status = http.StatusGone
			}
			body := v.wantPage(status, tt.heading)
			if tt.want.Status == portal.IDVActive {
				return
			}
			for _, want := range []string{`src="/sandbox/idv/assets/finished.js"`, `data-session-id="` + v.id + `"`,
				`data-parent-origin="https://portal.example.com"`, `href="` + returnURL + `?session=` + v.id + `" target="_top"`} {
				if !strings.Contains(body, want) {
					t.Errorf("finished page lacks %q:\n%s", want, body)
				}
			}
			// A closed session takes no more steps; the page shows how
			// it ended.
			v.wantBack(v.submit("approve", url.Values{"token": {v.token}}), "")
			if got := v.state(); got != tt.want {
				t.Errorf("state after a late approve = %+v; want %+v", got, tt.want)
			}
		})
	}
}

func TestPageAccess(t *testing.T) {
	c := newClock()
	v := newVisit(t, newProvider(c))
	tests := []struct {
		name     string
		path     string
		want     int
		contains string
	}{
		{"NoToken", "/sandbox/idv/" + v.id, http.StatusForbidden, "This link is not valid"},
		{"WrongToken", "/sandbox/idv/" + v.id + "?token=" + url.QueryEscape(v.token[1:]+"x"), http.StatusForbidden, "This link is not valid"},
		{"UnknownSession", "/sandbox/idv/idv_aaaaaaaaaaaaaaaaaaaa?token=" + url.QueryEscape(v.token), http.StatusNotFound, "Session not found"},
		{"OtherPath", "/sandbox/other", http.StatusNotFound, "Page not found"},
		{"Stylesheet", "/sandbox/idv/assets/idv.css", http.StatusOK, ":focus-visible"},
		{"FinishedScript", "/sandbox/idv/assets/finished.js", http.StatusOK, `type: "idv:finished"`},
		{"FrameSizeScript", "/sandbox/idv/assets/frame-size.js", http.StatusOK, `type: "idv:height"`},
		{"UnknownAsset", "/sandbox/idv/assets/other.js", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := v.get(tt.path)
			if rec.Code != tt.want || !strings.Contains(rec.Body.String(), tt.contains) {
				t.Errorf("GET %s = %d:\n%s\nwant %d with %q", tt.path, rec.Code, rec.Body.String(), tt.want, tt.contains)
			}
		})
	}
	if cc := v.page().Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("page Cache-Control = %q; want no-store (its address holds the token)", cc)
	}
}

// callbackSink is the portal's callback endpoint, checking signatures
// with the provider as the portal does.
type callbackSink struct {
	mu    sync.Mutex
	p     *idvsandbox.Provider
	got   []portal.IDVCallback
	bad   int
	count chan struct{}
}

func (s *callbackSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	cb, err := s.p.VerifyCallback(r.Header.Get(idvsandbox.SignatureHeader), body)
	s.mu.Lock()
	if err != nil {
		s.bad++
	} else {
		s.got = append(s.got, cb)
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
	s.count <- struct{}{}
}

func TestCallbacksFollowTheStatuses(t *testing.T) {
	sink := &callbackSink{count: make(chan struct{}, 10)}
	srv := httptest.NewServer(sink)
	defer srv.Close()
	const delay = 30 * time.Millisecond
	p := idvsandbox.New(idvsandbox.Config{Records: newMemRecords(time.Now), Secret: testSecret, CallbackURL: srv.URL,
		SessionTTL: testTTL, CheckDelay: delay, HTTPClient: srv.Client()})
	sink.p = p
	v := newVisit(t, p)
	v.throughSteps()
	v.wantBack(v.submit("approve", url.Values{"token": {v.token}}), "")
	for range 3 {
		select {
		case <-sink.count:
		case <-time.After(5 * time.Second):
			t.Fatal("fewer than three callbacks arrived")
		}
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	want := []portal.IDVState{{Status: portal.IDVCompletedByUser}, {Status: portal.IDVCheckCompleted, Decision: portal.IDVApproved},
		{Status: portal.IDVDataCompleted, Decision: portal.IDVApproved}}
	if sink.bad != 0 || len(sink.got) != 3 {
		t.Fatalf("callbacks %+v, %d badly signed; want 3 signed", sink.got, sink.bad)
	}
	for i, cb := range sink.got {
		if cb.SessionID != v.id || cb.IDVState != want[i] {
			b, _ := json.Marshal(sink.got)
			t.Errorf("callbacks = %s; want %+v in order", b, want)
			break
		}
	}
}

func TestCallbackFailureIsOnlyLogged(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	p := idvsandbox.New(idvsandbox.Config{Records: newMemRecords(time.Now), Secret: testSecret, CallbackURL: srv.URL,
		SessionTTL: testTTL, CheckDelay: time.Hour})
	v := newVisit(t, p)
	v.throughSteps()
	v.wantBack(v.submit("decline", url.Values{"token": {v.token}}), "")
	if st := v.state(); st.Decision != portal.IDVDeclined {
		t.Errorf("state = %+v; want declined whatever the callback's fate", st)
	}
}
