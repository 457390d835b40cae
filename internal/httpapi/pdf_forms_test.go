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
	"os"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// formsAPI is a company whose package has the demo forms (the Idaho release
// for Idaho only, the MVR request for everyone) and three logged-in
// applicants: ida works in Idaho, cal in California, and fresh has not
// finished setup. Another company's package has a form of its own.
type formsAPI struct {
	*harness
	idaho, mvr, others int64
	tokens             map[string]string
}

func formFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var (
	idahoPath       = "../demo/forms/idaho-release.pdf"
	mvrPath         = "../demo/forms/mvr-request.pdf"
	idahoFilledPath = "../pdfform/testdata/idaho-release-filled.pdf"
	noFormPath      = "../pdfform/testdata/no-form.pdf"
)

func eachFormsAPI(t *testing.T, cfg httpapi.Config, run func(t *testing.T, a *formsAPI)) {
	t.Helper()
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) { run(t, newFormsAPI(t, db, cfg)) })
}

func newFormsAPI(t *testing.T, db *store.DB, cfg httpapi.Config) *formsAPI {
	t.Helper()
	ctx := context.Background()
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	a := &formsAPI{harness: newHarness(t, db, "192.0.2.1:1234"), tokens: map[string]string{}}
	addPackage := func(name string) (companyID, packageID int64) {
		c := &portal.Company{Name: name}
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		p := &portal.Package{CompanyID: c.ID, Name: "Standard"}
		if err := db.CreatePackage(ctx, p); err != nil {
			t.Fatal(err)
		}
		return c.ID, p.ID
	}
	addForm := func(f portal.NewPdfForm, path string) int64 {
		f.PDF = formFile(t, path)
		form, err := db.Documents().AddPdfForm(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		return form.ID
	}
	acme, acmePkg := addPackage("Acme")
	_, otherPkg := addPackage("Other")
	a.idaho = addForm(portal.NewPdfForm{PackageID: acmePkg, Code: "idaho-release", Title: "Idaho background check release (sample)",
		Description: "Idaho only.", States: []string{"US-ID"}, Required: true}, idahoPath)
	a.mvr = addForm(portal.NewPdfForm{PackageID: acmePkg, Code: "mvr-request", Title: "Motor vehicle record request (sample)"}, mvrPath)
	a.others = addForm(portal.NewPdfForm{PackageID: otherPkg, Code: "idaho-release", Title: "Theirs"}, idahoPath)
	for _, who := range []struct {
		name, state string
		setUp       bool
	}{{"ida", "US-ID", true}, {"cal", "US-CA", true}, {"fresh", "US-ID", false}} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme, Email: who.name + "@example.com", FirstName: who.name, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetEmploymentLocation(ctx, s.ID, portal.Place{State: who.state}); err != nil {
			t.Fatal(err)
		}
		if who.setUp {
			if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
		}
		token := logIn(t, db, s)
		a.tokens[who.name] = token
	}
	a.serve(cfg, nil, nil)
	return a
}

func (a *formsAPI) formURL(id int64) string {
	return fmt.Sprintf("/api/v2/user/profile/fillable-pdf-form/%d", id)
}

func pdfPart(content []byte) uploadPart { return filePart("form.pdf", "application/pdf", content) }

func (a *formsAPI) submit(who string, formID int64, parts ...uploadPart) *httptest.ResponseRecorder {
	a.t.Helper()
	stream, ct := multipartStream(parts...)
	body, err := io.ReadAll(stream)
	if err != nil {
		a.t.Fatal(err)
	}
	return a.send(request{Method: "POST", URL: a.formURL(formID), Token: a.tokens[who], Body: body, ContentType: ct})
}

func TestPdfFormList(t *testing.T) {
	eachFormsAPI(t, httpapi.Config{}, func(t *testing.T, a *formsAPI) {
		codes := func(who string) []any {
			rec := a.send(request{Method: "GET", URL: "/api/v2/user/profile/fillable-pdf-forms", Token: a.tokens[who]})
			var list []map[string]any
			if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &list) != nil {
				t.Fatalf("GET forms as %s = %d %s", who, rec.Code, rec.Body)
			}
			var out []any
			for _, f := range list {
				out = append(out, f["code"])
			}
			if who == "ida" {
				first := list[0]
				if first["id"] != float64(a.idaho) || first["title"] != "Idaho background check release (sample)" || first["required"] != true ||
					first["description"] != "Idaho only." || first["submitted"] != nil || len(first["fieldNames"].([]any)) != 10 {
					t.Errorf("Idaho form entry = %v", first)
				}
			}
			return out
		}
		if got := fmt.Sprint(codes("ida")); got != "[idaho-release mvr-request]" {
			t.Errorf("ida (works in Idaho) sees %s; want both forms", got)
		}
		if got := fmt.Sprint(codes("cal")); got != "[mvr-request]" {
			t.Errorf("cal (works in California) sees %s; want only the MVR request", got)
		}
	})
}

