package store

import (
	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SubjectDataService implements portal.SubjectDataService: what the
// applicant tells about themselves besides the personal information, for
// now the location.
type SubjectDataService struct{ *conn }

var _ portal.SubjectDataService = (*SubjectDataService)(nil)

// SubjectData hands out the subject-data service.
func (db *DB) SubjectData() *SubjectDataService { return &SubjectDataService{db.conn} }

// FindSubjectData implements portal.SubjectDataService.
func (s *SubjectDataService) FindSubjectData(ctx context.Context, subjectID int64) (*portal.SubjectData, error) {
	l, err := findLocation(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	return &portal.SubjectData{Location: l}, nil
}

func findLocation(ctx context.Context, q queryer, subjectID int64) (portal.Location, error) {
	var l portal.Location
	err := q.QueryRowContext(ctx, `
		SELECT residency_non_us, residency_state, residency_county, employment_non_us, employment_state, employment_county
		FROM subject_locations WHERE subject_id = $1`, subjectID).
		Scan(&l.Residency.NonUS, &l.Residency.State, &l.Residency.County,
			&l.Employment.NonUS, &l.Employment.State, &l.Employment.County)
	if errors.Is(err, sql.ErrNoRows) {
		return portal.Location{}, nil
	} else if err != nil {
		return portal.Location{}, fmt.Errorf("store: location: %w", err)
	}
	return l, nil
}

// UpdateSubjectData implements portal.SubjectDataService: the applicant's
// own change, validated, then applied in one transaction holding the
// subject's lock (a status move reads the location).
func (s *SubjectDataService) UpdateSubjectData(ctx context.Context, subjectID int64, upd portal.SubjectDataUpdate) (*portal.SubjectData, error) {
	if upd.Location == nil {
		return s.FindSubjectData(ctx, subjectID)
	}
	if err := upd.Validate(lookup.IsStateCode); err != nil {
		return nil, err
	}
	loc := *upd.Location
	var l portal.Location
	err := s.tx(ctx, func(tx *sql.Tx) error {
		status, err := s.lockSubject(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if status != portal.StatusNew {
			return portal.ErrSetupComplete
		}
		if l, err = findLocation(ctx, tx, subjectID); err != nil {
			return err
		}
		if loc.Residency != nil {
			l.Residency = loc.Residency.Normalized()
		}
		if loc.Employment != nil && l.Employment.Empty() {
			l.Employment = loc.Employment.Normalized()
		}
		return s.saveLocation(ctx, tx, subjectID, l)
	})
	if err != nil {
		return nil, err
	}
	return &portal.SubjectData{Location: l}, nil
}

// SetEmploymentLocation sets where the applicant will work, as the operator
// says; it applies whatever the subject's status.
func (s *DB) SetEmploymentLocation(ctx context.Context, subjectID int64, p portal.Place) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		l, err := findLocation(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		l.Employment = p.Normalized()
		return s.saveLocation(ctx, tx, subjectID, l)
	})
}

func (s *conn) saveLocation(ctx context.Context, q queryer, subjectID int64, l portal.Location) error {
	r, e := l.Residency, l.Employment
	_, err := q.ExecContext(ctx, `
		INSERT INTO subject_locations (subject_id, residency_non_us, residency_state, residency_county,
			employment_non_us, employment_state, employment_county, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (subject_id) DO UPDATE SET
			residency_non_us = excluded.residency_non_us, residency_state = excluded.residency_state,
			residency_county = excluded.residency_county, employment_non_us = excluded.employment_non_us,
			employment_state = excluded.employment_state, employment_county = excluded.employment_county,
			updated_at = excluded.updated_at`,
		subjectID, r.NonUS, r.State, r.County, e.NonUS, e.State, e.County, ms(s.now()))
	if err != nil {
		return fmt.Errorf("store: save location: %w", err)
	}
	return nil
}
