package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"applicantportal/internal/filetype"
	"applicantportal/internal/portal"
)

// OperatorDocumentService is portal.OperatorDocumentService on the store.
type OperatorDocumentService struct{ db *DB }

var _ portal.OperatorDocumentService = (*OperatorDocumentService)(nil)

// AttachReport stores the report's PDF, then in one transaction replaces
// the kind's earlier report (whose file goes) with it, audits it, queues
// the employer's webhook and tells the applicant (the free copy, once, to
// one who asked for it); the applicant's open pages hear of it after the
// commit. A refused or failed attachment leaves the earlier report as it
// was.
func (s *OperatorDocumentService) AttachReport(ctx context.Context, req portal.AttachReportRequest) (*portal.File, error) {
	if !slices.Contains(portal.ReportKinds, req.Kind) {
		return nil, portal.Errorf(portal.EINVALID, "Unknown report kind %q: say report, drug-report or ecoc-form.", req.Kind)
	}
	var company int64
	err := s.db.db.QueryRowContext(ctx, `SELECT company_id FROM subjects WHERE id = $1`, req.SubjectID).Scan(&company)
	if err == nil && req.CompanyID != 0 && company != req.CompanyID {
		err = sql.ErrNoRows
	}
	if err != nil {
		return nil, notFound(err, "Applicant")
	}
	body, kind, err := peekKind(req.Body, req.Name, "")
	if errors.Is(err, filetype.ErrNotAccepted) || (err == nil && kind.Family != filetype.PDF) {
		// The applicants' list of accepted types means nothing here.
		return nil, portal.Errorf(portal.EUNSUPPORTED, "A report must be a PDF.")
	}
	if err != nil {
		return nil, err
	}
	files := NewFileStore(s.db)
	file, err := files.Put(ctx, portal.FileMeta{SubjectID: req.SubjectID, Name: filetype.SanitizeName(req.Name, kind), ContentType: kind.ContentType},
		body, portal.MaxReportSize)
	if err != nil {
		return nil, err
	}
	err = s.db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.db.lockSubject(ctx, tx, req.SubjectID); err != nil {
			return err
		}
		// The old report's row goes with its file (ON DELETE CASCADE).
		res, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id IN (SELECT file_id FROM subject_reports WHERE subject_id = $1 AND kind = $2)`,
			req.SubjectID, string(req.Kind))
		if err != nil {
			return fmt.Errorf("store: replace report: %w", err)
		}
		replaced, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("store: replace report: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO subject_reports (subject_id, kind, file_id, created_at) VALUES ($1, $2, $3, $4)`,
			req.SubjectID, string(req.Kind), file.ID, ms(file.CreatedAt)); err != nil {
			return fmt.Errorf("store: attach report: %w", err)
		}
		detail := fmt.Sprintf("%s, %d bytes", portal.ReportTitle(req.Kind), file.Size)
		if replaced > 0 {
			detail += ", replacing the earlier one"
		}
		if err := s.db.audit(ctx, tx, req.SubjectID, "report.attached", detail); err != nil {
			return err
		}
		if err := s.db.queueWebhook(ctx, tx, req.SubjectID, portal.WebhookReportAttached, struct {
			Kind     portal.ReportKind `json:"kind"`
			Replaced bool              `json:"replaced"`
			SHA256   string            `json:"sha256"`
		}{req.Kind, replaced > 0, file.SHA256}); err != nil {
			return err
		}
		return s.db.tellReportAttached(ctx, tx, req.SubjectID, req.Kind, replaced > 0)
	})
	if err != nil {
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		return nil, errors.Join(err, files.remove(cleanup, file.ID))
	}
	s.db.publishScreening(ctx, req.SubjectID, portal.ScreeningChangedReport)
	return file, nil
}

// AddPdfForm implements portal.OperatorDocumentService through the document
// service, which the demo uses too.
func (s *OperatorDocumentService) AddPdfForm(ctx context.Context, f portal.NewPdfForm) (*portal.PdfForm, error) {
	return s.db.Documents().AddPdfForm(ctx, f)
}
