package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// The HTTP fuzz targets send arbitrary input through the whole handler
// (middleware, routing, decoding, the services on SQLite) as the demo
// applicant, and hold every answer to the API's error contract
// (checkAnswer). The server and its database are built once per target, not
// per input, so an input costs one request.

// fuzzAPI is the real handler over a SQLite database seeded with the demo
// employer, the demo applicant's access token and an API key of the demo
// company.
type fuzzAPI struct {
	name    string // the database's
	db      *store.DB
	handler http.Handler
	routes  []string
	token   string
	apiKey  string
	// ids fill the path parameters of a route with the applicant's own
	// resources, by the path segment before the parameter (ids[""] for any
	// other).
	ids map[string]string
	// legalIDs are the applicant's legal documents, unfiltered.
	legalIDs []int64
}

// newFuzzAPIs builds the API on SQLite and, when PORTAL_TEST_DATABASE_URL
// is set and the seeds run as tests (go test without -fuzz), on
// PostgreSQL too: each input is sent to both. Fuzzing itself runs on
// SQLite alone, where an input costs least.
func newFuzzAPIs(f *testing.F) []*fuzzAPI {
	f.Helper()
	apis := []*fuzzAPI{newFuzzAPI(f, "SQLite", storetest.OpenSQLite(f, storetest.Config(f)))}
	if fuzzing := flag.Lookup("test.fuzz"); os.Getenv(storetest.EnvURL) != "" && (fuzzing == nil || fuzzing.Value.String() == "") {
		apis = append(apis, newFuzzAPI(f, "PostgreSQL", storetest.OpenPostgres(f, storetest.Config(f))))
	}
	return apis
}

func newFuzzAPI(f *testing.F, name string, db *store.DB) *fuzzAPI {
	f.Helper()
	ctx := context.Background()
	a := &fuzzAPI{name: name, db: db, token: demoAccessToken(f, db)}
	srv, err := httpapi.New(httpapi.Config{ClientID: "spa", ClientSecret: "spa-secret"}, storeServices(db, nil), testIndex, nil)
	if err != nil {
		f.Fatal(err)
	}
	a.handler, a.routes = srv.Handler(), srv.Routes()
	companies, err := db.FindCompanies(ctx)
	if err != nil || len(companies) == 0 {
		f.Fatalf("the demo company: %v", err)
	}
	if _, a.apiKey, err = db.Operator().APIKeys.CreateAPIKey(ctx, companies[0].ID, "fuzz"); err != nil {
		f.Fatal(err)
	}
	// The applicant's own ids, read as the app reads them.
	var user struct {
		Subject struct{ ID int64 }
		Company struct{ ID int64 }
		Profile struct {
			ID     int64
			Orders []struct{ ID int64 }
		}
	}
	a.getJSON(f, "/api/v2/user", &user)
	var legal []struct{ ID int64 }
	a.getJSON(f, "/api/v2/user/document", &legal)
	var forms []struct{ ID int64 }
	a.getJSON(f, "/api/v2/user/profile/fillable-pdf-forms", &forms)
	if len(user.Profile.Orders) == 0 || len(legal) == 0 || len(forms) == 0 {
		f.Fatalf("the demo applicant has no order, legal document or form: %+v %v %v", user, legal, forms)
	}
	for _, d := range legal {
		a.legalIDs = append(a.legalIDs, d.ID)
	}
	id := func(n int64) string { return fmt.Sprint(n) }
	a.ids = map[string]string{
		"":                  "1",
		"company":           id(user.Company.ID),
		"document":          id(legal[0].ID),
		"order":             id(user.Profile.Orders[0].ID),
		"fillable-pdf-form": id(forms[0].ID),
		"profile":           id(user.Profile.ID),
		"applicants":        id(user.Subject.ID),
		"preparation":       "addresses",
		"drafts":            portal.DraftPersonal,
		"lookup":            "countries",
		"reports":           string(portal.ReportBackground),
		"services":          "crim",
	}
	return a
}

func (a *fuzzAPI) getJSON(f *testing.F, path string, v any) {
	f.Helper()
	rec := a.send("GET", path, a.token, nil, nil)
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), v) != nil {
		f.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
}

