package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"regexp"

	"applicantportal/internal/address"
	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

// HistoryService implements portal.HistoryService: the applicant's other
// names and address history, sealed in subject_records (kinds "aliases"
// and "addresses"), and the notification preference inside the sealed
// personal information.
type HistoryService struct{ *conn }

var _ portal.HistoryService = (*HistoryService)(nil)

// History hands out the history service.
func (db *DB) History() *HistoryService { return &HistoryService{db.conn} }

const (
	recordAliases   = "aliases"
	recordAddresses = "addresses"
)

// aliasesRecord and addressesRecord are the sealed documents (migration
// 00009).
type aliasesRecord struct {
	Aliases []portal.Alias `json:"aliases"`
}

type addressesRecord struct {
	Addresses []portal.Address `json:"addresses"`
}

// FindAliases implements portal.HistoryService.
func (s *HistoryService) FindAliases(ctx context.Context, subjectID int64) (*portal.AliasList, error) {
	var rec aliasesRecord
	saved, err := findRecord(ctx, s.db, s.cfg.Sealer, subjectID, recordAliases, &rec)
	if err != nil {
		return nil, err
	}
	return &portal.AliasList{Aliases: nonNil(rec.Aliases), Saved: saved}, nil
}

// SaveAliases implements portal.HistoryService: checked and stored in one
// transaction holding the subject's lock, so a submission cannot slip in
// between the status check and the write.
func (s *HistoryService) SaveAliases(ctx context.Context, subjectID int64, aliases []portal.Alias) (*portal.AliasList, error) {
	aliases = portal.NormalizeAliases(aliases)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockWritable(ctx, tx, subjectID); err != nil {
			return err
		}
		names, err := s.currentNames(ctx, tx, subjectID)
		if err != nil {
			return err
		}
		rules := portal.AliasRules{Today: s.now(), CurrentNames: names, ValidSuffix: lookup.IsSuffix}
		if err := portal.ValidateAliases(aliases, rules); err != nil {
			return err
		}
		ids := historyIDs{}
		for i := range aliases {
			if aliases[i].ID, err = ids.keepOrNew(aliases[i].ID); err != nil {
				return err
			}
		}
		if err := s.saveRecord(ctx, tx, subjectID, recordAliases, aliasesRecord{Aliases: aliases}); err != nil {
			return err
		}
		return s.deleteDraft(ctx, tx, subjectID, portal.DraftAliases)
	})
	if err != nil {
		return nil, err
	}
	return &portal.AliasList{Aliases: aliases, Saved: true}, nil
}

// FindAddresses implements portal.HistoryService.
func (s *HistoryService) FindAddresses(ctx context.Context, subjectID int64) (*portal.AddressHistory, error) {
	var rec addressesRecord
	saved, err := findRecord(ctx, s.db, s.cfg.Sealer, subjectID, recordAddresses, &rec)
	if err != nil {
		return nil, err
	}
	years, err := addressHistoryYears(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	return s.addressHistory(rec.Addresses, saved, years), nil
}

func (s *HistoryService) addressHistory(addresses []portal.Address, saved bool, years int) *portal.AddressHistory {
	addresses = nonNil(addresses)
	return &portal.AddressHistory{Addresses: addresses, Saved: saved, AddressCoverage: portal.Coverage(addresses, s.now(), years)}
}

// SaveAddresses implements portal.HistoryService, in one transaction
// holding the subject's lock.
func (s *HistoryService) SaveAddresses(ctx context.Context, subjectID int64, addresses []portal.Address, draft bool) (*portal.AddressHistory, error) {
	addresses = portal.NormalizeAddresses(addresses)
	var years int
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.lockWritable(ctx, tx, subjectID); err != nil {
			return err
		}
		var err error
		if years, err = addressHistoryYears(ctx, tx, subjectID); err != nil {
			return err
		}
		rules := portal.AddressRules{Today: s.now(), RequiredYears: years, CheckParts: address.CheckParts, Draft: draft}
		if err := portal.ValidateAddresses(addresses, rules); err != nil {
			return err
		}
		ids := historyIDs{}
		for i := range addresses {
			if addresses[i].ID, err = ids.keepOrNew(addresses[i].ID); err != nil {
				return err
			}
		}
		if err := s.saveRecord(ctx, tx, subjectID, recordAddresses, addressesRecord{Addresses: addresses}); err != nil {
			return err
		}
		// Saved for later (draft) or in full: either way the saved list now
		// holds what the applicant typed.
		return s.deleteDraft(ctx, tx, subjectID, portal.DraftAddresses)
	})
	if err != nil {
		return nil, err
	}
	return s.addressHistory(addresses, true, years), nil
}

// HistoryChecklist is what the subject read model (GET
// /api/v2/user/subject) takes of the history: the lists and their
// checklist pages.
type HistoryChecklist struct {
	Aliases       portal.AliasList
	Addresses     portal.AddressHistory
	AliasesPage   portal.ChecklistPage
	AddressesPage portal.ChecklistPage
}

// Checklist reads the subject's history and its checklist pages.
func (s *HistoryService) Checklist(ctx context.Context, subjectID int64) (*HistoryChecklist, error) {
	return s.historyChecklist(ctx, s.db, subjectID)
}

