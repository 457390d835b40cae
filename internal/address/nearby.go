package address

import (
	"iter"
	"math"
	"sort"
	"strconv"
	"sync"
)

// earthRadiusMiles is the mean radius the distances are measured on.
const earthRadiusMiles = 3958.8

// milesPerDegreeLat is the length of one degree of latitude; a degree of
// longitude is this times the cosine of the latitude.
const milesPerDegreeLat = math.Pi * earthRadiusMiles / 180

// DistanceMiles is the great-circle (haversine) distance between two points
// given in degrees.
func DistanceMiles(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusMiles * math.Asin(math.Min(1, math.Sqrt(a)))
}

// byLatitude is the ZIP table's rows that have a centroid, sorted by
// latitude, so a search near a point reads only the band of latitudes it
// can reach instead of all 43,000 rows.
var byLatitude = sync.OnceValue(func() []int32 {
	t := zips()
	idx := make([]int32, 0, len(t.rows))
	for i, r := range t.rows {
		if r.centroid {
			idx = append(idx, int32(i))
		}
	}
	sort.Slice(idx, func(a, b int) bool { return t.rows[idx[a]].lat < t.rows[idx[b]].lat })
	return idx
})

// ZIPsNear yields the ZIP codes whose centroid lies within miles of the
// point (lat, lon), in no particular order. It checks a bounding box first
// and the great-circle distance only for what lies inside it.
func ZIPsNear(lat, lon, miles float64) iter.Seq[ZIP] {
	return func(yield func(ZIP) bool) {
		if miles < 0 || math.IsNaN(miles) || math.IsNaN(lat) || math.IsNaN(lon) {
			return
		}
		t, idx := zips(), byLatitude()
		dLat := miles / milesPerDegreeLat
		// Near a pole the box spans every longitude.
		dLon := 360.0
		if c := math.Cos((math.Abs(lat) + dLat) * math.Pi / 180); c > 1e-6 {
			dLon = dLat / c
		}
		lo, hi := int32(math.Floor((lat-dLat)*1e4)), int32(math.Ceil((lat+dLat)*1e4))
		start := sort.Search(len(idx), func(i int) bool { return t.rows[idx[i]].lat >= lo })
		for _, i := range idx[start:] {
			r := t.rows[i]
			if r.lat > hi {
				return
			}
			zLat, zLon := float64(r.lat)/1e4, float64(r.lon)/1e4
			// The box's longitude test, with the antimeridian in mind
			// (the Aleutians lie on both sides of it).
			if d := math.Abs(math.Mod(zLon-lon+540, 360) - 180); d > dLon {
				continue
			}
			if DistanceMiles(lat, lon, zLat, zLon) > miles {
				continue
			}
			if !yield(t.zip(r)) {
				return
			}
		}
	}
}

// zip is a row as the package's callers see it.
func (t *zipTable) zip(r zipRow) ZIP {
	code := strconv.Itoa(int(r.zip))
	for len(code) < 5 {
		code = "0" + code
	}
	z := ZIP{Code: code, State: "US-" + string(r.state[:]), City: t.cities[r.city], HasCentroid: r.centroid}
	if r.centroid {
		z.Lat, z.Lon = float64(r.lat)/1e4, float64(r.lon)/1e4
	}
	return z
}
