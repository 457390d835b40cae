package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"

	"applicantportal/internal/portal"
)

// The report: the applicant confirms who they are, then reads or downloads
// it (each recorded); operators attach reports and list their views.
func (s *Server) registerReportRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/profile/report/access", s.require(applicantOnly, s.handleReportAccessGet))
	mux.HandleFunc("POST /api/v2/user/profile/report/confirm", s.require(applicantOnly, s.handleReportConfirm))
	for _, kind := range portal.ReportKinds {
		mux.HandleFunc("GET /api/v2/user/profile/"+string(kind), s.require(applicantOnly, s.handleReportGet(kind)))
	}
	mux.HandleFunc("POST /api/v2/operator/applicants/{id}/reports/{kind}", s.operatorOnly(s.handleOperatorReportAttach))
	mux.HandleFunc("GET /api/v2/operator/applicants/{id}/report-views", s.operatorOnly(s.handleOperatorReportViews))
}

type reportAccessJSON struct {
	Granted      bool    `json:"granted"`
	GrantedUntil *string `json:"grantedUntil"`
	LockedUntil  *string `json:"lockedUntil"`
	SSNRequired  bool    `json:"ssnRequired"`
	TriesLeft    int     `json:"triesLeft"`
	// FileNames are the names the reports download as, which the
	// viewer's download gives its file.
	FileNames map[portal.ReportKind]string `json:"fileNames"`
}

// writeReportAccess answers the access with the reports' file names.
func (s *Server) writeReportAccess(w http.ResponseWriter, r *http.Request, a *portal.ReportAccess) {
	profile, err := s.svc.Subjects.FindProfile(r.Context(), callerFrom(r.Context()).SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	names := map[portal.ReportKind]string{}
	for _, kind := range portal.ReportKinds {
		names[kind] = reportFileName(kind, profile.Number)
	}
	writeJSON(w, http.StatusOK, reportAccessJSON{Granted: a.GrantedUntil != nil, GrantedUntil: operatorTimePtr(a.GrantedUntil),
		LockedUntil: operatorTimePtr(a.LockedUntil), SSNRequired: a.SSNRequired, TriesLeft: a.TriesLeft, FileNames: names})
}

func (s *Server) handleReportAccessGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	a, err := s.svc.Reports.FindReportAccess(r.Context(), sess.SubjectID, sess.FamilyID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeReportAccess(w, r, a)
}

func (s *Server) handleReportConfirm(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	var body portal.ReportIdentity
	if err := decodeJSON(w, r, &body); err != nil {
		s.Error(w, r, err)
		return
	}
	a, err := s.svc.Reports.ConfirmReportIdentity(r.Context(), sess.SubjectID, sess.FamilyID, body)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeReportAccess(w, r, a)
}

// handleReportGet answers the applicant's report of kind, named for the
// kind and the profile number, once the session confirmed who they are;
// ?disposition=inline (the viewer) or attachment (a download, the
// default) says which is recorded.
func (s *Server) handleReportGet(kind portal.ReportKind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess := callerFrom(r.Context())
		disposition := r.URL.Query().Get("disposition")
		if disposition == "" {
			disposition = portal.ReportAttachment
		}
		profile, err := s.svc.Subjects.FindProfile(r.Context(), sess.SubjectID)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		f, rc, err := s.svc.Reports.OpenReport(r.Context(), portal.ReportRead{SubjectID: sess.SubjectID, FamilyID: sess.FamilyID,
			Kind: kind, Disposition: disposition})
		if err != nil {
			s.Error(w, r, err)
			return
		}
		s.serveFile(w, r, f, rc, reportFileName(kind, profile.Number))
	}
}

// handleOperatorReportAttach attaches a report: the PDF as the body
// (Content-Type application/pdf), or multipart with one part "file".
func (s *Server) handleOperatorReportAttach(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	key := operatorFrom(r.Context())
	release, err := s.admitUpload(w, r, uploader{apiKey: true, id: key.ID}, portal.MaxReportSize+64<<10)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	defer release()
	req := portal.AttachReportRequest{CompanyID: key.CompanyID, SubjectID: id, Kind: portal.ReportKind(r.PathValue("kind")),
		Name: "report.pdf", Body: uploadBody{r.Body}}
	if mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mediaType == "multipart/form-data" {
		mr, err := r.MultipartReader()
		if err != nil {
			s.Error(w, r, errUnreadableUpload)
			return
		}
		part, err := nextPart(mr)
		switch {
		case errors.Is(err, io.EOF) || (err == nil && part.FormName() != "file"):
			err = fieldError("file", "Send the report as the part named file.")
		}
		if err != nil {
			s.Error(w, r, err)
			return
		}
		if part.FileName() != "" {
			req.Name = part.FileName()
		}
		req.Body = &lastPart{mr: mr, part: part}
	}
	f, err := s.svc.Operator.Documents.AttachReport(r.Context(), req)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"kind": req.Kind, "name": f.Name, "size": f.Size, "sha256": f.SHA256,
		"createdAt": operatorTime(f.CreatedAt)})
}

// uploadBody is a bare upload's body, whose read errors (too large, cut
// short) say so as lastPart's do.
type uploadBody struct{ r io.Reader }

func (b uploadBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = uploadReadError(err)
	}
	return n, err
}

type reportViewJSON struct {
	At          string            `json:"at"`
	Kind        portal.ReportKind `json:"kind"`
	Disposition string            `json:"disposition"`
	Address     string            `json:"address"`
}

type reportCopyJSON struct {
	SentAt   string   `json:"sentAt"`
	Channels []string `json:"channels"`
}

func (s *Server) handleOperatorReportViews(w http.ResponseWriter, r *http.Request) {
	id, err := operatorApplicantID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	list, err := s.svc.Operator.Reports.FindReportViews(r.Context(), operatorFrom(r.Context()).CompanyID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	views := make([]reportViewJSON, 0, len(list.Views))
	for _, v := range list.Views {
		views = append(views, reportViewJSON{At: operatorTime(v.At), Kind: v.Kind, Disposition: v.Disposition, Address: v.Address})
	}
	var copyJSON *reportCopyJSON
	if c := list.FreeCopy; c != nil {
		copyJSON = &reportCopyJSON{SentAt: operatorTime(c.SentAt), Channels: c.Channels}
	}
	writeJSON(w, http.StatusOK, map[string]any{"payload": views, "freeCopyAsked": list.FreeCopyAsked, "freeCopy": copyJSON})
}
