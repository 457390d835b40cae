package httpapi

import (
	"io"
	"log"
	"net/http"
	"time"
)

// Timeouts bound what one connection and one request may take. They are
// per request, not the http.Server's ReadTimeout and WriteTimeout: those
// cover every request of the connection alike, so they would cut a
// long-lived event stream (the chat's server-sent events) along with the
// slow clients they are meant for.
type Timeouts struct {
	// ReadHeader: a request's headers must arrive within this (a client
	// trickling headers, "slowloris", holds a connection otherwise).
	ReadHeader time.Duration
	// ReadBody: a request's body must arrive within this from the end of
	// its headers.
	ReadBody time.Duration
	// Write: the answer must be written within this from the end of the
	// headers, unless its handler calls Stream.
	Write time.Duration
	// Idle: how long a kept-alive connection waits for its next request.
	Idle time.Duration
}

// DefaultTimeouts are generous for uploads of 20 MB on a slow phone link and
// short enough that idle or trickling clients do not pile up.
func DefaultTimeouts() Timeouts {
	return Timeouts{ReadHeader: 10 * time.Second, ReadBody: 60 * time.Second, Write: 60 * time.Second, Idle: 120 * time.Second}
}

// NewHTTPServer is the http.Server for handler with the timeouts t: the
// header and idle timeouts on the connection, the body and write deadlines
// set on each request, where a stream can lift them (Stream).
func NewHTTPServer(handler http.Handler, t Timeouts, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           requestDeadlines(t, handler),
		ReadHeaderTimeout: t.ReadHeader,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          errorLog,
	}
}

// requestDeadlines sets the request's read and write deadlines on the
// connection. A connection that does not support deadlines (a test's
// recorder) keeps none.
func requestDeadlines(t Timeouts, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		now := time.Now()
		if t.ReadBody > 0 {
			rc.SetReadDeadline(now.Add(t.ReadBody))
		}
		if t.Write > 0 {
			rc.SetWriteDeadline(now.Add(t.Write))
		}
		next.ServeHTTP(w, r)
	})
}

// Stream lifts the request's deadlines for a long-lived answer (an event
// stream): the handler then ends when its request's context does (the
// client leaves or the server shuts down). The read deadline goes too:
// once the body is read, the server watches the connection for the
// client leaving, and a deadline there would end the stream as if it had.
func Stream(w http.ResponseWriter) error {
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Time{}); err != nil {
		return err
	}
	return rc.SetWriteDeadline(time.Time{})
}

// An upload's body may take as long as it keeps arriving: a 20 MB photo
// from a phone on a weak signal takes minutes, more than the body timeout
// of other requests. A body that stalls for UploadStall, or still arrives
// after UploadLimit, is cut.
const (
	UploadStall = 30 * time.Second
	UploadLimit = 15 * time.Minute
)

// keepArriving moves the body's read deadline UploadStall ahead at every
// read, up to UploadLimit from now, and the answer's write deadline past
// that. A connection without deadlines (a test's recorder) is left as is.
func keepArriving(w http.ResponseWriter, body io.ReadCloser) io.ReadCloser {
	rc := http.NewResponseController(w)
	end := time.Now().Add(UploadLimit)
	rc.SetWriteDeadline(end.Add(UploadStall))
	return &arrivingBody{ReadCloser: body, rc: rc, end: end}
}

type arrivingBody struct {
	io.ReadCloser
	rc  *http.ResponseController
	end time.Time
}

func (b *arrivingBody) Read(p []byte) (int, error) {
	deadline := time.Now().Add(UploadStall)
	if deadline.After(b.end) {
		deadline = b.end
	}
	b.rc.SetReadDeadline(deadline)
	return b.ReadCloser.Read(p)
}
