package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"applicantportal/internal/portal"
)

// PreparationService implements portal.PreparationService: the Welcome
// step's list of what the applicant will need, its time estimate, and the
// applicant's "I'll find this later" marks.
type PreparationService struct {
	*conn
	model portal.EstimateModel
}

var _ portal.PreparationService = (*PreparationService)(nil)

// Preparation hands out the preparation service with the measured
// estimate model (portal.MeasuredEstimateModel).
func (db *DB) Preparation() *PreparationService {
	return &PreparationService{conn: db.conn, model: portal.MeasuredEstimateModel()}
}

// FindPreparation implements portal.PreparationService.
func (s *PreparationService) FindPreparation(ctx context.Context, subjectID int64) (*portal.Preparation, error) {
	var out *portal.Preparation
	err := s.tx(ctx, func(tx *sql.Tx) error {
		facts, err := s.preparationFacts(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		out = portal.BuildPreparation(facts, s.model)
		return nil
	})
	return out, err
}

// MarkPreparationItem implements portal.PreparationService. The mark is
// kept per subject and item; an item that is not on the subject's list
// (an unknown id, or one their package does not need) is ENOTFOUND.
func (s *PreparationService) MarkPreparationItem(ctx context.Context, subjectID int64, itemID string, later bool) (*portal.Preparation, error) {
	var out *portal.Preparation
	err := s.tx(ctx, func(tx *sql.Tx) error {
		facts, err := s.preparationFacts(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		onList := slices.ContainsFunc(portal.PreparationItems(facts), func(it portal.PreparationItem) bool { return it.ID == itemID })
		if !onList {
			return portal.Errorf(portal.ENOTFOUND, "This item is not on your list.")
		}
		if later {
			_, err = tx.ExecContext(ctx, `INSERT INTO preparation_marks (subject_id, item_id, marked_at) VALUES ($1, $2, $3)
				ON CONFLICT (subject_id, item_id) DO NOTHING`, subjectID, itemID, ms(s.now()))
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM preparation_marks WHERE subject_id = $1 AND item_id = $2`, subjectID, itemID)
		}
		if err != nil {
			return fmt.Errorf("store: mark preparation item: %w", err)
		}
		facts.Later[itemID] = later
		out = portal.BuildPreparation(facts, s.model)
		return nil
	})
	return out, err
}

// preparationFacts reads what the list and the estimate are computed from:
// the company's preferences and package, the applicant's location (for the
// self-pay exemption), the look-back, the legal steps, the PDF forms that
// apply and the marks.
func (s *PreparationService) preparationFacts(ctx context.Context, q queryer, subjectID int64) (portal.PreparationFacts, error) {
	var f portal.PreparationFacts
	legal, err := s.legalFile(ctx, q, subjectID)
	if err != nil {
		return f, err
	}
	f.Preferences = legal.Company.Preferences
	var pkg *portal.Package
	if legal.Company.PackageID != 0 {
		if pkg, err = s.findPackage(ctx, q, legal.Company.PackageID, withFields); err != nil {
			return f, err
		}
	}
	f.Finalization = s.finalizationOf(legal.Company.Preferences, pkg, legal.Location)
	f.LegalSteps = len(legal.Steps())
	if f.AddressYears, err = addressHistoryYears(ctx, q, subjectID); err != nil {
		return f, err
	}
	packageID, err := subjectPackageID(ctx, q, subjectID)
	if err != nil {
		return f, err
	}
	if f.PdfForms, err = s.applicableForms(ctx, q, subjectID, packageID); err != nil {
		return f, err
	}
	f.Later = map[string]bool{}
	rows, err := q.QueryContext(ctx, `SELECT item_id FROM preparation_marks WHERE subject_id = $1`, subjectID)
	if err != nil {
		return f, fmt.Errorf("store: preparation marks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return f, fmt.Errorf("store: preparation marks: %w", err)
		}
		f.Later[id] = true
	}
	return f, rows.Err()
}
