package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"applicantportal/internal/portal"
)

// maxCachedViews bounds the subject view cache (a view's answer is a few
// kilobytes); when it is full it starts again empty.
const maxCachedViews = 4096

// viewCache keeps the encoded answer of GET /api/v2/user/subject per
// applicant and language with the version it was built at
// (SubjectDataService.SubjectViewVersion): it is answered again only while
// that version is the current one, which every write to the applicant's
// rows moves on in its own transaction, on any instance
// (docs/architecture.md, "The subject view's cache").
type viewCache struct {
	mu      sync.Mutex
	entries map[viewKey]cachedView
}

type viewKey struct {
	subjectID int64
	locale    portal.Locale
}

type cachedView struct {
	version portal.ViewVersion
	body    []byte // never changed once kept: callers only write it out
}

func newViewCache() *viewCache { return &viewCache{entries: map[viewKey]cachedView{}} }

// get answers the body kept for key at version v.
func (c *viewCache) get(key viewKey, v portal.ViewVersion) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || e.version != v {
		return nil, false
	}
	return e.body, true
}

// put keeps body, built after version v was read.
func (c *viewCache) put(key viewKey, v portal.ViewVersion, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedViews {
		clear(c.entries)
	}
	c.entries[key] = cachedView{version: v, body: body}
}

// answerCachedView answers the applicant's subject view from the view
// cache while their version is the current one, else builds the answer,
// keeps it, and answers it as writeJSON would. (The document list is not
// kept: it holds the signature images and fields, sealed at rest, which
// the portal does not keep in memory between requests.)
func (s *Server) answerCachedView(w http.ResponseWriter, r *http.Request, build func() (any, error)) {
	ctx := r.Context()
	subjectID := callerFrom(ctx).SubjectID
	key := viewKey{subjectID: subjectID, locale: portal.LocaleOf(ctx)}
	version, cacheable, err := s.svc.SubjectData.SubjectViewVersion(ctx, subjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if cacheable {
		if body, ok := s.views.get(key, version); ok {
			writeJSONBody(w, http.StatusOK, body)
			return
		}
	}
	v, err := build()
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var body bytes.Buffer
	if err := json.NewEncoder(&body).Encode(v); err != nil {
		s.Error(w, r, fmt.Errorf("httpapi: encode the subject view: %w", err))
		return
	}
	if cacheable {
		s.views.put(key, version, body.Bytes())
	}
	writeJSONBody(w, http.StatusOK, body.Bytes())
}
