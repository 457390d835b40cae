package httpapi

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/signedpdf"
)

// MaxSignatureBody is the body limit of a signing call: a 200 KB PNG grows
// to about 273 KB in base64, plus the typed fields and hashes.
const MaxSignatureBody = 400 << 10

func (s *Server) registerLegalRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user/document", s.require(applicantOnly, s.handleLegalDocumentList))
	mux.HandleFunc("GET /api/v2/document/{id}", s.require(applicantOnly, s.handleLegalDocumentGet))
	mux.HandleFunc("POST /api/v2/user/document/{id}/signature", s.require(applicantOnly, s.handleSignatureCreate))
	mux.HandleFunc("GET /api/v2/user/document/{id}", s.require(applicantOnly, s.handleSignedDocumentGet))
	mux.HandleFunc("DELETE /api/v2/user/document/{id}", s.require(applicantOnly, s.handleSignatureDelete))
}

// legalDocumentJSON is one entry of GET /api/v2/user/document.
type legalDocumentJSON struct {
	ID        int64                    `json:"id"`
	Title     string                   `json:"title"`
	Version   int                      `json:"version"`
	Type      portal.LegalDocumentType `json:"type"`
	Signature *signatureJSON           `json:"signature"`
	// Language is the language of Title (and of the text GET
	// /api/v2/document/{id} serves): the request's when the document has
	// a text in it, else en-US.
	Language portal.Locale `json:"language"`
	// Instances are the per-employer DOT releases of the company's release
	// document (ReleaseDocument): one per DOT-flagged employment entry,
	// signed or not, and any signed one whose entry is gone or no longer
	// DOT-flagged. Absent on other documents.
	Instances []instanceJSON `json:"instances,omitempty"`
}

type instanceJSON struct {
	Instance     string         `json:"instance"` // the employment entry's id
	EmployerName string         `json:"employerName"`
	Signature    *signatureJSON `json:"signature"`
}

type signatureJSON struct {
	ID              int64                  `json:"id"`
	SignatureData   string                 `json:"signatureData"` // a PNG data URL; "" for acknowledgements
	SignatureUserIP string                 `json:"signatureUserIp"`
	SignerName      string                 `json:"signerName"`
	CreatedAt       time.Time              `json:"createdAt"`
	DocumentVersion int                    `json:"documentVersion"`
	ContentSHA256   string                 `json:"contentSha256"`
	Outcome         portal.SignOutcome     `json:"outcome"`
	Fields          portal.SignatureFields `json:"fields"`
	// Language is the language of the text signed, whatever the request's.
	Language portal.Locale `json:"language"`
}

func newLegalDocumentJSON(d portal.LegalDocument, sig *portal.Signature) legalDocumentJSON {
	out := legalDocumentJSON{ID: d.ID, Title: d.Title, Version: d.Version, Type: d.Type, Language: d.Language, Signature: newSignatureJSON(sig)}
	if out.Type.Regions == nil {
		out.Type.Regions = []portal.Region{}
	}
	return out
}

func newSignatureJSON(sig *portal.Signature) *signatureJSON {
	if sig == nil {
		return nil
	}
	out := &signatureJSON{
		ID: sig.ID, SignatureUserIP: sig.SignatureUserIP, SignerName: sig.SignerName, CreatedAt: sig.CreatedAt,
		DocumentVersion: sig.DocumentVersion, ContentSHA256: sig.ContentSHA256, Outcome: sig.Outcome, Fields: sig.Fields,
		Language: sig.Language,
	}
	if len(sig.SignatureData) > 0 {
		// Encoded straight after the prefix: one copy less of the image.
		const prefix = "data:image/png;base64,"
		b := make([]byte, 0, len(prefix)+base64.StdEncoding.EncodedLen(len(sig.SignatureData)))
		out.SignatureData = string(base64.StdEncoding.AppendEncode(append(b, prefix...), sig.SignatureData))
	}
	return out
}

