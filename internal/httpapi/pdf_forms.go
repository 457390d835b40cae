package httpapi

import (
	"errors"
	"io"
	"net/http"
	"time"

	"applicantportal/internal/portal"
)

// registerPdfFormRoutes serves the fillable PDF forms of the applicant's
// package: the list, the blank template, the applicant's submitted copy,
// and the submission.
func (s *Server) registerPdfFormRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/profile/fillable-pdf-forms", s.require(applicantOnly, s.handlePdfFormsGet))
	mux.HandleFunc("GET /api/v2/user/profile/fillable-pdf-form/{documentId}", s.require(applicantOnly, s.handlePdfFormTemplateGet))
	mux.HandleFunc("GET /api/v2/user/profile/fillable-pdf-form/{documentId}/submitted", s.require(applicantOnly, s.handlePdfFormSubmittedGet))
	mux.HandleFunc("POST /api/v2/user/profile/fillable-pdf-form/{documentId}", s.require(applicantOnly, s.handlePdfFormSubmit))
}

// pdfFormJSON is one entry of GET /api/v2/user/profile/fillable-pdf-forms.
type pdfFormJSON struct {
	ID          int64                 `json:"id"`
	Code        string                `json:"code"`
	Title       string                `json:"title"`
	Description string                `json:"description"`
	Required    bool                  `json:"required"`
	FieldNames  []string              `json:"fieldNames"`
	Submitted   *pdfFormSubmittedJSON `json:"submitted"`
}

type pdfFormSubmittedJSON struct {
	Name        string `json:"name"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
	SubmittedAt string `json:"submittedAt"`
}

func pdfFormOut(f portal.PdfForm) pdfFormJSON {
	out := pdfFormJSON{ID: f.ID, Code: f.Code, Title: f.Title, Description: f.Description, Required: f.Required,
		FieldNames: f.FieldNames}
	if out.FieldNames == nil {
		out.FieldNames = []string{}
	}
	if sub := f.Submitted; sub != nil {
		out.Submitted = &pdfFormSubmittedJSON{Name: sub.Name, Size: sub.Size, SHA256: sub.SHA256,
			SubmittedAt: sub.CreatedAt.UTC().Format(time.RFC3339)}
	}
	return out
}

func (s *Server) handlePdfFormsGet(w http.ResponseWriter, r *http.Request) {
	forms, err := s.svc.Documents.FindPdfForms(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]pdfFormJSON, 0, len(forms))
	for _, f := range forms {
		out = append(out, pdfFormOut(f))
	}
	writeJSON(w, http.StatusOK, out)
}

// pdfFormID is the form id of the path; one that is not a number names no
// form.
func pdfFormID(r *http.Request) (int64, error) {
	return pathID(r, "documentId", portal.ErrFormNotFound)
}

func (s *Server) handlePdfFormTemplateGet(w http.ResponseWriter, r *http.Request) {
	id, err := pdfFormID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	file, rc, err := s.svc.Documents.OpenPdfForm(r.Context(), callerFrom(r.Context()).SubjectID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.serveFile(w, r, file, rc, file.Name)
}

func (s *Server) handlePdfFormSubmittedGet(w http.ResponseWriter, r *http.Request) {
	id, err := pdfFormID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	file, rc, err := s.svc.Documents.OpenFilledPdfForm(r.Context(), callerFrom(r.Context()).SubjectID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.serveFile(w, r, file, rc, file.Name)
}

// handlePdfFormSubmit takes the filled PDF as the one part "file" of a
// multipart body, read as it comes (never ParseMultipartForm) within the
// upload gate and the body limit.
func (s *Server) handlePdfFormSubmit(w http.ResponseWriter, r *http.Request) {
	id, err := pdfFormID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	mr, release, err := s.startUpload(w, r, applicantUploader(callerFrom(r.Context()).SubjectID))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	defer release()
	part, err := nextPart(mr)
	switch {
	case errors.Is(err, io.EOF):
		err = fieldError("file", "Choose a file to upload.")
	case err == nil && part.FormName() != "file":
		err = errUnreadableUpload
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	up := portal.Upload{Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Body: &lastPart{mr: mr, part: part}}
	form, err := s.svc.Documents.SubmitPdfForm(r.Context(), callerFrom(r.Context()).SubjectID, id, up)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Message string      `json:"message"`
		Form    pdfFormJSON `json:"form"`
	}{"Form submitted", pdfFormOut(*form)})
}
