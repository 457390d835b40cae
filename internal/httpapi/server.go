// Package httpapi serves the portal's JSON API and the single-page app.
package httpapi

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"slices"
	"strings"
	"time"

	"applicantportal/internal/gate"
	"applicantportal/internal/portal"
)

// Config is what the HTTP layer needs to know about its deployment.
type Config struct {
	// BaseURL is the portal's public address, used in e-mailed links.
	BaseURL string
	// APIBaseURL is where the app sends its API calls: a path ("/", the
	// default, or "/portal/" behind a proxy that adds a prefix) or an absolute
	// http(s) URL of another origin, which the CSP then allows to connect.
	APIBaseURL string
	// ClientID and ClientSecret identify the single-page app's OAuth client;
	// they are handed to the app at run time.
	ClientID     string
	ClientSecret string
	// Features are the app's feature flags (subjectChat).
	Features map[string]bool
	// TrustedProxies are the reverse proxies whose X-Forwarded-For (the
	// client's address) and X-Forwarded-Proto (https or not) are believed.
	TrustedProxies []netip.Prefix
	// PDFRenders bounds how many signed PDFs (and signature images being
	// checked and compacted) are worked on at once; 0 means one per CPU
	// (GOMAXPROCS). A request that finds them all busy waits up to
	// PDFRenderWait (0 means DefaultPDFRenderWait), then answers 503.
	PDFRenders    int
	PDFRenderWait time.Duration
	// MaxUploads bounds the uploads streaming at once (0 means
	// DefaultMaxUploads); one that finds them all busy waits up to
	// UploadWait (0 means DefaultUploadWait), then answers 503.
	MaxUploads int
	UploadWait time.Duration
	// Brand is the screening provider as the app shows it (name, logo,
	// support contact, privacy policy), handed to the app at run time.
	Brand Brand
	// IDVFrameOrigin, ChatWidgetURL and LogoSources are the outside
	// parties the Content-Security-Policy allows (see OutsideParties).
	IDVFrameOrigin string
	ChatWidgetURL  string
	LogoSources    []string
	// IDVPageURL is the identity-verification provider's page as a
	// template with {id} and {token} (the session's), handed to the app,
	// which frames it on /idv. An absolute address's origin is allowed
	// as a frame like IDVFrameOrigin.
	IDVPageURL string
	// Sandboxes serves the built-in outside parties' pages under
	// /sandbox/ (the identity-verification page); nil serves none.
	Sandboxes http.Handler
}

// DefaultPDFRenderWait is how long a download or signing call waits for a
// free renderer before answering 503: a render takes tens of milliseconds,
// so a longer queue means the server is overloaded.
const DefaultPDFRenderWait = 3 * time.Second

// DefaultMaxUploads and DefaultUploadWait bound uploads when the
// configuration leaves them out: an upload holds only a chunk buffer, but
// each one keeps a database connection busy while it streams.
const (
	DefaultMaxUploads = 8
	DefaultUploadWait = 20 * time.Second
)

// Services are the implementations the handlers call: the portal's
// services (store.DB.Services builds them) and what only the HTTP server
// needs of the storage.
type Services struct {
	portal.Services
	// Health reports whether storage answers and has room: nil, or an
	// EUNAVAILABLE or ESTORAGEFULL error.
	Health func(context.Context) error
	// Classify turns storage errors that mean the database is away or
	// full into EUNAVAILABLE or ESTORAGEFULL (store.DB.Classify); nil
	// leaves every error as it is.
	Classify func(error) error
}

// Server routes requests to handlers.
type Server struct {
	cfg   Config
	svc   Services
	web   fs.FS
	files appFiles
	csp   string
	// permissions is the Permissions-Policy: the camera for the portal and
	// the identity-verification page's origin only.
	permissions string
	logger      *slog.Logger
	now         func() time.Time
	// renders bounds the PDF renders and signature images in progress
	// (Config.PDFRenders).
	renders *gate.Gate
	// uploads bounds the uploads streaming at once (Config.MaxUploads);
	// applicantUploads bounds each uploader's share of them.
	uploads          *gate.Gate
	applicantUploads applicantUploads
	// keepAliveEvery replaces ChatKeepAlive in tests.
	keepAliveEvery time.Duration
	// chatStreams counts each applicant's event streams;
	// streamsPerApplicant replaces MaxChatStreamsPerApplicant in tests.
	chatStreams         chatStreams
	streamsPerApplicant int
	// views keeps the subject views' answers (viewcache.go).
	views *viewCache
}