// releaseInstances lists the instances of the release document (see
// legalDocumentJSON.Instances) whose signed state passes the filter.
func releaseInstances(file *portal.LegalFile, d portal.LegalDocument, filter portal.LegalDocumentFilter) []instanceJSON {
	out := []instanceJSON{}
	add := func(instance, employer string, sig *portal.Signature) {
		if filter.Signed == nil || *filter.Signed == (sig != nil) {
			out = append(out, instanceJSON{Instance: instance, EmployerName: employer, Signature: newSignatureJSON(sig)})
		}
	}
	listed := map[string]bool{}
	for _, e := range file.DOTEntries {
		listed[e.ID] = true
		add(e.ID, e.EmployerName, file.Instance(d.ID, e.ID))
	}
	var gone []*portal.Signature
	for k, sig := range file.Instances {
		if k.DocumentID == d.ID && !listed[k.Instance] {
			gone = append(gone, sig)
		}
	}
	slices.SortFunc(gone, func(a, b *portal.Signature) int { return cmp.Compare(a.ID, b.ID) })
	for _, sig := range gone {
		add(sig.Instance, sig.Fields.EmployerName, sig)
	}
	return out
}

// legalFilter is the JSON of the filter query parameter.
type legalFilter struct {
	DocumentType stringList `json:"documentType"`
	Signed       *bool      `json:"signed"`
}

// stringList accepts one string or an array of strings.
type stringList []string

func (l *stringList) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte(`"`)) {
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*l = stringList{one}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(l))
}

func parseLegalFilter(r *http.Request) (portal.LegalDocumentFilter, error) {
	raw := r.URL.Query().Get("filter")
	if strings.TrimSpace(raw) == "" {
		return portal.LegalDocumentFilter{}, nil
	}
	var f legalFilter
	if err := json.Unmarshal([]byte(raw), &f); err != nil {
		return portal.LegalDocumentFilter{}, portal.Errorf(portal.EMALFORMED,
			`The filter must be JSON, like {"documentType":["e_sign"],"signed":false}.`)
	}
	return portal.LegalDocumentFilter{DocumentTypes: f.DocumentType, Signed: f.Signed}, nil
}

func (s *Server) handleLegalDocumentList(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	filter, err := parseLegalFilter(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	file, err := s.svc.Legal.FindLegalDocumentList(r.Context(), sess.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeLegalDocuments(w, http.StatusOK, file, filter)
}

// writeLegalDocuments answers every current document of the company (the
// app decides which apply with the same rules as the server), with the
// subject's signatures.
func writeLegalDocuments(w http.ResponseWriter, status int, file *portal.LegalFile, filter portal.LegalDocumentFilter) {
	out := []legalDocumentJSON{}
	release, hasRelease := file.ReleaseDocument()
	for _, d := range file.Documents {
		sig := file.Signatures[d.ID]
		var instances []instanceJSON
		if hasRelease && d.ID == release.ID {
			instances = releaseInstances(file, d, filter)
		}
		// The release document is listed when its setup signature or any
		// of its instances passes the filter.
		if filter.Match(d, sig != nil) || (len(instances) > 0 && filter.Signed != nil && filter.Match(d, *filter.Signed)) {
			j := newLegalDocumentJSON(d, sig)
			j.Instances = instances
			out = append(out, j)
		}
	}
	writeJSON(w, status, out)
}

// pathID reads the path value key as an id; anything but a positive number
// is something that does not exist: notFound.
func pathID(r *http.Request, key string, notFound error) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(key), 10, 64)
	if err != nil || id <= 0 {
		return 0, notFound
	}
	return id, nil
}

// documentID reads the {id} path value of a document.
func documentID(r *http.Request) (int64, error) {
	return pathID(r, "id", portal.Errorf(portal.ENOTFOUND, "Document not found."))
}