func TestPdfFormDownloadAndSubmit(t *testing.T) {
	eachFormsAPI(t, httpapi.Config{}, func(t *testing.T, a *formsAPI) {
		rec := a.send(request{Method: "GET", URL: a.formURL(a.idaho), Token: a.tokens["ida"]})
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), formFile(t, idahoPath)) {
			t.Fatalf("template = %d, %d bytes; want the Idaho PDF", rec.Code, rec.Body.Len())
		}
		for header, want := range map[string]string{
			"Content-Type":            "application/pdf",
			"Content-Disposition":     `attachment; filename="idaho-release.pdf"; filename*=UTF-8''idaho-release.pdf`,
			"X-Content-Type-Options":  "nosniff",
			"Cache-Control":           "no-store",
			"Content-Security-Policy": "sandbox",
		} {
			if got := rec.Header().Get(header); got != want {
				t.Errorf("template %s = %q; want %q", header, got, want)
			}
		}
		rec = a.send(request{Method: "GET", URL: a.formURL(a.idaho) + "/submitted", Token: a.tokens["ida"]})
		wantAPIError(t, rec, http.StatusNotFound, "You have not submitted this form yet.")

		filled := formFile(t, idahoFilledPath)
		rec = a.submit("ida", a.idaho, pdfPart(filled))
		if rec.Code != http.StatusOK {
			t.Fatalf("submit = %d %s", rec.Code, rec.Body)
		}
		var out struct {
			Message string `json:"message"`
			Form    struct {
				ID        int64 `json:"id"`
				Submitted struct {
					Name        string `json:"name"`
					Size        int64  `json:"size"`
					SHA256      string `json:"sha256"`
					SubmittedAt string `json:"submittedAt"`
				} `json:"submitted"`
			} `json:"form"`
		}
		json.Unmarshal(rec.Body.Bytes(), &out)
		sum := sha256.Sum256(filled)
		sub := out.Form.Submitted
		if out.Message != "Form submitted" || out.Form.ID != a.idaho || sub.Name != "idaho-release.pdf" || sub.Size != int64(len(filled)) ||
			sub.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("submit answered %s", rec.Body)
		}
		if _, err := time.Parse(time.RFC3339, sub.SubmittedAt); err != nil {
			t.Errorf("submittedAt %q: %v", sub.SubmittedAt, err)
		}
		rec = a.send(request{Method: "GET", URL: a.formURL(a.idaho) + "/submitted", Token: a.tokens["ida"]})
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), filled) || rec.Header().Get("Content-Type") != "application/pdf" {
			t.Errorf("submitted copy = %d, %d bytes; want exactly what was sent", rec.Code, rec.Body.Len())
		}
		// Someone else's submission is not theirs to read.
		rec = a.send(request{Method: "GET", URL: a.formURL(a.idaho) + "/submitted", Token: a.tokens["cal"]})
		wantAPIError(t, rec, http.StatusNotFound, "Form not found.")
	})
}