// historyChecklist is Checklist on q, so the read model and the status
// move's readiness can read it inside their transaction.
func (s *conn) historyChecklist(ctx context.Context, q queryer, subjectID int64) (*HistoryChecklist, error) {
	var aliases aliasesRecord
	aliasesSaved, err := findRecord(ctx, q, s.cfg.Sealer, subjectID, recordAliases, &aliases)
	if err != nil {
		return nil, err
	}
	var addresses addressesRecord
	addressesSaved, err := findRecord(ctx, q, s.cfg.Sealer, subjectID, recordAddresses, &addresses)
	if err != nil {
		return nil, err
	}
	years, err := addressHistoryYears(ctx, q, subjectID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	c := &HistoryChecklist{
		Aliases:   portal.AliasList{Aliases: nonNil(aliases.Aliases), Saved: aliasesSaved},
		Addresses: portal.AddressHistory{Addresses: nonNil(addresses.Addresses), Saved: addressesSaved, AddressCoverage: portal.Coverage(addresses.Addresses, now, years)},
	}
	var invalid error
	if addressesSaved {
		// Checked again today: the months pass, and the package's years or
		// the address data may have changed since the save.
		invalid = portal.ValidateAddresses(addresses.Addresses, portal.AddressRules{Today: now, RequiredYears: years, CheckParts: address.CheckParts})
	}
	c.AliasesPage = portal.AliasesPage(c.Aliases)
	c.AddressesPage = portal.AddressesPage(c.Addresses, invalid)
	return c, nil
}

// SaveNotificationMethod implements portal.HistoryService: the personal
// information's primaryNotificationMethod changes, the rest stays as saved.
// It applies whatever the subject's status: how the applicant wants to hear
// from the provider may change after submission.
func (s *HistoryService) SaveNotificationMethod(ctx context.Context, subjectID int64, m portal.NotificationMethod) (portal.NotificationMethod, error) {
	var out portal.NotificationMethod
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		p, err := findPersonalInfo(ctx, tx, s.cfg.Sealer, subjectID)
		if err != nil {
			return err
		}
		if p == nil {
			return portal.Errorf(portal.ECONFLICT, "Save your personal information first.")
		}
		// Only the notification part is checked, so the SSN rules do not
		// matter here.
		next, err := p.WithNotificationMethod(m, s.now(), personalRules(false, true))
		if err != nil {
			return err
		}
		out = next.PrimaryNotificationMethod
		if err := s.savePersonalInfo(ctx, tx, subjectID, &next); err != nil {
			return err
		}
		return s.dropDraftFields(ctx, tx, subjectID, portal.DraftAccount, accountNotificationFields)
	})
	return out, err
}

// lockWritable takes the subject's lock and refuses once the profile went
// past setup-complete.
func (s *conn) lockWritable(ctx context.Context, tx *sql.Tx, subjectID int64) error {
	status, err := s.lockSubject(ctx, tx, subjectID)
	if err != nil {
		return err
	}
	if !portal.DataWritable(status) {
		return portal.ErrProfileSubmitted
	}
	return nil
}

// currentNames are the names an alias may not repeat: the account's and the
// saved personal information's.
func (s *conn) currentNames(ctx context.Context, q queryer, subjectID int64) ([][2]string, error) {
	var first, last string
	if err := q.QueryRowContext(ctx, `SELECT first_name, last_name FROM subjects WHERE id = $1`, subjectID).Scan(&first, &last); err != nil {
		return nil, notFound(err, "Subject")
	}
	names := [][2]string{{first, last}}
	p, err := findPersonalInfo(ctx, q, s.cfg.Sealer, subjectID)
	if err != nil {
		return nil, err
	}
	if p != nil {
		names = append(names, [2]string{p.FirstName, p.LastName})
	}
	return names, nil
}

// addressHistoryYears is how many years of addresses the subject's
// company's default package needs.
func addressHistoryYears(ctx context.Context, q queryer, subjectID int64) (int, error) {
	var years int
	err := q.QueryRowContext(ctx, `SELECT COALESCE((SELECT p.address_history_years FROM packages p
		JOIN subjects s ON s.company_id = p.company_id WHERE s.id = $1 AND p.is_default = TRUE), $2)`,
		subjectID, portal.DefaultAddressHistoryYears).Scan(&years)
	if err != nil {
		return 0, fmt.Errorf("store: address history years: %w", err)
	}
	if years <= 0 {
		years = portal.DefaultAddressHistoryYears
	}
	return years, nil
}

// SetAddressHistoryYears sets how many years of addresses a package needs
// (operators, demo data and tests).
func (s *DB) SetAddressHistoryYears(ctx context.Context, packageID int64, years int) error {
	if years <= 0 || years > 99 {
		return portal.Errorf(portal.EINVALID, "Address history years must be between 1 and 99.")
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE packages SET address_history_years = $1 WHERE id = $2`, years, packageID)
		if err != nil {
			return fmt.Errorf("store: address history years: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return portal.Errorf(portal.ENOTFOUND, "Package not found.")
		}
		// The cache holds no address history years, but every change
		// of a package is published: no reader has to know which
		// columns the cache keeps.
		return s.catalogChanged(ctx, tx)
	})
}

var historyIDRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

// historyIDs are the ids given out in one list.
type historyIDs map[string]bool

// keepOrNew keeps an id the server gave (16 hex digits) and gives a new one
// to anything else (and to a repeated id), so ids stay unguessable,
// well-formed and unique in their list.
func (ids historyIDs) keepOrNew(id string) (string, error) {
	if historyIDRE.MatchString(id) && !ids[id] {
		ids[id] = true
		return id, nil
	}
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("store: random id: %w", err)
	}
	id = hex.EncodeToString(b)
	ids[id] = true
	return id, nil
}

// nonNil answers an empty list rather than JSON null.
func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
