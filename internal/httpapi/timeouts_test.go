package httpapi_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
)

// testTimeouts are DefaultTimeouts shrunk so the tests run in a second.
var testTimeouts = httpapi.Timeouts{ReadHeader: 300 * time.Millisecond, ReadBody: 400 * time.Millisecond,
	Write: 400 * time.Millisecond, Idle: time.Second}

// serveWithTimeouts runs handler behind NewHTTPServer on a free port.
func serveWithTimeouts(t *testing.T, handler http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.NewHTTPServer(handler, testTimeouts, nil)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// trickle writes parts to conn one at a time, every gap, until one fails.
func trickle(conn net.Conn, gap time.Duration, parts ...string) {
	for _, p := range parts {
		if _, err := conn.Write([]byte(p)); err != nil {
			return
		}
		time.Sleep(gap)
	}
}

func TestSlowHeadersAreCut(t *testing.T) {
	addr := serveWithTimeouts(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("a request whose headers never ended reached the handler")
	}))
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// One header line every 100 ms, for 3 s: far past ReadHeader.
	var lines []string
	lines = append(lines, "GET / HTTP/1.1\r\nHost: portal\r\n")
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("X-Slow-%d: 1\r\n", i))
	}
	start := time.Now()
	go trickle(conn, 100*time.Millisecond, lines...)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	io.Copy(io.Discard, conn) // returns when the server closes the connection
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the server held a trickling client %s; want it cut after about %s", took, testTimeouts.ReadHeader)
	}
}

func TestSlowBodyIsCut(t *testing.T) {
	readErr := make(chan error, 1)
	addr := serveWithTimeouts(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		readErr <- err
	}))
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	// 1000 bytes announced, 10 sent every 100 ms: 10 s in all.
	parts := []string{"POST /upload HTTP/1.1\r\nHost: portal\r\nContent-Length: 1000\r\n\r\n"}
	for range 100 {
		parts = append(parts, strings.Repeat("x", 10))
	}
	go trickle(conn, 100*time.Millisecond, parts...)
	select {
	case err := <-readErr:
		if err == nil {
			t.Fatal("the whole slow body was read; want the read deadline to cut it")
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("the body read ended after %s; want about %s", took, testTimeouts.ReadBody)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler is still reading a body trickling in")
	}
}

func TestStreamOutlivesTheWriteTimeout(t *testing.T) {
	const ticks = 12 // every 100 ms: three times the write timeout
	stream := func(lift bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if lift {
				if err := httpapi.Stream(w); err != nil {
					t.Errorf("Stream: %v", err)
				}
			}
			w.Header().Set("Content-Type", "text/event-stream")
			rc := http.NewResponseController(w)
			for i := range ticks {
				if _, err := fmt.Fprintf(w, "data: %d\n\n", i); err != nil {
					return
				}
				if err := rc.Flush(); err != nil {
					return
				}
				select {
				case <-r.Context().Done():
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		}
	}
	count := func(t *testing.T, addr string) int {
		t.Helper()
		res, err := http.Get("http://" + addr + "/events")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		n := 0
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				n++
			}
		}
		return n
	}
	t.Run("StreamLiftsTheDeadline", func(t *testing.T) {
		if got := count(t, serveWithTimeouts(t, stream(true))); got != ticks {
			t.Errorf("received %d events, want all %d", got, ticks)
		}
	})
	t.Run("OtherAnswersKeepIt", func(t *testing.T) {
		if got := count(t, serveWithTimeouts(t, stream(false))); got >= ticks {
			t.Errorf("received all %d events past the write timeout; want the answer cut", got)
		}
	})
}
