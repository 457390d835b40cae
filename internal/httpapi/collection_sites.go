package httpapi

import (
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"applicantportal/internal/portal"
)

// registerCollectionSiteRoutes serves the collection-site search and the
// applicant's chosen site.
func (s *Server) registerCollectionSiteRoutes(mux *routes) {
	if s.svc.CollectionSites == nil {
		return
	}
	mux.HandleFunc("GET /api/v2/collection-sites", s.require(applicantOnly, s.handleCollectionSiteSearch))
	mux.HandleFunc("GET /api/v2/user/collection-site", s.require(applicantOnly, s.handleCollectionSiteGet))
	mux.HandleFunc("PUT /api/v2/user/collection-site", s.require(applicantOnly, s.handleCollectionSitePut))
}

type siteAddressJSON struct {
	Street string `json:"street"`
	City   string `json:"city"`
	State  string `json:"state"`
	ZIP    string `json:"zip"`
}

type siteHoursJSON struct {
	Day    string `json:"day"`
	Opens  string `json:"opens"`
	Closes string `json:"closes"`
}

type siteJSON struct {
	ID       int64           `json:"id"`
	Name     string          `json:"name"`
	Address  siteAddressJSON `json:"address"`
	Phone    string          `json:"phone"`
	TimeZone string          `json:"timeZone"`
	Hours    []siteHoursJSON `json:"hours"`
	Services []string        `json:"services"`
	Lat      float64         `json:"lat"`
	Lon      float64         `json:"lon"`
}

type siteMatchJSON struct {
	siteJSON
	DistanceMiles float64 `json:"distanceMiles"`
	OpenNow       bool    `json:"openNow"`
}

type siteOriginJSON struct {
	ZIP   string  `json:"zip"`
	City  string  `json:"city"`
	State string  `json:"state"`
	Lat   float64 `json:"lat"`
	Lon   float64 `json:"lon"`
}

type siteResultsJSON struct {
	Origin siteOriginJSON  `json:"origin"`
	Radius int             `json:"radius"`
	Sites  []siteMatchJSON `json:"sites"`
}

type siteChoiceJSON struct {
	Site        *siteJSON `json:"site"`
	ChosenAt    *string   `json:"chosenAt"`
	CollectedAt *string   `json:"collectedAt"`
	Changeable  bool      `json:"changeable"`
}

// newSiteJSON lists the hours Monday first, as a week is read in the US
// workplace.
func newSiteJSON(site portal.Site) siteJSON {
	out := siteJSON{ID: site.ID, Name: site.Name, Phone: site.Phone, TimeZone: site.TimeZone, Lat: site.Lat, Lon: site.Lon,
		Address:  siteAddressJSON{Street: site.Address.Street, City: site.Address.City, State: site.Address.State, ZIP: site.Address.ZIP},
		Hours:    []siteHoursJSON{},
		Services: site.Services,
	}
	if out.Services == nil {
		out.Services = []string{}
	}
	hours := slices.Clone(site.Hours)
	monday := func(d time.Weekday) int { return (int(d) + 6) % 7 }
	slices.SortStableFunc(hours, func(a, b portal.SiteHours) int { return monday(a.Day) - monday(b.Day) })
	for _, h := range hours {
		out.Hours = append(out.Hours, siteHoursJSON{Day: h.Day.String(), Opens: h.Opens, Closes: h.Closes})
	}
	return out
}

// siteQuery reads the search's query string. A radius that is not a whole
// number reaches the network as 0, which it refuses with the same message
// as any other radius it does not offer.
func siteQuery(r *http.Request) portal.SiteQuery {
	v := r.URL.Query()
	q := portal.SiteQuery{ZIP: v.Get("zip"), RadiusMiles: portal.DefaultSiteRadius}
	if text := v.Get("radius"); text != "" {
		q.RadiusMiles, _ = strconv.Atoi(text)
	}
	on := func(name string) bool { return v.Get(name) == "true" || v.Get(name) == "1" }
	q.OpenNow, q.Weekends, q.DOT = on("openNow"), on("weekends"), on("dot")
	return q
}

func (s *Server) handleCollectionSiteSearch(w http.ResponseWriter, r *http.Request) {
	res, err := s.svc.CollectionSites.Search(r.Context(), callerFrom(r.Context()).SubjectID, siteQuery(r))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	o := res.Origin
	out := siteResultsJSON{Origin: siteOriginJSON{ZIP: o.ZIP, City: o.City, State: o.State, Lat: o.Lat, Lon: o.Lon},
		Radius: res.Radius, Sites: []siteMatchJSON{}}
	for _, m := range res.Sites {
		out.Sites = append(out.Sites, siteMatchJSON{siteJSON: newSiteJSON(m.Site), DistanceMiles: math.Round(m.DistanceMiles*10) / 10, OpenNow: m.OpenNow})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleCollectionSiteGet(w http.ResponseWriter, r *http.Request) {
	subjectID := callerFrom(r.Context()).SubjectID
	c, err := s.svc.CollectionSites.Choice(r.Context(), subjectID)
	if portal.ErrorCode(err) == portal.ENOTFOUND {
		// No site yet: changeable says whether PUT would take a first one.
		err := s.svc.CollectionSites.CheckChoose(r.Context(), subjectID)
		if err != nil && portal.ErrorCode(err) != portal.ECONFLICT {
			s.Error(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, siteChoiceJSON{Changeable: err == nil})
		return
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeSiteChoice(w, c)
}

func (s *Server) handleCollectionSitePut(w http.ResponseWriter, r *http.Request) {
	var req struct {
		SiteID *int64 `json:"siteId"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if req.SiteID == nil {
		s.Error(w, r, fieldError("siteId", "Choose a collection site from the list."))
		return
	}
	c, err := s.svc.CollectionSites.Choose(r.Context(), callerFrom(r.Context()).SubjectID, *req.SiteID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeSiteChoice(w, c)
}

func writeSiteChoice(w http.ResponseWriter, c *portal.SiteChoice) {
	site := newSiteJSON(c.Site)
	chosen := apiTime(c.ChosenAt)
	out := siteChoiceJSON{Site: &site, ChosenAt: &chosen, Changeable: c.Changeable}
	if c.CollectedAt != nil {
		collected := apiTime(*c.CollectedAt)
		out.CollectedAt = &collected
	}
	writeJSON(w, http.StatusOK, out)
}
