package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"applicantportal/internal/portal"
)

// configPlaceholder is replaced in index.html by the app's run-time
// configuration, so one build serves any deployment.
const configPlaceholder = "__PORTAL_CONFIG__"

// appConfig is what the app reads from <meta name="portal-config">.
type appConfig struct {
	APIBaseURL   string          `json:"apiBaseUrl"`
	ClientID     string          `json:"clientId"`
	ClientSecret string          `json:"clientSecret"`
	Features     map[string]bool `json:"features"`
	Brand        Brand           `json:"brand"`
	IDVPageURL   string          `json:"idvPageUrl"`
	// ChatWidgetURL is the support widget's script; empty means no widget.
	ChatWidgetURL string `json:"chatWidgetUrl"`
}

// Brand is the screening provider as the app shows it on the login page,
// the welcome step and every page's footer.
type Brand struct {
	Name             string `json:"name"`
	LogoURL          string `json:"logoUrl"`          // https, or a path of the portal; empty: the built-in wordmark
	SupportEmail     string `json:"supportEmail"`     // shown as a mailto: link
	SupportPhone     string `json:"supportPhone"`     // shown as typed
	PrivacyPolicyURL string `json:"privacyPolicyUrl"` // https, or a path of the portal
}

// DefaultBrand is the demo screening provider: what `portal serve` shows
// until the operator sets --brand-... (and what a zero Config.Brand means).
func DefaultBrand() Brand {
	return Brand{
		Name:             "ClearPath Screening",
		SupportEmail:     "support@clearpath.example",
		SupportPhone:     "+1 (555) 010-0199",
		PrivacyPolicyURL: "/privacy",
	}
}

// Validate checks the brand at start, so a typo shows in the operator's
// terminal instead of as a broken link in every applicant's footer.
func (b Brand) Validate() error {
	if strings.TrimSpace(b.Name) == "" {
		return errors.New("httpapi: brand name is empty")
	}
	// Shown as one line of text on every page: a control character (a line
	// break, a NUL, DEL or C1) is a mistake in the setting.
	for _, f := range []struct{ what, value string }{{"name", b.Name}, {"support phone", b.SupportPhone}} {
		if strings.ContainsFunc(f.value, unicode.IsControl) {
			return fmt.Errorf("httpapi: brand %s %q holds control characters", f.what, f.value)
		}
	}
	if b.SupportEmail != "" && !portal.ValidEmail(b.SupportEmail) {
		return fmt.Errorf("httpapi: brand support e-mail %q is not an e-mail address", b.SupportEmail)
	}
	for _, u := range []struct{ what, raw string }{{"logo URL", b.LogoURL}, {"privacy policy URL", b.PrivacyPolicyURL}} {
		if u.raw != "" && !httpsOrPath(u.raw) {
			return fmt.Errorf("httpapi: brand %s %q: use an https URL or a path such as /privacy", u.what, u.raw)
		}
	}
	return nil
}

// logoOrigin is the origin of an absolute logo URL, which the CSP must
// then allow; "" for a path of the portal.
func (b Brand) logoOrigin() string {
	if u, err := url.Parse(b.LogoURL); err == nil && u.Scheme != "" {
		return u.Scheme + "://" + strings.ToLower(u.Host)
	}
	return ""
}

// httpsOrPath accepts an https URL (http on localhost) or an absolute
// path of the portal ("/privacy"); never javascript: or a protocol-relative
// "//host" that would leave the portal's scheme to chance.
func httpsOrPath(raw string) bool {
	// Browsers read a backslash as a slash and drop tabs and line breaks
	// from a link, so "/\evil.example" or "/\t/evil.example" would be the
	// protocol-relative "//evil.example".
	if strings.ContainsFunc(raw, func(r rune) bool { return r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) }) {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return false
	}
	if u.Scheme == "" && u.Host == "" {
		return strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "//")
	}
	_, err = checkOrigin("", u.Scheme+"://"+u.Host, false)
	return err == nil
}

// parseAPIBaseURL checks Config.APIBaseURL: empty means "/", a path is the
// portal's own origin, an absolute http(s) URL is another origin, returned so
// the CSP can allow it.
func parseAPIBaseURL(raw string) (base, origin string, err error) {
	if raw == "" {
		return "/", "", nil
	}
	u, err := url.Parse(raw)
	if err == nil && u.RawQuery == "" && u.Fragment == "" && u.User == nil {
		if u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/") {
			return raw, "", nil
		}
		if (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			return raw, u.Scheme + "://" + u.Host, nil
		}
	}
	return "", "", fmt.Errorf("httpapi: API base URL %q: use a path such as /portal/ or an absolute http(s) URL without query", raw)
}

func (s *Server) renderIndex() ([]byte, error) {
	raw, err := fs.ReadFile(s.web, "index.html")
	if err != nil {
		return nil, fmt.Errorf("httpapi: the app's index.html is missing (build web/ first): %w", err)
	}
	features := s.cfg.Features
	if features == nil {
		features = map[string]bool{}
	}
	cfg, err := json.Marshal(appConfig{APIBaseURL: s.cfg.APIBaseURL, ClientID: s.cfg.ClientID, ClientSecret: s.cfg.ClientSecret, Features: features, Brand: s.cfg.Brand, IDVPageURL: s.cfg.IDVPageURL, ChatWidgetURL: s.cfg.ChatWidgetURL})
	if err != nil {
		return nil, err
	}
	return bytes.Replace(raw, []byte(configPlaceholder), []byte(html.EscapeString(string(cfg))), 1), nil
}

