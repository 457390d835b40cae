package portal

import (
	"context"
	"strconv"
	"time"
)

// Banner is a maintenance message shown to logged-in applicants.
type Banner struct {
	ID      int64  `json:"id"`
	Message string `json:"message"`
}

// BannerService keeps the maintenance banner.
type BannerService interface {
	ActiveBanner(ctx context.Context, subjectID int64) (*Banner, error)
	DismissBanner(ctx context.Context, subjectID, bannerID int64) error
}

// BannerTopic is the events topic (Events) of the banners of one company's
// applicants; companyID 0 is the topic of the banners for everyone. An
// applicant's open page listens to both, so a banner change is published
// once, to its audience. The payload is a BannerEvent.
func BannerTopic(companyID int64) string {
	if companyID == 0 {
		return "banner.all"
	}
	return "banner." + strconv.FormatInt(companyID, 10)
}

// BannerEvent is the notice published on BannerTopic when a banner is
// posted or ended; subscribers read the active banner afresh.
type BannerEvent struct {
	Kind string `json:"kind"` // "posted" or "cleared"
}

// OperatorBannerService is the operators' side of the banners: they post,
// list and clear them.
type OperatorBannerService interface {
	// Each change is published on BannerTopic of its audience.
	//
	// SetBanner replaces the maintenance banner every logged-in applicant
	// sees; an empty message clears it (and the answer is nil).
	// Superseded by PostBanner and ClearBanner.
	SetBanner(ctx context.Context, message string) (*Banner, error)
	// PostBanner shows a maintenance banner to logged-in applicants (of
	// req.CompanyID, or everyone's when 0) until req.EndsAt (or until
	// cleared), replacing the active banner of the same audience. An
	// empty or over-long message, or an end in the past, is EINVALID.
	PostBanner(ctx context.Context, req BannerRequest) (*OperatorBanner, error)
	// ClearBanner ends a banner now; bannerID 0 ends every active banner
	// of companyID's audience (of every audience when companyID is 0).
	// An unknown banner, or one of another company, is ENOTFOUND.
	ClearBanner(ctx context.Context, companyID, bannerID int64) error
	// FindBanners lists the banners still shown or scheduled, newest
	// first.
	FindBanners(ctx context.Context, companyID int64) ([]OperatorBanner, error)
}

// MaxBannerLength is the longest maintenance banner, in characters.
const MaxBannerLength = 500

// BannerRequest is a maintenance banner an operator posts.
type BannerRequest struct {
	Message string
	// EndsAt is when the banner stops showing by itself; nil shows it
	// until it is cleared.
	EndsAt *time.Time
	// CompanyID limits the banner to one company's applicants; 0 shows
	// it to everyone.
	CompanyID int64
}

// OperatorBanner is a banner as operators see it.
type OperatorBanner struct {
	Banner
	CompanyID int64 // 0: every applicant
	CreatedAt time.Time
	EndsAt    *time.Time
}
