package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"applicantportal/internal/filetype"
	"applicantportal/internal/portal"
)

// DocumentService implements portal.DocumentService: the applicant's
// uploads and reports (this file) and fillable PDF forms (pdf_forms.go).
// Contents go through the file store; the rows here tie them to subjects.
type DocumentService struct {
	*conn
	files *FileStore
}

var _ portal.DocumentService = (*DocumentService)(nil)

// Documents hands out the document service.
func (db *DB) Documents() *DocumentService {
	return &DocumentService{conn: db.conn, files: NewFileStore(db)}
}

// lockDocumentsWritable takes the subject's lock and refuses an applicant
// who may not change documents now (portal.DocumentsWritable): not set up
// yet, or the screening is complete.
func (s *conn) lockDocumentsWritable(ctx context.Context, tx *sql.Tx, subjectID int64) error {
	_, _, err := s.lockDocumentsStatus(ctx, tx, subjectID)
	return err
}

// lockDocumentsStatus is lockDocumentsWritable answering the subject's
// status and the profile status shown too, for the delete's further check.
func (s *conn) lockDocumentsStatus(ctx context.Context, tx *sql.Tx, subjectID int64) (portal.StatusID, string, error) {
	status, err := s.lockSubject(ctx, tx, subjectID)
	if err != nil {
		return 0, "", err
	}
	var profileStatus int
	if err := tx.QueryRowContext(ctx, `SELECT status_id FROM profiles WHERE subject_id = $1`, subjectID).Scan(&profileStatus); err != nil {
		return 0, "", fmt.Errorf("store: profile status: %w", err)
	}
	shown := portal.ProfileStatusShown(profileStatus)
	switch {
	case status == portal.StatusNew:
		return 0, "", portal.ErrDocumentsSetupFirst
	case !portal.DocumentsWritable(status, shown):
		return 0, "", portal.ErrDocumentsClosed
	}
	return status, shown, nil
}

// subjectDocumentTypes are the document types of the subject's package
// (their company's default package), in rank order.
func subjectDocumentTypes(ctx context.Context, q queryer, subjectID int64) ([]portal.DocumentType, error) {
	rows, err := q.QueryContext(ctx, `SELECT t.type, t.title, t.description, t.required
		FROM subjects s JOIN packages p ON p.company_id = s.company_id AND p.is_default = TRUE
		JOIN package_document_types t ON t.package_id = p.id
		WHERE s.id = $1 ORDER BY t.rank, t.type`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: document types: %w", err)
	}
	defer rows.Close()
	var out []portal.DocumentType
	for rows.Next() {
		var dt portal.DocumentType
		if err := rows.Scan(&dt.Type, &dt.Title, &dt.Description, &dt.Required); err != nil {
			return nil, fmt.Errorf("store: document types: %w", err)
		}
		out = append(out, dt)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: document types: %w", err)
	}
	return out, nil
}

// errNoDocumentType is an upload without a type, or of a type the package
// does not ask for.
var errNoDocumentType = &portal.Error{Code: portal.EINVALID, Message: portal.ValidationMessage,
	Fields: []portal.FieldError{{Field: "documentType", Message: "Choose which document this is."}}}

// checkDocumentType refuses a type the subject's package does not ask for.
func checkDocumentType(ctx context.Context, q queryer, subjectID int64, docType string) error {
	if docType == "" {
		return errNoDocumentType
	}
	types, err := subjectDocumentTypes(ctx, q, subjectID)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(types, func(t portal.DocumentType) bool { return t.Type == docType }) {
		return errNoDocumentType
	}
	return nil
}

