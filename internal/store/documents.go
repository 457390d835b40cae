package store

import (
	"context"
	"database/sql"
	"fmt"
	"io"

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
	status, err := s.lockSubject(ctx, tx, subjectID)
	if err != nil {
		return err
	}
	var profileStatus int
	if err := tx.QueryRowContext(ctx, `SELECT status_id FROM profiles WHERE subject_id = $1`, subjectID).Scan(&profileStatus); err != nil {
		return fmt.Errorf("store: profile status: %w", err)
	}
	switch {
	case status == portal.StatusNew:
		return portal.ErrDocumentsSetupFirst
	case !portal.DocumentsWritable(status, portal.ProfileStatusShown(profileStatus)):
		return portal.ErrDocumentsClosed
	}
	return nil
}

// TODO(issue 11, uploads-server): the five methods below.

func (s *DocumentService) FindDocuments(ctx context.Context, subjectID int64) (*portal.DocumentList, error) {
	return nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}

func (s *DocumentService) AddDocument(ctx context.Context, subjectID int64, docType string, up portal.Upload) (*portal.Document, error) {
	return nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}

func (s *DocumentService) OpenDocument(ctx context.Context, subjectID, documentID int64) (*portal.File, io.ReadCloser, error) {
	return nil, nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}

func (s *DocumentService) DeleteDocument(ctx context.Context, subjectID, documentID int64) error {
	return portal.Errorf(portal.EUNAVAILABLE, "not yet")
}

func (s *DocumentService) OpenReport(ctx context.Context, subjectID int64, kind portal.ReportKind) (*portal.File, io.ReadCloser, error) {
	return nil, nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}
