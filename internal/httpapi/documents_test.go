package httpapi_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// documentsAPI is a company whose package asks for the demo's three
// document types, with jane and bob set up and amy still new.
type documentsAPI struct {
	*harness
	ids    map[string]int64
	tokens map[string]string
}

func eachDocumentsAPI(t *testing.T, run func(t *testing.T, a *documentsAPI)) {
	t.Helper()
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) { run(t, newDocumentsAPI(t, db, httpapi.Config{})) })
}

func newDocumentsAPI(t *testing.T, db *store.DB, cfg httpapi.Config) *documentsAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	pkg := &portal.Package{CompanyID: c.ID, Name: "Driver screening", DocumentTypes: []portal.DocumentType{
		{Type: "drivers_license", Title: "Driver's license or state ID", Description: "A photo or scan of the front of your license."},
		{Type: "diploma", Title: "Diploma or transcript"},
		{Type: "other", Title: "Other supporting document"},
	}}
	if err := db.CreatePackage(ctx, pkg); err != nil {
		t.Fatal(err)
	}
	a := &documentsAPI{harness: newHarness(t, db, "192.0.2.1:1234"), ids: map[string]int64{}, tokens: map[string]string{}}
	for _, who := range []string{"jane", "bob", "amy"} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: who + "@example.com", FirstName: who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		token := logIn(t, db, s)
		a.ids[who], a.tokens[who] = s.ID, token
		if who != "amy" {
			if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
		}
	}
	a.serve(cfg, nil, nil)
	return a
}

// uploadPart is one part of a multipart body.
type uploadPart struct {
	field, fileName, contentType string
	content                      io.Reader
}

func textPart(field, value string) uploadPart {
	return uploadPart{field: field, content: strings.NewReader(value)}
}

func filePart(name, contentType string, content []byte) uploadPart {
	return uploadPart{field: "file", fileName: name, contentType: contentType, content: bytes.NewReader(content)}
}

// quoteEscaper escapes a quoted header value as browsers and
// mime/multipart do.
var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// multipartStream writes parts as a multipart body as it is read, so a
// large generated file is never held whole.
func multipartStream(parts ...uploadPart) (io.Reader, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		for _, p := range parts {
			h := textproto.MIMEHeader{}
			if p.fileName != "" || p.field == "file" {
				h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, p.field, quoteEscaper.Replace(p.fileName)))
			} else {
				h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"`, p.field))
			}
			if p.contentType != "" {
				h.Set("Content-Type", p.contentType)
			}
			w, err := mw.CreatePart(h)
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			if _, err := io.Copy(w, p.content); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	return pr, mw.FormDataContentType()
}

// upload sends a multipart POST and returns the recorder.
func (a *documentsAPI) upload(who string, body io.Reader, contentType string) *httptest.ResponseRecorder {
	a.t.Helper()
	req := httptest.NewRequest("POST", "/api/v2/user/profile/documents", body)
	req.RemoteAddr = a.remoteAddr
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+a.tokens[who])
	rec := httptest.NewRecorder()
	a.handler.ServeHTTP(rec, req)
	return rec
}

func (a *documentsAPI) uploadParts(who string, parts ...uploadPart) *httptest.ResponseRecorder {
	a.t.Helper()
	body, ct := multipartStream(parts...)
	return a.upload(who, body, ct)
}

func (a *documentsAPI) do(method, path, who string) *httptest.ResponseRecorder {
	a.t.Helper()
	return a.send(request{Method: method, URL: path, Token: a.tokens[who]})
}

func jsonOf(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("answer %d is not JSON: %s", rec.Code, rec.Body)
	}
	return out
}

func hexSHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

var (
	pdfFile = append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("stream of a scanned page "), 2000)...)
	pngFile = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{1, 2, 3, 4}, 300)...)
)