// FindDocuments lists the types asked for, the documents sent (newest
// first), the reports attached, and whether the applicant may change them.
func (s *DocumentService) FindDocuments(ctx context.Context, subjectID int64) (*portal.DocumentList, error) {
	var status portal.StatusID
	var profileStatus int
	err := s.db.QueryRowContext(ctx, `SELECT s.status_id, p.status_id FROM subjects s JOIN profiles p ON p.subject_id = s.id WHERE s.id = $1`,
		subjectID).Scan(&status, &profileStatus)
	if err != nil {
		return nil, notFound(err, "Subject")
	}
	shown := portal.ProfileStatusShown(profileStatus)
	list := &portal.DocumentList{Writable: portal.DocumentsWritable(status, shown), Deletable: portal.DocumentsDeletable(status, shown)}
	if list.Types, err = subjectDocumentTypes(ctx, s.db, subjectID); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT d.id, d.document_type, `+fileColumns+`
		FROM subject_documents d JOIN files f ON f.id = d.file_id
		WHERE d.subject_id = $1 AND f.complete = TRUE ORDER BY d.created_at DESC, d.id DESC`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var d portal.Document
		if err := s.scanFile(rows, &d.File, &d.ID, &d.Type); err != nil {
			return nil, fmt.Errorf("store: documents: %w", err)
		}
		list.Documents = append(list.Documents, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: documents: %w", err)
	}
	rows, err = s.db.QueryContext(ctx, `SELECT r.kind, `+fileColumns+`
		FROM subject_reports r JOIN files f ON f.id = r.file_id
		WHERE r.subject_id = $1 AND f.complete = TRUE`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r portal.Report
		if err := s.scanFile(rows, &r.File, &r.Kind); err != nil {
			return nil, fmt.Errorf("store: reports: %w", err)
		}
		list.Reports = append(list.Reports, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	slices.SortFunc(list.Reports, func(a, b portal.Report) int {
		return slices.Index(portal.ReportKinds, a.Kind) - slices.Index(portal.ReportKinds, b.Kind)
	})
	return list, nil
}

// fileColumns are a file's columns (table alias f) in scanFile's order.
const fileColumns = `f.id, f.subject_id, f.name, f.content_type, f.size, f.sha256, f.created_at`

// scanFile scans before (the columns selected ahead of fileColumns), then
// the file, opening its sealed name.
func (s *conn) scanFile(row interface{ Scan(...any) error }, f *portal.File, before ...any) error {
	var subject sql.NullInt64
	var created int64
	dest := append(before, &f.ID, &subject, &f.Name, &f.ContentType, &f.Size, &f.SHA256, &created)
	if err := row.Scan(dest...); err != nil {
		return err
	}
	f.SubjectID, f.CreatedAt = subject.Int64, fromMS(created)
	var err error
	f.Name, err = openFileName(s.cfg.Sealer, f.ID, f.Name)
	return err
}

// peekKind reads the first bytes of body (keeping them for what follows)
// and checks the file's kind against its declared type and name.
func peekKind(body io.Reader, name, declared string) (*bufio.Reader, filetype.Kind, error) {
	br := bufio.NewReaderSize(body, filetype.HeadSize)
	head, err := br.Peek(filetype.HeadSize)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, filetype.Kind{}, fmt.Errorf("store: read the upload: %w", err)
	}
	kind, err := filetype.Check(name, declared, head)
	return br, kind, err
}

// AddDocument checks that the applicant may add documents and asks for
// this type before it reads anything, then checks the content's type from
// its first bytes, streams it into the file store and ties it to the
// subject. A refused upload leaves nothing behind.
func (s *DocumentService) AddDocument(ctx context.Context, subjectID int64, docType string, up portal.Upload) (*portal.Document, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockDocumentsWritable(ctx, tx, subjectID); err != nil {
			return err
		}
		return checkDocumentType(ctx, tx, subjectID, docType)
	})
	if err != nil {
		return nil, err
	}
	file, err := putUpload(ctx, s.files, subjectID, up)
	if err != nil {
		return nil, err
	}
	doc := &portal.Document{Type: docType, File: *file}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		// The profile may have closed, or the package changed, while the
		// file streamed.
		if err := s.lockDocumentsWritable(ctx, tx, subjectID); err != nil {
			return err
		}
		if err := checkDocumentType(ctx, tx, subjectID, docType); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `INSERT INTO subject_documents (subject_id, document_type, file_id, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
			subjectID, docType, file.ID, ms(file.CreatedAt)).Scan(&doc.ID)
	})
	if err != nil {
		return nil, errors.Join(err, dropFile(ctx, s.files, file.ID))
	}
	return doc, nil
}

