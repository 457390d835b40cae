package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
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
	cfg, err := json.Marshal(appConfig{APIBaseURL: "/", ClientID: s.cfg.ClientID, ClientSecret: s.cfg.ClientSecret, Features: features})
	if err != nil {
		return nil, err
	}
	return bytes.Replace(raw, []byte(configPlaceholder), []byte(html.EscapeString(string(cfg))), 1), nil
}

// handleApp serves the app's files, and index.html for every other path so
// the app's router can show its own pages (and its own 404).
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
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(s.index)
}
