package portal

import (
	"context"
	"time"
)

// Collection-site services: what a site can collect.
const (
	SiteUrine     = "urine"
	SiteHair      = "hair"
	SiteOralFluid = "oral_fluid"
	SiteDOT       = "dot" // DOT-regulated collections
)

// SiteRadii are the search radii (miles) the applicant may pick;
// DefaultSiteRadius is the first search's. MaxSites bounds one answer.
var SiteRadii = []int{5, 10, 25, 50, 100}

const (
	DefaultSiteRadius = 25
	MaxSites          = 50
)

// SiteHours are a site's opening hours on one day of the week, in its
// local time ("07:00" to "17:00"); a day it is closed has none.
type SiteHours struct {
	Day    time.Weekday
	Opens  string
	Closes string
}

// SiteAddress is where a site is.
type SiteAddress struct {
	Street string
	City   string
	State  string // state code, "US-CA"
	ZIP    string
}

// Site is a drug-test collection site.
type Site struct {
	// ID is a positive number the network gives the site.
	ID       int64
	Name     string
	Address  SiteAddress
	Phone    string // (XXX) XXX-XXXX
	TimeZone string // IANA name, "America/Los_Angeles"
	Hours    []SiteHours
	Services []string // SiteUrine, SiteHair, SiteOralFluid, SiteDOT
	Lat, Lon float64
}

// OpenAt reports whether the site is open at t (in its own time zone).
func (s Site) OpenAt(t time.Time) bool {
	if loc, err := time.LoadLocation(s.TimeZone); err == nil {
		t = t.In(loc)
	}
	now := t.Format("15:04")
	for _, h := range s.Hours {
		if h.Day == t.Weekday() && h.Opens <= now && now < h.Closes {
			return true
		}
	}
	return false
}

// OpenWeekends reports whether the site opens on Saturday or Sunday.
func (s Site) OpenWeekends() bool {
	for _, h := range s.Hours {
		if h.Day == time.Saturday || h.Day == time.Sunday {
			return true
		}
	}
	return false
}

// Offers reports whether the site offers a service.
func (s Site) Offers(service string) bool {
	for _, v := range s.Services {
		if v == service {
			return true
		}
	}
	return false
}

// SiteQuery is a search near a ZIP code.
type SiteQuery struct {
	ZIP         string
	RadiusMiles int // one of SiteRadii
	OpenNow     bool
	Weekends    bool
	DOT         bool
	Now         time.Time // what "open now" means
}

// SiteOrigin is the searched ZIP code's centre.
type SiteOrigin struct {
	ZIP      string
	City     string
	State    string
	Lat, Lon float64
}

// SiteMatch is a site found, with its distance from the origin.
type SiteMatch struct {
	Site
	DistanceMiles float64
	OpenNow       bool
}

// SiteResults answer a search: the origin and the sites within the radius,
// nearest first, at most MaxSites.
type SiteResults struct {
	Origin SiteOrigin
	Radius int
	Sites  []SiteMatch
}

// SiteNetwork is the outside collection-site network: the sandbox built
// into portal, or an adapter for a real one.
type SiteNetwork interface {
	// Search finds the sites near a ZIP code. A malformed or unknown ZIP
	// code, or a radius not in SiteRadii, is EINVALID with fields "zip"
	// or "radius".
	Search(ctx context.Context, q SiteQuery) (*SiteResults, error)
	// Site finds one site; an id that does not exist is ENOTFOUND.
	Site(ctx context.Context, id int64) (*Site, error)
}

// SiteChoice is the collection site an applicant chose.
type SiteChoice struct {
	Site     Site // as it was when chosen
	ChosenAt time.Time
	// CollectedAt is when the specimen was collected (an operator records
	// it); after that the site can no longer change.
	CollectedAt *time.Time
	// Changeable reports whether the applicant may choose another site
	// now.
	Changeable bool
}

// CollectionSiteService keeps the applicants' chosen sites.
type CollectionSiteService interface {
	// Search finds sites for the applicant (only while choosing one, in
	// MRO-site-selection-started or finalization-complete; ECONFLICT
	// otherwise).
	Search(ctx context.Context, subjectID int64, q SiteQuery) (*SiteResults, error)
	// Choice answers the applicant's chosen site; ENOTFOUND when none.
	Choice(ctx context.Context, subjectID int64) (*SiteChoice, error)
	// CheckChoose answers nil when Choose would accept a site now, and
	// otherwise the ECONFLICT it would answer (Finalization.SiteChangeable).
	CheckChoose(ctx context.Context, subjectID int64) error
	// Choose saves the site the applicant picked when
	// Finalization.SiteChangeable allows it; ECONFLICT otherwise. A site id
	// that does not exist is EINVALID on field "siteId".
	Choose(ctx context.Context, subjectID, siteID int64) (*SiteChoice, error)
}
