package httpapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/andybalholm/brotli"

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
	cfg, err := json.Marshal(appConfig{APIBaseURL: s.cfg.APIBaseURL, ClientID: s.cfg.ClientID, ClientSecret: s.cfg.ClientSecret, Features: features, Brand: s.cfg.Brand, IDVPageURL: s.cfg.IDVPageURL, ChatWidgetURL: s.cfg.ChatWidgetURL}) // #nosec G117 -- the app's public OAuth client (spec: client_secret is shipped to the browser); it grants nothing
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
		if file := s.files.byName[name]; file != nil {
			s.serveAppFile(w, r, file, http.StatusOK)
			return
		}
		// A missing asset is a real 404: answering index.html would hand the
		// browser HTML where it expects a script after a deployment.
		if strings.HasPrefix(name, "assets/") {
			http.NotFound(w, r)
			return
		}
	}
	if !portal.IsAppPath(r.URL.Path) {
		s.serveAppFile(w, r, s.files.index, http.StatusNotFound)
		return
	}
	s.serveAppFile(w, r, s.files.index, http.StatusOK)
}

// compressible says whether a file is text that compression shrinks;
// images and fonts are compressed already. web/scripts/precompress.mjs
// writes the .br and .gz variants of the same kinds of file.
func compressible(name string) bool {
	switch path.Ext(name) {
	case ".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt", ".webmanifest", ".wasm":
		return true
	}
	return false
}

// Content codings the app's files come in, in the server's order of
// preference: brotli is smaller than gzip, and both smaller than the file.
const (
	codingBrotli   = "br"
	codingGzip     = "gzip"
	codingIdentity = "identity"
)

// precompressedSuffix is the name of each coding's variant beside its file
// (NAME.br, NAME.gz), as web/scripts/precompress.mjs writes them.
var precompressedSuffix = []struct{ coding, suffix string }{{codingBrotli, ".br"}, {codingGzip, ".gz"}}

// minPrecompressed is the size under which precompress.mjs leaves a file as
// it is (MIN_BYTES there): the server warns of larger text files without
// variants, a sign the build skipped the step.
const minPrecompressed = 1024

// appFile is one file of the app as served: its headers, and the variants
// the browser may get, best first, the file itself last.
type appFile struct {
	contentType  string
	cacheControl string
	variants     []appVariant
}

// appVariant is one encoding of an app file: its body is in memory (the
// rendered index.html, the precompressed variants) or, for the file itself,
// read from name in the app's file system at each request.
type appVariant struct {
	coding string // codingBrotli, codingGzip or codingIdentity
	etag   string // a strong ETag, one per variant
	size   int64
	name   string
	body   []byte
}

// appFiles is the built app as served, indexed once at start: the files
// never change while the binary runs.
type appFiles struct {
	// byName holds every file but index.html, by its path in the app's
	// file system; the precompressed variants are part of their file.
	byName map[string]*appFile
	// index is index.html with the run-time configuration: 200 for the
	// app's paths, 404 for any other.
	index *appFile
	// unprecompressed counts the text files of a KiB or more that have
	// neither variant.
	unprecompressed int
}