// New builds a server. web holds the built app (index.html and assets).
func New(cfg Config, svc Services, web fs.FS, logger *slog.Logger) (*Server, error) {
	s := &Server{cfg: cfg, svc: svc, web: web, logger: logger, now: time.Now, views: newViewCache()}
	if s.cfg.PDFRenders <= 0 {
		s.cfg.PDFRenders = runtime.GOMAXPROCS(0)
	}
	if s.cfg.PDFRenderWait <= 0 {
		s.cfg.PDFRenderWait = DefaultPDFRenderWait
	}
	s.renders = gate.New(s.cfg.PDFRenders, s.cfg.PDFRenderWait,
		"The server is busy preparing other documents. Please try again in a moment.")
	if s.cfg.MaxUploads <= 0 {
		s.cfg.MaxUploads = DefaultMaxUploads
	}
	if s.cfg.UploadWait <= 0 {
		s.cfg.UploadWait = DefaultUploadWait
	}
	s.uploads = gate.New(s.cfg.MaxUploads, s.cfg.UploadWait,
		"The server is busy receiving other uploads. Please try again in a moment.")
	if logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	apiBaseURL, apiOrigin, err := parseAPIBaseURL(cfg.APIBaseURL)
	if err != nil {
		return nil, err
	}
	s.cfg.APIBaseURL = apiBaseURL
	if s.cfg.Brand == (Brand{}) {
		s.cfg.Brand = DefaultBrand()
	}
	if err := s.cfg.Brand.Validate(); err != nil {
		return nil, err
	}
	// A copy: the brand's logo origin is added to it.
	logos := slices.Clone(cfg.LogoSources)
	if len(logos) > 0 {
		if o := s.cfg.Brand.logoOrigin(); o != "" {
			logos = append(logos, o)
		}
	}
	parties := OutsideParties{APIOrigin: apiOrigin, IDVFrameOrigin: cfg.IDVFrameOrigin, IDVPageURL: cfg.IDVPageURL,
		ChatWidgetURL: cfg.ChatWidgetURL, LogoSources: logos}
	if s.csp, err = contentSecurityPolicy(parties); err != nil {
		return nil, err
	}
	if s.permissions, err = permissionsPolicy(parties); err != nil {
		return nil, err
	}
	index, err := s.renderIndex()
	if err != nil {
		return nil, err
	}
	if s.files, err = loadAppFiles(web, index); err != nil {
		return nil, err
	}
	if n := s.files.unprecompressed; n > 0 {
		s.logger.Warn("the app's text files are served uncompressed: build web/ with `npm run build`, which precompresses them",
			"files", n)
	}
	return s, nil
}

// routes is the server's ServeMux, remembering the patterns registered on
// it so that they can be held against the documentation (Routes).
type routes struct {
	*http.ServeMux
	patterns []string
}

func (m *routes) HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request)) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.HandleFunc(pattern, handler)
}

func (m *routes) Handle(pattern string, handler http.Handler) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.Handle(pattern, handler)
}

// Routes lists the patterns the server's handler registers
// ("GET /api/v2/user", "/sandbox/"), in the order they are registered.
func (s *Server) Routes() []string {
	return s.routes().patterns
}

// Handler returns the portal's whole HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := s.routes()
	return s.recoverPanics(s.logRequests(s.strictTransport(securityHeaders(s.csp, s.permissions, withLocale(s.refuseBadText(mux))))))
}

func (s *Server) routes() *routes {
	mux := &routes{ServeMux: http.NewServeMux()}
	mux.HandleFunc("GET /healthz", s.handleHealth)
	s.registerAuthRoutes(mux)
	s.registerSignInRoutes(mux)
	s.registerUserRoutes(mux)
	s.registerPreparationRoutes(mux)
	s.registerPersonalRoutes(mux)
	s.registerBannerRoutes(mux)
	s.registerLegalRoutes(mux)
	s.registerSubjectDataRoutes(mux)
	s.registerValidationRoutes(mux)
	s.registerHistoryRoutes(mux)
	s.registerDraftRoutes(mux)
	s.registerOrderRoutes(mux)
	s.registerDocumentRoutes(mux)
	s.registerReportRoutes(mux)
	s.registerPdfFormRoutes(mux)
	s.registerIDVRoutes(mux)
	s.registerPaymentRoutes(mux)
	s.registerCollectionSiteRoutes(mux)
	s.registerChatRoutes(mux)
	s.registerAdverseActionRoutes(mux)
	s.registerDisputeRoutes(mux)
	s.registerHandoffRoutes(mux)
	s.registerReminderRoutes(mux)
	s.registerOperatorRoutes(mux)
	if s.cfg.Sandboxes != nil {
		mux.Handle("/sandbox/", s.cfg.Sandboxes)
	}
	// Anything else under the API prefixes is a JSON 404 or 405, never the
	// app.
	for _, prefix := range []string{"/api/", "/oauth/"} {
		mux.HandleFunc(prefix, s.handleUnknownAPI(mux.ServeMux, prefix))
	}
	mux.HandleFunc("/", s.handleApp)
	return mux
}

// handleUnknownAPI answers a request that only the catch-all pattern of
// its prefix matched: 405 with Allow when the path takes other methods,
// else 404. (The mux itself answers 405 only when no pattern matches, and
// the catch-all always does.)
func (s *Server) handleUnknownAPI(mux *http.ServeMux, catchAll string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			probe := &http.Request{Method: m, URL: r.URL, Host: r.Host}
			if _, pattern := mux.Handler(probe); pattern != catchAll && pattern != "" {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "No such API endpoint: %s %s", r.Method, r.URL.Path))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{
			ErrorMessage: fmt.Sprintf("%s is not allowed on %s; use %s.", r.Method, r.URL.Path, strings.Join(allow, " or ")),
		})
	}
}

// handleHealth answers 200 {"status":"ok"}, or 503 with the status
// "unavailable" (the database is away) or "storage full" (the last write
// failed for lack of space). An outage or a full disk is logged once by
// the store, not at every check.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if s.svc.Health != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.svc.Health(ctx); err != nil {
			status := "unavailable"
			switch portal.ErrorCode(s.classify(err)) {
			case portal.ESTORAGEFULL:
				status = "storage full"
			case portal.EUNAVAILABLE:
			default:
				s.logger.ErrorContext(r.Context(), "health check failed", slog.Any("err", err))
			}
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": status})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
