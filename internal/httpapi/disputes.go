package httpapi

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"time"

	"applicantportal/internal/portal"
)

// The applicant's disputes of their report (FCRA section 611).
func (s *Server) registerDisputeRoutes(mux *routes) {
	const one = "/api/v2/user/disputes/{id}"
	mux.HandleFunc("GET /api/v2/user/disputes", s.require(applicantOnly, s.handleDisputeList))
	mux.HandleFunc("POST /api/v2/user/disputes", s.require(applicantOnly, s.handleDisputeCreate))
	mux.HandleFunc("GET "+one, s.require(applicantOnly, s.handleDisputeShow))
	mux.HandleFunc("POST "+one+"/information", s.require(applicantOnly, s.handleDisputeInformation))
	mux.HandleFunc("GET "+one+"/files/{fileId}", s.require(applicantOnly, s.handleDisputeFile))
}

// disputeJSON is a dispute as the API answers it (docs/api.md).
type disputeJSON struct {
	ID          int64                `json:"id"`
	Reason      string               `json:"reason"`
	ServiceCode string               `json:"serviceCode"`
	ServiceName string               `json:"serviceName"`
	Explanation string               `json:"explanation"`
	State       string               `json:"state"`
	Outcome     string               `json:"outcome"`
	Resolution  string               `json:"resolution"`
	ReceivedAt  string               `json:"receivedAt"`
	DueAt       string               `json:"dueAt"`
	DaysLeft    int                  `json:"daysLeft"`
	Extended    bool                 `json:"extended"`
	ResolvedAt  *string              `json:"resolvedAt"`
	Files       []disputeFileJSON    `json:"files"`
	Messages    []disputeMessageJSON `json:"messages"`
}

type disputeFileJSON struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
}

type disputeMessageJSON struct {
	ID        int64             `json:"id"`
	Author    string            `json:"author"`
	Message   string            `json:"message"`
	Files     []disputeFileJSON `json:"files"`
	CreatedAt string            `json:"createdAt"`
}

func newDisputeFilesJSON(files []portal.File) []disputeFileJSON {
	out := make([]disputeFileJSON, 0, len(files))
	for _, f := range files {
		out = append(out, disputeFileJSON{ID: f.ID, Name: f.Name, ContentType: f.ContentType, Size: f.Size})
	}
	return out
}

func newDisputeJSON(d portal.Dispute, now time.Time) disputeJSON {
	out := disputeJSON{ID: d.ID, Reason: d.Reason, ServiceCode: d.ServiceCode, ServiceName: d.ServiceName, Explanation: d.Explanation,
		State: d.State, Outcome: d.Outcome, Resolution: d.Resolution, ReceivedAt: apiTime(d.ReceivedAt), DueAt: apiTime(d.DueAt),
		DaysLeft: d.DaysLeft(now), Extended: d.Extended, Files: newDisputeFilesJSON(d.Files), Messages: []disputeMessageJSON{}}
	if d.ResolvedAt != nil {
		t := apiTime(*d.ResolvedAt)
		out.ResolvedAt = &t
	}
	for _, m := range d.Messages {
		out.Messages = append(out.Messages, disputeMessageJSON{ID: m.ID, Author: m.Author, Message: m.Text,
			Files: newDisputeFilesJSON(m.Files), CreatedAt: apiTime(m.CreatedAt)})
	}
	return out
}

// disputeID reads the {id} path value; one that is no id is no dispute of
// the caller's.
func disputeID(r *http.Request) (int64, error) {
	return pathID(r, "id", portal.Errorf(portal.ENOTFOUND, "Dispute not found."))
}

func (s *Server) handleDisputeList(w http.ResponseWriter, r *http.Request) {
	list, err := s.svc.Disputes.Disputes(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := make([]disputeJSON, 0, len(list))
	for _, d := range list {
		out = append(out, newDisputeJSON(d, s.now()))
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": out})
}

func (s *Server) handleDisputeShow(w http.ResponseWriter, r *http.Request) {
	id, err := disputeID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	d, err := s.svc.Disputes.Dispute(r.Context(), callerFrom(r.Context()).SubjectID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newDisputeJSON(*d, s.now()))
}

// handleDisputeCreate opens a dispute: multipart with the fields reason,
// serviceCode (empty: the whole report) and explanation, then up to
// portal.MaxDisputeFiles parts named file; or JSON with the same fields
// and no files.
func (s *Server) handleDisputeCreate(w http.ResponseWriter, r *http.Request) {
	subjectID := callerFrom(r.Context()).SubjectID
	post, err := s.readDisputePost(w, r, subjectID, "reason", "serviceCode", "explanation")
	if err != nil {
		s.Error(w, r, err)
		return
	}
	defer post.release()
	d, err := s.svc.Disputes.OpenDispute(r.Context(), subjectID, portal.NewDispute{Reason: post.fields["reason"],
		ServiceCode: post.fields["serviceCode"], Explanation: post.fields["explanation"]}, post.files)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, newDisputeJSON(*d, s.now()))
}

// handleDisputeInformation adds the applicant's information: multipart
// with the field message, then files; or JSON {"message"}.
func (s *Server) handleDisputeInformation(w http.ResponseWriter, r *http.Request) {
	id, err := disputeID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	subjectID := callerFrom(r.Context()).SubjectID
	post, err := s.readDisputePost(w, r, subjectID, "message")
	if err != nil {
		s.Error(w, r, err)
		return
	}
	defer post.release()
	d, err := s.svc.Disputes.AddDisputeInformation(r.Context(), subjectID, id, post.fields["message"], post.files)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newDisputeJSON(*d, s.now()))
}

