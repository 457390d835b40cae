package store

import (
	"context"
	"fmt"

	"applicantportal/internal/portal"
)

// Applicant is a subject as the operator lists them.
type Applicant = portal.Applicant

// FindApplicants lists a company's subjects (every company's when companyID
// is 0), oldest first, with their order hold.
func (s *DB) FindApplicants(ctx context.Context, companyID int64) ([]Applicant, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT `+subjectColumns+`,
			COALESCE((SELECT MAX(o.hold_reason) FROM orders o JOIN profiles p ON p.id = o.profile_id
				WHERE p.subject_id = subjects.id), '')
		FROM subjects WHERE CAST($1 AS BIGINT) = 0 OR company_id = $1 ORDER BY id`, companyID)
	if err != nil {
		return nil, fmt.Errorf("store: list applicants: %w", err)
	}
	defer rows.Close()
	var out []Applicant
	for rows.Next() {
		var a Applicant
		var hold string
		sub, err := scanSubject(scanWith(rows, &hold))
		if err != nil {
			return nil, fmt.Errorf("store: list applicants: %w", err)
		}
		a.Subject, a.HoldReason = *sub, hold
		out = append(out, a)
	}
	return out, rows.Err()
}

// scanWith appends destinations after those scanSubject-like functions
// give, so a query may select extra columns after the standard ones.
func scanWith(row interface{ Scan(...any) error }, extra ...any) interface{ Scan(...any) error } {
	return scanFunc(func(dest ...any) error { return row.Scan(append(dest, extra...)...) })
}

type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }
