package bench

// One whole applicant journey through the HTTP API, as a browser makes it: recorded once from the
// demo journey in Chromium (web/e2e/journey-timing.spec.ts with every request logged) and
// reproduced here call by call, in the same order, with bodies shaped as the app sends them.
//
// What differs from the browser, and why:
//   - The page's static assets are fetched once per journey, as a browser with an HTTP cache does
//     (hashed assets are cached immutably): on the first visit index.html, what it names, and every
//     chunk of the preload maps in the scripts it loads, followed from chunk to chunk (Vite's
//     __vite__mapDeps: the boot chunk names the router app, which names the lazy route chunks the
//     browser fetches page by page). That is 169 chunks where the recorded browser fetched 153
//     distinct ones: a few more requests, not the order. index.html is fetched on each document
//     load.
//   - The event stream (GET /api/v2/user/events) is opened on each document load as the app does,
//     read up to its `ready` event and closed: a browser keeps it open while the page is shown.
//   - Draft autosaves (PUT /api/v2/user/drafts/...) are sent once per form with what was typed,
//     where the browser sends one per pause in typing (1 to 4 per form in the recordings).
//   - The filled PDF form is the blank template sent back (same field names, which is what the
//     server checks); the browser fills it with pdf-lib first.
//   - The identity check is the built-in sandbox's, through its hosted page's forms (the sample
//     photos, then the Approve test outcome), polled as the app's return page polls it. Its
//     "check" takes --idv-check-delay: start the server with 0 to measure the portal, not the wait.
//
// Each journey makes two argon2id operations: the password's hash (PATCH /api/v2/user) and the
// login's check right after it (POST /oauth/access_token), the wizard's login step. A 503 (the
// password gate busy past --password-check-wait) is a failure like any other: a person would
// press the button again, but the benchmark must see it.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
)

// JourneyStats counts what one journey did.
type JourneyStats struct {
	Requests int   // HTTP requests made
	Bytes    int64 // response bytes read
}

// RunJourney walks one applicant from their invitation link to the final status, making every
// request the app makes in a browser on the way, in order; it returns the first failure (any
// non-2xx the app would not expect, or an unexpected body) with the step named.
//
// invitationURL is the link `portal invite` prints (BASE/setup?token=...). Each call is
// independent of every other (its own applicant, tokens and asset cache), so many may run at once
// on one client. The client must not follow redirects on its own for the count to be exact; a copy
// of it that does not is used.
func RunJourney(ctx context.Context, client *http.Client, baseURL, invitationURL string) (JourneyStats, error) {
	link, err := url.Parse(invitationURL)
	if err != nil {
		return JourneyStats{}, fmt.Errorf("journey: invitation link: %w", err)
	}
	token := link.Query().Get("token")
	if token == "" {
		return JourneyStats{}, fmt.Errorf("journey: invitation link %q has no token", invitationURL)
	}
	// The sandbox's forms answer 303 to its page: followed by hand, so each request is counted.
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	j := &journey{
		ctx:      ctx,
		client:   &c,
		base:     strings.TrimRight(baseURL, "/"),
		cached:   map[string]bool{},
		password: newPassword(),
		ssn:      newSSN(),
	}
	err = j.run(link.RequestURI(), token)
	return j.stats, err
}

// journey is one applicant's browser: its credential, its cache of static assets and what it has
// learnt of the applicant along the way.
type journey struct {
	ctx    context.Context
	client *http.Client
	base   string
	token  string // the bearer credential the app holds: the setup one, then the login's
	cached map[string]bool
	stats  JourneyStats

	password, ssn string
	user          userAnswer
	location      location
	services      map[string]bool // the package's service pages, by alias; nil until asked
}

// The demo journey's answers: a Texas resident with three addresses, one school, one employer,
// one licence and one reference, as web/e2e/journey-timing.spec.ts types them.
const (
	journeyTimeZone = "UTC"
	journeyState    = "US-TX"
	journeyZip      = "78701"
	journeyDOB      = "1990-04-12"
	journeyPhone    = "202 456 1111"
	journeyLicence  = "D7654321"
	journeyCard     = "4242 4242 4242 4242"
	// The app's return page asks for the decision this often (idv-success-page.tsx).
	decisionPoll = 1500 * time.Millisecond
	// It gives up waiting after this long (DECISION_WAIT_MS) and says the check goes on.
	decisionWait = 15 * time.Second
	// What is kept of a failed answer's body in the error.
	errorBodyLimit = 300
)

// Order statuses (docs/api.md, POST /api/v2/user/subject/status).
const (
	statusNew             = 0
	statusSetupComplete   = 1
	statusFinalized       = 2
	statusIDVStarted      = 3
	statusSiteSelection   = 6
	statusSelfPayRequired = 7
)

func (j *journey) run(setupPath, invitation string) error {
	steps := []struct {
		name string
		run  func() error
	}{
		{"first visit", func() error { return j.visit(setupPath) }},
		{"invitation", func() error { return j.acceptInvitation(invitation) }},
		{"password", j.createPassword},
		{"login", j.logIn},
		{"residency", j.residency},
		{"legal documents", j.signLegalDocuments},
		{"personal information", j.personalInformation},
		{"hub", j.hub},
		{"other names", j.otherNames},
		{"addresses", j.addresses},
		{"education", func() error { return j.servicePage("education", educationEntry()) }},
		{"employment", func() error { return j.servicePage("employment", employmentEntry()) }},
		{"credential", func() error { return j.servicePage("credential", credentialEntry()) }},
		{"professional", func() error { return j.servicePage("professional", referenceEntry()) }},
		{"review", j.reviewPage},
		{"documents", j.documents},
		{"pdf forms", j.pdfForms},
		{"submit", j.submit},
		{"identity verification", j.identityVerification},
		{"collection site", j.collectionSite},
		{"payment", j.payment},
	}
	for _, s := range steps {
		if err := j.ctx.Err(); err != nil {
			return fmt.Errorf("journey: %s: %w", s.name, err)
		}
		if err := s.run(); err != nil {
			return fmt.Errorf("journey: %s: %w", s.name, err)
		}
	}
	if got := j.user.Subject.Status.StatusID; got != statusFinalized {
		return fmt.Errorf("journey: ended in status %d (%s), not %d", got, j.user.Subject.Status.StatusText, statusFinalized)
	}
	return nil
}

// --- HTTP ----------------------------------------------------------------------------------------

const (
	// apiAccept is the app's Accept header (web/src/lib/api-client.ts).
	apiAccept = "application/json, text/plain, */*"
	// browserLanguage is the Accept-Language of the recorded browser (locale en-US), sent with
	// every request: the server reads it for the language of its messages and texts.
	browserLanguage = "en-US"
)