func TestDocumentUploadRoundTrip(t *testing.T) {
	eachDocumentsAPI(t, func(t *testing.T, a *documentsAPI) {
		rec := a.do("GET", "/api/v2/user/profile/documents", "jane")
		if rec.Code != 200 {
			t.Fatalf("list = %d %s", rec.Code, rec.Body)
		}
		want := map[string]any{
			"documentTypes": []any{
				map[string]any{"type": "drivers_license", "title": "Driver's license or state ID", "description": "A photo or scan of the front of your license.", "required": false},
				map[string]any{"type": "diploma", "title": "Diploma or transcript", "description": "", "required": false},
				map[string]any{"type": "other", "title": "Other supporting document", "description": "", "required": false},
			},
			"documents": []any{}, "reports": []any{}, "writable": true, "deletable": true, "maxUploadBytes": float64(20971520),
		}
		if got := jsonOf(t, rec); !reflect.DeepEqual(got, want) {
			t.Errorf("empty list = %v\nwant %v", got, want)
		}
		rec = a.send(request{Method: "GET", URL: "/api/v2/user", Token: a.tokens["jane"]})
		profile := jsonOf(t, rec)["profile"].(map[string]any)
		if !reflect.DeepEqual(profile["documentTypes"], []any{"drivers_license", "diploma", "other"}) {
			t.Errorf("GET /api/v2/user profile.documentTypes = %v", profile["documentTypes"])
		}

		rec = a.send(request{Method: "GET", URL: "/api/v2/user/subject", Token: a.tokens["jane"]})
		var page map[string]any
		for _, p := range jsonOf(t, rec)["payload"].(map[string]any)["pages"].([]any) {
			if p.(map[string]any)["id"] == "additional-documents" {
				page = p.(map[string]any)
			}
		}
		if page["path"] != "/additional-documents" || page["title"] != "Additional Documents" || page["required"] != false {
			t.Errorf("checklist page = %v", page)
		}

		rec = a.uploadParts("jane", textPart("documentType", "diploma"), filePart("../../Diploma\u202e.pdf", "application/pdf", pdfFile))
		if rec.Code != 201 {
			t.Fatalf("upload = %d %s", rec.Code, rec.Body)
		}
		doc := jsonOf(t, rec)
		if doc["name"] != "Diploma.pdf" || doc["contentType"] != "application/pdf" || doc["documentType"] != "diploma" ||
			doc["size"] != float64(len(pdfFile)) || doc["sha256"] != hexSHA256(pdfFile) {
			t.Errorf("upload answer = %v", doc)
		}
		if _, err := time.Parse(time.RFC3339, doc["createdAt"].(string)); err != nil || strings.Contains(doc["createdAt"].(string), ".") {
			t.Errorf("createdAt = %v", doc["createdAt"])
		}
		rec = a.uploadParts("jane", textPart("documentType", "drivers_license"), filePart("IMG_0001", "application/octet-stream", pngFile))
		if rec.Code != 201 {
			t.Fatalf("second upload = %d %s", rec.Code, rec.Body)
		}
		png := jsonOf(t, rec)
		if png["name"] != "IMG_0001.png" || png["contentType"] != "image/png" {
			t.Errorf("octet-stream PNG stored as %v", png)
		}
		list := jsonOf(t, a.do("GET", "/api/v2/user/profile/documents", "jane"))
		docs := list["documents"].([]any)
		if len(docs) != 2 || docs[0].(map[string]any)["id"] != png["id"] || !reflect.DeepEqual(docs[1], doc) {
			t.Errorf("documents = %v; want the PNG, then the PDF", docs)
		}

		url := fmt.Sprintf("/api/v2/user/profile/documents/%v", doc["id"])
		rec = a.do("GET", url, "jane")
		if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), pdfFile) {
			t.Fatalf("download = %d, %d bytes", rec.Code, rec.Body.Len())
		}
		for h, want := range map[string]string{
			"Content-Type":            "application/pdf",
			"Content-Disposition":     `attachment; filename="Diploma.pdf"; filename*=UTF-8''Diploma.pdf`,
			"Content-Length":          fmt.Sprint(len(pdfFile)),
			"X-Content-Type-Options":  "nosniff",
			"Cache-Control":           "no-store",
			"Content-Security-Policy": "sandbox",
		} {
			if got := rec.Header().Get(h); got != want {
				t.Errorf("%s = %q, want %q", h, got, want)
			}
		}

		t.Run("AnotherApplicantsDocumentIs404", func(t *testing.T) {
			for _, method := range []string{"GET", "DELETE"} {
				rec := a.do(method, url, "bob")
				if rec.Code != 404 || jsonOf(t, rec)["errorMessage"] != "Document not found." {
					t.Errorf("bob %s jane's document = %d %s", method, rec.Code, rec.Body)
				}
			}
			for _, bad := range []string{"/api/v2/user/profile/documents/0", "/api/v2/user/profile/documents/x", "/api/v2/user/profile/documents/99999"} {
				if rec := a.do("GET", bad, "jane"); rec.Code != 404 {
					t.Errorf("GET %s = %d", bad, rec.Code)
				}
			}
		})
		t.Run("Delete", func(t *testing.T) {
			if rec := a.do("DELETE", url, "jane"); rec.Code != 204 {
				t.Fatalf("delete = %d %s", rec.Code, rec.Body)
			}
			if rec := a.do("GET", url, "jane"); rec.Code != 404 {
				t.Errorf("download after delete = %d", rec.Code)
			}
			if rec := a.do("DELETE", url, "jane"); rec.Code != 404 {
				t.Errorf("second delete = %d", rec.Code)
			}
		})
	})
}