// handleApp serves the app's files, and index.html for every other path so
// the app's router can show its own pages: with 200 for a path of the app's
// route table, with 404 (the app then shows its "Page not found") for any
// other, so a mistyped link is a 404 to browsers, crawlers and monitors too.
func (s *Server) handleApp(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name != "" && name != "index.html" {
		f, err := s.web.Open(name)
		if err == nil {
			defer f.Close()
			if st, err := f.Stat(); err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					// Vite puts a content hash in every asset name.
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					w.Header().Set("Cache-Control", "no-cache")
				}
				if compressible(name) {
					file, err := s.assets.get(s.web, name)
					if err != nil {
						s.Error(w, r, err)
						return
					}
					serveAppFile(w, r, name, file)
					return
				}
				if rs, ok := f.(interface {
					Read([]byte) (int, error)
					Seek(int64, int) (int64, error)
				}); ok {
					http.ServeContent(w, r, name, time.Time{}, rs)
					return
				}
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			s.Error(w, r, err)
			return
		}
		// A missing asset is a real 404: answering index.html would hand the
		// browser HTML where it expects a script after a deployment.
		if strings.HasPrefix(name, "assets/") {
			http.NotFound(w, r)
			return
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	if !portal.IsAppPath(r.URL.Path) {
		serveAppPage(w, r, s.index, http.StatusNotFound)
		return
	}
	serveAppFile(w, r, "index.html", s.index)
}

// compressible says whether a file is text that gzip shrinks; images and
// fonts are compressed already.
func compressible(name string) bool {
	switch path.Ext(name) {
	case ".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt", ".webmanifest":
		return true
	}
	return false
}

// appFile is one text file of the app as served: as it is and, when gzip
// makes it smaller, gzipped.
type appFile struct {
	raw, gzipped []byte
}

func newAppFile(raw []byte) (appFile, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return appFile{}, err
	}
	if _, err := zw.Write(raw); err != nil {
		return appFile{}, err
	}
	if err := zw.Close(); err != nil {
		return appFile{}, err
	}
	f := appFile{raw: raw}
	if buf.Len() < len(raw) {
		f.gzipped = buf.Bytes()
	}
	return f, nil
}

// gzipCache keeps the app's text files in memory, each read and gzipped
// once, on its first request: the files never change while the binary
// runs, and compressing on every request would cost CPU for nothing.
type gzipCache struct {
	mu    sync.Mutex
	files map[string]*cachedAppFile
}

type cachedAppFile struct {
	once sync.Once
	file appFile
	err  error
}

// get returns the file name of fsys, which the caller has found to exist.
func (c *gzipCache) get(fsys fs.FS, name string) (appFile, error) {
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]*cachedAppFile{}
	}
	entry := c.files[name]
	if entry == nil {
		entry = &cachedAppFile{}
		c.files[name] = entry
	}
	c.mu.Unlock()
	entry.once.Do(func() {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			entry.err = fmt.Errorf("httpapi: read app file %s: %w", name, err)
			return
		}
		entry.file, entry.err = newAppFile(raw)
	})
	return entry.file, entry.err
}

// serveAppPage answers index.html with a status other than 200: no ranges
// or conditional requests, which http.ServeContent would answer with 200 or
// 304.
func serveAppPage(w http.ResponseWriter, r *http.Request, f appFile, status int) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	body := f.raw
	if f.gzipped != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			body = f.gzipped
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// serveAppFile answers with the gzipped file when the client accepts gzip.
func serveAppFile(w http.ResponseWriter, r *http.Request, name string, f appFile) {
	h := w.Header()
	contentType := mime.TypeByExtension(path.Ext(name))
	if path.Ext(name) == ".html" {
		contentType = "text/html; charset=utf-8"
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	h.Set("Content-Type", contentType)
	if f.gzipped == nil {
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.raw))
		return
	}
	h.Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r.Header.Values("Accept-Encoding")) {
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.raw))
		return
	}
	// Written here rather than by ServeContent, which leaves out
	// Content-Length on encoded answers; ranges of a gzipped file are of no
	// use to a browser, so the whole file is the answer.
	h.Set("Content-Encoding", "gzip")
	h.Set("Content-Length", strconv.Itoa(len(f.gzipped)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(f.gzipped)
	}
}

// acceptsGzip reads Accept-Encoding: gzip (or x-gzip) with a q above 0, or
// else * with a q above 0.
func acceptsGzip(values []string) bool {
	gzipQ, starQ := -1.0, -1.0
	for _, value := range values {
		for _, item := range strings.Split(value, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(item), ";")
			q := 1.0
			for _, param := range strings.Split(params, ";") {
				key, v, ok := strings.Cut(strings.TrimSpace(param), "=")
				if ok && strings.EqualFold(strings.TrimSpace(key), "q") {
					if parsed, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
						q = parsed
					}
				}
			}
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gzipQ = max(gzipQ, q)
			case "*":
				starQ = max(starQ, q)
			}
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}
