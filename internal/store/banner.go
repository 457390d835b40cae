package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"applicantportal/internal/portal"
)

// BannerService implements portal.BannerService for applicants; operators
// post and clear banners through OperatorBannerService.
type BannerService struct{ *conn }

var _ portal.BannerService = (*BannerService)(nil)

// OperatorBannerService is portal.OperatorBannerService on the store.
type OperatorBannerService struct{ db *DB }

var _ portal.OperatorBannerService = (*OperatorBannerService)(nil)

// Banners hands out the banner service.
func (db *DB) Banners() *BannerService { return &BannerService{db.conn} }

// ActiveBanner returns the newest banner shown to the subject (everyone's
// or their company's, not ended) that they have not dismissed, or nil.
func (s *BannerService) ActiveBanner(ctx context.Context, subjectID int64) (*portal.Banner, error) {
	var b portal.Banner
	err := s.db.QueryRowContext(ctx, `SELECT b.id, b.message FROM banners b
		WHERE b.active = TRUE AND (b.ends_at IS NULL OR b.ends_at > $2)
			AND (b.company_id IS NULL OR b.company_id = (SELECT company_id FROM subjects WHERE id = $1))
			AND NOT EXISTS (SELECT 1 FROM banner_dismissals d WHERE d.banner_id = b.id AND d.subject_id = $1)
		ORDER BY b.id DESC LIMIT 1`, subjectID, ms(s.now())).Scan(&b.ID, &b.Message)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: active banner: %w", err)
	}
	return &b, nil
}

// DismissBanner hides a banner for one subject, for good: the dismissal
// stays when the banner is read again. Another company's banner is
// ENOTFOUND, as it was never shown to them.
func (s *BannerService) DismissBanner(ctx context.Context, subjectID, bannerID int64) error {
	var one int
	if err := s.db.QueryRowContext(ctx, `SELECT 1 FROM banners b WHERE b.id = $1
		AND (b.company_id IS NULL OR b.company_id = (SELECT company_id FROM subjects WHERE id = $2))`, bannerID, subjectID).Scan(&one); err != nil {
		return notFound(err, "Banner")
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO banner_dismissals (banner_id, subject_id, dismissed_at) VALUES ($1, $2, $3)
		ON CONFLICT (banner_id, subject_id) DO NOTHING`, bannerID, subjectID, ms(s.now())); err != nil {
		return fmt.Errorf("store: dismiss banner: %w", err)
	}
	return nil
}

// SetBanner replaces every active maintenance banner with one for
// everyone; an empty message clears them.
func (s *DB) SetBanner(ctx context.Context, message string) (*portal.Banner, error) {
	var b *portal.Banner
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE banners SET active = FALSE WHERE active = TRUE`); err != nil {
			return fmt.Errorf("store: clear banners: %w", err)
		}
		if message == "" {
			return nil
		}
		b = &portal.Banner{Message: message}
		if err := tx.QueryRowContext(ctx, `INSERT INTO banners (message, active, created_at) VALUES ($1, TRUE, $2) RETURNING id`,
			message, ms(s.now())).Scan(&b.ID); err != nil {
			return err
		}
		return s.auditCompany(ctx, tx, 0, "banner.posted", fmt.Sprintf("banner %d, for everyone", b.ID))
	})
	return b, err
}

// SetBanner is `portal banner --message`: a banner for everyone, checked
// as PostBanner checks one, or, for an empty message, the end of every
// banner.
func (s *OperatorBannerService) SetBanner(ctx context.Context, message string) (*portal.Banner, error) {
	if strings.TrimSpace(message) == "" {
		return nil, s.ClearBanner(ctx, 0, 0)
	}
	req, err := checkBanner(portal.BannerRequest{Message: message}, s.db.now())
	if err != nil {
		return nil, err
	}
	b, err := s.db.SetBanner(ctx, req.Message)
	if err == nil {
		// It replaced the banners of every audience, and everyone
		// listens to the topic of the banners for everyone.
		s.publish(ctx, 0, "posted")
	}
	return b, err
}

// publish tells the open pages of the audience's applicants that their
// banner changed, after the change is saved: a failure to tell is logged,
// not returned (a page reads the banner again when it reloads). It goes
// through the database, so a `portal banner` command reaches `portal
// serve`'s streams.
func (s *OperatorBannerService) publish(ctx context.Context, companyID int64, kind string) {
	payload, err := json.Marshal(portal.BannerEvent{Kind: kind})
	if err == nil {
		err = s.db.Publish(ctx, portal.BannerTopic(companyID), payload)
	}
	if err != nil {
		s.db.cfg.Logger.Warn("banner: publishing an event failed", "company", companyID, "kind", kind, "err", err)
	}
}

// companyAudience is a banner's company_id: NULL for everyone.
func companyAudience(companyID int64) sql.NullInt64 {
	return sql.NullInt64{Int64: companyID, Valid: companyID != 0}
}

const operatorBannerColumns = `id, message, COALESCE(company_id, 0), created_at, ends_at`

func scanOperatorBanner(row interface{ Scan(...any) error }) (*portal.OperatorBanner, error) {
	var b portal.OperatorBanner
	var created int64
	var ends sql.NullInt64
	if err := row.Scan(&b.ID, &b.Message, &b.CompanyID, &created, &ends); err != nil {
		return nil, err
	}
	b.CreatedAt, b.EndsAt = fromMS(created), nullTime(ends)
	return &b, nil
}

