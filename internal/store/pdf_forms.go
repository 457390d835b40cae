package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"applicantportal/internal/filetype"
	"applicantportal/internal/pdfform"
	"applicantportal/internal/portal"
)

// The fillable PDF forms of DocumentService: a package's templates
// (pdf_forms, the blank PDF in files) and each applicant's latest filled
// copy (subject_pdf_forms). A submission is accepted when its AcroForm has
// exactly the template's field names: pdf-lib in the browser fills the
// fields and keeps them, so a copy of the right form always passes, and a
// PDF of another form or none does not.

func formFieldError(format string, args ...any) error {
	var fe portal.FieldErrors
	fe.Addf("file", format, args...)
	return fe.Err()
}

// maxLoggedFieldNames bounds the names a refused submission's log line
// lists: a hostile PDF may have thousands.
const maxLoggedFieldNames = 20

const pdfFormColumns = `f.id, f.package_id, f.code, f.title, f.description, f.field_names, f.states, f.required, f.file_id`

// FindPdfForms implements portal.DocumentService.
func (s *DocumentService) FindPdfForms(ctx context.Context, subjectID int64) ([]portal.PdfForm, error) {
	packageID, err := subjectPackageID(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	return s.applicableForms(ctx, s.db, subjectID, packageID)
}

// subjectPackageID is the package of the subject's company (0 when it has
// none), as subjectPackage finds it; an unknown subject is ENOTFOUND.
func subjectPackageID(ctx context.Context, q queryer, subjectID int64) (int64, error) {
	var id int64
	err := q.QueryRowContext(ctx, `SELECT COALESCE((SELECT p.id FROM packages p WHERE p.company_id = s.company_id AND p.is_default = TRUE), 0)
		FROM subjects s WHERE s.id = $1`, subjectID).Scan(&id)
	if err != nil {
		return 0, notFound(err, "Subject")
	}
	return id, nil
}

// applicableForms are the package's forms that apply to the subject (their
// location, or any state of their saved address history), in id order,
// each with the subject's latest submission. The checklist's read model
// (documentFacts) uses it too.
func (s *conn) applicableForms(ctx context.Context, q queryer, subjectID, packageID int64) ([]portal.PdfForm, error) {
	if packageID == 0 {
		return []portal.PdfForm{}, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT `+pdfFormColumns+`,
			sf.submitted_at, fl.id, fl.name, fl.content_type, fl.size, fl.sha256
		FROM pdf_forms f
		LEFT JOIN subject_pdf_forms sf ON sf.form_id = f.id AND sf.subject_id = $1
		LEFT JOIN files fl ON fl.id = sf.file_id
		WHERE f.package_id = $2 ORDER BY f.id`, subjectID, packageID)
	if err != nil {
		return nil, fmt.Errorf("store: pdf forms: %w", err)
	}
	defer rows.Close()
	var all []portal.PdfForm
	for rows.Next() {
		var f portal.PdfForm
		var fieldNames, states string
		var submittedAt, fileID, size sql.NullInt64
		var name, contentType, sha sql.NullString
		if err := rows.Scan(&f.ID, &f.PackageID, &f.Code, &f.Title, &f.Description, &fieldNames, &states, &f.Required, &f.FileID,
			&submittedAt, &fileID, &name, &contentType, &size, &sha); err != nil {
			return nil, fmt.Errorf("store: pdf forms: %w", err)
		}
		if err := json.Unmarshal([]byte(fieldNames), &f.FieldNames); err != nil {
			return nil, fmt.Errorf("store: pdf form %d field names: %w", f.ID, err)
		}
		if err := json.Unmarshal([]byte(states), &f.States); err != nil {
			return nil, fmt.Errorf("store: pdf form %d states: %w", f.ID, err)
		}
		if fileID.Valid {
			f.Submitted = &portal.File{ID: fileID.Int64, SubjectID: subjectID, ContentType: contentType.String,
				Size: size.Int64, SHA256: sha.String, CreatedAt: fromMS(submittedAt.Int64)}
			if f.Submitted.Name, err = openFileName(s.cfg.Sealer, fileID.Int64, name.String); err != nil {
				return nil, err
			}
		}
		all = append(all, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: pdf forms: %w", err)
	}
	return s.formsApplying(ctx, q, subjectID, all, nil)
}

// formsApplying keeps the forms that apply to the subject: those limited
// to no state, and those limited to a state of the subject's location (loc;
// nil reads it) or of their saved address history. The places are read
// only when some form is limited to some states.
func (s *conn) formsApplying(ctx context.Context, q queryer, subjectID int64, all []portal.PdfForm, loc *portal.Location) ([]portal.PdfForm, error) {
	if !slices.ContainsFunc(all, func(f portal.PdfForm) bool { return len(f.States) > 0 }) {
		return nonNil(all), nil
	}
	if loc == nil {
		l, err := findLocation(ctx, q, subjectID)
		if err != nil {
			return nil, err
		}
		loc = &l
	}
	addressStates, err := s.addressStates(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	out := []portal.PdfForm{}
	for _, f := range all {
		if f.AppliesTo(*loc, addressStates) {
			out = append(out, f)
		}
	}
	return out, nil
}

// addressStates are the US states of the subject's saved address history.
func (s *conn) addressStates(ctx context.Context, q queryer, subjectID int64) ([]string, error) {
	var rec addressesRecord
	if _, err := findRecord(ctx, q, s.cfg.Sealer, subjectID, recordAddresses, &rec); err != nil {
		return nil, err
	}
	var states []string
	for _, a := range rec.Addresses {
		if a.Country == "US" && a.State != "" {
			states = append(states, a.State)
		}
	}
	return states, nil
}

// findForm is one of the forms that apply to the subject; any other id
// (another package's form, one that does not apply, none) is ENOTFOUND.
func (s *conn) findForm(ctx context.Context, q queryer, subjectID, formID int64) (*portal.PdfForm, error) {
	packageID, err := subjectPackageID(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	forms, err := s.applicableForms(ctx, q, subjectID, packageID)
	if err != nil {
		return nil, err
	}
	for i := range forms {
		if forms[i].ID == formID {
			return &forms[i], nil
		}
	}
	return nil, portal.ErrFormNotFound
}

// OpenPdfForm implements portal.DocumentService.
func (s *DocumentService) OpenPdfForm(ctx context.Context, subjectID, formID int64) (*portal.File, io.ReadCloser, error) {
	form, err := s.findForm(ctx, s.db, subjectID, formID)
	if err != nil {
		return nil, nil, err
	}
	file, rc, err := s.files.Get(ctx, form.FileID)
	if err != nil {
		return nil, nil, fmt.Errorf("store: pdf form %d template: %w", form.ID, err)
	}
	return file, rc, nil
}

// OpenFilledPdfForm implements portal.DocumentService.
func (s *DocumentService) OpenFilledPdfForm(ctx context.Context, subjectID, formID int64) (*portal.File, io.ReadCloser, error) {
	form, err := s.findForm(ctx, s.db, subjectID, formID)
	if err != nil {
		return nil, nil, err
	}
	if form.Submitted == nil {
		return nil, nil, portal.ErrFormNotSubmitted
	}
	// A submission replaced in between has lost its file: the applicant
	// asks again and gets the new one.
	f, rc, err := s.files.Get(ctx, form.Submitted.ID)
	if err != nil {
		return nil, nil, err
	}
	if err := s.audit(ctx, s.db, subjectID, "pdf-form.downloaded", fmt.Sprintf("form %d, the signed copy", formID)); err != nil {
		rc.Close()
		return nil, nil, err
	}
	return f, rc, nil
}

// SubmitPdfForm implements portal.DocumentService. The upload is at most
// portal.MaxUploadSize and read whole into memory: the PDF reader needs
// random access, and the upload gate bounds how many are read at once.
func (s *DocumentService) SubmitPdfForm(ctx context.Context, subjectID, formID int64, up portal.Upload) (*portal.PdfForm, error) {
	// Fail fast, before reading 20 MB, when the applicant may not submit
	// or the form is not theirs.
	var form *portal.PdfForm
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockDocumentsWritable(ctx, tx, subjectID); err != nil {
			return err
		}
		var err error
		form, err = s.findForm(ctx, tx, subjectID, formID)
		return err
	})
	if err != nil {
		return nil, err
	}
	// The declared type, the name and the first bytes must all say PDF,
	// as filetype checks a document's (an empty file is refused there).
	body, kind, err := peekKind(up.Body, up.Name, up.ContentType)
	switch {
	case portal.ErrorCode(err) == portal.EUNSUPPORTED, err == nil && kind.Family != filetype.PDF:
		return nil, portal.ErrFormNotPDF
	case err != nil:
		return nil, err
	}
	content, err := io.ReadAll(io.LimitReader(body, portal.MaxUploadSize+1))
	if err != nil {
		return nil, fmt.Errorf("store: read submitted form: %w", err)
	}
	if len(content) > portal.MaxUploadSize {
		return nil, filetype.ErrTooLarge
	}
	names, err := s.forms.FieldNamesOf(content)
	switch {
	case errors.Is(err, pdfform.ErrNotPDF):
		return nil, portal.ErrFormNotPDF
	case errors.Is(err, pdfform.ErrNoFields):
		return nil, formFieldError("This PDF has no form fields.")
	case err != nil:
		s.cfg.Logger.InfoContext(ctx, "submitted form unreadable", "subject", subjectID, "form", form.ID, "err", err)
		return nil, formFieldError("This PDF could not be read: it may be damaged. Fill in the form again and submit it.")
	}
	if missing, unexpected := portal.SameFields(form.FieldNames, names); len(missing)+len(unexpected) > 0 {
		s.cfg.Logger.InfoContext(ctx, "submitted form has other fields", "subject", subjectID, "form", form.ID,
			"missing", firstNames(missing), "unexpected", firstNames(unexpected))
		return nil, formFieldError("This is not the %s form: its fields differ.", form.Title)
	}
	file, err := s.files.Put(ctx, portal.FileMeta{SubjectID: subjectID, Name: form.Code + ".pdf", ContentType: "application/pdf"},
		bytes.NewReader(content), portal.MaxUploadSize)
	if err != nil {
		return nil, err
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		// Checked again: the screening may have completed while the file
		// was being stored.
		if err := s.lockDocumentsWritable(ctx, tx, subjectID); err != nil {
			return err
		}
		var previous sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT file_id FROM subject_pdf_forms WHERE subject_id = $1 AND form_id = $2`,
			subjectID, form.ID).Scan(&previous)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: previous submission: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO subject_pdf_forms (subject_id, form_id, file_id, submitted_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (subject_id, form_id) DO UPDATE SET file_id = excluded.file_id, submitted_at = excluded.submitted_at`,
			subjectID, form.ID, file.ID, ms(file.CreatedAt)); err != nil {
			return fmt.Errorf("store: save submission: %w", err)
		}
		if previous.Valid {
			if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id = $1`, previous.Int64); err != nil {
				return fmt.Errorf("store: delete previous submission: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if derr := s.files.remove(cleanup, file.ID); derr != nil {
			err = errors.Join(err, derr)
		}
		return nil, err
	}
	form.Submitted = file
	return form, nil
}

func firstNames(names []string) []string {
	if len(names) > maxLoggedFieldNames {
		return names[:maxLoggedFieldNames]
	}
	return names
}

// AddPdfForm adds a form template to a package (the demo and, later, an
// operator command). A package has one form per code: adding a code again
// is ECONFLICT, so an applicant's submission always matches the template
// they were shown.
func (s *DocumentService) AddPdfForm(ctx context.Context, f portal.NewPdfForm) (*portal.PdfForm, error) {
	f.Code, f.Title, f.Description = strings.TrimSpace(f.Code), strings.TrimSpace(f.Title), strings.TrimSpace(f.Description)
	var fe portal.FieldErrors
	if f.Code == "" {
		fe.Add("code", "A form needs a code.")
	}
	if f.Title == "" {
		fe.Add("title", "A form needs a title.")
	}
	names, err := s.forms.FieldNamesOf(f.PDF)
	switch {
	case errors.Is(err, pdfform.ErrNotPDF):
		fe.Add("file", "The template is not a PDF.")
	case errors.Is(err, pdfform.ErrNoFields):
		fe.Add("file", "This PDF has no form fields.")
	case err != nil:
		fe.Addf("file", "The template could not be read: %s", err.Error())
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	states := make([]string, 0, len(f.States))
	for _, st := range f.States {
		if st = strings.ToUpper(strings.TrimSpace(st)); st != "" {
			states = append(states, st)
		}
	}
	var exists bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pdf_forms WHERE package_id = $1 AND code = $2)`,
		f.PackageID, f.Code).Scan(&exists); err != nil {
		return nil, fmt.Errorf("store: add pdf form: %w", err)
	}
	if exists {
		return nil, portal.Errorf(portal.ECONFLICT, "The package already has a form with the code %s.", f.Code)
	}
	file, err := s.files.Put(ctx, portal.FileMeta{Name: f.Code + ".pdf", ContentType: "application/pdf"},
		bytes.NewReader(f.PDF), int64(len(f.PDF)))
	if err != nil {
		return nil, err
	}
	fieldNames, _ := json.Marshal(names)
	statesJSON, _ := json.Marshal(states)
	form := &portal.PdfForm{PackageID: f.PackageID, Code: f.Code, Title: f.Title, Description: f.Description,
		FieldNames: names, States: states, Required: f.Required, FileID: file.ID}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		// The package's forms are part of the subject view, which is kept
		// per catalog generation (docs/architecture.md).
		if err := s.catalogChanged(ctx, tx); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO pdf_forms (package_id, code, title, description, file_id, field_names, states, required, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
			f.PackageID, f.Code, f.Title, f.Description, file.ID, string(fieldNames), string(statesJSON), f.Required, ms(s.now())).Scan(&form.ID); err != nil {
			return err
		}
		var companyID int64
		if err := tx.QueryRowContext(ctx, `SELECT company_id FROM packages WHERE id = $1`, f.PackageID).Scan(&companyID); err != nil {
			return err
		}
		return s.auditCompany(ctx, tx, companyID, "pdf-form.added",
			fmt.Sprintf("form %d in package %d, %d fields", form.ID, f.PackageID, len(names)))
	})
	if err != nil {
		if s.dialect.isUnique(err) {
			err = portal.Errorf(portal.ECONFLICT, "The package already has a form with the code %s.", f.Code)
		} else {
			err = fmt.Errorf("store: add pdf form: %w", err)
		}
		if derr := s.files.remove(context.WithoutCancel(ctx), file.ID); derr != nil {
			err = errors.Join(err, derr)
		}
		return nil, err
	}
	return form, nil
}