func TestDocumentUploadRefused(t *testing.T) {
	eachDocumentsAPI(t, func(t *testing.T, a *documentsAPI) {
		const notAccepted = "This file type is not accepted. Upload a PDF, an image (JPEG, PNG or GIF), or a Word or Excel document."
		notReal := func(what string) string {
			return "The file's content does not match its type: it is not a real " + what + "."
		}
		type fieldErr = map[string]any
		tests := []struct {
			name       string
			who        string
			parts      []uploadPart
			raw        string // a body sent as is instead of parts
			rawType    string
			wantStatus int
			wantMsg    string
			wantFields []any
		}{
			{name: "ErrDeclaredPNGWithPDFBytes", parts: []uploadPart{textPart("documentType", "diploma"), filePart("scan.png", "image/png", pdfFile)},
				wantStatus: 415, wantMsg: notReal("PNG image")},
			{name: "ErrExecutableNamedPDF", parts: []uploadPart{textPart("documentType", "diploma"), filePart("x.pdf", "application/pdf", []byte("MZ\x90\x00\x03"))},
				wantStatus: 415, wantMsg: notReal("PDF")},
			{name: "ErrExe", parts: []uploadPart{textPart("documentType", "other"), filePart("setup.exe", "application/x-msdownload", []byte("MZ\x90\x00\x03"))},
				wantStatus: 415, wantMsg: notAccepted},
			{name: "ErrHTML", parts: []uploadPart{textPart("documentType", "other"), filePart("page.html", "text/html", []byte("<html><script>x</script>"))},
				wantStatus: 415, wantMsg: notAccepted},
			{name: "ErrSVG", parts: []uploadPart{textPart("documentType", "other"), filePart("a.svg", "image/svg+xml", []byte("<svg onload=x>"))},
				wantStatus: 415, wantMsg: notAccepted},
			{name: "ErrPlainZip", parts: []uploadPart{textPart("documentType", "other"), filePart("a.zip", "application/zip", []byte("PK\x03\x04rest"))},
				wantStatus: 415, wantMsg: notAccepted},
			{name: "ErrTextAsOctetStream", parts: []uploadPart{textPart("documentType", "other"), filePart("notes", "application/octet-stream", []byte("hello"))},
				wantStatus: 415, wantMsg: notAccepted},
			{name: "ErrEmptyFile", parts: []uploadPart{textPart("documentType", "diploma"), filePart("a.pdf", "application/pdf", nil)},
				wantStatus: 422, wantMsg: "validation error", wantFields: []any{fieldErr{"field": "file", "message": "The file is empty.", "code": "file.empty"}}},
			{name: "ErrMissingDocumentType", parts: []uploadPart{filePart("a.pdf", "application/pdf", pdfFile)},
				wantStatus: 422, wantMsg: "validation error", wantFields: []any{fieldErr{"field": "documentType", "message": "Choose which document this is.", "code": "document.type_choose"}}},
			{name: "ErrEmptyDocumentType", parts: []uploadPart{textPart("documentType", ""), filePart("a.pdf", "application/pdf", pdfFile)},
				wantStatus: 422, wantMsg: "validation error", wantFields: []any{fieldErr{"field": "documentType", "message": "Choose which document this is.", "code": "document.type_choose"}}},
			{name: "ErrUnknownDocumentType", parts: []uploadPart{textPart("documentType", "passport"), filePart("a.pdf", "application/pdf", pdfFile)},
				wantStatus: 422, wantMsg: "validation error", wantFields: []any{fieldErr{"field": "documentType", "message": "Choose which document this is.", "code": "document.type_choose"}}},
			{name: "ErrLongDocumentType", parts: []uploadPart{textPart("documentType", strings.Repeat("x", 5000)), filePart("a.pdf", "application/pdf", pdfFile)},
				wantStatus: 422, wantMsg: "validation error", wantFields: []any{fieldErr{"field": "documentType", "message": "Choose which document this is.", "code": "document.type_choose"}}},
			{name: "ErrNoFilePart", parts: []uploadPart{textPart("documentType", "diploma")},
				wantStatus: 422, wantMsg: "validation error", wantFields: []any{fieldErr{"field": "file", "message": "Choose a file to upload.", "code": "upload.file_choose"}}},
			{name: "ErrOtherPart", parts: []uploadPart{textPart("documentType", "diploma"), textPart("comment", "hi")},
				wantStatus: 400, wantMsg: "The upload could not be read."},
			{name: "ErrTwoFiles", parts: []uploadPart{textPart("documentType", "diploma"), filePart("a.pdf", "application/pdf", pdfFile), filePart("b.pdf", "application/pdf", pdfFile)},
				wantStatus: 400, wantMsg: "The upload could not be read."},
			{name: "ErrNotMultipart", raw: `{"documentType": "diploma"}`, rawType: "application/json",
				wantStatus: 400, wantMsg: "The upload could not be read."},
			{name: "ErrMalformedMultipart", raw: "--b\r\nContent-Disposition: form-data; name=\"documentType\"\r\n\r\ndiploma\r\n--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.4 and no end",
				rawType: "multipart/form-data; boundary=b", wantStatus: 400, wantMsg: "The upload could not be read."},
			{name: "ErrNewApplicant", who: "amy", parts: []uploadPart{textPart("documentType", "diploma"), filePart("a.pdf", "application/pdf", pdfFile)},
				wantStatus: 409, wantMsg: "Finish setting up your account first."},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				who := tt.who
				if who == "" {
					who = "jane"
				}
				var rec *httptest.ResponseRecorder
				if tt.raw != "" {
					rec = a.upload(who, strings.NewReader(tt.raw), tt.rawType)
				} else {
					rec = a.uploadParts(who, tt.parts...)
				}
				body := jsonOf(t, rec)
				if rec.Code != tt.wantStatus || body["errorMessage"] != tt.wantMsg {
					t.Fatalf("upload = %d %s; want %d %q", rec.Code, rec.Body, tt.wantStatus, tt.wantMsg)
				}
				if tt.wantFields != nil && !reflect.DeepEqual(body["errorFields"], tt.wantFields) {
					t.Errorf("errorFields = %v, want %v", body["errorFields"], tt.wantFields)
				}
				var files int
				a.db.SQL().QueryRow(`SELECT COUNT(*) FROM files`).Scan(&files)
				if files != 0 {
					t.Errorf("%d files stored after a refused upload", files)
				}
			})
		}
		t.Run("ErrDeleteAfterSubmission", func(t *testing.T) {
			rec := a.uploadParts("jane", textPart("documentType", "diploma"), filePart("a.pdf", "application/pdf", pdfFile))
			if rec.Code != 201 {
				t.Fatal(rec.Code, rec.Body)
			}
			id := jsonOf(t, rec)["id"]
			if err := a.db.SetSubjectStatus(context.Background(), a.ids["jane"], portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
				t.Fatal(err)
			}
			const submitted = "This file was sent with your screening and can no longer be deleted. If it is wrong, upload the right one and tell your employer's hiring team."
			rec = a.do("DELETE", fmt.Sprintf("/api/v2/user/profile/documents/%v", id), "jane")
			if rec.Code != 409 || jsonOf(t, rec)["errorMessage"] != submitted {
				t.Errorf("delete = %d %s; want 409 %q", rec.Code, rec.Body, submitted)
			}
			list := jsonOf(t, a.do("GET", "/api/v2/user/profile/documents", "jane"))
			if list["writable"] != true || list["deletable"] != false {
				t.Errorf("writable, deletable = %v, %v; want true, false", list["writable"], list["deletable"])
			}
		})
		t.Run("ErrScreeningComplete", func(t *testing.T) {
			rec := a.uploadParts("bob", textPart("documentType", "diploma"), filePart("a.pdf", "application/pdf", pdfFile))
			if rec.Code != 201 {
				t.Fatal(rec.Code, rec.Body)
			}
			id := jsonOf(t, rec)["id"]
			if _, err := a.db.SQL().Exec(`UPDATE profiles SET status_id = $1 WHERE subject_id = $2`, portal.ProfileStatusCompleted, a.ids["bob"]); err != nil {
				t.Fatal(err)
			}
			const closed = "Your screening is complete: documents can no longer be changed."
			rec = a.uploadParts("bob", textPart("documentType", "diploma"), filePart("a.pdf", "application/pdf", pdfFile))
			if rec.Code != 409 || jsonOf(t, rec)["errorMessage"] != closed {
				t.Errorf("upload = %d %s", rec.Code, rec.Body)
			}
			rec = a.do("DELETE", fmt.Sprintf("/api/v2/user/profile/documents/%v", id), "bob")
			if rec.Code != 409 || jsonOf(t, rec)["errorMessage"] != closed {
				t.Errorf("delete = %d %s", rec.Code, rec.Body)
			}
			if list := jsonOf(t, a.do("GET", "/api/v2/user/profile/documents", "bob")); list["writable"] != false {
				t.Errorf("writable = %v", list["writable"])
			}
		})
	})
}