// request is one request as the browser sends it.
type request struct {
	method, path string
	header       http.Header
	body         []byte
	want         []int // accepted statuses; 200 when empty
	bearer       bool  // send the credential
}

// answer is a response read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (j *journey) do(r request) (answer, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(j.ctx, r.method, j.base+r.path, body)
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	req.Header.Set("Accept-Language", browserLanguage)
	if r.bearer && j.token != "" {
		req.Header.Set("Authorization", "Bearer "+j.token)
	}
	j.stats.Requests++
	resp, err := j.client.Do(req)
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	j.stats.Bytes += int64(len(data))
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: read the answer: %w", r.method, r.path, err)
	}
	want := r.want
	if len(want) == 0 {
		want = []int{http.StatusOK}
	}
	for _, w := range want {
		if resp.StatusCode == w {
			return answer{status: resp.StatusCode, header: resp.Header, body: data}, nil
		}
	}
	excerpt := string(data)
	if len(excerpt) > errorBodyLimit {
		excerpt = excerpt[:errorBodyLimit] + "..."
	}
	return answer{}, fmt.Errorf("%s %s answered %d, want %v: %s", r.method, r.path, resp.StatusCode, want, excerpt)
}

// call is an API call of the app: JSON in (when in is not nil), JSON out into out (when not nil).
func (j *journey) call(method, path string, in, out any, want ...int) error {
	r := request{method: method, path: path, want: want, bearer: true, header: http.Header{"Accept": {apiAccept}}}
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		r.body = b
		r.header.Set("Content-Type", "application/json")
	}
	a, err := j.do(r)
	if err != nil {
		return err
	}
	if out != nil {
		if err := json.Unmarshal(a.body, out); err != nil {
			return fmt.Errorf("%s %s: unexpected answer: %w", method, path, err)
		}
	}
	return nil
}

// get is a GET whose answer must be a JSON value (an object or an array).
func (j *journey) get(path string) error {
	var v json.RawMessage
	return j.call(http.MethodGet, path, nil, &v)
}

// gets makes the GETs the app sends together when a page opens.
func (j *journey) gets(paths ...string) error {
	for _, p := range paths {
		if err := j.get(p); err != nil {
			return err
		}
	}
	return nil
}

// upload posts a multipart form as the app's FormData does: the fields in order, then the file.
func (j *journey) upload(path string, fields [][2]string, fileName, contentType string, content []byte, out any, want ...int) error {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			return err
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, fileName))
	h.Set("Content-Type", contentType)
	part, err := mw.CreatePart(h)
	if err != nil {
		return err
	}
	if _, err := part.Write(content); err != nil {
		return err
	}
	if err := mw.Close(); err != nil {
		return err
	}
	a, err := j.do(request{method: http.MethodPost, path: path, body: buf.Bytes(), want: want, bearer: true,
		header: http.Header{"Accept": {apiAccept}, "Content-Type": {mw.FormDataContentType()}}})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(a.body, out); err != nil {
		return fmt.Errorf("POST %s: unexpected answer: %w", path, err)
	}
	return nil
}

// --- Pages and assets ----------------------------------------------------------------------------

// The browser's headers for a page and for its assets.
const (
	documentAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	acceptEncoding = "gzip, br"
)

var (
	// The assets a page names: scripts, module preloads, stylesheets and the icon; the first
	// group is set for a script the page runs (<script src>).
	assetRef = regexp.MustCompile(`\b(?:src|href)="(/[^"?#]+\.(?:js|mjs|css|svg))"`)
	// The app's preload map (Vite's __vite__mapDeps): every chunk a route may load.
	preloadMap = regexp.MustCompile(`"(assets/[A-Za-z0-9_.-]+\.(?:js|mjs|css))"`)
)

// visit is a document load of the app: the HTML and each asset not yet cached.
func (j *journey) visit(path string) error {
	return j.document(path, `<div id="root">`)
}

// document loads a page (the app's, or the identity provider's in its frame) and the assets it
// names that are not cached yet; the page must contain want.
func (j *journey) document(path, want string) error {
	a, err := j.do(request{method: http.MethodGet, path: path,
		header: http.Header{"Accept": {documentAccept}, "Accept-Encoding": {acceptEncoding}}})
	if err != nil {
		return err
	}
	html, err := decoded(a)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	if !bytes.Contains(html, []byte(want)) {
		return fmt.Errorf("GET %s: a page without %q", path, want)
	}
	for _, m := range assetRef.FindAllSubmatch(html, -1) {
		if err := j.asset(string(m[1])); err != nil {
			return err
		}
	}
	return nil
}

// asset fetches a static file unless the browser has it cached. A script may hold a preload map
// (the entry's names the boot chunk, the boot chunk's the router app...): its chunks are fetched too.
func (j *journey) asset(path string) error {
	if j.cached[path] {
		return nil
	}
	j.cached[path] = true
	a, err := j.do(request{method: http.MethodGet, path: path,
		header: http.Header{"Accept": {"*/*"}, "Accept-Encoding": {acceptEncoding}}})
	if err != nil {
		return err
	}
	if len(a.body) == 0 {
		return fmt.Errorf("GET %s: empty", path)
	}
	if !strings.HasSuffix(path, ".js") && !strings.HasSuffix(path, ".mjs") {
		return nil
	}
	script, err := decoded(a)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	for _, m := range preloadMap.FindAllSubmatch(script, -1) {
		if err := j.asset("/" + string(m[1])); err != nil {
			return err
		}
	}
	return nil
}

// decoded is a response body without its content encoding.
func decoded(a answer) ([]byte, error) {
	switch enc := a.header.Get("Content-Encoding"); enc {
	case "", "identity":
		return a.body, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(a.body))
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return io.ReadAll(zr)
	case "br":
		return io.ReadAll(brotli.NewReader(bytes.NewReader(a.body)))
	default:
		return nil, fmt.Errorf("content encoding the journey cannot read: %s", enc)
	}
}

// boot is what the app's shell asks on a logged-in document load, after the page's own calls:
// the banner, the event stream, the profile and the chat's unread count.
func (j *journey) boot() error {
	if err := j.get("/api/v2/banner/active"); err != nil {
		return err
	}
	if err := j.events(); err != nil {
		return err
	}
	return j.gets("/api/v2/user/profile", j.unreadPath())
}

func (j *journey) unreadPath() string {
	return fmt.Sprintf("/api/v2/user/subject/profile/%d/chat-messages/unread-messages", j.user.Profile.ID)
}