var pathParam = regexp.MustCompile(`\{[A-Za-z]+\}`)

// path is the route's pattern as a path: the method dropped, each
// parameter filled with an id of the applicant's (or 1).
func (a *fuzzAPI) path(route string) string {
	_, p, _ := strings.Cut(route, " ")
	segments := strings.Split(p, "/")
	for i, s := range segments {
		if pathParam.MatchString(s) {
			v, ok := a.ids[segments[i-1]]
			if !ok {
				v = a.ids[""]
			}
			segments[i] = v
		}
	}
	return strings.Join(segments, "/")
}

// credential is the bearer a route's real callers send: the company's API
// key on the operator API, the applicant's access token elsewhere.
func (a *fuzzAPI) credential(path string) string {
	if strings.HasPrefix(path, "/api/v2/operator/") {
		return a.apiKey
	}
	return a.token
}

// routesOf are the registered routes with one of the methods, in the
// order registered: the "METHOD /path" patterns, without the catch-alls.
// The event streams are left out: they answer until the client leaves.
func (a *fuzzAPI) routesOf(methods ...string) []string {
	var out []string
	for _, r := range a.routes {
		method, p, ok := strings.Cut(r, " ")
		if ok && slices.Contains(methods, method) && !strings.HasSuffix(p, "/events") {
			out = append(out, r)
		}
	}
	return out
}

// fuzzRequestTimeout ends a request that would run on (an event stream a
// new route adds): the answer is then checked as it stands.
const fuzzRequestTimeout = 5 * time.Second

// send serves one request; body nil sends none. header values are set
// as given.
func (a *fuzzAPI) send(method, target, token string, body io.Reader, header map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, body)
	ctx, cancel := context.WithTimeout(req.Context(), fuzzRequestTimeout)
	defer cancel()
	req = req.WithContext(ctx)
	req.RemoteAddr = "192.0.2.1:4242"
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	a.handler.ServeHTTP(rec, req)
	return rec
}

// apiError is the error answer of DESIGN.md.
type apiError struct {
	ErrorMessage *string `json:"errorMessage"`
	ErrorFields  []struct {
		Field   *string `json:"field"`
		Message *string `json:"message"`
	} `json:"errorFields"`
	Error string `json:"error"`
}

// checkAnswer holds an answer to the API's contract: never a 5xx (a 503
// of a busy gate excepted, which one request at a time never meets); a 4xx
// is a JSON object with a non-empty errorMessage and, when it has
// errorFields, a field and a message in each; a JSON success parses.
func checkAnswer(t *testing.T, what string, rec *httptest.ResponseRecorder) apiError {
	t.Helper()
	var e apiError
	body := rec.Body.Bytes()
	switch {
	case rec.Code >= 500:
		t.Fatalf("%s: %d %s", what, rec.Code, body)
	case rec.Code >= 400:
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("%s: %d with Content-Type %q: %s", what, rec.Code, ct, body)
		}
		if err := json.Unmarshal(body, &e); err != nil || e.ErrorMessage == nil || *e.ErrorMessage == "" {
			t.Fatalf("%s: %d is not an error object (%v): %s", what, rec.Code, err, body)
		}
		for _, fe := range e.ErrorFields {
			if fe.Field == nil || fe.Message == nil || *fe.Message == "" {
				t.Fatalf("%s: %d has an error field without a field or message: %s", what, rec.Code, body)
			}
		}
	case strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && len(body) > 0:
		if !json.Valid(body) {
			t.Fatalf("%s: %d is not JSON: %s", what, rec.Code, body)
		}
	}
	return e
}

