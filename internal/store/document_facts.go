package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"applicantportal/internal/portal"
)

// documentFacts gathers the documents part of the read model: the package's
// document types, how many files the subject sent for each, and the forms
// that apply to them (checklistForms) where the subject is (loc).
func (s *conn) documentFacts(ctx context.Context, q queryer, subjectID int64, pkg *portal.Package, loc portal.Location) (*portal.DocumentFacts, error) {
	d := &portal.DocumentFacts{Sent: map[string]int{}}
	if pkg == nil {
		return d, nil
	}
	d.Types = pkg.DocumentTypes
	counts, err := q.QueryContext(ctx, `SELECT document_type, COUNT(*) FROM subject_documents
		WHERE subject_id = $1 GROUP BY document_type`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: documents sent: %w", err)
	}
	defer counts.Close()
	for counts.Next() {
		var typ string
		var n int
		if err := counts.Scan(&typ, &n); err != nil {
			return nil, fmt.Errorf("store: documents sent: %w", err)
		}
		d.Sent[typ] = n
	}
	if err := counts.Err(); err != nil {
		return nil, fmt.Errorf("store: documents sent: %w", err)
	}
	if d.Forms, err = s.checklistForms(ctx, q, subjectID, pkg.ID, loc); err != nil {
		return nil, err
	}
	return d, nil
}

// checklistForms is applicableForms as far as the checklist reads it
// (portal documentPages: title, required, submitted or not): the field
// names stay undecoded, the submitted file is its id alone (no name to
// unseal), and the location is the caller's.
func (s *conn) checklistForms(ctx context.Context, q queryer, subjectID, packageID int64, loc portal.Location) ([]portal.PdfForm, error) {
	if packageID == 0 {
		return []portal.PdfForm{}, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT f.id, f.package_id, f.code, f.title, f.states, f.required, sf.file_id
		FROM pdf_forms f
		LEFT JOIN subject_pdf_forms sf ON sf.form_id = f.id AND sf.subject_id = $1
		WHERE f.package_id = $2 ORDER BY f.id`, subjectID, packageID)
	if err != nil {
		return nil, fmt.Errorf("store: pdf forms: %w", err)
	}
	defer rows.Close()
	var all []portal.PdfForm
	for rows.Next() {
		var f portal.PdfForm
		var states string
		var fileID sql.NullInt64
		if err := rows.Scan(&f.ID, &f.PackageID, &f.Code, &f.Title, &states, &f.Required, &fileID); err != nil {
			return nil, fmt.Errorf("store: pdf forms: %w", err)
		}
		if err := json.Unmarshal([]byte(states), &f.States); err != nil {
			return nil, fmt.Errorf("store: pdf form %d states: %w", f.ID, err)
		}
		if fileID.Valid {
			f.Submitted = &portal.File{ID: fileID.Int64, SubjectID: subjectID}
		}
		all = append(all, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: pdf forms: %w", err)
	}
	return s.formsApplying(ctx, q, subjectID, all, &loc)
}
