package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"applicantportal/internal/httpapi"
)

// countingFS counts how often each file's content is read.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	reads map[string]int
}

type countingFile struct {
	fs.File
	name  string
	owner *countingFS
	read  bool
}

func (c *countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, name: name, owner: c}, nil
}

func (f *countingFile) Read(b []byte) (int, error) {
	if !f.read {
		f.read = true
		f.owner.mu.Lock()
		f.owner.reads[f.name]++
		f.owner.mu.Unlock()
	}
	return f.File.Read(b)
}

// Seek lets the server stream a file as it does with the embedded files.
func (f *countingFile) Seek(offset int64, whence int) (int64, error) {
	return f.File.(io.Seeker).Seek(offset, whence)
}

var (
	appScript = strings.Repeat("export function hello(name) { return `Hello, ${name}`; }\n", 200)
	appStyles = strings.Repeat(".card { padding: 16px; color: var(--text); }\n", 100)
	appLogo   = `<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat(`<rect width="1" height="1"/>`, 50) + `</svg>`
	appImage  = string(bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 100))
	appIndex  = `<!doctype html><html><head><meta name="portal-config" content="__PORTAL_CONFIG__"><title>Applicant Portal</title>` +
		strings.Repeat(`<link rel="modulepreload" href="/assets/chunk.js">`, 20) + `</head><body><div id="root"></div></body></html>`
)

func newAppServer(t *testing.T, cfg httpapi.Config) (*httpapi.Server, *countingFS) {
	t.Helper()
	web := &countingFS{FS: fstest.MapFS{
		"index.html":              {Data: []byte(appIndex)},
		"assets/index-abc123.js":  {Data: []byte(appScript)},
		"assets/index-abc123.css": {Data: []byte(appStyles)},
		"assets/logo-abc123.svg":  {Data: []byte(appLogo)},
		"assets/photo-abc123.png": {Data: []byte(appImage)},
		"assets/tiny-abc123.js":   {Data: []byte(`1`)},
		"favicon.svg":             {Data: []byte(appLogo)},
	}, reads: map[string]int{}}
	if cfg.ClientID == "" {
		cfg.ClientID, cfg.ClientSecret = clientID, clientSecret
	}
	srv, err := httpapi.New(cfg, httpapi.Services{}, web, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, web
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestAppFilesAreServedGzipped(t *testing.T) {
	srv, web := newAppServer(t, httpapi.Config{})
	handler := srv.Handler()
	immutable := "public, max-age=31536000, immutable"
	tests := []struct {
		Name           string
		Method, URL    string
		AcceptEncoding string
		WantGzip       bool
		WantVary       bool
		WantType       string
		WantCache      string
		WantBody       string // decoded; empty with "index" means the rendered index
	}{
		{"ScriptGzipped", "GET", "/assets/index-abc123.js", "gzip, deflate, br", true, true, "text/javascript; charset=utf-8", immutable, appScript},
		{"StylesGzipped", "GET", "/assets/index-abc123.css", "gzip", true, true, "text/css; charset=utf-8", immutable, appStyles},
		{"SVGGzipped", "GET", "/assets/logo-abc123.svg", "br;q=1.0, gzip;q=0.8", true, true, "image/svg+xml", immutable, appLogo},
		{"UnhashedFileGzippedButRevalidated", "GET", "/favicon.svg", "gzip", true, true, "image/svg+xml", "no-cache", appLogo},
		{"ScriptWithoutAcceptEncoding", "GET", "/assets/index-abc123.js", "", false, true, "text/javascript; charset=utf-8", immutable, appScript},
		{"GzipRefusedWithQZero", "GET", "/assets/index-abc123.js", "gzip;q=0, identity", false, true, "text/javascript; charset=utf-8", immutable, appScript},
		{"StarAcceptsGzip", "GET", "/assets/index-abc123.js", "*", true, true, "text/javascript; charset=utf-8", immutable, appScript},
		{"ImageNeverGzipped", "GET", "/assets/photo-abc123.png", "gzip", false, false, "image/png", immutable, appImage},
		{"TinyFileLeftAsIs", "GET", "/assets/tiny-abc123.js", "gzip", false, false, "text/javascript; charset=utf-8", immutable, "1"},
		{"IndexGzippedNeverCached", "GET", "/", "gzip", true, true, "text/html; charset=utf-8", "no-store", "index"},
		{"DeepLinkIndexGzipped", "GET", "/setup?token=abc", "gzip", true, true, "text/html; charset=utf-8", "no-store", "index"},
		{"IndexWithoutAcceptEncoding", "GET", "/login", "", false, true, "text/html; charset=utf-8", "no-store", "index"},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			req := httptest.NewRequest(tt.Method, tt.URL, nil)
			if tt.AcceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tt.AcceptEncoding)
			}
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, req)
			if rec.Code != 200 {
				t.Fatalf("status = %d; want 200", rec.Code)
			}
			h := rec.Header()
			if got := h.Get("Content-Encoding") == "gzip"; got != tt.WantGzip {
				t.Errorf("Content-Encoding = %q; want gzip %v", h.Get("Content-Encoding"), tt.WantGzip)
			}
			if got := h.Get("Vary") == "Accept-Encoding"; got != tt.WantVary {
				t.Errorf("Vary = %q; want Accept-Encoding %v", h.Get("Vary"), tt.WantVary)
			}
			if h.Get("Content-Type") != tt.WantType {
				t.Errorf("Content-Type = %q; want %q", h.Get("Content-Type"), tt.WantType)
			}
			if h.Get("Cache-Control") != tt.WantCache {
				t.Errorf("Cache-Control = %q; want %q", h.Get("Cache-Control"), tt.WantCache)
			}
			body := rec.Body.String()
			if tt.WantGzip {
				if rec.Body.Len() >= len(tt.WantBody) && tt.WantBody != "index" {
					t.Errorf("gzipped body is %d bytes, the file %d", rec.Body.Len(), len(tt.WantBody))
				}
				body = gunzip(t, rec.Body.Bytes())
			}
			if h.Get("Content-Length") == "" {
				t.Errorf("no Content-Length")
			}
			if tt.WantBody == "index" {
				if !strings.Contains(body, "<title>Applicant Portal</title>") || strings.Contains(body, "__PORTAL_CONFIG__") {
					t.Errorf("body = %q; want the rendered index.html", body)
				}
				return
			}
			if body != tt.WantBody {
				t.Errorf("body differs from the file (%d bytes; want %d)", len(body), len(tt.WantBody))
			}
		})
	}

	t.Run("EachFileReadAndCompressedOnce", func(t *testing.T) {
		for i := 0; i < 3; i++ {
			req := httptest.NewRequest("GET", "/assets/index-abc123.css", nil)
			req.Header.Set("Accept-Encoding", "gzip")
			handler.ServeHTTP(httptest.NewRecorder(), req)
		}
		web.mu.Lock()
		defer web.mu.Unlock()
		if web.reads["assets/index-abc123.css"] != 1 {
			t.Errorf("assets/index-abc123.css read %d times; want once", web.reads["assets/index-abc123.css"])
		}
	})

	t.Run("HeadAnswersNoBody", func(t *testing.T) {
		req := httptest.NewRequest("HEAD", "/assets/index-abc123.js", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("HEAD = %d, %d bytes, encoding %q", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Encoding"))
		}
	})

	t.Run("MissingAssetStill404", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/assets/gone-000000.js", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != 404 || rec.Header().Get("Content-Encoding") != "" {
			t.Errorf("missing asset = %d encoding %q; want a plain 404", rec.Code, rec.Header().Get("Content-Encoding"))
		}
	})
}

func indexConfig(t *testing.T, srv *httpapi.Server) string {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	return rec.Body.String()
}

// TestUnknownPathsAre404 checks the app's page is answered with 404 for a
// path the app's route table does not have, so links that lead nowhere are
// real 404s, and with 200 for the app's paths, a printable document of any
// type included (the types are loaded with the documents).
func TestUnknownPathsAre404(t *testing.T) {
	srv, _ := newAppServer(t, httpapi.Config{})
	handler := srv.Handler()
	tests := []struct {
		Name, Method, URL string
		WantStatus        int
	}{
		{"Login", "GET", "/login", 200},
		{"SetupWithToken", "GET", "/setup?token=abc", 200},
		{"Home", "GET", "/", 200},
		{"RegisterWithToken", "GET", "/register/abc123", 200},
		{"IDVSuccess", "GET", "/idv/success", 200},
		{"PrintKnownDocument", "GET", "/print/disclosure", 200},
		{"PrintDynamicDocument", "GET", "/print/a-document-type-of-tomorrow", 200},
		{"TrailingSlash", "GET", "/profile/", 200},
		{"UnknownPath", "GET", "/no-such-page", 404},
		{"UnknownPathHead", "HEAD", "/no-such-page", 404},
		{"BarePrint", "GET", "/print", 404},
		{"PrintTooDeep", "GET", "/print/disclosure/2", 404},
		{"UnknownUnderKnown", "GET", "/profile/extra", 404},
		{"IndexByName", "GET", "/index.html", 404},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			req := httptest.NewRequest(tt.Method, tt.URL, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, req)
			if rec.Code != tt.WantStatus {
				t.Fatalf("status = %d; want %d", rec.Code, tt.WantStatus)
			}
			h := rec.Header()
			if h.Get("Content-Type") != "text/html; charset=utf-8" || h.Get("Cache-Control") != "no-store" {
				t.Errorf("Content-Type %q, Cache-Control %q; want the app's page, never cached", h.Get("Content-Type"), h.Get("Cache-Control"))
			}
			if tt.Method == "HEAD" {
				if rec.Body.Len() != 0 {
					t.Errorf("HEAD answered %d bytes", rec.Body.Len())
				}
				return
			}
			// The app itself says "Page not found": the body is its page either way.
			if body := gunzip(t, rec.Body.Bytes()); !strings.Contains(body, "<title>Applicant Portal</title>") {
				t.Errorf("body = %q; want the rendered index.html", body)
			}
		})
	}
}

func TestAPIBaseURLReachesTheApp(t *testing.T) {
	t.Run("DefaultIsRoot", func(t *testing.T) {
		srv, _ := newAppServer(t, httpapi.Config{})
		if body := indexConfig(t, srv); !strings.Contains(body, "&#34;apiBaseUrl&#34;:&#34;/&#34;") {
			t.Errorf("index = %s; want apiBaseUrl /", body)
		}
	})
	t.Run("PathPrefix", func(t *testing.T) {
		srv, _ := newAppServer(t, httpapi.Config{APIBaseURL: "/portal/"})
		if body := indexConfig(t, srv); !strings.Contains(body, "&#34;apiBaseUrl&#34;:&#34;/portal/&#34;") {
			t.Errorf("index = %s; want apiBaseUrl /portal/", body)
		}
	})
	t.Run("OtherOriginAllowedToConnect", func(t *testing.T) {
		srv, _ := newAppServer(t, httpapi.Config{APIBaseURL: "https://api.example.com/portal/"})
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		if !strings.Contains(rec.Body.String(), "&#34;apiBaseUrl&#34;:&#34;https://api.example.com/portal/&#34;") {
			t.Errorf("index = %s", rec.Body.String())
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' https://api.example.com;") {
			t.Errorf("CSP = %q; want connect-src to allow https://api.example.com", csp)
		}
	})
	for _, bad := range []string{"portal/", "ftp://files.example.com/", "https://api.example.com/?x=1", "//api.example.com/"} {
		t.Run("Refuses "+bad, func(t *testing.T) {
			if _, err := httpapi.New(httpapi.Config{APIBaseURL: bad}, httpapi.Services{}, fstest.MapFS{"index.html": {Data: []byte(appIndex)}}, nil); err == nil {
				t.Errorf("New with APIBaseURL %q succeeded; want an error", bad)
			}
		})
	}
}

func TestChatWidgetURLReachesTheApp(t *testing.T) {
	tests := []struct {
		name string
		url  string
		want string
	}{
		{"NoneIsEmpty", "", "&#34;chatWidgetUrl&#34;:&#34;&#34;"},
		{"Set", "https://widget.example.net/v2/loader.js", "&#34;chatWidgetUrl&#34;:&#34;https://widget.example.net/v2/loader.js&#34;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newAppServer(t, httpapi.Config{ChatWidgetURL: tt.url})
			if body := indexConfig(t, srv); !strings.Contains(body, tt.want) {
				t.Errorf("index = %s; want %s", body, tt.want)
			}
		})
	}
}

func TestContentSecurityPolicyAllowsHTTPSLogos(t *testing.T) {
	srv, _ := newAppServer(t, httpapi.Config{})
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/login", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	// The company logo (companyLogoUrlAddress) is an https URL of the employer's choosing.
	if !strings.Contains(csp, "img-src 'self' data: blob: https:;") {
		t.Errorf("CSP = %q; want img-src to allow https: images", csp)
	}
	for _, keep := range []string{"script-src 'self';", "connect-src 'self';", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, keep) {
			t.Errorf("CSP = %q; want %q", csp, keep)
		}
	}
}
