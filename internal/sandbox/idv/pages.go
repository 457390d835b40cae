package idvsandbox

import (
	"bytes"
	"embed"
	"errors"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"applicantportal/internal/portal"
)

//go:embed templates/page.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

var pageTemplate = template.Must(template.ParseFS(templateFS, "templates/page.html"))

// MaxPhotoSize bounds an uploaded photo. The sandbox only checks that it is
// an image and discards it; a real provider's limit is of this order.
const MaxPhotoSize = 10 << 20

// maxFieldSize bounds a form field other than the photo (the token).
const maxFieldSize = 256

// page is what the template shows.
type page struct {
	Title        string
	SessionID    string
	Token        string
	Step         string // document, selfie or review while the session is open
	Steps        []stepView
	Error        string
	Finished     bool   // runs finished.js, which tells the framing portal
	ParentOrigin string // the portal's origin, the only one told the page's height and its end
	Paragraphs   []string
	ContinueURL  string
}

type stepView struct {
	Number        int
	Label         string
	Done, Current bool
}

// Handler serves the provider's pages under /sandbox/idv/.
func (p *Provider) Handler() http.Handler {
	return p.routes()
}

// Routes lists the patterns Handler registers, in the order they are
// registered, so that the portal's authorization matrix covers them.
func (p *Provider) Routes() []string {
	return p.routes().patterns
}

// routes is the pages' ServeMux, remembering its patterns (Routes).
type routes struct {
	*http.ServeMux
	patterns []string
}

func (m *routes) HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request)) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.HandleFunc(pattern, handler)
}

func (p *Provider) routes() *routes {
	mux := &routes{ServeMux: http.NewServeMux()}
	mux.HandleFunc("GET /sandbox/idv/assets/{name}", p.handleAsset)
	mux.HandleFunc("GET /sandbox/idv/{id}", p.handlePage)
	mux.HandleFunc("POST /sandbox/idv/{id}/{action}", p.handleAction)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		p.render(w, http.StatusNotFound, page{Title: "Page not found",
			Paragraphs: []string{"There is no such page in the IdentitySource sandbox."}})
	})
	return mux
}

var assetTypes = map[string]string{
	"idv.css":       "text/css; charset=utf-8",
	"finished.js":   "text/javascript; charset=utf-8",
	"frame-size.js": "text/javascript; charset=utf-8",
}