// generatedFile gives a PNG's magic bytes and then zeros up to size, made
// as it is read: a large upload never exists whole in the test either.
type generatedFile struct{ left, size int64 }

func newGeneratedFile(size int64) *generatedFile { return &generatedFile{left: size, size: size} }

func (g *generatedFile) Read(p []byte) (int, error) {
	if g.left == 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), g.left))
	clear(p[:n])
	if off := g.size - g.left; off < 8 {
		copy(p[:n], []byte("\x89PNG\r\n\x1a\n")[off:])
	}
	g.left -= int64(n)
	return n, nil
}

// countingReader counts what the server read of a body.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func TestDocumentUploadStopsReadingAtTheLimit(t *testing.T) {
	eachDocumentsAPI(t, func(t *testing.T, a *documentsAPI) {
		body, ct := multipartStream(textPart("documentType", "other"), uploadPart{field: "file", fileName: "huge.png", contentType: "image/png",
			content: newGeneratedFile(30 << 20)})
		counted := &countingReader{r: body}
		rec := a.upload("jane", counted, ct)
		want := "The file is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution."
		if rec.Code != 413 || jsonOf(t, rec)["errorMessage"] != want {
			t.Fatalf("30 MB upload = %d %s", rec.Code, rec.Body)
		}
		read := counted.n.Load()
		t.Logf("the server read %d bytes of a 30 MB upload", read)
		if read > 21<<20+64<<10 {
			t.Errorf("the server read %d bytes of a 30 MB upload; it should stop at about 20 MB", read)
		}
		var files int
		a.db.SQL().QueryRow(`SELECT COUNT(*) FROM files`).Scan(&files)
		if files != 0 {
			t.Errorf("%d files left after a refused upload", files)
		}
		t.Run("DeclaredTooLargeRefusedUnread", func(t *testing.T) {
			body, ct := multipartStream(textPart("documentType", "other"), uploadPart{field: "file", fileName: "huge.png", contentType: "image/png",
				content: newGeneratedFile(30 << 20)})
			counted := &countingReader{r: body}
			req := httptest.NewRequest("POST", "/api/v2/user/profile/documents", counted)
			req.ContentLength = 30<<20 + 300
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Authorization", "Bearer "+a.tokens["jane"])
			rec := httptest.NewRecorder()
			a.handler.ServeHTTP(rec, req)
			if rec.Code != 413 || jsonOf(t, rec)["errorMessage"] != want || counted.n.Load() != 0 {
				t.Errorf("declared 30 MB = %d %s after reading %d bytes; want 413 unread", rec.Code, rec.Body, counted.n.Load())
			}
			go io.Copy(io.Discard, body) // let the writer end
		})
		t.Run("ExactlyTheLimitAccepted", func(t *testing.T) {
			rec := a.uploadParts("jane", textPart("documentType", "other"), uploadPart{field: "file", fileName: "max.png", contentType: "image/png",
				content: newGeneratedFile(portal.MaxUploadSize)})
			if rec.Code != 201 || jsonOf(t, rec)["size"] != float64(portal.MaxUploadSize) {
				t.Fatalf("20 MB upload = %d %s", rec.Code, rec.Body)
			}
		})
	})
}

