// Package sitesandbox is the built-in collection-site network: sites
// generated deterministically over the real US ZIP code centroids of
// internal/address, so a search near any ZIP code finds the same sites
// every time, on every instance.
//
// Every site is fictional: its name is made up, its street is a common
// street name with a hashed number, and its phone number is in the 555-01XX
// range kept for fiction. Nothing is stored; a site is computed from its id.
package sitesandbox

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	// The sites' opening hours are in their own time zones; the embedded
	// database answers where the host has none (a minimal container).
	_ "time/tzdata"

	"applicantportal/internal/address"
	"applicantportal/internal/portal"
)

// Network is the sandbox network (portal.SiteNetwork).
type Network struct{}

var _ portal.SiteNetwork = (*Network)(nil)

// New returns the sandbox network.
func New() *Network { return &Network{} }

// maxOffsetMiles bounds how far a site lies from its ZIP code's centroid.
const maxOffsetMiles = 1.8

// maxPerZIP is the most sites one ZIP code has; a site's id is the ZIP code
// times 10 plus its index, 1 to maxPerZIP.
const maxPerZIP = 3

// Search finds the sites within the radius of the ZIP code's centroid. It
// places every candidate site first (cheap: a hash and a distance), sorts
// them, and builds the full site only for the nearest that pass the
// filters.
func (n *Network) Search(ctx context.Context, q portal.SiteQuery) (*portal.SiteResults, error) {
	origin, err := checkQuery(q)
	if err != nil {
		return nil, err
	}
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	radius := float64(q.RadiusMiles)
	type candidate struct {
		id   int64
		dist float64
		zone string
	}
	var found []candidate
	// A site may lie up to maxOffsetMiles beyond its ZIP code's centroid.
	for z := range address.ZIPsNear(origin.Lat, origin.Lon, radius+maxOffsetMiles) {
		code, _ := strconv.Atoi(z.Code)
		for i := 1; i <= siteCount(code); i++ {
			id := int64(code)*10 + int64(i)
			lat, lon := position(id, z.Lat, z.Lon)
			if d := address.DistanceMiles(origin.Lat, origin.Lon, lat, lon); d <= radius {
				found = append(found, candidate{id, d, timeZone(z.State)})
			}
		}
	}
	slices.SortFunc(found, func(a, b candidate) int {
		if c := cmp.Compare(a.dist, b.dist); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	res := &portal.SiteResults{Origin: origin, Radius: q.RadiusMiles, Sites: []portal.SiteMatch{}}
	for _, c := range found {
		if len(res.Sites) == portal.MaxSites {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The filters read only the hours and services, which have hash
		// streams of their own: a site filtered out is never built.
		s := portal.Site{TimeZone: c.zone, Hours: hours(c.id), Services: services(c.id)}
		open := openAt(s, now)
		if (q.OpenNow && !open) || (q.Weekends && !s.OpenWeekends()) || (q.DOT && !s.Offers(portal.SiteDOT)) {
			continue
		}
		site, ok := build(c.id)
		if !ok {
			continue
		}
		res.Sites = append(res.Sites, portal.SiteMatch{Site: site, DistanceMiles: c.dist, OpenNow: open})
	}
	return res, nil
}

// checkQuery validates the ZIP code and the radius together, so the
// applicant reads both mistakes at once, and answers the ZIP code's centre.
func checkQuery(q portal.SiteQuery) (portal.SiteOrigin, error) {
	var fe portal.FieldErrors
	var origin portal.SiteOrigin
	switch z, ok := address.LookupZIP(q.ZIP); {
	case len(q.ZIP) != 5 || strings.Trim(q.ZIP, "0123456789") != "":
		fe.Add("zip", "Enter a 5-digit ZIP code.")
	case !ok:
		fe.Addf("zip", "We could not find ZIP code %s.", q.ZIP)
	case !z.HasCentroid:
		fe.Addf("zip", "We cannot search near ZIP code %s; try a nearby one.", q.ZIP)
	default:
		origin = portal.SiteOrigin{ZIP: z.Code, City: z.City, State: z.State, Lat: z.Lat, Lon: z.Lon}
	}
	if !slices.Contains(portal.SiteRadii, q.RadiusMiles) {
		fe.Add("radius", "Choose a radius of 5, 10, 25, 50 or 100 miles.")
	}
	return origin, fe.Err()
}

// Site builds the site with the id; an id the network never generates
// (zero, negative, past the last ZIP code, an index past the ZIP code's
// count) is ENOTFOUND.
func (n *Network) Site(ctx context.Context, id int64) (*portal.Site, error) {
	site, ok := build(id)
	if !ok {
		return nil, portal.Errorf(portal.ENOTFOUND, "Collection site %d does not exist.", id)
	}
	return &site, nil
}

// build computes the site with the id, if the network has it.
func build(id int64) (portal.Site, bool) {
	if id <= 0 || id > 99999*10+maxPerZIP {
		return portal.Site{}, false
	}
	code, index := int(id/10), int(id%10)
	if index < 1 || index > siteCount(code) {
		return portal.Site{}, false
	}
	z, ok := address.LookupZIP(fmt.Sprintf("%05d", code))
	if !ok || !z.HasCentroid {
		return portal.Site{}, false
	}
	r := newRand(id, "site")
	site := portal.Site{
		ID:       id,
		Address:  portal.SiteAddress{City: z.City, State: z.State, ZIP: z.Code},
		TimeZone: timeZone(z.State),
	}
	site.Name = fmt.Sprintf(pick(r, nameFormats), z.City)
	site.Address.Street = fmt.Sprintf("%d %s", 100+r.intn(9800), pick(r, streets))
	if r.intn(3) == 0 {
		site.Address.Street += fmt.Sprintf(", Suite %d", 100+r.intn(300))
	}
	site.Phone = fmt.Sprintf("(%s) 555-01%02d", pick(r, areaCodes), r.intn(100))
	site.Hours, site.Services = hours(id), services(id)
	site.Lat, site.Lon = position(id, z.Lat, z.Lon)
	return site, true
}

// siteCount is how many sites a ZIP code has: none for about two thirds,
// so a city's dozens of ZIP codes give it many sites and the countryside
// few.
func siteCount(code int) int {
	switch h := newRand(int64(code), "count").next() % 100; {
	case h < 64:
		return 0
	case h < 82:
		return 1
	case h < 94:
		return 2
	default:
		return 3
	}
}

// position places a site within maxOffsetMiles of its ZIP code's centroid
// (in its own hash stream, so a search can place a site without building
// it).
func position(id int64, lat, lon float64) (float64, float64) {
	r := newRand(id, "position")
	angle := r.float() * 2 * math.Pi
	// The square root spreads the sites evenly over the disc.
	dist := maxOffsetMiles * math.Sqrt(r.float())
	const milesPerDegree = 69.09
	dLat := dist * math.Cos(angle) / milesPerDegree
	dLon := dist * math.Sin(angle) / (milesPerDegree * math.Max(math.Cos(lat*math.Pi/180), 0.01))
	return round4(lat + dLat), round4(math.Mod(lon+dLon+540, 360) - 180)
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// hours are a site's opening hours: every weekday, some Saturday mornings,
// a few Sunday middays.
func hours(id int64) []portal.SiteHours {
	r := newRand(id, "hours")
	opens := []string{"07:00", "08:00"}[r.intn(2)]
	closes := []string{"17:00", "18:00"}[r.intn(2)]
	var out []portal.SiteHours
	if r.intn(100) < 10 {
		out = append(out, portal.SiteHours{Day: time.Sunday, Opens: "10:00", Closes: "14:00"})
	}
	for d := time.Monday; d <= time.Friday; d++ {
		out = append(out, portal.SiteHours{Day: d, Opens: opens, Closes: closes})
	}
	if r.intn(100) < 40 {
		out = append(out, portal.SiteHours{Day: time.Saturday, Opens: "08:00", Closes: "12:00"})
	}
	return out
}

// services are what a site collects: urine everywhere, the rest at some.
func services(id int64) []string {
	r := newRand(id, "services")
	out := []string{portal.SiteUrine}
	if r.intn(100) < 40 {
		out = append(out, portal.SiteHair)
	}
	if r.intn(100) < 50 {
		out = append(out, portal.SiteOralFluid)
	}
	if r.intn(100) < 60 {
		out = append(out, portal.SiteDOT)
	}
	return out
}

// openAt is s.OpenAt(t) with the site's time zone loaded once per process:
// OpenAt loads it on every call (a file read), which a search filtering
// thousands of sites would feel. OpenAt is handed the site's wall clock as
// UTC, which it has without a file.
func openAt(s portal.Site, t time.Time) bool {
	if loc := zone(s.TimeZone); loc != nil {
		w := t.In(loc)
		t = time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), time.UTC)
		s.TimeZone = "UTC"
	}
	return s.OpenAt(t)
}

var zones sync.Map // IANA name -> *time.Location

func zone(name string) *time.Location {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	zones.Store(name, loc)
	return loc
}

var nameFormats = []string{
	"%s Occupational Health",
	"LabPoint Collection – %s",
	"Sandbox Diagnostics %s",
	"%s Workplace Testing Center",
	"Meadowlark Specimen Services – %s",
	"%s Employer Health Clinic",
	"ClearCourse Collections %s",
}

var streets = []string{
	"Main St", "Oak Ave", "Maple Dr", "Cedar Blvd", "Park Ave", "Washington St", "Lake Rd", "Hill St",
	"Elm St", "Pine St", "Center St", "Industrial Pkwy", "Commerce Dr", "Medical Plaza Dr", "Market St",
	"Highland Ave", "Broadway", "Church St", "Mill Rd", "River Rd", "Jefferson Ave", "Franklin Blvd",
	"Sunset Blvd", "Airport Rd", "Union St",
}

// areaCodes are real area codes; with the 555-01XX numbers they still
// reach no one.
var areaCodes = []string{
	"201", "212", "213", "305", "312", "404", "415", "503", "512", "602", "612", "617", "702", "713",
	"720", "801", "813", "904", "916", "919",
}

// timeZone is the state's zone; the military codes (US-AA, US-AE, US-AP)
// have no place of their own and keep Eastern time.
func timeZone(state string) string {
	if z := portal.StateTimeZone(state); z != "" {
		return z
	}
	return "America/New_York"
}

// hash is FNV-1a over the id and a salt naming what it decides, so each
// attribute has its own stream.
func hash(id int64, salt string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < 8; i++ {
		h ^= uint64(byte(id >> (8 * i))) // #nosec G115 -- taking the low byte is the point (FNV-1a)
		h *= 1099511628211
	}
	for i := 0; i < len(salt); i++ {
		h ^= uint64(salt[i])
		h *= 1099511628211
	}
	return h
}

// rand is splitmix64 seeded by hash: deterministic draws for one site.
type rand struct{ state uint64 }

func newRand(id int64, salt string) *rand { return &rand{hash(id, salt)} }

func (r *rand) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rand) intn(n int) int { return int(r.next() % uint64(n)) } // #nosec G115 -- n > 0 at every call; the modulus fits int

// float is in [0, 1).
func (r *rand) float() float64 { return float64(r.next()>>11) / (1 << 53) }

func pick[T any](r *rand, list []T) T { return list[r.intn(len(list))] }
