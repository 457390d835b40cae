package store

import (
	"context"
	"io"

	"applicantportal/internal/portal"
)

// TODO(issue 11, forms-server): the fillable PDF forms of DocumentService.

func (s *DocumentService) FindPdfForms(ctx context.Context, subjectID int64) ([]portal.PdfForm, error) {
	return nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}

func (s *DocumentService) OpenPdfForm(ctx context.Context, subjectID, formID int64) (*portal.File, io.ReadCloser, error) {
	return nil, nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}

func (s *DocumentService) OpenFilledPdfForm(ctx context.Context, subjectID, formID int64) (*portal.File, io.ReadCloser, error) {
	return nil, nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}

func (s *DocumentService) SubmitPdfForm(ctx context.Context, subjectID, formID int64, up portal.Upload) (*portal.PdfForm, error) {
	return nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}

// AddPdfForm adds a form template to a package (the demo and, later, an
// operator command).
func (s *DocumentService) AddPdfForm(ctx context.Context, f portal.NewPdfForm) (*portal.PdfForm, error) {
	return nil, portal.Errorf(portal.EUNAVAILABLE, "not yet")
}