// FuzzJSONBodies sends arbitrary bytes as the JSON body of every route
// that takes a body (POST, PUT, PATCH; the list is the server's own, so a
// new route is fuzzed unasked), with the applicant's token (the company's
// API key on the operator API) and the applicant's own ids in the path.
// The input picks the route (its index, modulo the number of routes) and
// the body; the seeds send every route an empty object and a body of
// wrong types, and a few hostile bodies to some.
func FuzzJSONBodies(f *testing.F) {
	apis := newFuzzAPIs(f)
	a := apis[0]
	routes := a.routesOf("POST", "PUT", "PATCH")
	for i := range routes {
		f.Add(uint16(i), []byte(`{}`))
		f.Add(uint16(i), []byte(`{"id":"1","statusId":"1","password":[],"email":{"a":1},"firstName":7}`))
	}
	// Each of these goes to one route, spread over them: the fuzzer moves
	// them to the others.
	for i, body := range []string{
		`null`, `{"a":`, `{"statusId":1}`, `{"firstName":"Ja\u0000ne"}`, `{"a":1,"A":2}`, `{"dob":"1990-02-30","ssn":"078-05-1120"}`,
		`{"addresses":[{"country":"US","street1":"1 Main St","city":"Boise","state":"US-ID","zip":"83702","from":"2020-01"}]}`,
		`{"fields":{"x":1e999}}`, `[1,2,3]`, `{"message":"` + strings.Repeat("é", 600) + `"}`, "{\"x\":\"\xff\"}",
	} {
		f.Add(uint16(i*7), []byte(body))
	}
	f.Fuzz(func(t *testing.T, route uint16, body []byte) {
		for _, a := range apis {
			r := routes[int(route)%len(routes)]
			method, _, _ := strings.Cut(r, " ")
			p := a.path(r)
			rec := a.send(method, p, a.credential(p), bytes.NewReader(body), map[string]string{"Content-Type": "application/json"})
			checkAnswer(t, a.name+" "+r, rec)
		}
	})
}

// oauthErrors are the RFC 6749 error codes the token endpoint answers.
var oauthErrors = []string{"invalid_request", "invalid_client", "invalid_grant", "unauthorized_client",
	"unsupported_grant_type", "invalid_scope", "slow_down", "temporarily_unavailable"}

// FuzzTokenForm sends arbitrary JSON and form bodies to POST
// /oauth/access_token: never a 5xx; every refusal carries an RFC 6749
// error code beside errorMessage; a 200 holds an access token.
func FuzzTokenForm(f *testing.F) {
	apis := newFuzzAPIs(f)
	login := url.Values{"grant_type": {"password"}, "client_id": {"spa"}, "client_secret": {"spa-secret"},
		"username": {"demo.applicant@example.com"}, "password": {"wrong password"}}.Encode()
	for _, form := range []bool{true, false} {
		f.Add(form, true, []byte(login))
		f.Add(form, true, []byte(`{"grant_type":"password","client_id":"spa","client_secret":"spa-secret","username":"x","password":"y"}`))
		f.Add(form, true, []byte(`{"grant_type":"refresh_token","client_id":"spa","client_secret":"spa-secret","refresh_token":"abc"}`))
		f.Add(form, false, []byte("grant_type=refresh_token&refresh_token=%zz&client_id=spa&client_secret=spa-secret"))
		f.Add(form, true, []byte("grant_type=password&username=a%00b&password=%ff&client_id=spa&client_secret=spa-secret"))
		f.Add(form, true, []byte("grant_type=handoff&handoff_token=x&client_id=spa&client_id=other;scope=default"))
		f.Add(form, true, []byte(""))
	}
	f.Fuzz(func(t *testing.T, form, requestedWith bool, body []byte) {
		for _, a := range apis {
			header := map[string]string{"Content-Type": "application/json"}
			if form {
				header["Content-Type"] = "application/x-www-form-urlencoded"
			}
			if requestedWith {
				header["X-Requested-With"] = "XMLHttpRequest"
			}
			rec := a.send("POST", "/oauth/access_token", "", bytes.NewReader(body), header)
			e := checkAnswer(t, a.name+" POST /oauth/access_token", rec)
			switch {
			case rec.Code == http.StatusOK:
				var pair struct {
					AccessToken string `json:"access_token"`
				}
				if json.Unmarshal(rec.Body.Bytes(), &pair) != nil || pair.AccessToken == "" {
					t.Fatalf("a 200 without an access token: %s", rec.Body)
				}
			case rec.Code >= 400 && rec.Code != http.StatusUnsupportedMediaType && rec.Code != http.StatusTooManyRequests:
				if !slices.Contains(oauthErrors, e.Error) {
					t.Fatalf("%d without an RFC 6749 error code: %s", rec.Code, rec.Body)
				}
			}
		}
	})
}