// events opens the applicant's event stream and reads it up to its first event, `ready`.
func (j *journey) events() error {
	ctx, cancel := context.WithCancel(j.ctx)
	defer cancel()
	const path = "/api/v2/user/events"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Accept-Language", browserLanguage)
	req.Header.Set("Authorization", "Bearer "+j.token)
	j.stats.Requests++
	resp, err := j.client.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s answered %d", path, resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		j.stats.Bytes += int64(len(sc.Bytes()) + 1)
		if sc.Text() == "event: ready" {
			return nil
		}
	}
	return fmt.Errorf("GET %s: the stream ended before its ready event: %v", path, sc.Err())
}

// --- Setup ---------------------------------------------------------------------------------------

// userAnswer is what the journey reads of GET /api/v2/user (and the answers shaped like it).
type userAnswer struct {
	Subject struct {
		ID        int64  `json:"id"`
		Username  string `json:"username"`
		Email     string `json:"email"`
		FirstName string `json:"firstName"`
		LastName  string `json:"lastName"`
		Status    struct {
			StatusID   int    `json:"statusId"`
			StatusText string `json:"statusText"`
		} `json:"status"`
		HasPassword bool  `json:"hasPassword"`
		CompanyID   int64 `json:"companyId"`
	} `json:"subject"`
	Profile struct {
		ID     int64 `json:"id"`
		Orders []struct {
			ID int64 `json:"id"`
		} `json:"orders"`
	} `json:"profile"`
	Finalization *struct {
		PaymentRequired bool `json:"paymentRequired"`
		StatusAfterIDV  struct {
			StatusID int `json:"statusId"`
		} `json:"statusAfterIdv"`
	} `json:"finalization"`
	// Only on the token login.
	AccessToken string `json:"access_token"`
}

// readUser reads GET /api/v2/user (or an answer shaped like it) and checks it is this applicant's.
func (j *journey) readUser(method, path string, in any) error {
	var u userAnswer
	if err := j.call(method, path, in, &u); err != nil {
		return err
	}
	if u.Subject.ID == 0 || (j.user.Subject.ID != 0 && u.Subject.ID != j.user.Subject.ID) {
		return fmt.Errorf("%s %s: subject %d, want %d", method, path, u.Subject.ID, j.user.Subject.ID)
	}
	j.user = u
	return nil
}

func (j *journey) wantStatus(want int) error {
	if got := j.user.Subject.Status.StatusID; got != want {
		return fmt.Errorf("status %d (%s), want %d", got, j.user.Subject.Status.StatusText, want)
	}
	return nil
}

// acceptInvitation is the setup page's token login, then what the Welcome step asks.
func (j *journey) acceptInvitation(token string) error {
	if err := j.readUser(http.MethodGet, "/api/user?token="+url.QueryEscape(token), nil); err != nil {
		return err
	}
	if j.user.AccessToken == "" {
		return errors.New("the token login gave no credential")
	}
	if err := j.wantStatus(statusNew); err != nil {
		return err
	}
	j.token = j.user.AccessToken
	if err := j.get(fmt.Sprintf("/api/settings/company/%d", j.user.Subject.CompanyID)); err != nil {
		return err
	}
	if err := j.timeZone(); err != nil {
		return err
	}
	return j.get("/api/v2/user/preparation")
}

func (j *journey) timeZone() error {
	return j.call(http.MethodPut, "/api/v2/user/timezone", map[string]string{"timeZone": journeyTimeZone}, nil)
}

// createPassword is one argon2id hash on the server.
func (j *journey) createPassword() error {
	if err := j.readUser(http.MethodPatch, "/api/v2/user", map[string]string{"password": j.password}); err != nil {
		return err
	}
	if !j.user.Subject.HasPassword {
		return errors.New("the password was not kept")
	}
	return nil
}

// logIn is the wizard's login step right after the password (one argon2id check), then what the
// legal step's page asks.
func (j *journey) logIn() error {
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	err := j.call(http.MethodPost, "/oauth/access_token", map[string]string{
		"grant_type": "password", "username": j.user.Subject.Username, "password": j.password,
		"client_id": "portal-spa", "client_secret": "portal-spa-secret", "scope": "default",
	}, &tok)
	if err != nil {
		return err
	}
	if tok.AccessToken == "" || tok.TokenType != "Bearer" {
		return fmt.Errorf("the login gave no bearer credential (%q)", tok.TokenType)
	}
	j.token = tok.AccessToken
	if err := j.readUser(http.MethodGet, "/api/v2/user", nil); err != nil {
		return err
	}
	if err := j.timeZone(); err != nil {
		return err
	}
	return j.gets("/api/v2/user/document", "/api/v2/user/data",
		"/api/v2/lookup/counties", "/api/v2/lookup/statesByCountryId?countryId=1")
}

// place is a residency or a place of work (GET /api/v2/user/data).
type place struct {
	NonUS  bool   `json:"nonUs"`
	State  string `json:"state"`
	County int    `json:"county"`
}

type location struct {
	Residency  place `json:"residency"`
	Employment place `json:"employment"`
}

var journeyResidency = place{State: journeyState}

func (j *journey) residency() error {
	if err := j.boot(); err != nil {
		return err
	}
	var data struct {
		Payload struct {
			Data struct {
				Location location `json:"location"`
			} `json:"data"`
		} `json:"payload"`
	}
	body := map[string]any{"location": map[string]any{"residency": journeyResidency}}
	if err := j.call(http.MethodPost, "/api/v2/user/data", body, &data); err != nil {
		return err
	}
	j.location = data.Payload.Data.Location
	if got := j.location.Residency.State; got != journeyState {
		return fmt.Errorf("residency %q after saving %q", got, journeyState)
	}
	return nil
}

// --- Legal documents -----------------------------------------------------------------------------

type legalDocument struct {
	ID   int64 `json:"id"`
	Type struct {
		DocumentType string `json:"documentType"`
		Visibility   string `json:"visibility"`
		Regions      []struct {
			State  string `json:"state"`
			County int    `json:"county"`
		} `json:"regions"`
		Editable bool `json:"editable"`
	} `json:"type"`
	Signature json.RawMessage `json:"signature"`
}

// The rights notices, in the order the rights step shows them, and their acknowledgements
// (web/src/features/legal/lib/legal-steps.ts).
var rightsNotices = []struct{ documentType, ack string }{
	{"rights_fed", "ackFed"}, {"rights_nj", "ackNj"}, {"rights_wa", "ackWa"}, {"rights_sf", "ackSf"},
	{"rights_ny23a", "ackNy"}, {"rights_ca_credit", "ackCaCredit"}, {"rights_vt_credit", "ackVtCredit"},
	{"rights_md_credit", "ackMdCredit"},
}