// loadAppFiles indexes the app's files of fsys (reading each once, for its
// ETag) and compresses the rendered index, which differs per deployment, with
// gzip and brotli.
func loadAppFiles(fsys fs.FS, index []byte) (appFiles, error) {
	files := appFiles{byName: map[string]*appFile{}}
	sizes := map[string]int64{}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == "index.html" {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		sizes[name] = info.Size()
		return nil
	})
	if err != nil {
		return appFiles{}, fmt.Errorf("httpapi: list the app's files: %w", err)
	}
	isVariant := func(name string) bool {
		for _, p := range precompressedSuffix {
			if base, ok := strings.CutSuffix(name, p.suffix); ok && compressible(base) {
				if _, found := sizes[base]; found {
					return true
				}
			}
		}
		return false
	}
	for name, size := range sizes {
		if isVariant(name) {
			continue
		}
		sum, err := hashFile(fsys, name)
		if err != nil {
			return appFiles{}, err
		}
		file := &appFile{contentType: contentTypeOf(name), cacheControl: "no-cache"}
		if strings.HasPrefix(name, "assets/") {
			// Vite puts a content hash in every asset name.
			file.cacheControl = "public, max-age=31536000, immutable"
		}
		if compressible(name) {
			for _, p := range precompressedSuffix {
				if _, ok := sizes[name+p.suffix]; !ok {
					continue
				}
				// Kept in memory (about 2.5 MB for the whole app) so that an
				// answer is one write, not a copy through a buffer per request.
				body, err := fs.ReadFile(fsys, name+p.suffix)
				if err != nil {
					return appFiles{}, fmt.Errorf("httpapi: read app file %s: %w", name+p.suffix, err)
				}
				file.variants = append(file.variants, appVariant{coding: p.coding, etag: variantETag(sum, p.coding), size: int64(len(body)), name: name + p.suffix, body: body})
			}
			if len(file.variants) == 0 && size >= minPrecompressed {
				files.unprecompressed++
			}
		}
		file.variants = append(file.variants, appVariant{coding: codingIdentity, etag: variantETag(sum, codingIdentity), size: size, name: name})
		files.byName[name] = file
	}

	sum := sha256.Sum256(index)
	page := appFile{contentType: "text/html; charset=utf-8"}
	gz, err := gzipBytes(index)
	if err != nil {
		return appFiles{}, err
	}
	br, err := brotliBytes(index)
	if err != nil {
		return appFiles{}, err
	}
	for _, v := range []struct {
		coding string
		body   []byte
	}{{codingBrotli, br}, {codingGzip, gz}, {codingIdentity, index}} {
		if v.coding == codingIdentity || len(v.body) < len(index) {
			page.variants = append(page.variants, appVariant{coding: v.coding, etag: variantETag(sum[:], v.coding), size: int64(len(v.body)), body: v.body})
		}
	}
	// Never kept, unlike the app's other files: index.html is the shell of
	// every logged-in page, and a page the browser may not store stays out
	// of its back/forward cache, so Back after a logout on a shared computer
	// does not bring the last applicant's page back. Its kilobyte costs
	// nothing to fetch again.
	page.cacheControl = "no-store"
	files.index = &page
	return files, nil
}

func hashFile(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("httpapi: open app file %s: %w", name, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("httpapi: read app file %s: %w", name, err)
	}
	return h.Sum(nil), nil
}

// variantETag is a strong ETag: the file's content hash, and the coding,
// since each variant is a different sequence of bytes.
func variantETag(sum []byte, coding string) string {
	tag := base64.RawURLEncoding.EncodeToString(sum[:16])
	switch coding {
	case codingBrotli:
		tag += "-br"
	case codingGzip:
		tag += "-gz"
	}
	return `"` + tag + `"`
}

func contentTypeOf(name string) string {
	if path.Ext(name) == ".html" {
		return "text/html; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func gzipBytes(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, fmt.Errorf("httpapi: gzip index.html: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("httpapi: gzip index.html: %w", err)
	}
	return buf.Bytes(), nil
}

func brotliBytes(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	bw := brotli.NewWriterLevel(&buf, brotli.BestCompression)
	if _, err := bw.Write(raw); err != nil {
		return nil, fmt.Errorf("httpapi: brotli index.html: %w", err)
	}
	if err := bw.Close(); err != nil {
		return nil, fmt.Errorf("httpapi: brotli index.html: %w", err)
	}
	return buf.Bytes(), nil
}