type uploadRoute struct {
	route  string
	fields map[string]string
}

// uploadRoutes are the routes that read a multipart body, with the text
// parts that come before the file. TestMatrixCoversEveryRoute holds it
// against the matrix's rows that name FuzzMultipartUpload.
var uploadRoutes = []uploadRoute{
	{"POST /api/v2/user/profile/documents", map[string]string{"documentType": "drivers_license"}},
	{"POST /api/v2/user/profile/fillable-pdf-form/{documentId}", nil},
	{"POST /api/v2/user/subject/profile/{profileId}/chat-messages", map[string]string{"message": "My licence"}},
	{"POST /api/v2/user/disputes", map[string]string{"message": "This is not my record"}},
	{"POST /api/v2/user/disputes/{id}/information", map[string]string{"message": "More"}},
	{"POST /api/v2/operator/applicants/{id}/reports/{kind}", nil},
	{"POST /api/v2/operator/applicants/{id}/chat-messages", map[string]string{"message": "The form to sign"}},
}

// multipartBody is a well-formed upload: the text fields, then the file.
func fuzzMultipartBody(fields map[string]string, name, contentType string, file []byte) (body []byte, boundary string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range fields {
			if !yield(k) {
				return
			}
		}
	}) {
		w.WriteField(k, fields[k])
	}
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="file"; filename=%q`, name)}
	h["Content-Type"] = []string{contentType}
	part, _ := w.CreatePart(h)
	part.Write(file)
	w.Close()
	return b.Bytes(), w.Boundary()
}

// FuzzMultipartUpload sends arbitrary multipart bodies to every upload
// route (documents, the PDF form, a chat file, dispute evidence, an
// operator's report): never a 5xx, the error contract on 4xx, and the
// reader never reads past the upload limit; a body declared larger than
// the limit is refused (413) unread.
func FuzzMultipartUpload(f *testing.F) {
	apis := newFuzzAPIs(f)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	pdf := []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
	for i, u := range uploadRoutes {
		for _, file := range []struct {
			name, typ string
			data      []byte
		}{{"licence.png", "image/png", png}, {"form.pdf", "application/pdf", pdf}, {"evil.html", "text/html", []byte("<script>")}} {
			body, boundary := fuzzMultipartBody(u.fields, file.name, file.typ, file.data)
			f.Add(uint8(i), boundary, body, false)
		}
		body, boundary := fuzzMultipartBody(u.fields, "licence.png", "image/png", png)
		f.Add(uint8(i), boundary, body[:len(body)/2], false)
		f.Add(uint8(i), boundary, body, true)
		f.Add(uint8(i), "", []byte("--x\r\n\r\n--x--"), false)
	}
	f.Fuzz(func(t *testing.T, route uint8, boundary string, body []byte, declaredHuge bool) {
		for _, a := range apis {
			u := uploadRoutes[int(route)%len(uploadRoutes)]
			p := a.path(u.route)
			counted := &countingReader{r: bytes.NewReader(body)}
			req := httptest.NewRequest("POST", p, counted)
			req.RemoteAddr = "192.0.2.1:4242"
			req.Header.Set("Authorization", "Bearer "+a.credential(p))
			req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
			if declaredHuge {
				req.ContentLength = 1 << 40
			}
			rec := httptest.NewRecorder()
			a.handler.ServeHTTP(rec, req)
			checkAnswer(t, a.name+" "+u.route, rec)
			switch {
			case counted.n.Load() > httpapi.MaxUploadBody:
				t.Fatalf("%s read %d bytes, past the limit of %d", u.route, counted.n.Load(), httpapi.MaxUploadBody)
			case declaredHuge && rec.Code < 400:
				t.Fatalf("%s accepted a body declared past the limit: %d %s", u.route, rec.Code, rec.Body)
			case declaredHuge && counted.n.Load() > 0 && rec.Code == http.StatusRequestEntityTooLarge:
				t.Fatalf("%s read %d bytes of a body it refused as too large by its declared length", u.route, counted.n.Load())
			}
		}
	})
}

// queryRoutesSeeds are queries the GET routes read.
var queryRoutesSeeds = []string{
	`filter={"documentType":["e_sign"],"signed":false}`, `filter={"documentType":"e_sign"}`, `filter={"signed":"yes"}`,
	`filter=[1]`, `filter=%7B%22documentType%22%3A%5Bnull%5D%7D`, `filter=%ff`, `filter=a%00b`, `filter=null`,
	"street=1+Main+St&city=Boise&state=US-ID&zip=83702", "country=CA&street=24+Sussex&locality=Ottawa&administrative_area=ON&postal_code=K1M1M4",
	"zip=94103&radius=25&openNow=true&dot=1", "zip=%2B0501&radius=-5", "countryId=1", "countryId=99999999999999999999",
	"instance=abc&signed=true", "fileId=-1", "token=abc", "stalled=3&days=x", "state=open", "disposition=inline",
	"a=1&a=2;b", "%zz", "",
}

// FuzzDocumentFilterQuery sends arbitrary query strings to every GET route
// (the document list's filter, the address validation queries, the
// collection-site search, the lookups...): never a 5xx, the error
// contract on 4xx. On the legal document list a filtered answer is a
// subset of the whole list.
func FuzzDocumentFilterQuery(f *testing.F) {
	apis := newFuzzAPIs(f)
	a := apis[0]
	routes := a.routesOf("GET")
	listRoute := slices.Index(routes, "GET /api/v2/user/document")
	if listRoute < 0 {
		f.Fatal("no GET /api/v2/user/document route")
	}
	for _, q := range queryRoutesSeeds {
		f.Add(uint16(listRoute), q)
	}
	for i := range routes {
		f.Add(uint16(i), "")
		f.Add(uint16(i), queryRoutesSeeds[i%len(queryRoutesSeeds)])
	}
	f.Fuzz(func(t *testing.T, route uint16, query string) {
		for _, a := range apis {
			i := int(route) % len(routes)
			p := a.path(routes[i])
			// What cannot stand in a request line (a space, a control
			// character) never reaches a handler: net/http answers 400.
			target := p + "?" + query
			if _, err := url.ParseRequestURI(target); err != nil || strings.Contains(query, " ") {
				continue
			}
			rec := a.send("GET", target, a.credential(p), nil, nil)
			checkAnswer(t, a.name+" "+routes[i], rec)
			if i != listRoute || rec.Code != http.StatusOK {
				continue
			}
			var got []struct{ ID int64 }
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatalf("the filtered list is not a list of documents: %s", rec.Body)
			}
			for _, d := range got {
				if !slices.Contains(a.legalIDs, d.ID) {
					t.Fatalf("the filter %q lists document %d, which the whole list does not", query, d.ID)
				}
			}
		}
	})
}

// startIDVSession moves the demo applicant, who has set up, on to identity
// verification (as submitting the profile does) and starts a session,
// answering its id.
func (a *fuzzAPI) startIDVSession(f *testing.F) string {
	f.Helper()
	var subjectID int64
	fmt.Sscan(a.ids["applicants"], &subjectID)
	if err := a.db.SetSubjectStatus(context.Background(), subjectID, portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
		f.Fatal(err)
	}
	rec := a.send("PUT", "/api/v2/idv/session", a.token, strings.NewReader(`{"subjectId":`+a.ids["applicants"]+`}`),
		map[string]string{"Content-Type": "application/json"})
	var session struct{ ID string }
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &session) != nil || session.ID == "" {
		f.Fatalf("PUT /api/v2/idv/session: %d %s", rec.Code, rec.Body)
	}
	return session.ID
}

// FuzzIDVCallback sends arbitrary bodies and signature headers to POST
// /api/v2/idv/callback: never a 5xx, the error contract on 4xx, and never
// accepted (2xx) unless signed with the provider's secret. When sign is
// set the body is signed correctly, so the fuzzer also reaches what
// follows the signature check; SESSION in the body stands for the
// applicant's identity-verification session.
func FuzzIDVCallback(f *testing.F) {
	apis := newFuzzAPIs(f)
	sessions := map[*fuzzAPI]string{}
	for _, a := range apis {
		sessions[a] = a.startIDVSession(f)
	}
	for _, body := range []string{
		`{"sessionId":"SESSION","status":1}`, `{"sessionId":"SESSION","status":2,"decision":1}`,
		`{"sessionId":"SESSION","status":3,"decision":2,"occurredAt":"2026-01-01T00:00:00Z"}`,
		`{"sessionId":"SESSION","status":0,"decision":1}`, `{"sessionId":"idv_unknown","status":2,"decision":1}`,
		`{"sessionId":"SESSION","status":9}`, `{"sessionId":"SESSION","status":2,"decision":7}`, `[]`, `{"sessionId":"a\u0000b"}`, "\xff",
	} {
		f.Add([]byte(body), "", true)
		f.Add([]byte(body), "t=1,v1=00", false)
	}
	f.Add([]byte(`{"sessionId":"SESSION","status":2,"decision":1}`), "t=abc,v1=zz,v1=", false)
	f.Fuzz(func(t *testing.T, body []byte, signature string, sign bool) {
		for _, a := range apis {
			body := bytes.ReplaceAll(body, []byte("SESSION"), []byte(sessions[a]))
			if sign {
				signature = idvsandbox.Sign([]byte("harness callback secret"), time.Now(), body)
			}
			rec := a.send("POST", "/api/v2/idv/callback", "", bytes.NewReader(body),
				map[string]string{"Content-Type": "application/json", httpapi.IDVSignatureHeader: signature})
			checkAnswer(t, a.name+" POST /api/v2/idv/callback", rec)
			if rec.Code < 300 && !sign {
				t.Fatalf("an unsigned callback was accepted (%d): signature %q, body %q", rec.Code, signature, body)
			}
		}
	})
}

// FuzzRequestHeaders sends arbitrary values of the headers the server
// parses (Accept-Language, Accept-Encoding, Authorization,
// Idempotency-Key, X-Forwarded-For and -Proto, which only a trusted
// proxy's are believed) with a GET of any route or of the app: never a
// 5xx, and the error contract on a 4xx of the API.
func FuzzRequestHeaders(f *testing.F) {
	apis := newFuzzAPIs(f)
	a := apis[0]
	routes := append(a.routesOf("GET"), "GET /", "GET /setup", "GET /index.html")
	for i := range routes {
		f.Add(uint16(i), "es-US,es;q=0.9,en;q=0.8", "br;q=1.0, gzip;q=0.5, *;q=0", "", "", "203.0.113.9, 10.0.0.1")
	}
	f.Add(uint16(0), "*;q=0.0001,xx-YY-ZZ-abcdefghi", "gzip;q=1.0001, identity;q=", "Bearer", "k\x00", "not an address")
	f.Add(uint16(1), strings.Repeat("en,", 100), ";;;q=,", "Basic abc", strings.Repeat("k", 300), "::1")
	f.Fuzz(func(t *testing.T, route uint16, acceptLanguage, acceptEncoding, authorization, idempotencyKey, forwardedFor string) {
		for _, a := range apis {
			r := routes[int(route)%len(routes)]
			p := a.path(r)
			header := map[string]string{"Accept-Language": acceptLanguage, "Accept-Encoding": acceptEncoding,
				"Idempotency-Key": idempotencyKey, "X-Forwarded-For": forwardedFor, "X-Forwarded-Proto": "https"}
			token := a.credential(p)
			if authorization != "" {
				header["Authorization"] = authorization
				token = ""
			}
			rec := a.send("GET", p, token, nil, header)
			if strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/oauth/") {
				checkAnswer(t, a.name+" "+r, rec)
			} else if rec.Code >= 500 {
				t.Fatalf("%s: %d %s", r, rec.Code, rec.Body)
			}
		}
	})
}