// PostBanner ends the active banners of the request's audience and adds
// the new one, in one transaction.
func (s *OperatorBannerService) PostBanner(ctx context.Context, req portal.BannerRequest) (*portal.OperatorBanner, error) {
	now := s.db.now()
	req, err := checkBanner(req, now)
	if err != nil {
		return nil, err
	}
	var b *portal.OperatorBanner
	err = s.db.tx(ctx, func(tx *sql.Tx) error {
		if req.CompanyID != 0 {
			var one int
			if err := tx.QueryRowContext(ctx, `SELECT 1 FROM companies WHERE id = $1`, req.CompanyID).Scan(&one); err != nil {
				return notFound(err, "Company")
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE banners SET active = FALSE WHERE active = TRUE AND COALESCE(company_id, 0) = $1`,
			req.CompanyID); err != nil {
			return fmt.Errorf("store: replace banner: %w", err)
		}
		var ends sql.NullInt64
		if req.EndsAt != nil {
			ends = sql.NullInt64{Int64: ms(*req.EndsAt), Valid: true}
		}
		var err error
		b, err = scanOperatorBanner(tx.QueryRowContext(ctx, `INSERT INTO banners (message, active, created_at, ends_at, company_id)
			VALUES ($1, TRUE, $2, $3, $4) RETURNING `+operatorBannerColumns,
			req.Message, ms(now), ends, companyAudience(req.CompanyID)))
		if err != nil {
			return fmt.Errorf("store: post banner: %w", err)
		}
		return s.db.auditCompany(ctx, tx, req.CompanyID, "banner.posted", fmt.Sprintf("banner %d", b.ID))
	})
	if err != nil {
		return nil, err
	}
	s.publish(ctx, req.CompanyID, "posted")
	return b, nil
}

// checkBanner answers the request with its message trimmed, or EINVALID.
func checkBanner(req portal.BannerRequest, now time.Time) (portal.BannerRequest, error) {
	req.Message = strings.TrimSpace(req.Message)
	var fe portal.FieldErrors
	switch n := utf8.RuneCountInString(req.Message); {
	case n == 0:
		fe.Add("message", "Write the banner's message.")
	case n > portal.MaxBannerLength:
		fe.Addf("message", "A banner is at most %d characters (this one has %d).", portal.MaxBannerLength, n)
	}
	switch {
	case req.EndsAt == nil:
	case !req.EndsAt.After(now):
		fe.Add("endsAt", "The end time has passed; give a time in the future.")
	case req.EndsAt.UTC().Year() > 9999:
		// RFC 3339 has four-digit years: a later end could not be answered.
		fe.Add("endsAt", "Give an end before the year 10000.")
	}
	return req, fe.Err()
}

// ClearBanner ends one banner, or with bannerID 0 every active banner of
// companyID's audience (every banner when companyID is 0). Ending a banner
// that has ended already is no error.
func (s *OperatorBannerService) ClearBanner(ctx context.Context, companyID, bannerID int64) error {
	// The audience told: the one cleared, or the banner's own.
	audience := companyID
	err := s.db.tx(ctx, func(tx *sql.Tx) error {
		if bannerID == 0 {
			_, err := tx.ExecContext(ctx, `UPDATE banners SET active = FALSE WHERE active = TRUE
				AND (CAST($1 AS BIGINT) = 0 OR company_id = $1)`, companyID)
			if err != nil {
				return fmt.Errorf("store: clear banners: %w", err)
			}
			return s.db.auditCompany(ctx, tx, companyID, "banner.cleared", "every active banner")
		}
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(company_id, 0) FROM banners WHERE id = $1 AND (CAST($2 AS BIGINT) = 0 OR company_id = $2)`,
			bannerID, companyID).Scan(&audience); err != nil {
			return notFound(err, "Banner")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE banners SET active = FALSE WHERE id = $1`, bannerID); err != nil {
			return fmt.Errorf("store: clear banner: %w", err)
		}
		return s.db.auditCompany(ctx, tx, audience, "banner.cleared", fmt.Sprintf("banner %d", bannerID))
	})
	if err != nil {
		return err
	}
	s.publish(ctx, audience, "cleared")
	return nil
}

// FindBanners lists the banners of companyID (every banner when 0) that are
// still shown, newest first.
func (s *OperatorBannerService) FindBanners(ctx context.Context, companyID int64) ([]portal.OperatorBanner, error) {
	rows, err := s.db.db.QueryContext(ctx, `SELECT `+operatorBannerColumns+` FROM banners
		WHERE active = TRUE AND (ends_at IS NULL OR ends_at > $1) AND (CAST($2 AS BIGINT) = 0 OR company_id = $2)
		ORDER BY id DESC`, ms(s.db.now()), companyID)
	if err != nil {
		return nil, fmt.Errorf("store: list banners: %w", err)
	}
	defer rows.Close()
	var out []portal.OperatorBanner
	for rows.Next() {
		b, err := scanOperatorBanner(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list banners: %w", err)
		}
		out = append(out, *b)
	}
	return out, rows.Err()
}
