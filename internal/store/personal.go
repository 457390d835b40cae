package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"applicantportal/internal/lookup"
	"applicantportal/internal/phone"
	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
)

// PersonalService implements portal.PersonalService: the applicant's
// personal information, sealed at rest.
type PersonalService struct{ *conn }

var _ portal.PersonalService = (*PersonalService)(nil)

// Personal hands out the personal-information service.
func (db *DB) Personal() *PersonalService { return &PersonalService{db.conn} }

// errNoDataKey means the store was opened without a data key, as operator
// commands that never touch PII do.
var errNoDataKey = errors.New("store: no data key: personal information cannot be sealed or opened")

// personalRules are the personal-information rules with the portal's
// reference data, for a company that does or does not require an SSN.
func personalRules(requireSSN, ssnOnFile bool) portal.PersonalRules {
	return portal.PersonalRules{
		RequireSSN:   requireSSN,
		SSNOnFile:    ssnOnFile,
		ValidGender:  lookup.IsGender,
		ValidSuffix:  lookup.IsSuffix,
		ValidState:   lookup.IsStateCode,
		ValidCountry: lookup.IsCountry,
		ValidRegion:  lookup.IsRegionID,
		ValidPhone:   phone.Valid,
	}
}

// UpdatePersonalInfo implements portal.PersonalService: the applicant's
// save, checked and stored in one transaction holding the subject's lock,
// so the SSN on file and the signatures it is checked against cannot change
// in between.
func (s *PersonalService) UpdatePersonalInfo(ctx context.Context, subjectID int64, p *portal.PersonalInfo) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		requireSSN, err := subjectRequiresSSN(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		stored, err := findPersonalInfo(ctx, tx, s.cfg.Sealer, subjectID)
		if err != nil {
			return err
		}
		// The app only ever sees the last four digits of a saved SSN, so an
		// empty ssn keeps the SSN on file.
		onFile := stored != nil && stored.SSN != ""
		if onFile && !p.NoSSN && strings.TrimSpace(p.SSN) == "" {
			p.SSN, p.ConfirmSSN = stored.SSN, stored.SSN
		}
		if err := p.Validate(s.now(), personalRules(requireSSN, onFile)); err != nil {
			return err
		}
		p.Normalize()
		// The app sends a licence's region id; its name comes from the lookup.
		for i := range p.Licenses {
			p.Licenses[i].RegionName = lookup.RegionName(p.Licenses[i].RegionID)
		}
		// An SSN saved during setup must end in the last four digits the
		// applicant typed when signing.
		if !p.NoSSN {
			signed, err := s.signedLastFourSSNs(ctx, tx, subjectID)
			if err != nil {
				return err
			}
			if err := portal.CheckSSNAgainstSignatures(p.SSN, signed); err != nil {
				return err
			}
		}
		if err := s.savePersonalInfo(ctx, tx, subjectID, p); err != nil {
			return err
		}
		return s.deleteDraft(ctx, tx, subjectID, portal.DraftPersonal)
	})
}

// subjectRequiresSSN reads the subject's company's company_require_ssn
// preference, the one company fact the personal information's rules need.
func subjectRequiresSSN(ctx context.Context, q queryer, subjectID int64) (bool, error) {
	var require bool
	err := q.QueryRowContext(ctx, `SELECT c.require_ssn FROM companies c
		JOIN subjects s ON s.company_id = c.id WHERE s.id = $1`, subjectID).Scan(&require)
	if err != nil {
		return false, notFound(err, "Company")
	}
	return require, nil
}

// signedLastFourSSNs are the last four digits of the SSN the subject typed
// when signing (the DOT releases ask for them), oldest signature first. Only
// the signatures' sealed fields are read: the SSN check needs neither the
// texts signed nor the images.
func (s *conn) signedLastFourSSNs(ctx context.Context, q queryer, subjectID int64) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT document_id, instance, sealed_fields FROM legal_signatures
		WHERE subject_id = $1 AND sealed_fields IS NOT NULL ORDER BY id`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: signed SSN digits: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var documentID int64
		var instance string
		var sealed []byte
		if err := rows.Scan(&documentID, &instance, &sealed); err != nil {
			return nil, fmt.Errorf("store: signed SSN digits: %w", err)
		}
		var f portal.SignatureFields
		if err := s.openSignatureFields(subjectID, documentID, instance, sealed, &f); err != nil {
			return nil, err
		}
		if f.LastFourSSN != "" {
			out = append(out, f.LastFourSSN)
		}
	}
	return out, rows.Err()
}

// SavePersonalInfo seals and stores the subject's personal information as
// it is, unchecked: demo data and tests use it; the applicant's saves go
// through UpdatePersonalInfo.
func (s *PersonalService) SavePersonalInfo(ctx context.Context, subjectID int64, p *portal.PersonalInfo) error {
	return s.savePersonalInfo(ctx, s.db, subjectID, p)
}

func (s *conn) savePersonalInfo(ctx context.Context, q queryer, subjectID int64, p *portal.PersonalInfo) error {
	if s.cfg.Sealer == nil {
		return errNoDataKey
	}
	plain, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("store: encode personal information: %w", err)
	}
	sealed, err := s.cfg.Sealer.SealFor(plain, personalInfoPlace(subjectID))
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO personal_info (subject_id, sealed, saved_at) VALUES ($1, $2, $3)
		ON CONFLICT (subject_id) DO UPDATE SET sealed = excluded.sealed, saved_at = excluded.saved_at`,
		subjectID, sealed, ms(s.now()))
	if err != nil {
		return fmt.Errorf("store: save personal information: %w", err)
	}
	return nil
}

// FindPersonalInfo returns the subject's personal information, or nil when
// none has been saved yet.
func (s *PersonalService) FindPersonalInfo(ctx context.Context, subjectID int64) (*portal.PersonalInfo, error) {
	return findPersonalInfo(ctx, s.db, s.cfg.Sealer, subjectID)
}

func findPersonalInfo(ctx context.Context, q queryer, sealer *seal.Sealer, subjectID int64) (*portal.PersonalInfo, error) {
	var sealed []byte
	err := q.QueryRowContext(ctx, `SELECT sealed FROM personal_info WHERE subject_id = $1`, subjectID).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: find personal information: %w", err)
	}
	return openPersonalInfo(sealer, subjectID, sealed)
}

// openPersonalInfo unseals and decodes the subject's sealed personal
// information as read from personal_info.
func openPersonalInfo(sealer *seal.Sealer, subjectID int64, sealed []byte) (*portal.PersonalInfo, error) {
	if sealer == nil {
		return nil, errNoDataKey
	}
	plain, err := sealer.OpenFor(sealed, personalInfoPlace(subjectID))
	if err != nil {
		// The value was altered, sealed with another key or copied from
		// another row: an internal error, logged, that names no value.
		return nil, fmt.Errorf("store: open personal information of subject %d: %w", subjectID, err)
	}
	var p portal.PersonalInfo
	if err := json.Unmarshal(plain, &p); err != nil {
		return nil, fmt.Errorf("store: decode personal information: %w", err)
	}
	return &p, nil
}