// The steps' order (legal-steps.ts priorities); 0 for any other type.
var legalPriority = map[string]int{
	"e_sign": 100, "disclosure": 99, "investigative_consumer_report": 98, "california_disclosure": 97,
	"addl_state_disclosures": 96, "rights": 95, "authorization_for_background": -100,
}

func rightsAck(documentType string) (string, int, bool) {
	if documentType == "rights" {
		return "", -1, true
	}
	for i, n := range rightsNotices {
		if n.documentType == documentType {
			return n.ack, i, true
		}
	}
	return "", 0, false
}

func stepType(documentType string) string {
	if _, _, ok := rightsAck(documentType); ok {
		return "rights"
	}
	return documentType
}

func sameState(a, b string) bool {
	a = strings.TrimSpace(a)
	return a != "" && strings.EqualFold(a, strings.TrimSpace(b))
}

// applies is legal-steps.ts's applies: all always, non_us outside the US, else a matching region.
func (d legalDocument) applies(loc location) bool {
	switch d.Type.Visibility {
	case "all":
		return true
	case "non_us":
		return loc.Residency.NonUS || loc.Employment.NonUS
	}
	for _, r := range d.Type.Regions {
		for _, p := range []place{loc.Residency, loc.Employment} {
			if sameState(r.State, p.State) || (r.County != 0 && r.County == p.County) {
				return true
			}
		}
	}
	return false
}

// legalStep is one step of the legal wizard: one document, or the rights notices together.
type legalStep struct {
	documentType string
	documents    []legalDocument
}

// legalSteps is legal-steps.ts's legalSteps: applicable editable documents by priority, the
// rights notices merged into one step.
func legalSteps(docs []legalDocument, loc location) []legalStep {
	var shown []legalDocument
	for _, d := range docs {
		if d.Type.Editable && d.applies(loc) {
			shown = append(shown, d)
		}
	}
	less := func(a, b legalDocument) bool {
		pa, pb := legalPriority[stepType(a.Type.DocumentType)], legalPriority[stepType(b.Type.DocumentType)]
		if pa != pb {
			return pa > pb
		}
		return a.ID < b.ID
	}
	sortDocs(shown, less)
	var steps []legalStep
	rights := -1
	for _, d := range shown {
		t := stepType(d.Type.DocumentType)
		if t != "rights" {
			steps = append(steps, legalStep{documentType: t, documents: []legalDocument{d}})
			continue
		}
		if rights < 0 {
			rights = len(steps)
			steps = append(steps, legalStep{documentType: "rights"})
		}
		steps[rights].documents = append(steps[rights].documents, d)
	}
	if rights >= 0 {
		sortDocs(steps[rights].documents, func(a, b legalDocument) bool {
			_, ia, _ := rightsAck(a.Type.DocumentType)
			_, ib, _ := rightsAck(b.Type.DocumentType)
			if ia != ib {
				return ia < ib
			}
			return a.ID < b.ID
		})
	}
	return steps
}

// sortDocs is an insertion sort: a handful of documents, kept stable.
func sortDocs(docs []legalDocument, less func(a, b legalDocument) bool) {
	for i := 1; i < len(docs); i++ {
		for k := i; k > 0 && less(docs[k], docs[k-1]); k-- {
			docs[k], docs[k-1] = docs[k-1], docs[k]
		}
	}
}

// stepFields is what the step's form sends (web/src/features/legal/components/step-fields.ts).
func (j *journey) stepFields(step legalStep, loc location) map[string]any {
	names := map[string]any{"firstName": j.user.Subject.FirstName, "lastName": j.user.Subject.LastName}
	with := func(m map[string]any, more map[string]any) map[string]any {
		for k, v := range more {
			m[k] = v
		}
		return m
	}
	switch step.documentType {
	case "e_sign":
		return with(names, map[string]any{"ackConsent": true, "ackNotices": true})
	case "rights":
		f := map[string]any{"ackReceiptYourRights": true}
		for _, d := range step.documents {
			if ack, _, _ := rightsAck(d.Type.DocumentType); ack != "" {
				f[ack] = true
			}
		}
		return f
	case "authorization_for_background":
		f := with(names, map[string]any{"authConsent": true, "signature": signatureDataURL})
		for _, s := range []string{"US-CA", "US-OK", "US-MN"} {
			if sameState(s, loc.Residency.State) || sameState(s, loc.Employment.State) {
				f["freeReportCopy"] = true
			}
		}
		return f
	case "dot_release":
		return with(names, map[string]any{"lastFourSSN": j.ssn[5:], "signature": signatureDataURL})
	case "disclosure", "investigative_consumer_report", "california_disclosure", "addl_state_disclosures":
		return map[string]any{"ackReceipt": true, "signature": signatureDataURL}
	}
	return map[string]any{"signature": signatureDataURL}
}

// signLegalDocuments signs each step in order: the texts of the step as shown (their hashes go
// with the signature), then the signature.
func (j *journey) signLegalDocuments() error {
	var docs []legalDocument
	if err := j.call(http.MethodGet, "/api/v2/user/document", nil, &docs); err != nil {
		return err
	}
	// The wizard knows the location from the residency step's answer.
	loc := j.location
	steps := legalSteps(docs, loc)
	if len(steps) == 0 {
		return errors.New("no legal document to sign")
	}
	for _, step := range steps {
		hashes := map[string]string{}
		for _, d := range step.documents {
			var text struct {
				ContentSha256 string `json:"contentSha256"`
			}
			if err := j.call(http.MethodGet, fmt.Sprintf("/api/v2/document/%d", d.ID), nil, &text); err != nil {
				return err
			}
			if text.ContentSha256 == "" {
				return fmt.Errorf("document %d: no contentSha256", d.ID)
			}
			hashes[strconv.FormatInt(d.ID, 10)] = text.ContentSha256
		}
		body := j.stepFields(step, loc)
		body["contentSha256"] = hashes
		var signed []legalDocument
		path := fmt.Sprintf("/api/v2/user/document/%d/signature", step.documents[0].ID)
		if err := j.call(http.MethodPost, path, body, &signed, http.StatusCreated); err != nil {
			return err
		}
		for _, s := range signed {
			for _, d := range step.documents {
				if s.ID == d.ID && (len(s.Signature) == 0 || string(s.Signature) == "null") {
					return fmt.Errorf("document %d is not signed after its step", d.ID)
				}
			}
		}
	}
	return nil
}

// --- Personal information ------------------------------------------------------------------------

