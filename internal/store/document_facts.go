package store

import (
	"context"
	"fmt"

	"applicantportal/internal/portal"
)

// documentFacts gathers the documents part of the read model: the package's
// document types, how many files the subject sent for each, and the forms
// that apply to them.
func (s *conn) documentFacts(ctx context.Context, q queryer, subjectID int64, pkg *portal.Package) (*portal.DocumentFacts, error) {
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
	if d.Forms, err = s.applicableForms(ctx, q, subjectID, pkg.ID); err != nil {
		return nil, err
	}
	return d, nil
}