// TestUploadsBeyondTheSlotsWaitThen503: with every slot busy, an upload
// waits for the configured time, then answers 503 with Retry-After.
func TestUploadsBeyondTheSlotsWaitThen503(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	a := newDocumentsAPI(t, db, httpapi.Config{MaxUploads: 1, UploadWait: 200 * time.Millisecond})
	// The first upload holds the only slot while its body trickles in.
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- a.upload("jane", pr, mw.FormDataContentType()) }()
	mw.WriteField("documentType", "other")
	fw, _ := mw.CreateFormFile("file", "slow.png")
	fw.Write(pngFile[:100]) // the server is reading it: the slot is taken

	start := time.Now()
	rec := a.uploadParts("bob", textPart("documentType", "other"), filePart("a.png", "image/png", pngFile))
	waited := time.Since(start)
	if rec.Code != 503 || rec.Header().Get("Retry-After") != "1" || waited < 200*time.Millisecond {
		t.Errorf("second upload = %d %s after %v, Retry-After %q; want 503 after the 200ms wait", rec.Code, rec.Body, waited, rec.Header().Get("Retry-After"))
	}
	fw.Write(pngFile[100:])
	mw.Close()
	pw.Close()
	if first := <-done; first.Code != 201 {
		t.Errorf("first upload = %d %s", first.Code, first.Body)
	}
	// With the slot free again, an upload goes through.
	if rec := a.uploadParts("bob", textPart("documentType", "other"), filePart("a.png", "image/png", pngFile)); rec.Code != 201 {
		t.Errorf("upload after the slot was freed = %d %s", rec.Code, rec.Body)
	}
}

