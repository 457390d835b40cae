package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"applicantportal/internal/portal"
)

// BannerService implements portal.BannerService for applicants; operators
// set the banner with DB.SetBanner.
type BannerService struct{ *conn }

var _ portal.BannerService = (*BannerService)(nil)

// Banners hands out the banner service.
func (db *DB) Banners() *BannerService { return &BannerService{db.conn} }

// ActiveBanner returns the newest active maintenance banner the subject has
// not dismissed, or nil.
func (s *BannerService) ActiveBanner(ctx context.Context, subjectID int64) (*portal.Banner, error) {
	var b portal.Banner
	err := s.db.QueryRowContext(ctx, `SELECT b.id, b.message FROM banners b
		WHERE b.active = TRUE AND NOT EXISTS (
			SELECT 1 FROM banner_dismissals d WHERE d.banner_id = b.id AND d.subject_id = $1)
		ORDER BY b.id DESC LIMIT 1`, subjectID).Scan(&b.ID, &b.Message)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("store: active banner: %w", err)
	}
	return &b, nil
}

// DismissBanner hides an active banner for one subject.
func (s *BannerService) DismissBanner(ctx context.Context, subjectID, bannerID int64) error {
	var active bool
	if err := s.db.QueryRowContext(ctx, `SELECT active FROM banners WHERE id = $1`, bannerID).Scan(&active); err != nil {
		return notFound(err, "Banner")
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO banner_dismissals (banner_id, subject_id, dismissed_at) VALUES ($1, $2, $3)
		ON CONFLICT (banner_id, subject_id) DO NOTHING`, bannerID, subjectID, ms(s.now())); err != nil {
		return fmt.Errorf("store: dismiss banner: %w", err)
	}
	return nil
}

// SetBanner replaces the active maintenance banner; an empty message
// clears it.
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
		return tx.QueryRowContext(ctx, `INSERT INTO banners (message, active, created_at) VALUES ($1, TRUE, $2) RETURNING id`,
			message, ms(s.now())).Scan(&b.ID)
	})
	return b, err
}
