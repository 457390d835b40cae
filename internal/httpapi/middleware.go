package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

// selfCameraPolicy lets the portal's own pages, and frames of its own
// origin, use the camera: the built-in sandbox's verification page.
const selfCameraPolicy = "camera=(self), microphone=(), geolocation=(), payment=()"

// HSTS is the Strict-Transport-Security header sent with every answer to a
// request that came over HTTPS: browsers then use HTTPS only, for a year,
// on this host and its subdomains. (Over plain HTTP it is never sent:
// browsers ignore it there, and it would promise what the host may not
// keep.)
const HSTS = "max-age=31536000; includeSubDomains"

// securityHeaders sets the headers every answer carries: the app's
// csp and permissions (permissionsPolicy). Nothing may frame the portal's
// pages, except that the portal itself frames the built-in sandboxes'
// pages under /sandbox/ (the identity-verification page on /idv).
func securityHeaders(csp, permissions string, next http.Handler) http.Handler {
	sandboxCSP := frameableBySelf(csp)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if isSandboxPath(r.URL.Path) {
			h.Set("Content-Security-Policy", sandboxCSP)
			h.Set("X-Frame-Options", "SAMEORIGIN")
			h.Set("Permissions-Policy", selfCameraPolicy)
		} else {
			h.Set("Content-Security-Policy", csp)
			h.Set("X-Frame-Options", "DENY")
			h.Set("Permissions-Policy", permissions)
		}
		h.Set("X-Content-Type-Options", "nosniff")
		// Invitation and reset links carry tokens in the URL: never send
		// them to another site as a referrer.
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if isAPIPath(r.URL.Path) {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

// strictTransport sends HSTS with every answer to a request that came
// over HTTPS (isHTTPS).
func (s *Server) strictTransport(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.isHTTPS(r) {
			w.Header().Set("Strict-Transport-Security", HSTS)
		}
		next.ServeHTTP(w, r)
	})
}

func isSandboxPath(p string) bool { return strings.HasPrefix(p, "/sandbox/") }

// frameableBySelf is csp with frame-ancestors 'self' instead of its own.
func frameableBySelf(csp string) string {
	var out []string
	for _, d := range strings.Split(csp, ";") {
		if d = strings.TrimSpace(d); d != "" && !strings.HasPrefix(d, "frame-ancestors") {
			out = append(out, d)
		}
	}
	return strings.Join(append(out, "frame-ancestors 'self'"), "; ")
}

func isAPIPath(p string) bool {
	return strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/oauth/") || p == "/healthz"
}

// statusRecorder remembers what a handler wrote, for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequests writes one line per request. It logs the path only: query
// strings carry invitation and reset tokens, and bodies carry passwords
// and SSNs, so neither is ever logged.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := newRequestID()
		w.Header().Set("X-Request-Id", id)
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		level := slog.LevelInfo
		// A 503 (busy, or the database away) and a 507 (storage full)
		// are answers chosen on purpose, whose cause is logged once
		// (the store logs an outage when it begins and ends): at ERROR
		// every request of an outage would bury it.
		if rec.status >= 500 && rec.status != http.StatusServiceUnavailable && rec.status != http.StatusInsufficientStorage {
			level = slog.LevelError
		}
		s.logger.LogAttrs(r.Context(), level, "request",
			slog.String("id", id),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", rec.status),
			slog.Int("bytes", rec.bytes),
			slog.Duration("duration", time.Since(start)),
			slog.String("ip", s.clientIP(r)),
		)
	})
}

func newRequestID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// recoverPanics turns a handler's panic into a JSON 500; the stack goes to
// the server log only.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logger.Error("panic", slog.String("path", r.URL.Path), slog.Any("panic", v), slog.String("stack", string(debug.Stack())))
				s.Error(w, r, portal.Errorf(portal.EINTERNAL, "Internal error. Please try again later."))
			}
		}()
		next.ServeHTTP(w, r)
	})
}
