package sitesandbox_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/address"
	"applicantportal/internal/portal"
	sitesandbox "applicantportal/internal/sandbox/sites"
)

var ctx = context.Background()

// monday10 is 10:00 on a Monday in San Francisco.
var monday10 = time.Date(2025, 3, 3, 18, 0, 0, 0, time.UTC)

// monday1730 is 17:30 on a Monday in San Francisco: some sites have closed.
var monday1730 = time.Date(2025, 3, 4, 1, 30, 0, 0, time.UTC)

func search(t *testing.T, q portal.SiteQuery) *portal.SiteResults {
	t.Helper()
	if q.Now.IsZero() {
		q.Now = monday10
	}
	res, err := sitesandbox.New().Search(ctx, q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	return res
}

func TestSearchFindsTheNearestSitesWithinTheRadius(t *testing.T) {
	for _, zip := range []string{"94103", "10001", "60601", "73301", "00603", "99501"} {
		for _, radius := range portal.SiteRadii {
			res := search(t, portal.SiteQuery{ZIP: zip, RadiusMiles: radius})
			if res.Origin.ZIP != zip || res.Radius != radius {
				t.Errorf("%s %d: origin %+v radius %d", zip, radius, res.Origin, res.Radius)
			}
			if len(res.Sites) > portal.MaxSites {
				t.Errorf("%s %d: %d sites", zip, radius, len(res.Sites))
			}
			for i, s := range res.Sites {
				d := address.DistanceMiles(res.Origin.Lat, res.Origin.Lon, s.Lat, s.Lon)
				if s.DistanceMiles != d || d > float64(radius) {
					t.Errorf("%s %d: site %d at %.2f miles says %.2f", zip, radius, s.ID, d, s.DistanceMiles)
				}
				if i > 0 {
					prev := res.Sites[i-1]
					if prev.DistanceMiles > s.DistanceMiles || (prev.DistanceMiles == s.DistanceMiles && prev.ID > s.ID) {
						t.Errorf("%s %d: site %d before %d is out of order", zip, radius, prev.ID, s.ID)
					}
				}
			}
			again := search(t, portal.SiteQuery{ZIP: zip, RadiusMiles: radius})
			if !reflect.DeepEqual(res, again) {
				t.Errorf("%s %d: a second search answers differently", zip, radius)
			}
		}
	}
}

func TestSearchFindsSeveralSitesInACity(t *testing.T) {
	for _, zip := range []string{"94103", "10001", "60601", "30303", "98101"} {
		if n := len(search(t, portal.SiteQuery{ZIP: zip, RadiusMiles: 10}).Sites); n < 5 {
			t.Errorf("%s: %d sites within 10 miles; want several", zip, n)
		}
	}
	if n := len(search(t, portal.SiteQuery{ZIP: "10001", RadiusMiles: 100}).Sites); n != portal.MaxSites {
		t.Errorf("New York, 100 miles: %d sites; want the %d nearest", n, portal.MaxSites)
	}
}

func TestSearchFindsTheSitesTheWiderSearchFindsNearer(t *testing.T) {
	narrow := search(t, portal.SiteQuery{ZIP: "94103", RadiusMiles: 5})
	wide := search(t, portal.SiteQuery{ZIP: "94103", RadiusMiles: 25})
	if len(narrow.Sites) == 0 {
		t.Fatal("no site within 5 miles of San Francisco")
	}
	for i, s := range narrow.Sites {
		if i >= len(wide.Sites) || wide.Sites[i].ID != s.ID {
			t.Fatalf("site %d of the 5-mile search is not the same in the 25-mile one", i)
		}
	}
}

func TestSearchFilters(t *testing.T) {
	sunday3am := time.Date(2025, 3, 2, 11, 0, 0, 0, time.UTC) // 03:00 in San Francisco
	for _, c := range []struct {
		name string
		q    portal.SiteQuery
		ok   func(portal.SiteMatch) bool
	}{
		{"OpenNow", portal.SiteQuery{OpenNow: true, Now: monday1730}, func(s portal.SiteMatch) bool { return s.OpenNow && s.OpenAt(monday1730) }},
		{"Weekends", portal.SiteQuery{Weekends: true}, func(s portal.SiteMatch) bool { return s.OpenWeekends() }},
		{"DOT", portal.SiteQuery{DOT: true}, func(s portal.SiteMatch) bool { return s.Offers(portal.SiteDOT) }},
		{"All", portal.SiteQuery{OpenNow: true, Weekends: true, DOT: true}, func(s portal.SiteMatch) bool {
			return s.OpenNow && s.OpenWeekends() && s.Offers(portal.SiteDOT)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.q.ZIP, c.q.RadiusMiles = "94103", 10
			all := search(t, portal.SiteQuery{ZIP: "94103", RadiusMiles: 10, Now: c.q.Now})
			got := search(t, c.q)
			if len(got.Sites) == 0 || len(got.Sites) >= len(all.Sites) {
				t.Fatalf("%d of %d sites pass; want some but not all", len(got.Sites), len(all.Sites))
			}
			for _, s := range got.Sites {
				if !c.ok(s) {
					t.Errorf("site %d passes the filter: %+v", s.ID, s.Site)
				}
			}
			// Every site the unfiltered search found that passes is kept.
			want := 0
			for _, s := range all.Sites {
				if c.ok(s) {
					want++
				}
			}
			if len(got.Sites) < want {
				t.Errorf("%d sites pass; the unfiltered search has %d that do", len(got.Sites), want)
			}
		})
	}
	t.Run("NothingOpenAtNightOnASunday", func(t *testing.T) {
		res := search(t, portal.SiteQuery{ZIP: "94103", RadiusMiles: 25, OpenNow: true, Now: sunday3am})
		if len(res.Sites) != 0 {
			t.Errorf("%d sites open at 03:00 on a Sunday", len(res.Sites))
		}
	})
}

func TestSearchRefusesABadZIPOrRadius(t *testing.T) {
	for _, c := range []struct {
		name   string
		q      portal.SiteQuery
		fields map[string]string
	}{
		{"Empty", portal.SiteQuery{RadiusMiles: 25}, map[string]string{"zip": "Enter a 5-digit ZIP code."}},
		{"Short", portal.SiteQuery{ZIP: "9410", RadiusMiles: 25}, map[string]string{"zip": "Enter a 5-digit ZIP code."}},
		{"Letters", portal.SiteQuery{ZIP: "9410a", RadiusMiles: 25}, map[string]string{"zip": "Enter a 5-digit ZIP code."}},
		{"ZIPPlus4", portal.SiteQuery{ZIP: "94103-1234", RadiusMiles: 25}, map[string]string{"zip": "Enter a 5-digit ZIP code."}},
		{"Signed", portal.SiteQuery{ZIP: "+9410", RadiusMiles: 25}, map[string]string{"zip": "Enter a 5-digit ZIP code."}},
		{"Unknown", portal.SiteQuery{ZIP: "00000", RadiusMiles: 25}, map[string]string{"zip": "We could not find ZIP code 00000."}},
		{"NoCentroid", portal.SiteQuery{ZIP: noCentroid(t), RadiusMiles: 25}, map[string]string{"zip": "We cannot search near ZIP code " + noCentroid(t) + "; try a nearby one."}},
		{"Radius", portal.SiteQuery{ZIP: "94103", RadiusMiles: 30}, map[string]string{"radius": "Choose a radius of 5, 10, 25, 50 or 100 miles."}},
		{"NoRadius", portal.SiteQuery{ZIP: "94103"}, map[string]string{"radius": "Choose a radius of 5, 10, 25, 50 or 100 miles."}},
		{"Both", portal.SiteQuery{ZIP: "00000", RadiusMiles: -5}, map[string]string{"zip": "We could not find ZIP code 00000.", "radius": "Choose a radius of 5, 10, 25, 50 or 100 miles."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := sitesandbox.New().Search(ctx, c.q)
			pe, ok := err.(*portal.Error)
			if !ok || pe.Code != portal.EINVALID {
				t.Fatalf("err = %v; want EINVALID", err)
			}
			got := map[string]string{}
			for _, f := range pe.Fields {
				got[f.Field] = f.Message
			}
			if !reflect.DeepEqual(got, c.fields) {
				t.Errorf("fields = %v; want %v", got, c.fields)
			}
		})
	}
}

// noCentroid is a ZIP code the data knows without a centroid.
func noCentroid(t *testing.T) string {
	for _, code := range []string{"09001", "09002", "09003", "96201", "96202", "34001", "34002"} {
		if z, ok := address.LookupZIP(code); ok && !z.HasCentroid {
			return code
		}
	}
	t.Fatal("no ZIP code without a centroid among the military ones")
	return ""
}

func TestSiteAnswersWhatSearchFound(t *testing.T) {
	net := sitesandbox.New()
	res := search(t, portal.SiteQuery{ZIP: "60601", RadiusMiles: 25})
	for _, m := range res.Sites {
		s, err := net.Site(ctx, m.ID)
		if err != nil {
			t.Fatalf("Site(%d): %v", m.ID, err)
		}
		if !reflect.DeepEqual(*s, m.Site) {
			t.Errorf("Site(%d) = %+v; search found %+v", m.ID, *s, m.Site)
		}
	}
}

func TestSiteIsPlausibleAndFictional(t *testing.T) {
	res := search(t, portal.SiteQuery{ZIP: "10001", RadiusMiles: 100})
	for _, s := range res.Sites {
		zip := s.ID / 10
		if s.Address.ZIP != fmtZIP(zip) || s.Address.City == "" || !strings.HasPrefix(s.Address.State, "US-") {
			t.Errorf("site %d address %+v", s.ID, s.Address)
		}
		if s.Name == "" || s.Address.Street == "" {
			t.Errorf("site %d: name %q street %q", s.ID, s.Name, s.Address.Street)
		}
		if len(s.Phone) != 14 || s.Phone[6:11] != "555-0" || s.Phone[11] != '1' {
			t.Errorf("site %d phone %q is not a fictional 555-01XX number", s.ID, s.Phone)
		}
		if _, err := time.LoadLocation(s.TimeZone); err != nil {
			t.Errorf("site %d time zone %q: %v", s.ID, s.TimeZone, err)
		}
		if s.Services[0] != portal.SiteUrine {
			t.Errorf("site %d services %v", s.ID, s.Services)
		}
		weekdays := 0
		for _, h := range s.Hours {
			if h.Opens >= h.Closes || len(h.Opens) != 5 || len(h.Closes) != 5 {
				t.Errorf("site %d hours %+v", s.ID, h)
			}
			if h.Day >= time.Monday && h.Day <= time.Friday {
				weekdays++
			}
		}
		if weekdays != 5 {
			t.Errorf("site %d open %d weekdays", s.ID, weekdays)
		}
		z, _ := address.LookupZIP(s.Address.ZIP)
		if d := address.DistanceMiles(z.Lat, z.Lon, s.Lat, s.Lon); d > 2 {
			t.Errorf("site %d is %.1f miles from its ZIP code's centre", s.ID, d)
		}
	}
}

func fmtZIP(code int64) string {
	s := "0000" + itoa(code)
	return s[len(s)-5:]
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestSearchOpenNowAgreesWithOpenAt(t *testing.T) {
	net := sitesandbox.New()
	var sites []portal.Site
	for _, zip := range []string{"94103", "10001", "60601", "85001", "96813", "99501", "00901"} {
		for _, m := range search(t, portal.SiteQuery{ZIP: zip, RadiusMiles: 25}).Sites[:3] {
			s, _ := net.Site(ctx, m.ID)
			sites = append(sites, *s)
		}
	}
	for hour := 0; hour < 24*8; hour++ {
		for _, minute := range []int{0, 29, 59} {
			now := time.Date(2025, 3, 8, hour, minute, 0, 0, time.UTC) // across the change to summer time
			for _, s := range sites {
				if got, want := sitesandbox.OpenAt(s, now), s.OpenAt(now); got != want {
					t.Fatalf("site %d (%s) at %s: open %v; OpenAt says %v", s.ID, s.TimeZone, now, got, want)
				}
			}
		}
	}
}

func TestSiteOfAnIdNeverGeneratedIsNotFound(t *testing.T) {
	net := sitesandbox.New()
	real := search(t, portal.SiteQuery{ZIP: "94103", RadiusMiles: 5}).Sites[0].ID
	zip := real / 10
	count := int64(0)
	for i := int64(1); i <= 9; i++ {
		if _, err := net.Site(ctx, zip*10+i); err == nil {
			count = i
		}
	}
	for _, id := range []int64{0, -1, -real, zip * 10, zip*10 + count + 1, zip*10 + 9, 1, 9, 99999*10 + 4, 1_000_000, 1 << 62, -1 << 63, 941030000} {
		_, err := net.Site(ctx, id)
		if pe, ok := err.(*portal.Error); !ok || pe.Code != portal.ENOTFOUND {
			t.Errorf("Site(%d) err = %v; want ENOTFOUND", id, err)
		}
	}
}

func TestAboutAThirdOfTheZIPCodesHaveSites(t *testing.T) {
	net := sitesandbox.New()
	with, all := 0, 0
	for code := int64(10000); code < 20000; code++ {
		z, ok := address.LookupZIP(fmtZIP(code))
		if !ok || !z.HasCentroid {
			continue
		}
		all++
		if _, err := net.Site(ctx, code*10+1); err == nil {
			with++
		}
	}
	if share := float64(with) / float64(all); share < 0.25 || share > 0.45 {
		t.Errorf("%d of %d ZIP codes (%.0f%%) have sites", with, all, 100*share)
	}
}

func BenchmarkSearch100Miles(b *testing.B) {
	net := sitesandbox.New()
	for _, c := range []struct {
		name string
		q    portal.SiteQuery
	}{
		{"NewYork", portal.SiteQuery{ZIP: "10001", RadiusMiles: 100, Now: monday10}},
		{"NewYorkOpenNowAtNight", portal.SiteQuery{ZIP: "10001", RadiusMiles: 100, OpenNow: true, Now: monday10.Add(12 * time.Hour)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := net.Search(ctx, c.q); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				net.Search(ctx, c.q)
			}
		})
	}
}