// personalInformation is the PUT /api/v2/user of the wizard's last step, in the app's field order.
type personalInformation struct {
	FirstName                   string `json:"firstName"`
	NoMiddleName                bool   `json:"noMiddleName"`
	MiddleName                  string `json:"middleName"`
	LastName                    string `json:"lastName"`
	MothersMaidenName           string `json:"mothersMaidenName"`
	SSN                         string `json:"ssn"`
	ConfirmSSN                  string `json:"confirmSSN"`
	NoSSN                       bool   `json:"noSSN"`
	DOB                         string `json:"dob"`
	ConfirmDOB                  string `json:"confirmDOB"`
	Gender                      string `json:"gender"`
	NameSuffix                  string `json:"nameSuffix"`
	DaytimeDialCode             string `json:"daytimeDialCode"`
	DaytimePhoneNumber          string `json:"daytimePhoneNumber"`
	EveningDialCode             string `json:"eveningDialCode"`
	EveningPhoneNumber          string `json:"eveningPhoneNumber"`
	IdentificationCountry       string `json:"identificationCountry"`
	CountryIdentificationNumber string `json:"countryIdentificationNumber"`
	DriversLicenseNumber        string `json:"driversLicenseNumber"`
	NoDriversLicenseNumber      bool   `json:"noDriversLicenseNumber"`
	DriversLicenseState         string `json:"driversLicenseState"`
	DrugZip                     string `json:"drugZip"`
	CDLRequired                 bool   `json:"cdlRequired"`
	Licenses                    []any  `json:"licenses"`
	PrimaryNotificationMethod   struct {
		Type  string `json:"type"`
		Email string `json:"email"`
		Text  string `json:"text"`
	} `json:"primaryNotificationMethod"`
}

func (j *journey) personalInformation() error {
	if err := j.gets("/api/v2/lookup/genders", "/api/v2/lookup/suffixes", "/api/v2/lookup/countries",
		"/api/v2/user/drafts"); err != nil {
		return err
	}
	// The autosave of what was typed before the save.
	dashed := j.ssn[:3] + "-" + j.ssn[3:5] + "-" + j.ssn[5:]
	if err := j.saveDraft("personal", map[string]any{"noMiddleName": true, "ssn": dashed, "confirmSSN": dashed,
		"dob": journeyDOB}); err != nil {
		return err
	}
	p := personalInformation{
		FirstName: j.user.Subject.FirstName, NoMiddleName: true, LastName: j.user.Subject.LastName,
		SSN: j.ssn, ConfirmSSN: j.ssn, DOB: journeyDOB, ConfirmDOB: journeyDOB,
		DaytimeDialCode: "1", DaytimePhoneNumber: journeyPhone, EveningDialCode: "1",
		DriversLicenseNumber: journeyLicence, DriversLicenseState: journeyState, DrugZip: journeyZip,
		Licenses: []any{},
	}
	p.PrimaryNotificationMethod.Type = "email"
	p.PrimaryNotificationMethod.Email = j.user.Subject.Email
	// The save answers only what it changed, the personal information, which the app merges
	// into the user it holds.
	var saved struct {
		Subject struct {
			PersonalInformation *struct {
				FirstName string `json:"firstName"`
			} `json:"personalInformation"`
		} `json:"subject"`
	}
	if err := j.call(http.MethodPut, "/api/v2/user", p, &saved); err != nil {
		return err
	}
	if pi := saved.Subject.PersonalInformation; pi == nil || pi.FirstName != p.FirstName {
		return fmt.Errorf("PUT /api/v2/user: the answer does not hold the saved personal information")
	}
	if err := j.get("/api/v2/user/drafts"); err != nil {
		return err
	}
	if err := j.moveTo(statusSetupComplete, nil); err != nil {
		return err
	}
	if err := j.readUser(http.MethodGet, "/api/v2/user", nil); err != nil {
		return err
	}
	return j.get("/api/v2/user/subject")
}

// saveDraft is a form's autosave.
func (j *journey) saveDraft(form string, fields any) error {
	var saved struct {
		Payload struct {
			Form string `json:"form"`
		} `json:"payload"`
	}
	err := j.call(http.MethodPut, "/api/v2/user/drafts/"+url.PathEscape(form), map[string]any{"fields": fields}, &saved)
	if err != nil {
		return err
	}
	if saved.Payload.Form != form {
		return fmt.Errorf("draft %q saved as %q", form, saved.Payload.Form)
	}
	return nil
}

// moveTo is POST /api/v2/user/subject/status; the answer is GET /api/v2/user's.
func (j *journey) moveTo(status int, declaration *bool) error {
	body := map[string]any{"statusId": status}
	if declaration != nil {
		body["declaration"] = *declaration
	}
	if err := j.readUser(http.MethodPost, "/api/v2/user/subject/status", body); err != nil {
		return err
	}
	return j.wantStatus(status)
}

// --- The profile's pages -------------------------------------------------------------------------

// hub is /profile: the checklist and what it counts.
func (j *journey) hub() error {
	if len(j.user.Profile.Orders) == 0 {
		return errors.New("the profile has no order")
	}
	return j.gets(fmt.Sprintf("/api/v2/user/order/%d", j.user.Profile.Orders[0].ID),
		"/api/v2/user/profile/documents", "/api/v2/user/profile/fillable-pdf-forms", "/api/v2/user/document",
		"/api/v2/user/data", "/api/v2/user/subject", "/api/v2/user/profile")
}

func (j *journey) otherNames() error {
	if err := j.gets("/api/v2/user/subject/alias", "/api/v2/user/drafts"); err != nil {
		return err
	}
	var saved struct {
		Payload struct {
			Saved bool `json:"saved"`
		} `json:"payload"`
	}
	if err := j.call(http.MethodPut, "/api/v2/user/subject/alias", map[string]any{"aliases": []any{}}, &saved); err != nil {
		return err
	}
	if !saved.Payload.Saved {
		return errors.New("other names not saved")
	}
	return j.gets("/api/v2/user/drafts", "/api/v2/user/subject")
}

type address struct {
	RecordID *string `json:"recordId,omitempty"` // the draft's form rows carry one
	Country  string  `json:"country"`
	Street1  string  `json:"street1"`
	Street2  string  `json:"street2"`
	City     string  `json:"city"`
	State    string  `json:"state"`
	Zip      string  `json:"zip"`
	From     string  `json:"from"`
	To       string  `json:"to"`
	Current  bool    `json:"current"`
}

