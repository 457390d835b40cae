package httpapi_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"applicantportal/internal/httpapi"
	"applicantportal/web"
)

// countingWriter is a ResponseWriter that keeps only the headers and counts the
// body's bytes, so the benchmark measures the server, not a recorder. Like
// net/http's, it copies a streamed body through a buffer it reuses.
type countingWriter struct {
	h     http.Header
	bytes int
	buf   []byte
}

func (d *countingWriter) ReadFrom(r io.Reader) (int64, error) {
	if d.buf == nil {
		d.buf = make([]byte, 32<<10)
	}
	return io.CopyBuffer(struct{ io.Writer }{d}, r, d.buf)
}

func (d *countingWriter) Header() http.Header         { return d.h }
func (d *countingWriter) WriteHeader(int)             {}
func (d *countingWriter) Write(b []byte) (int, error) { d.bytes += len(b); return len(b), nil }

// BenchmarkServeApp measures what a browser's first visit to /login costs
// the server per file: the page and the entry script of the embedded
// build, with the Accept-Encoding Chromium sends. wire-B/op is the body's
// size as sent.
func BenchmarkServeApp(b *testing.B) {
	dist := web.Dist()
	index, err := fs.ReadFile(dist, "index.html")
	if err != nil {
		b.Skip("web/dist holds no build")
	}
	entry := regexp.MustCompile(`/assets/index-[^"]+\.js`).Find(index)
	if entry == nil {
		b.Skip("web/dist holds no entry script")
	}
	srv, err := httpapi.New(httpapi.Config{ClientID: "portal-spa", ClientSecret: "secret"}, httpapi.Services{}, dist, nil)
	if err != nil {
		b.Fatal(err)
	}
	handler := srv.Handler()
	for _, page := range []struct{ name, url string }{{"Index", "/login"}, {"EntryScript", string(entry)}} {
		b.Run(page.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", page.url, nil)
			req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
			w := &countingWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				w.bytes = 0
				handler.ServeHTTP(w, req)
			}
			if w.bytes == 0 {
				b.Fatal("empty answer")
			}
			b.ReportMetric(float64(w.bytes), "wire-B/op")
		})
	}
}
