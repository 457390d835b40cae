package httpapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"applicantportal/internal/portal"
)

func (s *Server) registerDocumentRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/profile/documents", s.require(applicantOnly, s.handleDocumentList))
	mux.HandleFunc("POST /api/v2/user/profile/documents", s.require(applicantOnly, s.handleDocumentCreate))
	mux.HandleFunc("GET /api/v2/user/profile/documents/{id}", s.require(applicantOnly, s.handleDocumentGet))
	mux.HandleFunc("DELETE /api/v2/user/profile/documents/{id}", s.require(applicantOnly, s.handleDocumentDelete))
}

type documentTypeJSON struct {
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

type documentJSON struct {
	ID           int64  `json:"id"`
	DocumentType string `json:"documentType"`
	Name         string `json:"name"`
	ContentType  string `json:"contentType"`
	Size         int64  `json:"size"`
	SHA256       string `json:"sha256"`
	CreatedAt    string `json:"createdAt"`
}

type reportJSON struct {
	Kind      portal.ReportKind `json:"kind"`
	Name      string            `json:"name"`
	Size      int64             `json:"size"`
	CreatedAt string            `json:"createdAt"`
}

type documentListJSON struct {
	DocumentTypes  []documentTypeJSON `json:"documentTypes"`
	Documents      []documentJSON     `json:"documents"`
	Reports        []reportJSON       `json:"reports"`
	Writable       bool               `json:"writable"`
	Deletable      bool               `json:"deletable"`
	MaxUploadBytes int64              `json:"maxUploadBytes"`
}

// apiTime is a stored time as the API shows it: UTC, to the second.
func apiTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func newDocumentJSON(d portal.Document) documentJSON {
	return documentJSON{ID: d.ID, DocumentType: d.Type, Name: d.File.Name, ContentType: d.File.ContentType,
		Size: d.File.Size, SHA256: d.File.SHA256, CreatedAt: apiTime(d.File.CreatedAt)}
}

// reportFileName is the name a report downloads as: its kind and the
// applicant's profile number, whatever the operator's file was called.
func reportFileName(kind portal.ReportKind, profileNumber string) string {
	prefix := map[portal.ReportKind]string{
		portal.ReportBackground: "background-report",
		portal.ReportDrug:       "drug-test-report",
		portal.ReportECOC:       "custody-and-control-form",
	}[kind]
	return fmt.Sprintf("%s-%s.pdf", prefix, fileNamePart(profileNumber))
}

func (s *Server) handleDocumentList(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	list, err := s.svc.Documents.FindDocuments(r.Context(), sess.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := documentListJSON{DocumentTypes: []documentTypeJSON{}, Documents: []documentJSON{}, Reports: []reportJSON{},
		Writable: list.Writable, Deletable: list.Deletable, MaxUploadBytes: portal.MaxUploadSize}
	for _, t := range list.Types {
		out.DocumentTypes = append(out.DocumentTypes, documentTypeJSON{Type: t.Type, Title: t.Title, Description: t.Description, Required: t.Required})
	}
	for _, d := range list.Documents {
		out.Documents = append(out.Documents, newDocumentJSON(d))
	}
	if len(list.Reports) > 0 {
		profile, err := s.svc.Subjects.FindProfile(r.Context(), sess.SubjectID)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		for _, rep := range list.Reports {
			out.Reports = append(out.Reports, reportJSON{Kind: rep.Kind, Name: reportFileName(rep.Kind, profile.Number),
				Size: rep.File.Size, CreatedAt: apiTime(rep.File.CreatedAt)})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// handleDocumentCreate streams a multipart upload (documentType first,
// then the file) into the document service without holding it: the
// service reads the file part as it arrives, up to the limit. At most
// Config.MaxUploads run at once; the others wait for a slot, then 503.
func (s *Server) handleDocumentCreate(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	mr, release, err := s.startUpload(w, r, applicantUploader(sess.SubjectID))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	defer release()
	errNoType := fieldError("documentType", "Choose which document this is.")
	part, err := nextPart(mr)
	switch {
	case errors.Is(err, io.EOF):
		err = errNoType
	case err == nil && part.FormName() == "file":
		err = errNoType
	case err == nil && part.FormName() != "documentType":
		err = errUnreadableUpload
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	// A type code is a few words; anything longer is no type.
	b, err := io.ReadAll(io.LimitReader(part, 201))
	if err != nil {
		s.Error(w, r, uploadReadError(err))
		return
	}
	docType := string(b)
	if docType == "" || len(b) > 200 {
		s.Error(w, r, errNoType)
		return
	}
	part, err = nextPart(mr)
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
	doc, err := s.svc.Documents.AddDocument(r.Context(), sess.SubjectID, docType, portal.Upload{
		Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Body: &lastPart{mr: mr, part: part}})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, newDocumentJSON(*doc))
}

// fieldError is a validation error of one field, its message a format of
// the catalogue (portal.FieldErrorf).
func fieldError(field, format string, args ...any) error {
	return portal.FieldErrors{portal.FieldErrorf(field, format, args...)}.Err()
}

func (s *Server) handleDocumentGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	id, err := documentID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	f, rc, err := s.svc.Documents.OpenDocument(r.Context(), sess.SubjectID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.serveFile(w, r, f, rc, f.Name)
}

func (s *Server) handleDocumentDelete(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	id, err := documentID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Documents.DeleteDocument(r.Context(), sess.SubjectID, id); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
