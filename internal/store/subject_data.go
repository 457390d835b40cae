package store

import (
	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
	"context"
	"database/sql"
	"encoding/json"
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
	var d *portal.SubjectData
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		d, err = s.subjectData(ctx, tx, subjectID)
		return err
	})
	return d, err
}

func (s *conn) subjectData(ctx context.Context, q queryer, subjectID int64) (*portal.SubjectData, error) {
	l, err := findLocation(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	_, pkg, err := s.subjectPackage(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	records, err := s.serviceRecords(ctx, q, subjectID, portal.ServicePageAliases(pkg))
	if err != nil {
		return nil, err
	}
	return subjectDataOf(l, records), nil
}

func subjectDataOf(l portal.Location, records map[string]portal.ServiceRecord) *portal.SubjectData {
	d := &portal.SubjectData{Location: l, NoDataAvailable: portal.NoDataMap(records), Services: map[string][]portal.ServiceEntry{}}
	for alias, rec := range records {
		d.Services[alias] = rec.Entries
	}
	return d
}

// subjectPackage returns the subject and its company's package (nil when
// the company has none).
func (s *conn) subjectPackage(ctx context.Context, q queryer, subjectID int64) (*portal.Subject, *portal.Package, error) {
	sub, _, pkg, err := s.subjectCompany(ctx, q, subjectID)
	return sub, pkg, err
}

// subjectCompany returns the subject, its company and the company's
// package (nil when it has none).
func (s *conn) subjectCompany(ctx context.Context, q queryer, subjectID int64) (*portal.Subject, *portal.Company, *portal.Package, error) {
	sub, err := scanSubject(q.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE id = $1`, subjectID))
	if err != nil {
		return nil, nil, nil, notFound(err, "Subject")
	}
	c, err := s.findCompany(ctx, q, sub.CompanyID)
	if err != nil {
		return nil, nil, nil, err
	}
	if c.PackageID == 0 {
		return sub, c, nil, nil
	}
	pkg, err := s.findPackage(ctx, q, c.PackageID, withFields)
	return sub, c, pkg, err
}

// serviceRecords opens the saved records of the pages' aliases; an alias
// never saved is absent.
func (s *conn) serviceRecords(ctx context.Context, q queryer, subjectID int64, aliases []string) (map[string]portal.ServiceRecord, error) {
	out := map[string]portal.ServiceRecord{}
	for _, alias := range aliases {
		var rec portal.ServiceRecord
		saved, err := findRecord(ctx, q, s.cfg.Sealer, subjectID, portal.ServiceRecordKind(alias), &rec)
		if err != nil {
			return nil, err
		}
		if saved {
			if rec.Entries == nil {
				rec.Entries = []portal.ServiceEntry{}
			}
			out[alias] = rec
		}
	}
	return out, nil
}

// referenceLookups check state and country fields against the lookups.
type referenceLookups struct{}

func (referenceLookups) Has(reference, code string) (ok, known bool) {
	switch reference {
	case "states":
		return lookup.IsStateCode(code), true
	case "countries":
		return lookup.IsCountry(code), true
	}
	return false, false
}

// today is the date the date rules compare with.
func (s *conn) today() string { return s.now().UTC().Format("2006-01-02") }

// FindServices implements portal.SubjectDataService.
func (s *SubjectDataService) FindServices(ctx context.Context, subjectID int64) ([]portal.AliasedService, error) {
	_, pkg, err := s.subjectPackage(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	return portal.SubjectServices(pkg), nil
}

// FindRequiredFields lists, per page, the fields always required
// (GET /api/v2/user/subject/required-fields).
func (s *SubjectDataService) FindRequiredFields(ctx context.Context, subjectID int64) (map[string][]string, error) {
	_, pkg, err := s.subjectPackage(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	return portal.RequiredFields(pkg), nil
}

// FindSubjectView implements portal.SubjectDataService.
func (s *SubjectDataService) FindSubjectView(ctx context.Context, subjectID int64) (*portal.SubjectView, error) {
	var v *portal.SubjectView
	err := s.tx(ctx, func(tx *sql.Tx) error {
		f, err := s.subjectFacts(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		v = portal.BuildSubjectView(f)
		return nil
	})
	return v, err
}

// SubjectViewVersion implements portal.SubjectDataService: the subject's
// version (subject_versions, moved on by triggers in the transaction of
// every write to the rows subjectFacts reads: see its migration), the
// catalog cache's generation and today. It is trusted only while the
// catalog cache is (events arrive).
func (s *SubjectDataService) SubjectViewVersion(ctx context.Context, subjectID int64) (portal.ViewVersion, bool, error) {
	gen, ok := s.catalog.usable(s.db)
	if !ok {
		return portal.ViewVersion{}, false, nil
	}
	v := portal.ViewVersion{Catalog: gen, Today: s.today()}
	err := s.db.QueryRowContext(ctx, `SELECT version FROM subject_versions WHERE subject_id = $1`, subjectID).Scan(&v.Subject)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return portal.ViewVersion{}, false, fmt.Errorf("store: subject version: %w", err)
	}
	return v, true, nil
}

// subjectFacts gathers what the read model is built from. The aliases and
// address history join through SubjectFacts.History (their service builds
// it); until then their pages are left out.
func (s *conn) subjectFacts(ctx context.Context, q queryer, subjectID int64) (portal.SubjectFacts, error) {
	f, _, err := s.subjectFactsAndLegalFile(ctx, q, subjectID)
	return f, err
}

// subjectFactsAndLegalFile is subjectFacts with the legal checklist it
// read on the way (legalChecklist: its Subject and Company, no texts or
// signature images), for a caller (the status move) that needs both.
func (s *conn) subjectFactsAndLegalFile(ctx context.Context, q queryer, subjectID int64) (portal.SubjectFacts, *portal.LegalFile, error) {
	fail := func(err error) (portal.SubjectFacts, *portal.LegalFile, error) {
		return portal.SubjectFacts{}, nil, err
	}
	sub, company, pkg, err := s.subjectCompany(ctx, q, subjectID)
	if err != nil {
		return fail(err)
	}
	f := portal.SubjectFacts{Status: sub.StatusID, FullProfile: sub.FullProfile, Today: s.today(),
		Lookups: referenceLookups{}, Package: pkg}
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM personal_info WHERE subject_id = $1)`, subjectID).
		Scan(&f.PersonalInfoSaved); err != nil {
		return fail(fmt.Errorf("store: personal information saved: %w", err))
	}
	if f.Location, err = findLocation(ctx, q, subjectID); err != nil {
		return fail(err)
	}
	if f.Records, err = s.serviceRecords(ctx, q, subjectID, portal.ServicePageAliases(pkg)); err != nil {
		return fail(err)
	}
	c, err := s.historyChecklist(ctx, q, subjectID)
	if err != nil {
		return fail(err)
	}
	f.History = &portal.HistoryFacts{Aliases: c.Aliases.Aliases, Addresses: c.Addresses.Addresses,
		AliasesPage: c.AliasesPage, AddressesPage: c.AddressesPage}
	lf, err := s.legalChecklist(ctx, q, sub, company, f.Location)
	if err != nil {
		return fail(err)
	}
	f.DOTReleases, f.UnsignedDocuments = lf.DOTReleases(), lf.UnsignedTitles()
	if f.Documents, err = s.documentFacts(ctx, q, subjectID, pkg, f.Location); err != nil {
		return fail(err)
	}
	return f, lf, nil
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
//
// Service data (upd.NoDataAvailable, upd.Services) changes only the aliases
// the update names, each stored as its sealed record, while the status is
// new or setup-complete; a failed check stores nothing.
func (s *SubjectDataService) UpdateSubjectData(ctx context.Context, subjectID int64, upd portal.SubjectDataUpdate) (*portal.SubjectData, error) {
	if upd.Location == nil && !upd.TouchesServices() {
		return s.FindSubjectData(ctx, subjectID)
	}
	if err := upd.Validate(lookup.Places()); err != nil {
		return nil, err
	}
	var d *portal.SubjectData
	err := s.tx(ctx, func(tx *sql.Tx) error {
		status, err := s.lockSubject(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if upd.TouchesServices() && !portal.DataWritable(status) {
			return portal.ErrProfileSubmitted
		}
		if loc := upd.Location; loc != nil {
			if status != portal.StatusNew {
				return portal.ErrSetupComplete
			}
			l, err := findLocation(ctx, tx, subjectID)
			if err != nil {
				return err
			}
			if loc.Residency != nil {
				l.Residency = loc.Residency.Normalized()
			}
			if loc.Employment != nil && l.Employment.Empty() {
				l.Employment = loc.Employment.Normalized()
			}
			if err := s.saveLocation(ctx, tx, subjectID, l); err != nil {
				return err
			}
		}
		if upd.TouchesServices() {
			if err := s.saveServices(ctx, tx, subjectID, upd); err != nil {
				return err
			}
		}
		d, err = s.subjectData(ctx, tx, subjectID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

func (s *conn) saveServices(ctx context.Context, tx *sql.Tx, subjectID int64, upd portal.SubjectDataUpdate) error {
	_, pkg, err := s.subjectPackage(ctx, tx, subjectID)
	if err != nil {
		return err
	}
	pages := portal.ServicePages(pkg)
	saved, err := s.serviceRecords(ctx, tx, subjectID, portal.ServicePageAliases(pkg))
	if err != nil {
		return err
	}
	current := map[string]*portal.ServiceRecord{}
	for alias, rec := range saved {
		current[alias] = &rec
	}
	changed, err := upd.ApplyServices(pages, current, s.today(), referenceLookups{})
	if err != nil {
		return err
	}
	if rec, ok := changed[portal.AliasEmployment]; ok {
		signed, err := signedReleaseEmployers(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if err := portal.CheckSignedEmployers(rec.Entries, signed); err != nil {
			return err
		}
	}
	for alias, rec := range changed {
		if err := s.saveRecord(ctx, tx, subjectID, portal.ServiceRecordKind(alias), rec); err != nil {
			return err
		}
	}
	// Every page the update names was saved (in flight or validated): its
	// draft is spent.
	for _, alias := range portal.DataAliases {
		_, nd := upd.NoDataAvailable[alias]
		_, sv := upd.Services[alias]
		if nd || sv {
			if err := s.deleteDraft(ctx, tx, subjectID, portal.DraftServicePrefix+alias); err != nil {
				return err
			}
		}
	}
	return nil
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

// signedReleaseEmployers maps the entry id of each per-employer DOT release
// the subject signed to the employer the release names (the signature's
// fields, written by the server from the entry when it was signed).
func signedReleaseEmployers(ctx context.Context, q queryer, subjectID int64) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT instance, fields FROM legal_signatures WHERE subject_id = $1 AND instance <> ''`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: signed releases: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var instance, fields string
		if err := rows.Scan(&instance, &fields); err != nil {
			return nil, fmt.Errorf("store: signed releases: %w", err)
		}
		var f portal.SignatureFields
		if err := json.Unmarshal([]byte(fields), &f); err != nil {
			return nil, fmt.Errorf("store: signed release %s fields: %w", instance, err)
		}
		out[instance] = f.EmployerName
	}
	return out, rows.Err()
}