// An upload from a phone on a weak signal takes longer than other requests'
// bodies may: as long as its bytes keep arriving, it is not cut.
func TestAnUploadThatKeepsArrivingOutlastsTheBodyTimeout(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	a := newDocumentsAPI(t, db, httpapi.Config{})
	addr := serveWithTimeouts(t, a.handler) // ReadBody: 400 ms
	body, ct := multipartStream(textPart("documentType", "other"), filePart("slow.png", "image/png", pngFile))
	var buf bytes.Buffer
	io.Copy(&buf, body)
	trickled := &trickleReader{data: buf.Bytes(), piece: buf.Len()/10 + 1, gap: 120 * time.Millisecond}
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/v2/user/profile/documents", trickled)
	req.ContentLength = int64(buf.Len())
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+a.tokens["jane"])
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	if took := time.Since(start); res.StatusCode != 201 || took < time.Second {
		t.Errorf("upload trickled over %v = %d %s; want 201 after more than the 400 ms body timeout", took, res.StatusCode, answer)
	}
}

// trickleReader hands out data a piece at a time, gap apart.
type trickleReader struct {
	data  []byte
	piece int
	gap   time.Duration
	sent  bool
}

func (r *trickleReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	if r.sent {
		time.Sleep(r.gap)
	}
	r.sent = true
	n := copy(p[:min(len(p), r.piece)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestParallelUploadsKeepMemoryBounded sends 20 uploads of 20 MB at once to
// a SQLite-backed server and samples the heap every 10 ms: the uploads
// stream through chunk buffers (and at most MaxUploads run at once), so
// the peak stays far below what holding even a few of them would take.
// Twenty are more than twice the slots and would take 400 MB held, four
// times the ceiling; fifty (1 GB) proved no more and took 96 s of the
// package's time on a busy machine.
func TestParallelUploadsKeepMemoryBounded(t *testing.T) {
	const (
		uploads = 20
		// heapInuseCeiling is what the test allows: the measured peak is
		// about 30 MB (17 MB before the uploads); holding the uploads
		// would take 400 MB.
		heapInuseCeiling = 100 << 20
	)
	db := storetest.OpenSQLite(t, storetest.Config(t))
	// The uploads queue behind the default 8 slots for longer than the
	// default 20 s wait on a slow machine; this test is about memory.
	a := newDocumentsAPI(t, db, httpapi.Config{UploadWait: 10 * time.Minute})

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse)
				}
			}
		}
	}()

	start := time.Now()
	var wg sync.WaitGroup
	codes := make([]int, uploads)
	for i := range uploads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := a.uploadParts("jane", textPart("documentType", "other"), uploadPart{field: "file", fileName: fmt.Sprintf("scan-%d.png", i),
				contentType: "image/png", content: newGeneratedFile(portal.MaxUploadSize)})
			codes[i] = rec.Code
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	for i, c := range codes {
		if c != 201 {
			t.Errorf("upload %d = %d", i, c)
		}
	}
	t.Logf("%d parallel uploads of 20 MB in %v: peak HeapInuse %.1f MB (%.1f MB before)", uploads, time.Since(start).Round(time.Millisecond),
		float64(peak.Load())/(1<<20), float64(base.HeapInuse)/(1<<20))
	if p := peak.Load(); p > heapInuseCeiling {
		t.Errorf("peak HeapInuse %d MB, over the ceiling of %d MB", p>>20, heapInuseCeiling>>20)
	}
}