// putUpload stores an applicant's upload under the document upload rules
// (documents, chat attachments): the types filetype accepts, sniffed from
// the first bytes, at most MaxUploadSize, the name sanitized.
func putUpload(ctx context.Context, files *FileStore, subjectID int64, up portal.Upload) (*portal.File, error) {
	body, kind, err := peekKind(up.Body, up.Name, up.ContentType)
	if err != nil {
		return nil, err
	}
	file, err := files.Put(ctx, portal.FileMeta{SubjectID: subjectID, Name: filetype.SanitizeName(up.Name, kind), ContentType: kind.ContentType},
		body, portal.MaxUploadSize)
	if portal.ErrorCode(err) == portal.ETOOLARGE {
		return nil, filetype.ErrTooLarge
	}
	return file, err
}

// dropFile deletes a file stored for an upload that then failed, even when
// the request's context is what ended.
func dropFile(ctx context.Context, files *FileStore, fileID int64) error {
	cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return files.remove(cleanup, fileID)
}

// documentFile is the file id of the subject's document; another
// subject's document is not found.
func documentFile(ctx context.Context, q queryer, subjectID, documentID int64) (int64, error) {
	var fileID int64
	err := q.QueryRowContext(ctx, `SELECT file_id FROM subject_documents WHERE id = $1 AND subject_id = $2`, documentID, subjectID).Scan(&fileID)
	if err != nil {
		return 0, notFound(err, "Document")
	}
	return fileID, nil
}

// OpenDocument returns one of the subject's documents and its content.
func (s *DocumentService) OpenDocument(ctx context.Context, subjectID, documentID int64) (*portal.File, io.ReadCloser, error) {
	fileID, err := documentFile(ctx, s.db, subjectID, documentID)
	if err != nil {
		return nil, nil, err
	}
	f, rc, err := s.files.Get(ctx, fileID)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		return nil, nil, portal.Errorf(portal.ENOTFOUND, "Document not found.")
	}
	if err != nil {
		return nil, nil, err
	}
	// Recorded as the download starts (a read has no transaction of its
	// own); the file's name is not written, as it may name the applicant.
	if err := s.audit(ctx, s.db, subjectID, "document.downloaded", fmt.Sprintf("document %d", documentID)); err != nil {
		rc.Close()
		return nil, nil, err
	}
	return f, rc, nil
}

// DeleteDocument deletes the document and its file in one transaction,
// until the profile is submitted. Another applicant's document is
// ENOTFOUND before it is anything else.
func (s *DocumentService) DeleteDocument(ctx context.Context, subjectID, documentID int64) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		status, shown, err := s.lockDocumentsStatus(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		fileID, err := documentFile(ctx, tx, subjectID, documentID)
		if err != nil {
			return err
		}
		if !portal.DocumentsDeletable(status, shown) {
			return portal.ErrDocumentSubmitted
		}
		// The document row and the chunks go with the file (ON DELETE
		// CASCADE).
		if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id = $1`, fileID); err != nil {
			return fmt.Errorf("store: delete document %d: %w", documentID, err)
		}
		return nil
	})
}

// reportMissing is what the applicant is told when a report of the kind
// is not attached.
var reportMissing = map[portal.ReportKind]string{
	portal.ReportBackground: "Your background report is not available yet.",
	portal.ReportDrug:       "Your drug test report is not available yet.",
	portal.ReportECOC:       "Your custody and control form is not available yet.",
}

// OpenReport returns the subject's report of the kind and its content.
func (s *DocumentService) OpenReport(ctx context.Context, subjectID int64, kind portal.ReportKind) (*portal.File, io.ReadCloser, error) {
	missing, ok := reportMissing[kind]
	if !ok {
		return nil, nil, portal.Errorf(portal.EINVALID, "Unknown report kind %q.", kind)
	}
	var fileID int64
	err := s.db.QueryRowContext(ctx, `SELECT file_id FROM subject_reports WHERE subject_id = $1 AND kind = $2`, subjectID, string(kind)).Scan(&fileID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, &portal.Error{Code: portal.ENOTFOUND, Message: missing}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: report: %w", err)
	}
	f, rc, err := s.files.Get(ctx, fileID)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		return nil, nil, &portal.Error{Code: portal.ENOTFOUND, Message: missing}
	}
	return f, rc, err
}
