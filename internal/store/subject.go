package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"applicantportal/internal/phone"
	"applicantportal/internal/portal"
)

const subjectColumns = `id, company_id, username, email, first_name, last_name, phone,
	password_hash IS NOT NULL, status_id, full_profile, created_at, invited_first_name, invited_last_name, locale`

func scanSubject(row interface{ Scan(...any) error }) (*portal.Subject, error) {
	var sub portal.Subject
	var created int64
	var locale string
	err := row.Scan(&sub.ID, &sub.CompanyID, &sub.Username, &sub.Email, &sub.FirstName, &sub.LastName,
		&sub.Phone, &sub.HasPassword, &sub.StatusID, &sub.FullProfile, &created, &sub.InvitedFirstName, &sub.InvitedLastName, &locale)
	sub.CreatedAt = fromMS(created)
	sub.Locale = portal.Locale(locale).OrDefault()
	return &sub, err
}

// SubjectService implements portal.SubjectService: the applicant's account
// record, profile and orders, and the status moves of setup.
type SubjectService struct{ *conn }

var _ portal.SubjectService = (*SubjectService)(nil)

// Subjects hands out the subject service.
func (db *DB) Subjects() *SubjectService { return &SubjectService{db.conn} }

// subjectRules are the checks of the subject's own fields.
var subjectRules = portal.SubjectRules{ValidPhone: phone.Valid}

