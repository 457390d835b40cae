package store

import (
	"context"

	"applicantportal/internal/portal"
)

// LegalChecklistForTest reads the subject's legal checklist as the read
// model does, for tests that compare it with the full legal file.
func (s *DB) LegalChecklistForTest(ctx context.Context, subjectID int64) (*portal.LegalFile, error) {
	sub, company, _, err := s.subjectCompany(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	loc, err := findLocation(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	return s.legalChecklist(ctx, s.db, sub, company, loc)
}