// addresses covers the years the package asks with three Texas addresses, each checked as it is
// typed (the validation call) and autosaved, then saved.
func (j *journey) addresses() error {
	var history struct {
		Payload struct {
			RequiredYears int `json:"requiredYears"`
		} `json:"payload"`
	}
	if err := j.call(http.MethodGet, "/api/v2/user/subject/address", nil, &history); err != nil {
		return err
	}
	if err := j.get("/api/v2/user/drafts"); err != nil {
		return err
	}
	years := history.Payload.RequiredYears
	if years <= 0 {
		years = 7
	}
	now := time.Now().UTC()
	monthsAgo := func(n int) string { return now.AddDate(0, -n, 0).Format("2006-01") }
	all := []address{
		{Country: "US", Street1: "1400 Congress Ave", City: "Austin", State: journeyState, Zip: "78701", From: monthsAgo(38), Current: true},
		{Country: "US", Street1: "2500 Elm St", City: "Dallas", State: journeyState, Zip: "75226", From: monthsAgo(62), To: monthsAgo(38)},
		{Country: "US", Street1: "500 Main St", City: "Houston", State: journeyState, Zip: "77002", From: monthsAgo(12*years + 6), To: monthsAgo(62)},
	}
	empty := ""
	for i, a := range all {
		q := url.Values{"street": {a.Street1}, "city": {a.City}, "state": {a.State}, "zip": {a.Zip}}
		var check struct {
			Payload struct {
				Valid bool `json:"valid"`
			} `json:"payload"`
		}
		if err := j.call(http.MethodGet, "/api/v2/validation/address?"+q.Encode(), nil, &check); err != nil {
			return err
		}
		if !check.Payload.Valid {
			return fmt.Errorf("address %s, %s found not valid", a.Street1, a.City)
		}
		rows := make([]address, i+1)
		copy(rows, all[:i+1])
		for k := range rows {
			rows[k].RecordID = &empty
		}
		if err := j.saveDraft("addresses", map[string]any{"addresses": rows}); err != nil {
			return err
		}
	}
	var saved struct {
		Payload struct {
			Saved bool              `json:"saved"`
			Gaps  []json.RawMessage `json:"gaps"`
		} `json:"payload"`
	}
	if err := j.call(http.MethodPut, "/api/v2/user/subject/address", map[string]any{"addresses": all, "draft": false}, &saved); err != nil {
		return err
	}
	if !saved.Payload.Saved || len(saved.Payload.Gaps) > 0 {
		return fmt.Errorf("address history saved %v with %d gaps", saved.Payload.Saved, len(saved.Payload.Gaps))
	}
	return j.gets("/api/v2/user/drafts", "/api/v2/user/subject")
}

// serviceEntry is one entry of a service page: what the draft autosaves, then what the save sends.
type serviceEntry struct {
	opening []string // what the page asks when it opens, before the drafts
	draft   map[string]any
	entry   map[string]any
	// Whether the save says the applicant has data (education, employment and credential).
	noDataFlag bool
}

func educationEntry() serviceEntry {
	return serviceEntry{
		opening: []string{"/api/v2/user/data"},
		draft: map[string]any{"school_name": "Austin Community College", "school_type": "community_college",
			"school_country": "US", "school_city": "Austin", "school_state": "", "attended_from": "", "attended_to": "",
			"graduated": "", "degree": "", "degree_other": "", "major": "", "graduation_date": "", "name_while_attending": ""},
		entry: map[string]any{"school_name": "Austin Community College", "school_type": "community_college",
			"school_country": "US", "school_city": "Austin", "school_state": journeyState, "attended_from": "2008-09",
			"attended_to": "2010-05", "graduated": "yes", "degree": "associate", "major": "", "graduation_date": "",
			"name_while_attending": ""},
		noDataFlag: true,
	}
}

func employmentEntry() serviceEntry {
	return serviceEntry{
		opening: []string{"/api/v2/user/subject", "/api/v2/user/data", "/api/v2/user/subject/address"},
		draft: map[string]any{"employer_name": "Riverside Warehousing", "employer_country": "US", "employer_city": "Austin",
			"employer_state": journeyState, "employer_phone_no": "(512) 555-0100", "job_title": "Warehouse associate",
			"start_date": "", "currently_employed": false, "end_date": "", "may_contact": "", "supervisor_name": "",
			"supervisor_phone": "", "reason_for_leaving": "", "employer_dot": false, "dot_agency": ""},
		entry: map[string]any{"employer_name": "Riverside Warehousing", "employer_country": "US", "employer_city": "Austin",
			"employer_state": journeyState, "employer_phone_no": "(512) 555-0100", "job_title": "Warehouse associate",
			"start_date": time.Now().UTC().AddDate(0, -30, 0).Format("2006-01-02"), "currently_employed": true,
			"may_contact": "no", "employer_dot": false},
		noDataFlag: true,
	}
}

func credentialEntry() serviceEntry {
	return serviceEntry{
		opening: []string{"/api/v2/user/data"},
		draft: map[string]any{"credential_type": "license", "credential_name": "Forklift operator certificate",
			"issuing_authority": "Texas Department of Licensing", "credential_state": journeyState,
			"credential_number": "FL-204518", "issued_date": "", "expiration_date": "", "no_expiration": false},
		entry: map[string]any{"credential_type": "license", "credential_name": "Forklift operator certificate",
			"issuing_authority": "Texas Department of Licensing", "credential_state": journeyState,
			"credential_number": "FL-204518", "issued_date": "2019-03-15", "no_expiration": true},
		noDataFlag: true,
	}
}

func referenceEntry() serviceEntry {
	return serviceEntry{
		opening: []string{"/api/v2/user/data"},
		draft: map[string]any{"reference_name": "Morgan Blake", "relationship": "", "reference_company": "",
			"reference_phone": "", "reference_email": "", "years_known": ""},
		entry: map[string]any{"reference_name": "Morgan Blake", "relationship": "supervisor", "reference_company": "",
			"reference_phone": "(512) 555-0142", "reference_email": "", "years_known": "3"},
	}
}