// serveAppFile answers with the variant of file the request accepts best.
// A 200 carries the variant's ETag and answers If-None-Match with 304; the
// file itself is served by http.ServeContent (ranges included), a
// compressed variant whole, with its Content-Length.
func (s *Server) serveAppFile(w http.ResponseWriter, r *http.Request, file *appFile, status int) {
	v := negotiate(r.Header.Values("Accept-Encoding"), file.variants)
	var body io.Reader
	if v.body != nil {
		body = bytes.NewReader(v.body)
	} else {
		// Opened before any header is set: an error answer must not say
		// it is brotli, nor be kept for a year.
		f, err := s.web.Open(v.name)
		if err != nil {
			s.Error(w, r, fmt.Errorf("httpapi: open app file %s: %w", v.name, err))
			return
		}
		defer f.Close()
		body = f
	}

	h := w.Header()
	h.Set("Content-Type", file.contentType)
	h.Set("Cache-Control", file.cacheControl)
	if len(file.variants) > 1 {
		h.Add("Vary", "Accept-Encoding")
	}
	if v.coding != codingIdentity {
		h.Set("Content-Encoding", v.coding)
	}
	if status == http.StatusOK {
		h.Set("ETag", v.etag)
		if noneMatch := r.Header.Values("If-None-Match"); len(noneMatch) > 0 && etagListed(strings.Join(noneMatch, ","), v.etag) {
			// RFC 9110, 15.4.5: the headers of the 200 but those that
			// describe the body.
			h.Del("Content-Type")
			h.Del("Content-Encoding")
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if rs, ok := body.(io.ReadSeeker); ok && v.coding == codingIdentity {
			http.ServeContent(w, r, v.name, time.Time{}, rs)
			return
		}
	}
	// Ranges of a compressed variant are of no use to a browser: the whole
	// variant is the answer.
	h.Set("Content-Length", strconv.FormatInt(v.size, 10))
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	if v.body != nil {
		w.Write(v.body)
		return
	}
	io.Copy(w, body)
}

// negotiate picks the variant the request's Accept-Encoding (RFC 9110,
// 12.5.3) gives the highest q, the server's order (brotli, gzip, the file
// itself; variants holds them in that order) deciding a tie. The file
// itself is the answer when nothing is acceptable: a client that refuses
// even identity gets the bytes it can most likely read.
func negotiate(acceptEncoding []string, variants []appVariant) appVariant {
	q := parseAcceptEncoding(acceptEncoding)
	best, bestQ := variants[len(variants)-1], 0.0
	for _, v := range variants {
		if vq := q.of(v.coding); vq > bestQ {
			best, bestQ = v, vq
		}
	}
	return best
}

// acceptEncoding is the q of each coding an Accept-Encoding header names
// ("*" included).
type acceptEncoding struct {
	q map[string]float64
}

func parseAcceptEncoding(values []string) acceptEncoding {
	ae := acceptEncoding{q: map[string]float64{}}
	for _, value := range values {
		for _, item := range strings.Split(value, ",") {
			coding, params, _ := strings.Cut(item, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding == "" {
				continue
			}
			if coding == "x-gzip" {
				coding = codingGzip
			}
			q, ok := 1.0, true
			for _, param := range strings.Split(params, ";") {
				key, raw, found := strings.Cut(param, "=")
				if found && strings.EqualFold(strings.TrimSpace(key), "q") {
					q, ok = parseQ(strings.TrimSpace(raw))
				}
			}
			if !ok {
				continue // a malformed weight says nothing
			}
			// A coding named twice keeps its highest weight.
			if old, seen := ae.q[coding]; !seen || q > old {
				ae.q[coding] = q
			}
		}
	}
	return ae
}

// parseQ reads a weight: 0 to 1, up to three decimals (RFC 9110, 12.4.2).
func parseQ(raw string) (float64, bool) {
	if raw == "" || len(raw) > 5 || (raw[0] != '0' && raw[0] != '1') {
		return 0, false
	}
	q, err := strconv.ParseFloat(raw, 64)
	if err != nil || q < 0 || q > 1 {
		return 0, false
	}
	return q, true
}

// of is the weight the header gives coding: its own, else that of "*".
// Without either, a coding is not acceptable, and identity is (RFC 9110,
// 12.5.3) but comes last: "gzip;q=0.8" asks for gzip. So a request without
// the header gets the file itself.
func (ae acceptEncoding) of(coding string) float64 {
	if q, ok := ae.q[coding]; ok {
		return q
	}
	if q, ok := ae.q["*"]; ok {
		return q
	}
	if coding == codingIdentity {
		return identityByDefault
	}
	return 0
}

// identityByDefault is below any weight a header can give (0.001 is the
// smallest) and above refusal.
const identityByDefault = 0.0001

// etagListed reads an If-None-Match list: "*", or entity tags compared
// weakly (RFC 9110, 13.1.2: W/"x" matches "x"). The server's own tags hold
// no comma, so splitting at commas cannot cut one apart.
func etagListed(list, etag string) bool {
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "*" || strings.TrimPrefix(item, "W/") == etag {
			return true
		}
	}
	return false
}