// CreateSubject adds an invited applicant (status new) with a profile and
// one order for the company's default package. The username is the e-mail.
// The names are recorded twice: as the subject's names, which the applicant
// may edit, and as the invited names that signatures are checked against.
func (s *DB) CreateSubject(ctx context.Context, n portal.NewSubject) (*portal.Subject, error) {
	if err := n.Validate(subjectRules); err != nil {
		return nil, err
	}
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		company, err := s.findCompany(ctx, tx, n.CompanyID)
		if err != nil {
			return err
		}
		now := ms(s.now())
		email := strings.TrimSpace(n.Email)
		err = tx.QueryRowContext(ctx, `
			INSERT INTO subjects (company_id, username, email, first_name, last_name, phone, status_id, full_profile, created_at, updated_at,
				invited_first_name, invited_last_name, locale)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $4, $5, $10) RETURNING id`,
			company.ID, portal.NormalizeUsername(email), email, strings.TrimSpace(n.FirstName), strings.TrimSpace(n.LastName),
			strings.TrimSpace(n.Phone), portal.StatusNew, n.FullProfile, now, n.Locale.OrDefault(),
		).Scan(&id)
		if s.dialect.isUnique(err) {
			return portal.Errorf(portal.ECONFLICT, "An applicant with the e-mail %s already exists.", email)
		} else if err != nil {
			return fmt.Errorf("store: create subject: %w", err)
		}
		var profileID int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO profiles (subject_id, number, status_id, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
			id, fmt.Sprintf("P-%06d", id), portal.ProfileStatusNew, now).Scan(&profileID); err != nil {
			return fmt.Errorf("store: create profile: %w", err)
		}
		var pkg any
		if company.PackageID != 0 {
			pkg = company.PackageID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO orders (profile_id, package_id, status_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
			profileID, pkg, portal.StatusNew, now); err != nil {
			return fmt.Errorf("store: create order: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Subjects().FindSubjectByID(ctx, id)
}

// FindSubjectByID returns one subject.
func (s *SubjectService) FindSubjectByID(ctx context.Context, id int64) (*portal.Subject, error) {
	sub, err := scanSubject(s.db.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE id = $1`, id))
	if err != nil {
		return nil, notFound(err, "Subject")
	}
	return sub, nil
}

// FindCompanySettings implements portal.SubjectService.
func (s *SubjectService) FindCompanySettings(ctx context.Context, subjectID, companyID int64) (*portal.Company, error) {
	sub, err := s.FindSubjectByID(ctx, subjectID)
	if err != nil {
		return nil, err
	}
	if sub.CompanyID != companyID {
		return nil, portal.Errorf(portal.ENOTFOUND, "Company not found.")
	}
	return s.findCompany(ctx, s.db, companyID)
}

// FindSubjectByUsername returns the subject with that username, compared
// case-insensitively.
func (s *SubjectService) FindSubjectByUsername(ctx context.Context, username string) (*portal.Subject, error) {
	sub, err := scanSubject(s.db.QueryRowContext(ctx, `SELECT `+subjectColumns+` FROM subjects WHERE username = $1`,
		portal.NormalizeUsername(username)))
	if err != nil {
		return nil, notFound(err, "Subject")
	}
	return sub, nil
}

// SetLocale implements portal.SubjectService. It is not a change of the
// account (updated_at stays): a language chosen on a page is no progress.
func (s *SubjectService) SetLocale(ctx context.Context, id int64, l portal.Locale) error {
	if err := portal.ValidateLocale(l); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE subjects SET locale = $1 WHERE id = $2`, l, id)
	if err != nil {
		return fmt.Errorf("store: set language: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(sql.ErrNoRows, "Subject")
	}
	return nil
}

// UpdateSubject changes the fields that are set in upd, once they pass
// SubjectUpdate.Validate. The e-mail address is the username and a
// recovery channel, so it changes only through RequestEmailChange and
// ConfirmEmailChange; upd.Email is refused here.
func (s *SubjectService) UpdateSubject(ctx context.Context, id int64, upd portal.SubjectUpdate) (*portal.Subject, error) {
	if upd.Email != nil {
		return nil, portal.Errorf(portal.EFORBIDDEN, "The e-mail address changes only through a confirmation link.")
	}
	if err := upd.Validate(subjectRules); err != nil {
		return nil, err
	}
	sets := []string{}
	args := []any{}
	add := func(col string, v *string) {
		if v != nil {
			args = append(args, strings.TrimSpace(*v))
			sets = append(sets, fmt.Sprintf("%s = $%d", col, len(args)))
		}
	}
	add("first_name", upd.FirstName)
	add("last_name", upd.LastName)
	add("phone", upd.Phone)
	if len(sets) > 0 {
		args = append(args, ms(s.now()), id)
		q := fmt.Sprintf(`UPDATE subjects SET %s, updated_at = $%d WHERE id = $%d`, strings.Join(sets, ", "), len(args)-1, len(args))
		res, err := s.db.ExecContext(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("store: update subject: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil, portal.Errorf(portal.ENOTFOUND, "Subject not found.")
		}
	}
	return s.FindSubjectByID(ctx, id)
}

// FindUserView gathers what GET /api/v2/user answers.
// The subject, their sealed personal information, location, finalization
// steps and pending e-mail change are read in one statement (each statement costs more
// than the rows it reads); company and package come from the catalog cache.
func (s *SubjectService) FindUserView(ctx context.Context, subjectID int64) (*portal.UserView, error) {
	var sealed []byte
	var loc portal.Location
	var siteChosen, paid bool
	var newEmail, fingerprint string
	var passwordHash sql.NullString
	// The latest e-mail change waiting for confirmation (pendingEmailOf).
	args := append(finalizationStepsArgs(subjectID), ms(s.now()))
	sub, err := scanSubject(scanWith(s.db.QueryRowContext(ctx, `SELECT `+subjectColumns+`,
			(SELECT sealed FROM personal_info WHERE subject_id = $1),
			COALESCE(l.residency_non_us, FALSE), COALESCE(l.residency_state, ''), COALESCE(l.residency_county, 0),
			COALESCE(l.employment_non_us, FALSE), COALESCE(l.employment_state, ''), COALESCE(l.employment_county, 0),
			`+finalizationStepsColumns+`,
			COALESCE(e.new_email, ''), COALESCE(e.fingerprint, ''), password_hash
		FROM subjects
		LEFT JOIN subject_locations l ON l.subject_id = subjects.id
		LEFT JOIN (SELECT new_email, password_fingerprint AS fingerprint FROM email_changes
			WHERE subject_id = $1 AND used_at IS NULL AND replaced_at IS NULL AND expires_at > $6
			ORDER BY id DESC LIMIT 1) e ON TRUE
		WHERE id = $1`, args...),
		&sealed, &loc.Residency.NonUS, &loc.Residency.State, &loc.Residency.County,
		&loc.Employment.NonUS, &loc.Employment.State, &loc.Employment.County, new(bool), &siteChosen, &paid,
		&newEmail, &fingerprint, &passwordHash))
	if err != nil {
		return nil, notFound(err, "Subject")
	}
	sub.PendingEmail = pendingEmailOf(newEmail, fingerprint, passwordHash)
	var personal *portal.PersonalInfo
	if sealed != nil {
		if personal, err = openPersonalInfo(s.cfg.Sealer, subjectID, sealed); err != nil {
			return nil, err
		}
	}
	company, err := s.findCompany(ctx, s.db, sub.CompanyID)
	if err != nil {
		return nil, err
	}
	profile, err := s.FindProfile(ctx, subjectID)
	if err != nil {
		return nil, err
	}
	view := &portal.UserView{Subject: sub, Company: company, Profile: profile, Personal: personal}
	if company.PackageID != 0 {
		if view.Package, err = s.findPackage(ctx, s.db, company.PackageID, withoutFields); err != nil {
			return nil, err
		}
	}
	view.Finalization = s.finalizationOf(company.Preferences, view.Package, loc)
	view.StatusAfterIDV = view.Finalization.StatusAfterIDV(siteChosen, paid)
	return view, nil
}

// FindProfile returns the subject's profile with its orders, in one query
// (a subject has one profile).
func (s *SubjectService) FindProfile(ctx context.Context, subjectID int64) (*portal.Profile, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.id, p.number, p.status_id, o.id, COALESCE(o.package_id, 0), o.status_id
		FROM profiles p LEFT JOIN orders o ON o.profile_id = p.id WHERE p.subject_id = $1 ORDER BY o.id`, subjectID)
	if err != nil {
		return nil, fmt.Errorf("store: profile: %w", err)
	}
	defer rows.Close()
	var p *portal.Profile
	for rows.Next() {
		var row portal.Profile
		var orderID, packageID, statusID sql.NullInt64
		if err := rows.Scan(&row.ID, &row.Number, &row.StatusID, &orderID, &packageID, &statusID); err != nil {
			return nil, fmt.Errorf("store: profile: %w", err)
		}
		if p == nil {
			p = &row
		}
		if orderID.Valid {
			p.Orders = append(p.Orders, portal.Order{ID: orderID.Int64, PackageID: packageID.Int64, StatusID: portal.StatusID(statusID.Int64)})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: profile: %w", err)
	}
	if p == nil {
		return nil, notFound(sql.ErrNoRows, "Profile")
	}
	return p, nil
}

// lockSubject takes the subject's lock for the rest of the transaction and
// returns the subject's status. Every write that a status move's rules
// read (signing, deleting a signature, changing the location) and the move
// itself take it first, so a move never checks facts that a concurrent
// change is about to make false. On PostgreSQL it is the subject row's lock
// (SELECT ... FOR UPDATE, which also reads the latest committed status);
// on SQLite every transaction already holds the write lock from BEGIN.
func (s *conn) lockSubject(ctx context.Context, tx *sql.Tx, subjectID int64) (portal.StatusID, error) {
	var status portal.StatusID
	err := tx.QueryRowContext(ctx, `SELECT status_id FROM subjects WHERE id = $1`+s.dialect.forUpdate, subjectID).Scan(&status)
	if err != nil {
		return 0, notFound(err, "Subject")
	}
	return status, nil
}

// MoveSubjectStatus implements portal.SubjectService: it checks the move
// against the facts and makes it in one transaction holding the subject's
// lock (lockSubject); a submission with the declaration records its time.
func (s *SubjectService) MoveSubjectStatus(ctx context.Context, subjectID int64, move portal.StatusMove) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		from, err := s.lockSubject(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		facts, err := s.statusFacts(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		if err := portal.CheckStatusMove(from, move.To, facts); err != nil {
			return err
		}
		if err := s.setStatus(ctx, tx, subjectID, from, move.To); err != nil {
			return err
		}
		detail := fmt.Sprintf("from %d to %d", from, move.To)
		if move.Declared {
			detail += ", with the declaration"
		}
		if err := s.audit(ctx, tx, subjectID, "status.moved", detail); err != nil {
			return err
		}
		if event, ok := statusWebhooks[move.To]; ok {
			if err := s.queueWebhook(ctx, tx, subjectID, event, webhookStatus{move.To}); err != nil {
				return err
			}
		}
		if move.To != portal.StatusIDVStarted || !move.Declared {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE subjects SET declared_at = $1 WHERE id = $2`, ms(s.now()), subjectID); err != nil {
			return fmt.Errorf("store: declaration: %w", err)
		}
		return nil
	})
}

// statusWebhooks are the employers' events of the applicant's moves:
// setup done, and everything submitted (identity verification starts).
var statusWebhooks = map[portal.StatusID]string{
	portal.StatusSetupComplete: portal.WebhookSetupCompleted,
	portal.StatusIDVStarted:    portal.WebhookSubmitted,
}

// webhookStatus is the data of an applicant's event: their status then.
type webhookStatus struct {
	StatusID portal.StatusID `json:"statusId"`
}

// SetSubjectStatus moves the subject and its orders to a status without
// checking the move's rules (demo data and tests use it), but only from
// the status the caller expects; a concurrent move in between answers
// ECONFLICT instead of being overwritten.
func (s *DB) SetSubjectStatus(ctx context.Context, subjectID int64, from, to portal.StatusID) error {
	return s.tx(ctx, func(tx *sql.Tx) error { return s.setStatus(ctx, tx, subjectID, from, to) })
}

func (s *conn) setStatus(ctx context.Context, tx *sql.Tx, subjectID int64, from, to portal.StatusID) error {
	now := ms(s.now())
	res, err := tx.ExecContext(ctx, `UPDATE subjects SET status_id = $1, updated_at = $2 WHERE id = $3 AND status_id = $4`,
		to, now, subjectID, from)
	if err != nil {
		return fmt.Errorf("store: set status: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return portal.Errorf(portal.ECONFLICT, "Your status changed meanwhile; please reload the page.")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET status_id = $1, updated_at = $2
		WHERE profile_id IN (SELECT id FROM profiles WHERE subject_id = $3)`, to, now, subjectID); err != nil {
		return fmt.Errorf("store: set order status: %w", err)
	}
	return nil
}

// FindStatusFacts gathers what a status move of the subject depends on, as
// MoveSubjectStatus sees it.
func (s *DB) FindStatusFacts(ctx context.Context, subjectID int64) (portal.StatusFacts, error) {
	return s.statusFacts(ctx, s.db, subjectID)
}

func (s *conn) statusFacts(ctx context.Context, q queryer, subjectID int64) (portal.StatusFacts, error) {
	// Identity verification waits for every required checklist page; the
	// read model's facts hold the rest a move depends on.
	sf, f, err := s.subjectFactsAndLegalFile(ctx, q, subjectID)
	if err != nil {
		return portal.StatusFacts{}, err
	}
	fin := s.finalizationOf(f.Company.Preferences, sf.Package, sf.Location)
	facts := portal.StatusFacts{
		IncompletePages:      portal.IncompletePages(portal.BuildSubjectView(sf).Pages),
		HasPassword:          f.Subject.HasPassword,
		UnsignedDocuments:    sf.UnsignedDocuments,
		FullProfile:          sf.FullProfile,
		PersonalInfoSaved:    sf.PersonalInfoSaved,
		SiteSelectionAllowed: fin.SiteSelectionApplies(),
		PaymentRequired:      fin.PaymentRequired(),
	}
	facts.IDVFinished, facts.SiteChosen, facts.PaymentAuthorized, err = finalizationSteps(ctx, q, subjectID)
	if err != nil {
		return portal.StatusFacts{}, err
	}
	return facts, nil
}