func TestPdfFormSubmitRefusals(t *testing.T) {
	eachFormsAPI(t, httpapi.Config{}, func(t *testing.T, a *formsAPI) {
		png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 64)...)
		tooLarge := append(formFile(t, idahoFilledPath), bytes.Repeat([]byte{' '}, 21<<20)...)
		notMultipart := a.send(request{Method: "POST", URL: a.formURL(a.mvr), Token: a.tokens["ida"], Body: formFile(t, mvrPath), ContentType: "application/pdf"})
		wantAPIError(t, notMultipart, http.StatusBadRequest, "The upload could not be read.")
		tests := []struct {
			name    string
			who     string
			formID  int64
			parts   []uploadPart
			status  int
			message string
		}{
			{"NoFormFields", "ida", a.idaho, []uploadPart{pdfPart(formFile(t, noFormPath))}, http.StatusUnprocessableEntity, "This PDF has no form fields."},
			{"AnotherFormsPDF", "ida", a.idaho, []uploadPart{pdfPart(formFile(t, mvrPath))}, http.StatusUnprocessableEntity,
				"This is not the Idaho background check release (sample) form: its fields differ."},
			{"FormOfAnotherPackage", "ida", a.others, []uploadPart{pdfPart(formFile(t, idahoFilledPath))}, http.StatusNotFound, "Form not found."},
			{"FormThatDoesNotApply", "cal", a.idaho, []uploadPart{pdfPart(formFile(t, idahoFilledPath))}, http.StatusNotFound, "Form not found."},
			{"ZeroID", "ida", 0, []uploadPart{pdfPart(formFile(t, idahoFilledPath))}, http.StatusNotFound, "Form not found."},
			{"PNG", "ida", a.idaho, []uploadPart{filePart("scan.png", "image/png", png)}, http.StatusUnsupportedMediaType,
				"A filled form must be a PDF."},
			{"PNGNamedPDF", "ida", a.idaho, []uploadPart{pdfPart(png)}, http.StatusUnsupportedMediaType,
				"A filled form must be a PDF."},
			{"TwentyOneMB", "ida", a.idaho, []uploadPart{pdfPart(tooLarge)}, http.StatusRequestEntityTooLarge,
				"The file is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution."},
			{"NewSubject", "fresh", a.idaho, []uploadPart{pdfPart(formFile(t, idahoFilledPath))}, http.StatusConflict, "Finish setting up your account first."},
			{"NoFilePart", "ida", a.idaho, nil, http.StatusUnprocessableEntity, "Choose a file to upload."},
			{"OtherPart", "ida", a.idaho, []uploadPart{textPart("documentType", "x")}, http.StatusBadRequest, "The upload could not be read."},
			{"TwoFiles", "ida", a.idaho, []uploadPart{pdfPart(formFile(t, idahoFilledPath)), pdfPart(formFile(t, idahoFilledPath))},
				http.StatusBadRequest, "The upload could not be read."},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := a.submit(tt.who, tt.formID, tt.parts...)
				wantAPIError(t, rec, tt.status, tt.message)
			})
		}
		// Nothing refused was kept.
		rec := a.send(request{Method: "GET", URL: a.formURL(a.idaho) + "/submitted", Token: a.tokens["ida"]})
		wantAPIError(t, rec, http.StatusNotFound, "You have not submitted this form yet.")
	})
}

// TestPdfFormSubmitWaitsForAnUploadSlot: with every upload slot taken, a
// submission waits, then answers 503 with Retry-After.
func TestPdfFormSubmitWaitsForAnUploadSlot(t *testing.T) {
	eachFormsAPI(t, httpapi.Config{MaxUploads: 1, UploadWait: 50 * time.Millisecond}, func(t *testing.T, a *formsAPI) {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		done := make(chan int)
		go func() {
			req := httptest.NewRequest("POST", a.formURL(a.mvr), pr)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			req.Header.Set("Authorization", "Bearer "+a.tokens["ida"])
			rec := httptest.NewRecorder()
			a.handler.ServeHTTP(rec, req)
			done <- rec.Code
		}()
		part, err := mw.CreateFormFile("file", "mvr-request.pdf")
		if err != nil {
			t.Fatal(err)
		}
		// The first request holds the slot while its body trickles in.
		part.Write([]byte("%PDF-1.7\n"))
		rec := a.submit("ida", a.mvr, pdfPart(formFile(t, mvrPath)))
		wantAPIError(t, rec, http.StatusServiceUnavailable, "The server is busy receiving other uploads. Please try again in a moment.")
		if rec.Header().Get("Retry-After") != "1" {
			t.Errorf("Retry-After = %q; want 1", rec.Header().Get("Retry-After"))
		}
		pw.CloseWithError(io.ErrUnexpectedEOF)
		if code := <-done; code != http.StatusBadRequest {
			t.Errorf("the cut-off upload = %d; want 400", code)
		}
	})
}

func wantAPIError(t *testing.T, rec *httptest.ResponseRecorder, status int, message string) {
	t.Helper()
	var body struct {
		ErrorMessage string              `json:"errorMessage"`
		ErrorFields  []portal.FieldError `json:"errorFields"`
	}
	json.Unmarshal(rec.Body.Bytes(), &body)
	got := body.ErrorMessage
	if len(body.ErrorFields) > 0 {
		if body.ErrorFields[0].Field != "file" || got != portal.ValidationMessage {
			t.Errorf("error fields %+v, message %q; want field file", body.ErrorFields, got)
		}
		got = body.ErrorFields[0].Message
	}
	if rec.Code != status || got != message {
		t.Errorf("= %d %q; want %d %q (body %s)", rec.Code, got, status, message, strings.TrimSpace(rec.Body.String()))
	}
}