type documentContentJSON struct {
	ID            int64  `json:"id"`
	Instance      string `json:"instance,omitempty"`     // a per-employer DOT release's employment entry
	EmployerName  string `json:"employerName,omitempty"` // the employer that release names
	Title         string `json:"title"`
	Version       int    `json:"version"`
	DocumentType  string `json:"documentType"`
	Content       string `json:"content"`
	ContentSHA256 string `json:"contentSha256"`
	// Language is the language of Title and Content: the request's when
	// the document has a text in it, else en-US; with ?signed=true, the
	// language signed.
	Language portal.Locale `json:"language"`
}

// legalDocument loads the subject's legal file and the document the path
// names; a document of another company is ENOTFOUND, as if absent.
func (s *Server) legalDocument(r *http.Request, sess *portal.Session) (*portal.LegalFile, portal.LegalDocument, error) {
	id, err := documentID(r)
	if err != nil {
		return nil, portal.LegalDocument{}, err
	}
	file, err := s.svc.Legal.FindLegalDocuments(r.Context(), sess.SubjectID)
	if err != nil {
		return nil, portal.LegalDocument{}, err
	}
	d, ok := file.Document(id)
	if !ok {
		return nil, portal.LegalDocument{}, portal.Errorf(portal.ENOTFOUND, "Document not found.")
	}
	return file, d, nil
}

// handleLegalDocumentGet answers the current text of one of the company's
// documents with the tokens replaced, and the hash a signature of it must
// carry. With ?signed=true it answers the text exactly as the subject
// signed it, which may be an older version (print pages show that one).
func (s *Server) handleLegalDocumentGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	file, d, err := s.legalDocument(r, sess)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	instance := r.URL.Query().Get("instance")
	out := documentContentJSON{ID: d.ID, Title: d.Title, Version: d.Version, DocumentType: d.Type.DocumentType, Instance: instance, Language: d.Language}
	if r.URL.Query().Get("signed") == "true" {
		sig := file.Instance(d.ID, instance)
		if sig == nil {
			s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "You have not signed this document."))
			return
		}
		if out.Title, err = s.titleIn(r, sess, d, sig.Language); err != nil {
			s.Error(w, r, err)
			return
		}
		out.Version, out.Content, out.ContentSHA256, out.Language = sig.DocumentVersion, sig.Content, sig.ContentSHA256, sig.Language
		out.EmployerName = sig.Fields.EmployerName
	} else {
		if instance != "" {
			entry, err := releaseEntry(file, d, instance)
			if err != nil {
				s.Error(w, r, err)
				return
			}
			out.EmployerName = entry.EmployerName
		}
		out.Content, out.ContentSHA256 = legaltext.Shown(file, d, instance)
	}
	writeJSON(w, http.StatusOK, out)
}

// titleIn returns a document's title in a language (that of a signature):
// d's own when d is in it, else read again in that language (the English
// when the document has no text in it any more).
func (s *Server) titleIn(r *http.Request, sess *portal.Session, d portal.LegalDocument, lang portal.Locale) (string, error) {
	if lang == d.Language || lang == "" {
		return d.Title, nil
	}
	file, err := s.svc.Legal.FindLegalDocuments(portal.WithLocale(r.Context(), lang), sess.SubjectID)
	if err != nil {
		return "", err
	}
	if other, ok := file.Document(d.ID); ok {
		return other.Title, nil
	}
	return d.Title, nil
}

// releaseEntry returns the employment entry an instance of the release
// document names: ENOTFOUND for another document or an entry that is not
// one of the subject's DOT-flagged employers.
func releaseEntry(file *portal.LegalFile, d portal.LegalDocument, instance string) (portal.DOTEntry, error) {
	release, ok := file.ReleaseDocument()
	entry, found := file.DOTEntry(instance)
	if !ok || release.ID != d.ID || !found {
		return portal.DOTEntry{}, portal.Errorf(portal.ENOTFOUND, "Document not found.")
	}
	return entry, nil
}

// signRequest is the body of POST /api/v2/user/document/{id}/signature.
type signRequest struct {
	portal.SignRequest
	// ContentSHA256 maps each document id of the step to the hash of the
	// content the applicant read (from GET /api/v2/document/{id}).
	ContentSHA256 map[string]string `json:"contentSha256"`
}