// servicePage is one service page, when the package has it: open it, type (the autosave), save
// and continue. The first one the app opens asks for the package's service definitions.
func (j *journey) servicePage(alias string, s serviceEntry) error {
	if j.services == nil {
		var defs struct {
			Payload []struct {
				Alias string `json:"alias"`
			} `json:"payload"`
		}
		if err := j.call(http.MethodGet, "/api/v2/user/service", nil, &defs); err != nil {
			return err
		}
		j.services = map[string]bool{}
		for _, d := range defs.Payload {
			j.services[d.Alias] = true
		}
	}
	if !j.services[alias] {
		return nil
	}
	if err := j.gets(append(s.opening, "/api/v2/user/drafts")...); err != nil {
		return err
	}
	if err := j.saveDraft("service:"+alias, map[string]any{"entries": []any{s.draft}}); err != nil {
		return err
	}
	body := map[string]any{"services": map[string]any{alias: []any{s.entry}}}
	if s.noDataFlag {
		body["noDataAvailable"] = map[string]bool{alias: false}
	}
	var saved struct {
		Payload struct {
			Data struct {
				Services map[string][]json.RawMessage `json:"services"`
			} `json:"data"`
		} `json:"payload"`
	}
	if err := j.call(http.MethodPost, "/api/v2/user/profile", body, &saved); err != nil {
		return err
	}
	if n := len(saved.Payload.Data.Services[alias]); n != 1 {
		return fmt.Errorf("%d %s entries after saving one", n, alias)
	}
	return j.gets("/api/v2/user/drafts", "/api/v2/user/subject", "/api/v2/user/data", "/api/v2/user/subject")
}

// reviewPage is /confirmation reached from the last service page: it lists what is still missing.
func (j *journey) reviewPage() error {
	return j.gets("/api/v2/user/document", "/api/v2/user/data", "/api/v2/user/subject",
		"/api/v2/user/profile/documents", "/api/v2/user/profile/fillable-pdf-forms")
}

// reload is a document load of an applicant page: the HTML, the user and company the shell asks
// first, the page's own calls (page), then the rest of the shell's (boot).
func (j *journey) reload(path string, page func() error) error {
	if err := j.visit(path); err != nil {
		return err
	}
	if err := j.readUser(http.MethodGet, "/api/v2/user", nil); err != nil {
		return err
	}
	if err := j.get(fmt.Sprintf("/api/settings/company/%d", j.user.Subject.CompanyID)); err != nil {
		return err
	}
	if err := page(); err != nil {
		return err
	}
	return j.boot()
}

// A photo as the documents page sends it (1 x 1 PNG, as the browser test's).
var samplePhoto, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

// documents uploads one photo for each document type the package asks.
func (j *journey) documents() error {
	var list struct {
		DocumentTypes []struct {
			Type string `json:"type"`
		} `json:"documentTypes"`
		Writable bool `json:"writable"`
	}
	err := j.reload("/additional-documents", func() error {
		if err := j.call(http.MethodGet, "/api/v2/user/profile/documents", nil, &list); err != nil {
			return err
		}
		return j.get("/api/v2/user/subject")
	})
	if err != nil {
		return err
	}
	if !list.Writable {
		return errors.New("the documents are not writable")
	}
	for _, t := range list.DocumentTypes {
		var up struct {
			ID           int64  `json:"id"`
			DocumentType string `json:"documentType"`
		}
		err := j.upload("/api/v2/user/profile/documents", [][2]string{{"documentType", t.Type}}, "photo.png", "image/png",
			samplePhoto, &up, http.StatusCreated)
		if err != nil {
			return err
		}
		if up.ID == 0 || up.DocumentType != t.Type {
			return fmt.Errorf("upload of a %s answered %+v", t.Type, up)
		}
		if err := j.gets("/api/v2/user/profile/documents", "/api/v2/user/subject"); err != nil {
			return err
		}
	}
	return nil
}

// pdfForms fills each form of the package: its template, then the filled copy.
func (j *journey) pdfForms() error {
	var forms []struct {
		ID   int64  `json:"id"`
		Code string `json:"code"`
	}
	err := j.reload("/fillable-pdf-form", func() error {
		return j.call(http.MethodGet, "/api/v2/user/profile/fillable-pdf-forms", nil, &forms)
	})
	if err != nil {
		return err
	}
	for _, f := range forms {
		path := fmt.Sprintf("/api/v2/user/profile/fillable-pdf-form/%d", f.ID)
		tmpl, err := j.do(request{method: http.MethodGet, path: path, bearer: true, header: http.Header{"Accept": {apiAccept}}})
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(tmpl.body, []byte("%PDF-")) {
			return fmt.Errorf("GET %s: not a PDF", path)
		}
		if err := j.gets("/api/v2/lookup/statesByCountryId?countryId=1", "/api/v2/user/subject"); err != nil {
			return err
		}
		var sent struct {
			Message string `json:"message"`
		}
		if err := j.upload(path, nil, f.Code+".pdf", "application/pdf", tmpl.body, &sent); err != nil {
			return err
		}
		if sent.Message != "Form submitted" {
			return fmt.Errorf("POST %s: %q", path, sent.Message)
		}
		if err := j.gets("/api/v2/user/profile/fillable-pdf-forms", "/api/v2/user/subject"); err != nil {
			return err
		}
	}
	return nil
}

// submit is the review page's "start identity verification", with the declaration.
func (j *journey) submit() error {
	err := j.reload("/confirmation", func() error {
		return j.gets("/api/v2/user/subject", "/api/v2/user/service", "/api/v2/lookup/statesByCountryId?countryId=1",
			"/api/v2/lookup/countries", "/api/v2/user/profile/documents", "/api/v2/user/profile/fillable-pdf-forms",
			"/api/v2/lookup/genders", "/api/v2/user/document", "/api/v2/user/data")
	})
	if err != nil {
		return err
	}
	declared := true
	if err := j.moveTo(statusIDVStarted, &declared); err != nil {
		return err
	}
	return j.readUser(http.MethodGet, "/api/v2/user", nil)
}

// --- After the profile ---------------------------------------------------------------------------

type idvSession struct {
	ID       string  `json:"id"`
	Token    string  `json:"token"`
	Status   int     `json:"status"`
	Decision *string `json:"decision"`
}

