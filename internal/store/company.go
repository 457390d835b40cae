package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
)

// CreateCompany adds a company; its ID is set on return.
func (s *DB) CreateCompany(ctx context.Context, c *portal.Company) error {
	p := c.Preferences
	if p.SubjectPasswordLength <= 0 {
		p.SubjectPasswordLength = portal.DefaultCompanyPreferences().SubjectPasswordLength
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `
			INSERT INTO companies (name, logo_url, accounting_code, subject_chat, subject_password_length,
				require_ssn, applicant_collection_site_selection, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
			c.Name, c.LogoURL, c.AccountingCode, p.SubjectChat, p.SubjectPasswordLength,
			p.RequireSSN, p.ApplicantCollectionSiteSelection, ms(s.now()),
		).Scan(&c.ID); err != nil {
			return err
		}
		if err := s.auditCompany(ctx, tx, c.ID, "company.created", fmt.Sprintf("company %d", c.ID)); err != nil {
			return err
		}
		return s.catalogChanged(ctx, tx)
	})
	if err != nil {
		return fmt.Errorf("store: create company: %w", err)
	}
	c.Preferences = p
	return nil
}

// CreatePackage adds a package with its services; the first package of a
// company becomes its default.
func (s *DB) CreatePackage(ctx context.Context, p *portal.Package) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var others int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM packages WHERE company_id = $1`, p.CompanyID).Scan(&others); err != nil {
			return fmt.Errorf("store: create package: %w", err)
		}
		hold := p.SelfPayInitialHoldAmt
		if hold == "" {
			hold = "0.00"
		}
		err := tx.QueryRowContext(ctx, `
			INSERT INTO packages (company_id, name, self_pay_enabled, self_pay_initial_hold_amount, is_default, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			p.CompanyID, p.Name, p.SelfPayEnabled, hold, others == 0, ms(s.now()),
		).Scan(&p.ID)
		if err != nil {
			return fmt.Errorf("store: create package: %w", err)
		}
		p.SelfPayInitialHoldAmt = hold
		for i := range p.Services {
			svc := &p.Services[i]
			if svc.Name == "" {
				svc.Name, _ = portal.ServiceName(svc.Code)
			}
			if err := portal.ValidateDefinitions(svc.Fields); err != nil {
				return fmt.Errorf("store: service %s: %w", svc.Code, err)
			}
			fields, err := portal.EncodeDefinitions(svc.Fields)
			if err != nil {
				return fmt.Errorf("store: service %s: %w", svc.Code, err)
			}
			if err := tx.QueryRowContext(ctx, `INSERT INTO package_services (package_id, code, name, fields) VALUES ($1, $2, $3, $4) RETURNING id`,
				p.ID, svc.Code, svc.Name, fields).Scan(&svc.ID); err != nil {
				return fmt.Errorf("store: add service %s: %w", svc.Code, err)
			}
		}
		for i, dt := range p.DocumentTypes {
			if _, err := tx.ExecContext(ctx, `INSERT INTO package_document_types (package_id, type, title, description, required, rank)
				VALUES ($1, $2, $3, $4, $5, $6)`, p.ID, dt.Type, dt.Title, dt.Description, dt.Required, i); err != nil {
				return fmt.Errorf("store: add document type %s: %w", dt.Type, err)
			}
		}
		if err := s.auditCompany(ctx, tx, p.CompanyID, "package.created", fmt.Sprintf("package %d, %d services, %d document types",
			p.ID, len(p.Services), len(p.DocumentTypes))); err != nil {
			return err
		}
		return s.catalogChanged(ctx, tx)
	})
}

const companyColumns = `c.id, c.name, c.logo_url, c.accounting_code, c.subject_chat, c.subject_password_length,
	c.require_ssn, c.applicant_collection_site_selection,
	COALESCE((SELECT p.id FROM packages p WHERE p.company_id = c.id AND p.is_default = TRUE), 0)`

func scanCompany(row interface{ Scan(...any) error }) (*portal.Company, error) {
	var c portal.Company
	p := &c.Preferences
	err := row.Scan(&c.ID, &c.Name, &c.LogoURL, &c.AccountingCode, &p.SubjectChat, &p.SubjectPasswordLength,
		&p.RequireSSN, &p.ApplicantCollectionSiteSelection, &c.PackageID)
	// A minimum stored when the floor was lower reads as the floor, which
	// is what validateNewPassword applies.
	p.SubjectPasswordLength = max(p.SubjectPasswordLength, portal.MinSubjectPasswordLength)
	return &c, err
}

// FindCompanyByID returns one company.
func (s *DB) FindCompanyByID(ctx context.Context, id int64) (*portal.Company, error) {
	return s.findCompany(ctx, s.db, id)
}

// findCompany reads a company on q, from the catalog cache when it may
// (catalogcache.go).
func (s *conn) findCompany(ctx context.Context, q queryer, id int64) (*portal.Company, error) {
	gen, cached := s.catalog.usable(q)
	if cached {
		if c, ok := s.catalog.company(id); ok {
			return c, nil
		}
	}
	c, err := scanCompany(q.QueryRowContext(ctx, `SELECT `+companyColumns+` FROM companies c WHERE c.id = $1`, id))
	if err != nil {
		return nil, notFound(err, "Company")
	}
	if cached {
		s.catalog.putCompany(c, gen)
	}
	return c, nil
}

// FindCompanies lists every company, oldest first.
func (s *DB) FindCompanies(ctx context.Context) ([]*portal.Company, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+companyColumns+` FROM companies c ORDER BY c.id`)
	if err != nil {
		return nil, fmt.Errorf("store: list companies: %w", err)
	}
	defer rows.Close()
	var out []*portal.Company
	for rows.Next() {
		c, err := scanCompany(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list companies: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// FindPackageByID returns a package with its services.
func (s *DB) FindPackageByID(ctx context.Context, id int64) (*portal.Package, error) {
	return s.findPackage(ctx, s.db, id, withFields)
}

// What findPackage reads of the services: decoding the field definitions
// of every service was over a quarter of the CPU of GET /api/v2/user, which
// answers none of them.
const (
	withFields    = true  // services with their field definitions
	withoutFields = false // services without them (Fields nil)
)

// findPackage reads a package with its services and document types; the
// services' field definitions only when fields is withFields. It answers
// from the catalog cache when it may (catalogcache.go).
func (s *conn) findPackage(ctx context.Context, q queryer, id int64, fields bool) (*portal.Package, error) {
	gen, cached := s.catalog.usable(q)
	if cached {
		if p, ok := s.catalog.pkg(id, fields); ok {
			return p, nil
		}
	}
	p, err := s.readPackage(ctx, q, id, fields)
	if err != nil {
		return nil, err
	}
	if cached {
		s.catalog.putPackage(p, fields, gen)
	}
	return p, nil
}

// readPackage is findPackage on the database.
func (s *conn) readPackage(ctx context.Context, q queryer, id int64, fields bool) (*portal.Package, error) {
	// The package and its services in one query.
	storedFields := `''`
	if fields {
		storedFields = `COALESCE(ps.fields, '')`
	}
	rows, err := q.QueryContext(ctx, `SELECT p.id, p.company_id, p.name, p.self_pay_enabled, p.self_pay_initial_hold_amount,
			ps.id, COALESCE(ps.code, ''), COALESCE(ps.name, ''), `+storedFields+`
		FROM packages p LEFT JOIN package_services ps ON ps.package_id = p.id WHERE p.id = $1 ORDER BY ps.id`, id)
	if err != nil {
		return nil, fmt.Errorf("store: package: %w", err)
	}
	defer rows.Close()
	var p *portal.Package
	for rows.Next() {
		var row portal.Package
		var svc portal.PackageService
		var svcID sql.NullInt64
		var stored string
		if err := rows.Scan(&row.ID, &row.CompanyID, &row.Name, &row.SelfPayEnabled, &row.SelfPayInitialHoldAmt,
			&svcID, &svc.Code, &svc.Name, &stored); err != nil {
			return nil, fmt.Errorf("store: package: %w", err)
		}
		if p == nil {
			p = &row
		}
		if !svcID.Valid {
			continue
		}
		svc.ID = svcID.Int64
		if fields {
			svc.Fields = s.serviceFields(svc, stored)
		}
		p.Services = append(p.Services, svc)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: package: %w", err)
	}
	if p == nil {
		return nil, notFound(sql.ErrNoRows, "Package")
	}
	if p.DocumentTypes, err = findDocumentTypes(ctx, q, id); err != nil {
		return nil, err
	}
	return p, nil
}

// findDocumentTypes lists the document types of a package in rank order.
func findDocumentTypes(ctx context.Context, q queryer, packageID int64) ([]portal.DocumentType, error) {
	rows, err := q.QueryContext(ctx, `SELECT type, title, description, required FROM package_document_types
		WHERE package_id = $1 ORDER BY rank, type`, packageID)
	if err != nil {
		return nil, fmt.Errorf("store: package document types: %w", err)
	}
	defer rows.Close()
	var out []portal.DocumentType
	for rows.Next() {
		var dt portal.DocumentType
		if err := rows.Scan(&dt.Type, &dt.Title, &dt.Description, &dt.Required); err != nil {
			return nil, fmt.Errorf("store: package document types: %w", err)
		}
		out = append(out, dt)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: package document types: %w", err)
	}
	return out, nil
}

// serviceFields are a package service's field definitions: the stored ones,
// or the standard ones when none are stored or the stored ones do not
// decode (a hand-edited row). The applicant then still gets a page to fill
// in, never one required with nothing on it, and no applicant of the
// company is locked out by one bad row; the operator reads why in the log.
func (s *conn) serviceFields(svc portal.PackageService, stored string) []portal.FieldDefinition {
	fields, err := s.definitions.decode(stored)
	if err != nil {
		s.cfg.Logger.Error("package service field definitions do not decode; the standard ones apply",
			"packageService", svc.ID, "code", svc.Code, "err", err)
	}
	if err != nil || len(fields) == 0 {
		return servicedefs.Standard(svc.Code)
	}
	return fields
}

// CompanyService is portal.CompanyService on the store.
type CompanyService struct{ db *DB }

var _ portal.CompanyService = (*CompanyService)(nil)

// FindCompanies lists every company.
func (s *CompanyService) FindCompanies(ctx context.Context) ([]*portal.Company, error) {
	return s.db.FindCompanies(ctx)
}

// companyColumn is the companies column of each company preference.
var companyColumn = map[string]string{
	portal.PrefCollectionSiteSelection: "applicant_collection_site_selection",
	portal.PrefSubjectChat:             "subject_chat",
	portal.PrefRequireSSN:              "require_ssn",
	portal.PrefSubjectPasswordLength:   "subject_password_length",
	portal.PrefAdverseWaitingDays:      "adverse_action_waiting_days",
}

// CompanyPreferences reads the company and its default package.
func (s *CompanyService) CompanyPreferences(ctx context.Context, companyID int64) ([]portal.CompanyPreference, error) {
	c, err := s.db.FindCompanyByID(ctx, companyID)
	if err != nil {
		return nil, err
	}
	p := c.Preferences
	out := []portal.CompanyPreference{
		{Name: portal.PrefCollectionSiteSelection, Value: strconv.FormatBool(p.ApplicantCollectionSiteSelection)},
		{Name: portal.PrefSubjectChat, Value: strconv.FormatBool(p.SubjectChat)},
		{Name: portal.PrefRequireSSN, Value: strconv.FormatBool(p.RequireSSN)},
		{Name: portal.PrefSubjectPasswordLength, Value: strconv.Itoa(p.SubjectPasswordLength)},
	}
	waiting, err := adverseWaitingDays(ctx, s.db.db, companyID)
	if err != nil {
		return nil, err
	}
	out = append(out, portal.CompanyPreference{Name: portal.PrefAdverseWaitingDays, Value: strconv.Itoa(waiting)})
	etas, err := s.companyETAPreferences(ctx, companyID)
	if err != nil {
		return nil, err
	}
	out = append(out, etas...)
	if c.PackageID == 0 {
		return out, nil
	}
	pkg, err := s.db.FindPackageByID(ctx, c.PackageID)
	if err != nil {
		return nil, err
	}
	enabled := "0"
	if pkg.SelfPayEnabled {
		enabled = "1"
	}
	return append(out,
		portal.CompanyPreference{Name: portal.PrefSelfPayEnabled, Value: enabled, Package: true},
		portal.CompanyPreference{Name: portal.PrefSelfPayHoldAmount, Value: pkg.SelfPayInitialHoldAmt, Package: true}), nil
}

// SetCompanyPreference checks the value (portal.ParseCompanyPreference)
// and stores it: on the company, or on its default package, which the
// applicants invited from now on get.
func (s *CompanyService) SetCompanyPreference(ctx context.Context, companyID int64, name, value string) (*portal.CompanyPreference, error) {
	pref, err := portal.ParseCompanyPreference(name, value)
	if err != nil {
		return nil, err
	}
	c, err := s.db.FindCompanyByID(ctx, companyID)
	if err != nil {
		return nil, err
	}
	if code, ok := portal.ETAPreferenceCode(pref.Name); ok {
		return &pref, s.setCompanyETA(ctx, c.ID, code, pref.Value)
	}
	var arg any = pref.Value
	switch pref.Name {
	case portal.PrefSubjectPasswordLength, portal.PrefAdverseWaitingDays:
		arg, _ = strconv.Atoi(pref.Value)
	case portal.PrefCollectionSiteSelection, portal.PrefSubjectChat, portal.PrefRequireSSN:
		arg = pref.Value == "true"
	case portal.PrefSelfPayEnabled:
		arg = pref.Value == "1"
	}
	query := `UPDATE companies SET ` + companyColumn[pref.Name] + ` = $1 WHERE id = $2`
	id := companyID
	if pref.Package {
		if c.PackageID == 0 {
			return nil, portal.Errorf(portal.ECONFLICT, "Company %d has no package to set %s on.", companyID, pref.Name)
		}
		column := map[string]string{portal.PrefSelfPayEnabled: "self_pay_enabled", portal.PrefSelfPayHoldAmount: "self_pay_initial_hold_amount"}[pref.Name]
		query, id = `UPDATE packages SET `+column+` = $1 WHERE id = $2`, c.PackageID
	}
	err = s.db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, query, arg, id); err != nil {
			return err
		}
		if err := s.db.auditCompany(ctx, tx, companyID, "company.preference-set", pref.Name+" = "+pref.Value); err != nil {
			return err
		}
		return s.db.catalogChanged(ctx, tx)
	})
	if err != nil {
		return nil, fmt.Errorf("store: set %s: %w", pref.Name, err)
	}
	return &pref, nil
}

// companyETAPreferences are the company's own estimates (eta.CODE), by
// code.
func (s *CompanyService) companyETAPreferences(ctx context.Context, companyID int64) ([]portal.CompanyPreference, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT code, min_days, max_days FROM company_service_etas WHERE company_id = $1 ORDER BY code`, companyID)
	if err != nil {
		return nil, fmt.Errorf("store: company estimates: %w", err)
	}
	defer rows.Close()
	var out []portal.CompanyPreference
	for rows.Next() {
		var code string
		var d portal.ETADays
		if err := rows.Scan(&code, &d.Min, &d.Max); err != nil {
			return nil, fmt.Errorf("store: company estimates: %w", err)
		}
		out = append(out, portal.CompanyPreference{Name: portal.PrefETAPrefix + code, Value: d.String()})
	}
	return out, rows.Err()
}

// setCompanyETA stores the company's estimate of a service code, which
// services set from now on count with.
func (s *CompanyService) setCompanyETA(ctx context.Context, companyID int64, code, value string) error {
	d, err := portal.ParseETADays(value)
	if err != nil {
		return err
	}
	return s.db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO company_service_etas (company_id, code, min_days, max_days) VALUES ($1, $2, $3, $4)
			ON CONFLICT (company_id, code) DO UPDATE SET min_days = excluded.min_days, max_days = excluded.max_days`,
			companyID, code, d.Min, d.Max); err != nil {
			return fmt.Errorf("store: set company estimate: %w", err)
		}
		return s.db.auditCompany(ctx, tx, companyID, "company.preference-set", "eta."+code+" = "+value)
	})
}