func (p *Provider) handleAsset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	ctype, ok := assetTypes[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	b, err := assetFS.ReadFile("assets/" + name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Write(b) // #nosec G705 -- an embedded asset of the binary, not input
}

func (p *Provider) render(w http.ResponseWriter, status int, pg page) {
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, pg); err != nil {
		p.cfg.Logger.Error("idv sandbox: render page", "err", err)
		http.Error(w, "The page could not be shown.", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// The page's address holds the session's token.
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// pageErrors are the problems a redirect back to the page may name (the
// error parameter); anything else shows nothing.
var pageErrors = map[string]string{
	"missing":  "Choose a photo first, or use the sample.",
	"notimage": "This file is not an image. Choose a photo (JPEG, PNG, GIF, WebP or HEIC).",
	"toolarge": "This photo is larger than 10 MB. Choose a smaller one, or take it at a lower resolution.",
	"order":    "Finish the earlier steps first.",
}

var (
	pageNotFound = page{Title: "Session not found",
		Paragraphs: []string{"There is no verification session at this address. Go back to the applicant portal and start the verification again."}}
	pageForbidden = page{Title: "This link is not valid",
		Paragraphs: []string{"The link to this verification session is incomplete or wrong. Go back to the applicant portal and open the verification from there."}}
)

// session finds the session of the request and checks its token; on a
// failure it has answered the request.
func (p *Provider) session(w http.ResponseWriter, r *http.Request, token string) *session {
	s, _, err := p.load(r.Context(), r.PathValue("id"))
	switch {
	case portal.ErrorCode(err) == portal.ENOTFOUND:
		p.render(w, http.StatusNotFound, pageNotFound)
		return nil
	case err != nil:
		p.cfg.Logger.Error("idv sandbox: load session", "err", err)
		p.render(w, http.StatusServiceUnavailable, page{Title: "Please try again",
			Paragraphs: []string{"The verification service could not load this session. Please try again in a moment."}})
		return nil
	case !s.tokenMatches(token):
		p.render(w, http.StatusForbidden, pageForbidden)
		return nil
	}
	return s
}

func (p *Provider) handlePage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	s := p.session(w, r, token)
	if s == nil {
		return
	}
	now := p.cfg.Now()
	if !s.open(now) {
		p.renderClosed(w, s, now)
		return
	}
	step := "review"
	switch {
	case !s.done(stepDocument):
		step = stepDocument
	case !s.done(stepSelfie):
		step = stepSelfie
	}
	pg := page{Title: "Verify your identity", SessionID: s.ID, Token: token, Step: step,
		Error: pageErrors[r.URL.Query().Get("error")], ParentOrigin: origin(s.ReturnURL)}
	for i, st := range []struct{ name, label string }{{stepDocument, "Document"}, {stepSelfie, "Selfie"}, {"review", "Review"}} {
		pg.Steps = append(pg.Steps, stepView{Number: i + 1, Label: st.label, Done: s.done(st.name), Current: st.name == step})
	}
	p.render(w, http.StatusOK, pg)
}

// renderClosed shows a finished or expired session: what happened, and the
// way back to the portal.
func (p *Provider) renderClosed(w http.ResponseWriter, s *session, now time.Time) {
	pg := page{SessionID: s.ID, Finished: true, ParentOrigin: origin(s.ReturnURL), ContinueURL: continueURL(s)}
	status := http.StatusOK
	switch st := s.state(now, p.cfg.CheckDelay); {
	case st.Decision == portal.IDVDeclined:
		pg.Title = "Verification not successful"
		pg.Paragraphs = []string{"We could not verify your identity with the photos you sent (a sandbox test outcome).",
			"Continue to the applicant portal, where you can start a new verification."}
	case s.Status == portal.IDVExpired:
		pg.Title = "Verification stopped"
		pg.Paragraphs = []string{"You stopped this verification session (a sandbox test outcome).",
			"Continue to the applicant portal, where you can start a new verification."}
	case st.Status == portal.IDVExpired:
		status = http.StatusGone
		pg.Title = "This session has expired"
		pg.Paragraphs = []string{"Verification sessions stay open for a limited time, and this one has run out.",
			"Continue to the applicant portal, where you can start a new verification."}
	default:
		pg.Title = "Thank you, you are done"
		pg.Paragraphs = []string{"We received your document photo and selfie. The check takes a few moments (a sandbox test outcome: approved).",
			"Continue to the applicant portal to finish your application."}
	}
	p.render(w, status, pg)
}

// origin is the scheme and host of an absolute address ("" otherwise).
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// continueURL is the portal's return address with the session's id.
func continueURL(s *session) string {
	if s.ReturnURL == "" {
		return ""
	}
	sep := "?"
	if strings.Contains(s.ReturnURL, "?") {
		sep = "&"
	}
	return s.ReturnURL + sep + "session=" + url.QueryEscape(s.ID)
}

func (p *Provider) handleAction(w http.ResponseWriter, r *http.Request) {
	action := r.PathValue("action")
	switch action {
	case stepDocument, stepSelfie, "approve", "decline", "abandon":
	default:
		p.render(w, http.StatusNotFound, page{Title: "Page not found",
			Paragraphs: []string{"There is no such page in the IdentitySource sandbox."}})
		return
	}
	form, err := readForm(w, r)
	var problem formError
	if err != nil && (form.token == "" || !errors.As(err, &problem)) {
		p.render(w, http.StatusBadRequest, page{Title: "The form could not be read",
			Paragraphs: []string{"Go back and try again."}})
		return
	}
	s := p.session(w, r, form.token)
	if s == nil {
		return
	}
	back := "/sandbox/idv/" + url.PathEscape(s.ID) + "?token=" + url.QueryEscape(form.token)
	if problem != "" {
		http.Redirect(w, r, back+"&error="+string(problem), http.StatusSeeOther)
		return
	}
	s, err = p.update(r.Context(), s.ID, func(s *session, now time.Time) error {
		switch action {
		case stepDocument:
			if !s.done(stepDocument) {
				s.Steps = append(s.Steps, stepDocument)
			}
		case stepSelfie:
			if !s.done(stepDocument) {
				return errOutOfOrder
			}
			if !s.done(stepSelfie) {
				s.Steps = append(s.Steps, stepSelfie)
			}
		case "approve", "decline":
			if !s.done(stepDocument) || !s.done(stepSelfie) {
				return errOutOfOrder
			}
			s.Status, s.Decision = portal.IDVCompletedByUser, portal.IDVUndecided
			if action == "decline" {
				s.Status, s.Decision = portal.IDVCheckCompleted, portal.IDVDeclined
			}
			s.FinishedAt = &now
		case "abandon":
			s.Status = portal.IDVExpired
			s.FinishedAt = &now
		}
		return nil
	})
	switch {
	case errors.Is(err, errOutOfOrder):
		http.Redirect(w, r, back+"&error=order", http.StatusSeeOther)
		return
	case errors.Is(err, errSessionClosed):
		// A second tab, or the back button: the page shows how it ended.
	case err != nil:
		p.cfg.Logger.Error("idv sandbox: update session", "err", err)
		p.render(w, http.StatusServiceUnavailable, page{Title: "Please try again",
			Paragraphs: []string{"The verification service could not save this step. Please try again in a moment."}})
		return
	default:
		if !s.open(p.cfg.Now()) {
			p.notifyChanges(s)
		}
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

var errOutOfOrder = errors.New("order")

// form is what a step's form sent.
type form struct {
	token  string
	sample bool
}

// formError names a problem shown on the page (pageErrors).
type formError string

func (e formError) Error() string { return string(e) }

// readForm reads a step's form. A photo is streamed: its first bytes are
// checked and the rest is read and discarded up to MaxPhotoSize, so
// nothing of it is kept, in memory or on disk. A problem with the photo is
// a formError, returned with the token so the page can say what is wrong.
func readForm(w http.ResponseWriter, r *http.Request) (form, error) {
	var f form
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
		if err := r.ParseForm(); err != nil {
			return f, err
		}
		f.token, f.sample = r.PostForm.Get("token"), r.PostForm.Get("sample") == "1"
		if !f.sample && (r.PathValue("action") == stepDocument || r.PathValue("action") == stepSelfie) {
			return f, formError("missing")
		}
		return f, nil
	}
	// The multipart framing adds a little to the photo's size.
	r.Body = http.MaxBytesReader(w, r.Body, MaxPhotoSize+64<<10)
	mr, err := r.MultipartReader()
	if err != nil {
		return f, err
	}
	var photoErr error = formError("missing")
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				return f, formError("toolarge")
			}
			return f, err
		}
		switch part.FormName() {
		case "token":
			b, err := io.ReadAll(io.LimitReader(part, maxFieldSize+1))
			if err != nil || len(b) > maxFieldSize {
				return f, errors.New("token field unreadable")
			}
			f.token = string(b)
		case "sample":
			b, _ := io.ReadAll(io.LimitReader(part, 8))
			f.sample = string(b) == "1"
		case "file":
			photoErr = checkPhoto(part)
		default:
			io.Copy(io.Discard, io.LimitReader(part, maxFieldSize))
		}
		part.Close()
	}
	if f.sample {
		return f, nil
	}
	return f, photoErr
}

// checkPhoto reads one uploaded photo to its end, discarding it, and says
// whether it is an image of at most MaxPhotoSize.
func checkPhoto(part io.Reader) error {
	head := make([]byte, 32)
	n, err := io.ReadFull(part, head)
	if errors.Is(err, io.EOF) {
		return formError("missing") // a file input left empty sends an empty part
	}
	var tooLarge *http.MaxBytesError
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		if errors.As(err, &tooLarge) {
			return formError("toolarge")
		}
		return err
	}
	rest, err := io.Copy(io.Discard, io.LimitReader(part, MaxPhotoSize+1-int64(n)))
	switch {
	case errors.As(err, &tooLarge), int64(n)+rest > MaxPhotoSize:
		return formError("toolarge")
	case err != nil:
		return err
	case !isImage(head[:n]):
		return formError("notimage")
	}
	return nil
}

// isImage reports whether head starts like a photo a phone or a browser
// sends: JPEG, PNG, GIF, WebP or HEIC/HEIF (what iPhones take).
func isImage(head []byte) bool {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}),
		bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")),
		bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return true
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return true
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		switch string(head[8:12]) {
		case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1", "avif":
			return true
		}
	}
	return false
}
