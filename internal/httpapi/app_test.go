package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

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

// ReadDir lets the server list the files, as it does the embedded ones.
func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

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
	files := fstest.MapFS{
		"index.html":              {Data: []byte(appIndex)},
		"assets/photo-abc123.png": {Data: []byte(appImage)},
		"assets/tiny-abc123.js":   {Data: []byte(`1`)},
	}
	// As web/scripts/precompress.mjs leaves them: both variants, or (the
	// logo) only the one that came out smaller.
	precompressed := func(name, content string, codings ...string) {
		files[name] = &fstest.MapFile{Data: []byte(content)}
		for _, coding := range codings {
			files[name+map[string]string{"br": ".br", "gzip": ".gz"}[coding]] = &fstest.MapFile{Data: encode(t, coding, content)}
		}
	}
	precompressed("assets/index-abc123.js", appScript, "br", "gzip")
	precompressed("assets/index-abc123.css", appStyles, "br", "gzip")
	precompressed("assets/logo-abc123.svg", appLogo, "gzip")
	precompressed("favicon.svg", appLogo, "br", "gzip")
	web := &countingFS{FS: files, reads: map[string]int{}}
	if cfg.ClientID == "" {
		cfg.ClientID, cfg.ClientSecret = clientID, clientSecret
	}
	srv, err := httpapi.New(cfg, httpapi.Services{}, web, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, web
}

func encode(t *testing.T, coding, content string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "br":
		w = brotli.NewWriterLevel(&buf, brotli.BestCompression)
	case "gzip":
		w, _ = gzip.NewWriterLevel(&buf, gzip.BestCompression)
	default:
		t.Fatalf("unknown coding %q", coding)
	}
	if _, err := io.WriteString(w, content); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decodeBody undoes the answer's Content-Encoding.
func decodeBody(t *testing.T, coding string, body []byte) string {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return string(body)
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("not gzip: %v", err)
		}
		r = zr
	default:
		t.Fatalf("unknown Content-Encoding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decode %s: %v", coding, err)
	}
	return string(out)
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	return decodeBody(t, "gzip", b)
}