// identityVerification is /idv: a session, the provider's page in its frame (the sandbox: the
// sample document, the sample selfie, Approve), then the return page polling for the decision.
func (j *journey) identityVerification() error {
	var s idvSession
	if err := j.call(http.MethodPut, "/api/v2/idv/session", map[string]int64{"subjectId": j.user.Subject.ID}, &s); err != nil {
		return err
	}
	if s.ID == "" || s.Token == "" {
		return errors.New("the identity-verification session has no id or token")
	}
	page := "/sandbox/idv/" + url.PathEscape(s.ID) + "?token=" + url.QueryEscape(s.Token)
	if err := j.sandboxPage(page); err != nil {
		return err
	}
	sessionPath := "/api/v2/idv/session/" + url.PathEscape(s.ID)
	if err := j.get(sessionPath); err != nil {
		return err
	}
	for _, step := range []struct{ action, form string }{
		{"document", "token=" + url.QueryEscape(s.Token) + "&sample=1"},
		{"selfie", "token=" + url.QueryEscape(s.Token) + "&sample=1"},
		{"approve", "token=" + url.QueryEscape(s.Token)},
	} {
		a, err := j.do(request{method: http.MethodPost, path: "/sandbox/idv/" + url.PathEscape(s.ID) + "/" + step.action,
			body: []byte(step.form), want: []int{http.StatusSeeOther},
			header: http.Header{"Accept": {documentAccept}, "Accept-Encoding": {acceptEncoding},
				"Content-Type": {"application/x-www-form-urlencoded"}}})
		if err != nil {
			return err
		}
		next := a.header.Get("Location")
		if strings.Contains(next, "error=") || !strings.HasPrefix(next, "/sandbox/idv/") {
			return fmt.Errorf("the sandbox's %s step sent the applicant to %q", step.action, next)
		}
		if err := j.sandboxPage(next); err != nil {
			return err
		}
	}
	// The return page: the session, the user, then the session every 1.5 s until decided.
	if err := j.call(http.MethodGet, sessionPath, nil, &s); err != nil {
		return err
	}
	if err := j.readUser(http.MethodGet, "/api/v2/user", nil); err != nil {
		return err
	}
	deadline := time.Now().Add(decisionWait)
	for s.Decision == nil {
		if time.Now().After(deadline) {
			return fmt.Errorf("no decision %v after Approve (status %d): is --idv-check-delay long?", decisionWait, s.Status)
		}
		select {
		case <-j.ctx.Done():
			return j.ctx.Err()
		case <-time.After(decisionPoll):
		}
		if err := j.call(http.MethodGet, sessionPath, nil, &s); err != nil {
			return err
		}
	}
	if *s.Decision != "approved" {
		return fmt.Errorf("identity verification %q", *s.Decision)
	}
	if j.user.Finalization == nil {
		return errors.New("GET /api/v2/user has no finalization")
	}
	if err := j.moveTo(j.user.Finalization.StatusAfterIDV.StatusID, nil); err != nil {
		return err
	}
	return j.readUser(http.MethodGet, "/api/v2/user", nil)
}

// sandboxPage loads the sandbox provider's page in the frame, with its assets.
func (j *journey) sandboxPage(path string) error {
	return j.document(path, "<html")
}

type paymentAnswer struct {
	Required      bool            `json:"required"`
	Authorization json.RawMessage `json:"authorization"`
}

func (p paymentAnswer) owed() bool {
	return p.Required && (len(p.Authorization) == 0 || string(p.Authorization) == "null")
}

// collectionSite is /collection-site when the status asks it: the nearest sites to the drug-test
// ZIP code, the first chosen, then on to payment or the end.
func (j *journey) collectionSite() error {
	if j.user.Subject.Status.StatusID != statusSiteSelection {
		return nil
	}
	var found struct {
		Sites []struct {
			ID int64 `json:"id"`
		} `json:"sites"`
	}
	if err := j.call(http.MethodGet, "/api/v2/collection-sites?zip="+journeyZip+"&radius=25", nil, &found); err != nil {
		return err
	}
	if len(found.Sites) == 0 {
		return fmt.Errorf("no collection site near %s", journeyZip)
	}
	var chosen struct {
		Site *struct {
			ID int64 `json:"id"`
		} `json:"site"`
	}
	if err := j.call(http.MethodPut, "/api/v2/user/collection-site", map[string]int64{"siteId": found.Sites[0].ID}, &chosen); err != nil {
		return err
	}
	if chosen.Site == nil || chosen.Site.ID != found.Sites[0].ID {
		return fmt.Errorf("site %d chosen, answer %+v", found.Sites[0].ID, chosen.Site)
	}
	var pay paymentAnswer
	if err := j.call(http.MethodGet, "/api/v2/payment", nil, &pay); err != nil {
		return err
	}
	next := statusFinalized
	if pay.owed() {
		next = statusSelfPayRequired
	}
	if err := j.moveTo(next, nil); err != nil {
		return err
	}
	return j.readUser(http.MethodGet, "/api/v2/user", nil)
}

// payment is /self-pay when the status asks it: the sandbox processor's approved test card.
func (j *journey) payment() error {
	if j.user.Subject.Status.StatusID != statusSelfPayRequired {
		return nil
	}
	var pay paymentAnswer
	if err := j.call(http.MethodGet, "/api/v2/payment", nil, &pay); err != nil {
		return err
	}
	if !pay.owed() {
		return errors.New("self-pay required but nothing is owed")
	}
	var paid struct {
		Message       string          `json:"message"`
		Authorization json.RawMessage `json:"authorization"`
	}
	err := j.call(http.MethodPost, "/api/v2/payment/auth", map[string]string{
		"cardNumber": journeyCard, "expiry": time.Now().UTC().AddDate(2, 0, 0).Format("01/06"), "cvc": "123",
		"cardholderName": j.user.Subject.FirstName + " " + j.user.Subject.LastName, "postalCode": journeyZip,
		"idempotencyKey": newKey(),
	}, &paid)
	if err != nil {
		return err
	}
	if paid.Message != "Payment successfully authorized" {
		return fmt.Errorf("payment: %q", paid.Message)
	}
	if err := j.moveTo(statusFinalized, nil); err != nil {
		return err
	}
	return j.readUser(http.MethodGet, "/api/v2/user", nil)
}

// --- Applicant data ------------------------------------------------------------------------------

// newSSN is a random SSN the server accepts: area 001-665 (never 000, 666 or 9xx), group 01-99,
// serial 0001-9999.
func newSSN() string {
	return fmt.Sprintf("%03d%02d%04d", 1+rand.N(665), 1+rand.N(99), 1+rand.N(9999))
}

// newPassword is a random password that passes the policy: long, varied, in no list.
func newPassword() string {
	b := make([]byte, 18)
	for i := range b {
		b[i] = byte(rand.N(256))
	}
	return "Journey " + base64.RawURLEncoding.EncodeToString(b)
}

// newKey is an idempotency key as the app makes one (a random UUID).
func newKey() string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(rand.N(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// signatureDataURL is a drawn signature as the pad sends it: an 8-bit grey PNG, 300 x 90, with a
// stroke across (web/e2e/pom/api-setup.ts draws the same).
var signatureDataURL = drawSignature()

func drawSignature() string {
	img := image.NewGray(image.Rect(0, 0, 300, 90))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for x := 20; x < 280; x++ {
		wave := int(math.Round(45 + 20*math.Sin(float64(x)/15)))
		for y := wave - 2; y <= wave+2; y++ {
			img.SetGray(x, y, color.Gray{})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // an in-memory image always encodes
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}