// disputeFileIDs reads the {id} and {fileId} path values of a dispute's
// file.
func disputeFileIDs(r *http.Request) (id, fileID int64, err error) {
	if id, err = disputeID(r); err == nil {
		fileID, err = pathID(r, "fileId", portal.Errorf(portal.ENOTFOUND, "File not found."))
	}
	return id, fileID, err
}

func (s *Server) handleDisputeFile(w http.ResponseWriter, r *http.Request) {
	id, fileID, err := disputeFileIDs(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	f, rc, err := s.svc.Disputes.OpenDisputeFile(r.Context(), callerFrom(r.Context()).SubjectID, id, fileID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.serveFile(w, r, f, rc, f.Name)
}

// maxDisputeBody is the most a dispute's multipart body may be: its files
// and the framing and text around them.
const maxDisputeBody = portal.MaxDisputeFiles*portal.MaxUploadSize + 64<<10

// maxDisputeTextPart bounds a text field of a dispute's body, in bytes:
// the longest text, each character of it up to 4 bytes.
const maxDisputeTextPart = 4 * portal.MaxDisputeText

// maxDisputeJSONBody bounds a dispute posted as JSON: its text escaped
// (\uXXXX is 6 bytes a character, 12 for a pair) and the other fields.
const maxDisputeJSONBody = 12*portal.MaxDisputeText + 4096

// disputePost is a dispute's request as posted, before the service
// checks it.
type disputePost struct {
	fields  map[string]string
	files   portal.Uploads
	release func()
}

// readDisputePost reads the text fields named (JSON, or multipart with the
// fields first) and hands the files that follow them to the service as it
// reads them, in one of the applicant's upload slots.
func (s *Server) readDisputePost(w http.ResponseWriter, r *http.Request, subjectID int64, names ...string) (disputePost, error) {
	post := disputePost{fields: map[string]string{}, files: portal.NoUploads, release: func() {}}
	if isJSON(r) {
		in := map[string]string{}
		// The text is the last field named: a body too long is its fault.
		tooLong := fieldError(names[len(names)-1], "This must be %d characters or fewer", portal.MaxDisputeText)
		if err := decodeLongTextJSON(w, r, &in, maxDisputeJSONBody, tooLong); err != nil {
			return post, err
		}
		for _, name := range names {
			post.fields[name] = in[name]
		}
		return post, nil
	}
	mr, release, err := s.startUploadOf(w, r, applicantUploader(subjectID), maxDisputeBody)
	if err != nil {
		return post, err
	}
	known := map[string]bool{}
	for _, name := range names {
		known[name] = true
	}
	var first *multipart.Part
	for {
		part, err := nextPart(mr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil && part.FormName() == "file" {
			first = part
			break
		}
		if err == nil && !known[part.FormName()] {
			err = errUnreadableUpload
		}
		if err == nil {
			var b []byte
			if b, err = io.ReadAll(io.LimitReader(part, maxDisputeTextPart+1)); err != nil {
				err = uploadReadError(err)
			} else if len(b) > maxDisputeTextPart {
				err = fieldError(part.FormName(), "This must be %d characters or fewer", portal.MaxDisputeText)
			}
			post.fields[part.FormName()] = string(b)
		}
		if err != nil {
			release()
			return post, err
		}
	}
	post.files, post.release = disputeFiles(mr, first), release
	return post, nil
}

// disputeFiles hands out first and the file parts after it, one at a
// time; a part of another name after the files is a malformed body.
func disputeFiles(mr *multipart.Reader, first *multipart.Part) portal.Uploads {
	done := first == nil
	return func() (*portal.Upload, error) {
		if done {
			return nil, nil
		}
		part := first
		first = nil
		if part == nil {
			var err error
			if part, err = nextPart(mr); errors.Is(err, io.EOF) {
				done = true
				return nil, nil
			} else if err != nil {
				return nil, err
			}
		}
		if part.FormName() != "file" {
			return nil, errUnreadableUpload
		}
		return &portal.Upload{Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Body: disputeFilePart{part}}, nil
	}
}

// disputeFilePart reads a file part, a body past the limit or broken read as
// the upload errors they are.
type disputeFilePart struct{ part *multipart.Part }

func (p disputeFilePart) Read(b []byte) (int, error) {
	n, err := p.part.Read(b)
	if err != nil && !errors.Is(err, io.EOF) {
		err = uploadReadError(err)
	}
	return n, err
}
