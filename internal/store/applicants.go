package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"applicantportal/internal/portal"
)

// Applicant is a subject as the operator lists them.
type Applicant = portal.Applicant

// ApplicantService is portal.ApplicantService on the store.
type ApplicantService struct{ db *DB }

var _ portal.ApplicantService = (*ApplicantService)(nil)

// FindApplicants lists the applicants of filter.CompanyID (every
// company's when 0).
func (s *ApplicantService) FindApplicants(ctx context.Context, filter portal.ApplicantFilter) ([]portal.Applicant, error) {
	return s.db.FindApplicants(ctx, filter.CompanyID)
}

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

// ApplicantDetail reads the applicant (of companyID, any company's when 0)
// and works out what they still have to do from the facts their status
// moves depend on, so the list and the moves cannot disagree.
func (s *ApplicantService) ApplicantDetail(ctx context.Context, companyID, subjectID int64) (*portal.ApplicantDetail, error) {
	var d portal.ApplicantDetail
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		sub, err := scanSubject(tx.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects
			WHERE id = $1 AND (CAST($2 AS BIGINT) = 0 OR company_id = $2)`, subjectID, companyID))
		if err != nil {
			return notFound(err, "Applicant")
		}
		d.Subject, d.StatusText = *sub, sub.StatusID.Text()
		company, err := s.db.findCompany(ctx, tx, sub.CompanyID)
		if err != nil {
			return err
		}
		d.CompanyName = company.Name
		facts, err := s.db.statusFacts(ctx, tx, sub.ID)
		if err != nil {
			return err
		}
		d.Missing = missingSteps(sub.StatusID, facts)
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(o.hold_reason), '') FROM orders o JOIN profiles p ON p.id = o.profile_id
			WHERE p.subject_id = $1`, sub.ID).Scan(&d.HoldReason); err != nil {
			return fmt.Errorf("store: applicant hold: %w", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM chat_messages WHERE subject_id = $1 AND sender = 'subject' AND read_at IS NULL`,
			sub.ID).Scan(&d.UnreadChat); err != nil {
			return fmt.Errorf("store: unread chat: %w", err)
		}
		var declared sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT declared_at FROM subjects WHERE id = $1`, sub.ID).Scan(&declared); err != nil {
			return fmt.Errorf("store: declaration: %w", err)
		}
		if declared.Valid {
			at := fromMS(declared.Int64)
			d.DeclaredAt = &at
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// missingSteps says in an operator's words what stands between the
// applicant and the end of their journey, in the order of spec section 4's
// flow. Once finalized (or further) nothing is left to them.
func missingSteps(status portal.StatusID, f portal.StatusFacts) []string {
	switch status {
	case portal.StatusFinalizationComplete, portal.StatusComplete, portal.StatusQA:
		return nil
	}
	var out []string
	if !f.HasPassword {
		out = append(out, "create a password (invitation not started)")
	}
	// A full-profile applicant's employer supplied the rest of setup.
	if !f.FullProfile {
		for _, title := range f.UnsignedDocuments {
			out = append(out, "sign the "+title)
		}
		if !f.PersonalInfoSaved {
			out = append(out, "save their personal information")
		}
	}
	if len(f.IncompletePages) > 0 {
		out = append(out, "complete the profile pages: "+strings.Join(f.IncompletePages, ", "))
	}
	if !f.IDVFinished {
		out = append(out, "verify their identity")
	}
	if f.SiteSelectionAllowed && !f.SiteChosen {
		out = append(out, "choose a collection site")
	}
	if f.PaymentRequired && !f.PaymentAuthorized {
		out = append(out, "authorize the self-pay payment")
	}
	return out
}