func TestAppFilesAreServedByContentNegotiation(t *testing.T) {
	srv, web := newAppServer(t, httpapi.Config{})
	handler := srv.Handler()
	immutable := "public, max-age=31536000, immutable"
	js, css, svg, html := "text/javascript; charset=utf-8", "text/css; charset=utf-8", "image/svg+xml", "text/html; charset=utf-8"
	tests := []struct {
		Name           string
		Method, URL    string
		AcceptEncoding string
		WantStatus     int
		WantEncoding   string // "" for the file itself
		WantVary       bool
		WantType       string
		WantCache      string
		WantBody       string // decoded; "index" means the rendered index
	}{
		{"ScriptBrotliWhenBothAccepted", "GET", "/assets/index-abc123.js", "gzip, deflate, br", 200, "br", true, js, immutable, appScript},
		{"ScriptGzipWithoutBr", "GET", "/assets/index-abc123.js", "gzip, deflate", 200, "gzip", true, js, immutable, appScript},
		{"ScriptBrRefusedWithQZero", "GET", "/assets/index-abc123.js", "br;q=0, gzip", 200, "gzip", true, js, immutable, appScript},
		{"HigherQWinsOverServerOrder", "GET", "/assets/index-abc123.js", "br;q=0.5, gzip;q=0.8", 200, "gzip", true, js, immutable, appScript},
		{"StylesBrotli", "GET", "/assets/index-abc123.css", "br", 200, "br", true, css, immutable, appStyles},
		{"OnlyVariantThereIsServed", "GET", "/assets/logo-abc123.svg", "br, gzip", 200, "gzip", true, svg, immutable, appLogo},
		{"NoAcceptableVariantGivesTheFile", "GET", "/assets/logo-abc123.svg", "br", 200, "", true, svg, immutable, appLogo},
		{"UnhashedFileRevalidated", "GET", "/favicon.svg", "gzip, br", 200, "br", true, svg, "no-cache", appLogo},
		{"NoAcceptEncodingGivesTheFile", "GET", "/assets/index-abc123.js", "", 200, "", true, js, immutable, appScript},
		{"IdentityOnly", "GET", "/assets/index-abc123.js", "identity", 200, "", true, js, immutable, appScript},
		{"BothRefused", "GET", "/assets/index-abc123.js", "gzip;q=0, br;q=0, identity", 200, "", true, js, immutable, appScript},
		{"StarAcceptsBrotli", "GET", "/assets/index-abc123.js", "*", 200, "br", true, js, immutable, appScript},
		{"ImageNeverEncoded", "GET", "/assets/photo-abc123.png", "br, gzip", 200, "", false, "image/png", immutable, appImage},
		{"TinyFileLeftAsIs", "GET", "/assets/tiny-abc123.js", "br, gzip", 200, "", false, js, immutable, "1"},
		{"IndexBrotliNeverStored", "GET", "/", "gzip, deflate, br", 200, "br", true, html, "no-store", "index"},
		{"IndexGzip", "GET", "/login", "gzip", 200, "gzip", true, html, "no-store", "index"},
		{"DeepLinkIndex", "GET", "/setup?token=abc", "br", 200, "br", true, html, "no-store", "index"},
		{"IndexWithoutAcceptEncoding", "GET", "/login", "", 200, "", true, html, "no-store", "index"},
		{"UnknownPathIndexEncodedToo", "GET", "/no-such-page", "br", 404, "br", true, html, "no-store", "index"},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			req := httptest.NewRequest(tt.Method, tt.URL, nil)
			if tt.AcceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tt.AcceptEncoding)
			}
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, req)
			if rec.Code != tt.WantStatus {
				t.Fatalf("status = %d; want %d", rec.Code, tt.WantStatus)
			}
			h := rec.Header()
			if got := h.Get("Content-Encoding"); got != tt.WantEncoding {
				t.Errorf("Content-Encoding = %q; want %q", got, tt.WantEncoding)
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
			if got, want := h.Get("Content-Length"), strconv.Itoa(rec.Body.Len()); got != want {
				t.Errorf("Content-Length = %q; the body has %s bytes", got, want)
			}
			// An ETag only where a conditional request can be answered: not on a 404.
			if etag := h.Get("ETag"); (etag != "") != (tt.WantStatus == 200) || (etag != "" && !strings.HasPrefix(etag, `"`)) {
				t.Errorf("ETag = %q on a %d", etag, tt.WantStatus)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") {
				t.Errorf("security headers missing: %v", h)
			}
			if tt.WantEncoding != "" && tt.WantBody != "index" && rec.Body.Len() >= len(tt.WantBody) {
				t.Errorf("encoded body is %d bytes, the file %d", rec.Body.Len(), len(tt.WantBody))
			}
			body := decodeBody(t, tt.WantEncoding, rec.Body.Bytes())
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

	t.Run("HeadAnswersHeadersWithoutBody", func(t *testing.T) {
		for _, url := range []string{"/assets/index-abc123.js", "/login"} {
			get, head := httptest.NewRequest("GET", url, nil), httptest.NewRequest("HEAD", url, nil)
			get.Header.Set("Accept-Encoding", "br")
			head.Header.Set("Accept-Encoding", "br")
			getRec, headRec := httptest.NewRecorder(), httptest.NewRecorder()
			handler.ServeHTTP(getRec, get)
			handler.ServeHTTP(headRec, head)
			if headRec.Code != 200 || headRec.Body.Len() != 0 {
				t.Errorf("HEAD %s = %d with %d bytes; want 200 without a body", url, headRec.Code, headRec.Body.Len())
			}
			for _, name := range []string{"Content-Encoding", "Content-Length", "Content-Type", "ETag", "Vary", "Cache-Control"} {
				if headRec.Header().Get(name) != getRec.Header().Get(name) {
					t.Errorf("HEAD %s %s = %q; GET says %q", url, name, headRec.Header().Get(name), getRec.Header().Get(name))
				}
			}
		}
	})

	t.Run("VariantsAreReadOnceFromTheBuild", func(t *testing.T) {
		for range 3 {
			req := httptest.NewRequest("GET", "/assets/index-abc123.css", nil)
			req.Header.Set("Accept-Encoding", "br")
			handler.ServeHTTP(httptest.NewRecorder(), req)
		}
		web.mu.Lock()
		defer web.mu.Unlock()
		if web.reads["assets/index-abc123.css.br"] != 1 {
			t.Errorf("assets/index-abc123.css.br read %d times; want once", web.reads["assets/index-abc123.css.br"])
		}
	})

	t.Run("MissingAssetStill404", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/assets/gone-000000.js", nil)
		req.Header.Set("Accept-Encoding", "br, gzip")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != 404 || rec.Header().Get("Content-Encoding") != "" {
			t.Errorf("missing asset = %d encoding %q; want a plain 404", rec.Code, rec.Header().Get("Content-Encoding"))
		}
	})

	t.Run("VariantIsNoAssetOfItsOwn", func(t *testing.T) {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest("GET", "/assets/index-abc123.js.br", nil))
		if rec.Code != 404 {
			t.Errorf("GET of a variant by name = %d; want 404", rec.Code)
		}
	})

	t.Run("RangeOfTheFileItself", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/assets/index-abc123.js", nil)
		req.Header.Set("Range", "bytes=0-5")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != 206 || rec.Body.String() != appScript[:6] {
			t.Errorf("range = %d %q; want 206 %q", rec.Code, rec.Body.String(), appScript[:6])
		}
	})

	t.Run("RangeOfAVariantGetsItWhole", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/assets/index-abc123.js", nil)
		req.Header.Set("Range", "bytes=0-5")
		req.Header.Set("Accept-Encoding", "br")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != 200 || decodeBody(t, "br", rec.Body.Bytes()) != appScript {
			t.Errorf("range of the brotli variant = %d; want 200 and the whole variant", rec.Code)
		}
	})
}

// TestAppFilesAnswerConditionalRequests checks each variant has its own
// ETag and If-None-Match gets a 304 for the variant the browser would get.
func TestAppFilesAnswerConditionalRequests(t *testing.T) {
	srv, _ := newAppServer(t, httpapi.Config{})
	handler := srv.Handler()
	etagOf := func(url, acceptEncoding string) string {
		req := httptest.NewRequest("GET", url, nil)
		req.Header.Set("Accept-Encoding", acceptEncoding)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		return rec.Header().Get("ETag")
	}
	for _, url := range []string{"/assets/index-abc123.js", "/favicon.svg", "/login"} {
		br, gz, plain := etagOf(url, "br"), etagOf(url, "gzip"), etagOf(url, "")
		if br == "" || br == gz || gz == plain || br == plain {
			t.Fatalf("%s ETags br %q gzip %q identity %q; want three different ones", url, br, gz, plain)
		}
		if other := etagOf(url, "br"); other != br {
			t.Fatalf("%s ETag changed between requests: %q, %q", url, br, other)
		}
		tests := []struct {
			Name, Method, AcceptEncoding, IfNoneMatch string
			WantStatus                                int
		}{
			{"SameVariant", "GET", "br", br, 304},
			{"SameVariantHead", "HEAD", "br", br, 304},
			{"WeakComparison", "GET", "gzip", "W/" + gz, 304},
			{"InAList", "GET", "", `"other", ` + plain, 304},
			{"Star", "GET", "br", "*", 304},
			{"OtherVariantsTag", "GET", "br", gz, 200},
			{"StaleTag", "GET", "br", `"stale"`, 200},
		}
		for _, tt := range tests {
			t.Run(url+" "+tt.Name, func(t *testing.T) {
				req := httptest.NewRequest(tt.Method, url, nil)
				if tt.AcceptEncoding != "" {
					req.Header.Set("Accept-Encoding", tt.AcceptEncoding)
				}
				req.Header.Set("If-None-Match", tt.IfNoneMatch)
				rec := httptest.NewRecorder()
				handler.ServeHTTP(rec, req)
				if rec.Code != tt.WantStatus {
					t.Fatalf("status = %d; want %d", rec.Code, tt.WantStatus)
				}
				h := rec.Header()
				if tt.WantStatus == 304 {
					if rec.Body.Len() != 0 || h.Get("ETag") == "" || h.Get("Vary") != "Accept-Encoding" || h.Get("Cache-Control") == "" {
						t.Errorf("304 with %d bytes, ETag %q, Vary %q, Cache-Control %q", rec.Body.Len(), h.Get("ETag"), h.Get("Vary"), h.Get("Cache-Control"))
					}
					if h.Get("Content-Encoding") != "" || h.Get("Content-Length") != "" {
						t.Errorf("304 describes a body: Content-Encoding %q Content-Length %q", h.Get("Content-Encoding"), h.Get("Content-Length"))
					}
				}
			})
		}
	}

	t.Run("NotFoundPageIsNeverNotModified", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/no-such-page", nil)
		req.Header.Set("If-None-Match", "*")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != 404 {
			t.Errorf("status = %d; want 404", rec.Code)
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
