package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"applicantportal/internal/portal"
)

// CollectionSiteService keeps the applicants' chosen collection sites
// (portal.CollectionSiteService).
type CollectionSiteService struct {
	*conn
	network portal.SiteNetwork
}

var _ portal.CollectionSiteService = (*CollectionSiteService)(nil)

// CollectionSites returns the collection-site service.
func (db *DB) CollectionSites(n portal.SiteNetwork) *CollectionSiteService {
	return &CollectionSiteService{db.conn, n}
}

// Search asks the network, but only while the applicant chooses a site.
func (s *CollectionSiteService) Search(ctx context.Context, subjectID int64, q portal.SiteQuery) (*portal.SiteResults, error) {
	status, err := s.status(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	if status != portal.StatusMROSiteSelection && status != portal.StatusFinalizationComplete {
		return nil, portal.Errorf(portal.ECONFLICT, "Collection sites can be searched only while you choose one.")
	}
	if q.Now.IsZero() {
		q.Now = s.now()
	}
	return s.network.Search(ctx, q)
}

// Choice answers the chosen site as it was saved, and whether the
// applicant may change it now.
func (s *CollectionSiteService) Choice(ctx context.Context, subjectID int64) (*portal.SiteChoice, error) {
	c, err := s.choice(ctx, s.db, subjectID)
	if err != nil {
		return nil, err
	}
	switch err := s.changeable(ctx, s.db, subjectID, c); {
	case err == nil:
		c.Changeable = true
	case portal.ErrorCode(err) != portal.ECONFLICT:
		return nil, err
	}
	return c, nil
}

// Choose checks the status, asks the network for the site outside any
// transaction (a real network is a remote call), then saves it with a
// snapshot of the site in one transaction that checks the status again
// under the subject's lock.
func (s *CollectionSiteService) Choose(ctx context.Context, subjectID, siteID int64) (*portal.SiteChoice, error) {
	if err := s.checkChoose(ctx, s.db, subjectID); err != nil {
		return nil, err
	}
	site, err := s.network.Site(ctx, siteID)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		var fe portal.FieldErrors
		fe.Add("siteId", "This collection site does not exist. Search again and choose one from the list.")
		return nil, fe.Err()
	}
	if err != nil {
		return nil, err
	}
	snapshot, err := json.Marshal(site)
	if err != nil {
		return nil, fmt.Errorf("store: collection site %d: %w", siteID, err)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.lockSubject(ctx, tx, subjectID); err != nil {
			return err
		}
		if err := s.checkChoose(ctx, tx, subjectID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO subject_collection_sites (subject_id, site_id, site, chosen_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (subject_id) DO UPDATE SET site_id = excluded.site_id, site = excluded.site, chosen_at = excluded.chosen_at`,
			subjectID, site.ID, string(snapshot), ms(s.now()))
		if err != nil {
			return fmt.Errorf("store: choose collection site: %w", err)
		}
		return s.audit(ctx, tx, subjectID, "collection-site.chosen", fmt.Sprintf("site %d", site.ID))
	})
	if err != nil {
		return nil, err
	}
	return s.Choice(ctx, subjectID)
}

// CheckChoose answers nil when Choose would accept a site now, and
// otherwise the ECONFLICT it would answer.
func (s *CollectionSiteService) CheckChoose(ctx context.Context, subjectID int64) error {
	return s.checkChoose(ctx, s.db, subjectID)
}

// checkChoose is changeable with any earlier choice read from q.
func (s *CollectionSiteService) checkChoose(ctx context.Context, q queryer, subjectID int64) error {
	c, err := s.choice(ctx, q, subjectID)
	if err != nil && portal.ErrorCode(err) != portal.ENOTFOUND {
		return err
	}
	return s.changeable(ctx, q, subjectID, c)
}

// changeable answers portal.Finalization.SiteChangeable for the subject
// and its choice (nil when none).
func (s *CollectionSiteService) changeable(ctx context.Context, q queryer, subjectID int64, c *portal.SiteChoice) error {
	sub, fin, err := s.finalization(ctx, q, subjectID)
	if err != nil {
		return err
	}
	return fin.SiteChangeable(sub.StatusID, c)
}

func (s *CollectionSiteService) status(ctx context.Context, q queryer, subjectID int64) (portal.StatusID, error) {
	var status portal.StatusID
	if err := q.QueryRowContext(ctx, `SELECT status_id FROM subjects WHERE id = $1`, subjectID).Scan(&status); err != nil {
		return 0, notFound(err, "Subject")
	}
	return status, nil
}

// choice reads the saved choice; ENOTFOUND when there is none.
func (s *CollectionSiteService) choice(ctx context.Context, q queryer, subjectID int64) (*portal.SiteChoice, error) {
	var site string
	var chosen int64
	var collected sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT site, chosen_at, collected_at FROM subject_collection_sites WHERE subject_id = $1`, subjectID).
		Scan(&site, &chosen, &collected)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, portal.Errorf(portal.ENOTFOUND, "No collection site chosen yet.")
	}
	if err != nil {
		return nil, fmt.Errorf("store: collection site: %w", err)
	}
	c := &portal.SiteChoice{ChosenAt: fromMS(chosen), CollectedAt: nullTime(collected)}
	if err := json.Unmarshal([]byte(site), &c.Site); err != nil {
		return nil, fmt.Errorf("store: collection site of subject %d: %w", subjectID, err)
	}
	return c, nil
}