// handleSignatureCreate signs every document of the legal step that holds
// {id} that is not yet signed or, with an instance in the body, the
// per-employer DOT release of that employment entry (also after setup).
func (s *Server) handleSignatureCreate(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	id, err := documentID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var req signRequest
	if err := decodeJSONLimit(w, r, &req, MaxSignatureBody); err != nil {
		s.Error(w, r, err)
		return
	}
	file, err := s.svc.Legal.SignLegalDocuments(r.Context(), sess.SubjectID, portal.SigningCall{
		DocumentID: id, Request: req.SignRequest, ContentSHA256: req.ContentSHA256, IP: s.clientIP(r),
		Bounded: func(work func() error) error { return s.withRenderer(r, work) },
	})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeLegalDocuments(w, http.StatusCreated, file, portal.LegalDocumentFilter{})
}

// handleSignedDocumentGet answers the signed document as a PDF: the content
// as signed, the signature, who, when, from where, and the content's hash.
func (s *Server) handleSignedDocumentGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	file, d, err := s.legalDocument(r, sess)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	instance := r.URL.Query().Get("instance")
	sig := file.Instance(d.ID, instance)
	if sig == nil {
		s.Error(w, r, portal.Errorf(portal.ENOTFOUND, "You have not signed this document."))
		return
	}
	// The PDF is in the language signed, whatever the request's.
	title, err := s.titleIn(r, sess, d, sig.Language)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var buf bytes.Buffer
	err = s.withRenderer(r, func() error {
		return signedpdf.Render(&buf, signedpdf.Document{
			Title: title, ContentHTML: sig.Content, SignerName: sig.SignerName, SignerIP: sig.SignatureUserIP,
			SignedAt: sig.CreatedAt, DocumentVersion: sig.DocumentVersion, ContentSHA256: sig.ContentSHA256,
			SignaturePNG: sig.SignatureData, Fields: sig.Fields.Labeled(), Language: sig.Language,
		})
	})
	if err != nil {
		s.Error(w, r, fmt.Errorf("httpapi: signed PDF of signature %d: %w", sig.ID, err))
		return
	}
	name := fmt.Sprintf("%s-signed-v%d.pdf", strings.ReplaceAll(d.Type.DocumentType, "_", "-"), sig.DocumentVersion)
	if instance != "" {
		// The entry id is 16 hex characters from the server, but a
		// client may have sent another; only safe characters reach the
		// header.
		name = fmt.Sprintf("%s-%s-signed-v%d.pdf", strings.ReplaceAll(d.Type.DocumentType, "_", "-"), fileNamePart(instance), sig.DocumentVersion)
	}
	if sig.Language != "" && sig.Language != portal.LocaleEnUS {
		// Each language numbers its versions: v1 in Spanish is not v1 in English.
		name = strings.TrimSuffix(name, ".pdf") + "-" + string(sig.Language) + ".pdf"
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes())
}

// fileNamePart keeps the letters, digits and dashes of s, at most 32.
func fileNamePart(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 32 {
			break
		}
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// withRenderer runs image work (a PDF render, a signature image's checks)
// on one of the Config.PDFRenders renderers, so that parallel requests
// cannot add up to unbounded memory. Past Config.PDFRenderWait it answers
// EUNAVAILABLE (503 with Retry-After) without running f.
func (s *Server) withRenderer(r *http.Request, f func() error) error {
	release, err := s.startRender(r)
	if err != nil {
		return err
	}
	defer release() // also when f panics: the renderer is not lost
	return f()
}

// startRender waits for a free renderer; release gives it back. A client
// that left while waiting gets the busy answer too: nobody reads it, and it
// is no internal error.
func (s *Server) startRender(r *http.Request) (release func(), err error) {
	release, err = s.renders.Acquire(r.Context())
	if err != nil && r.Context().Err() != nil {
		return nil, s.renders.Busy()
	}
	return release, err
}

func (s *Server) handleSignatureDelete(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	id, err := documentID(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Legal.DeleteSignature(r.Context(), sess.SubjectID, id); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