// TestOneApplicantCannotHoldEveryUploadSlot: an applicant whose uploads
// trickle in (a byte every few seconds keeps each alive for up to
// UploadLimit) holds at most MaxUploadsPerApplicant slots; their next
// upload waits and gets 503, and another applicant's still goes through.
func TestOneApplicantCannotHoldEveryUploadSlot(t *testing.T) {
	db := storetest.OpenSQLite(t, storetest.Config(t))
	a := newDocumentsAPI(t, db, httpapi.Config{MaxUploads: httpapi.MaxUploadsPerApplicant + 1, UploadWait: 200 * time.Millisecond})
	type slow struct {
		pw   *io.PipeWriter
		mw   *multipart.Writer
		fw   io.Writer
		done chan *httptest.ResponseRecorder
	}
	var held []slow
	for range httpapi.MaxUploadsPerApplicant {
		pr, pw := io.Pipe()
		s := slow{pw: pw, mw: multipart.NewWriter(pw), done: make(chan *httptest.ResponseRecorder, 1)}
		go func() { s.done <- a.upload("jane", pr, s.mw.FormDataContentType()) }()
		s.mw.WriteField("documentType", "other")
		s.fw, _ = s.mw.CreateFormFile("file", "slow.png")
		s.fw.Write(pngFile[:100]) // read by the server: the slot is taken
		held = append(held, s)
	}
	if rec := a.uploadParts("jane", textPart("documentType", "other"), filePart("a.png", "image/png", pngFile)); rec.Code != 503 {
		t.Errorf("jane's upload past her slots = %d %s; want 503", rec.Code, rec.Body)
	}
	if rec := a.uploadParts("bob", textPart("documentType", "other"), filePart("a.png", "image/png", pngFile)); rec.Code != 201 {
		t.Errorf("bob's upload while jane holds her slots = %d %s; want 201", rec.Code, rec.Body)
	}
	for _, s := range held {
		s.fw.Write(pngFile[100:])
		s.mw.Close()
		s.pw.Close()
		if rec := <-s.done; rec.Code != 201 {
			t.Errorf("jane's slow upload = %d %s", rec.Code, rec.Body)
		}
	}
	if rec := a.uploadParts("jane", textPart("documentType", "other"), filePart("a.png", "image/png", pngFile)); rec.Code != 201 {
		t.Errorf("jane's upload once hers ended = %d %s; want 201", rec.Code, rec.Body)
	}
}
