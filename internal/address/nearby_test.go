package address_test

import (
	"fmt"
	"math"
	"testing"

	"applicantportal/internal/address"
)

func TestDistanceMiles(t *testing.T) {
	for _, c := range []struct {
		name                   string
		lat1, lon1, lat2, lon2 float64
		want                   float64
	}{
		{"SamePoint", 37.77, -122.42, 37.77, -122.42, 0},
		{"OneDegreeOfLatitude", 40, -100, 41, -100, 69.09},
		{"SanFranciscoToLosAngeles", 37.7749, -122.4194, 34.0522, -118.2437, 347.4},
		{"AcrossTheAntimeridian", 52, 179.5, 52, -179.5, 42.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := address.DistanceMiles(c.lat1, c.lon1, c.lat2, c.lon2); math.Abs(got-c.want) > 0.5 {
				t.Errorf("DistanceMiles = %.2f; want about %.2f", got, c.want)
			}
		})
	}
}

func TestZIPsNearFindsExactlyTheZIPCodesWithinTheRadius(t *testing.T) {
	origin, _ := address.LookupZIP("94103")
	for _, miles := range []float64{0, 5, 25, 100} {
		near := map[string]bool{}
		for z := range address.ZIPsNear(origin.Lat, origin.Lon, miles) {
			if !z.HasCentroid {
				t.Fatalf("%s has no centroid", z.Code)
			}
			if d := address.DistanceMiles(origin.Lat, origin.Lon, z.Lat, z.Lon); d > miles {
				t.Errorf("%.0f miles: %s is %.1f miles away", miles, z.Code, d)
			}
			if near[z.Code] {
				t.Errorf("%s yielded twice", z.Code)
			}
			near[z.Code] = true
			if got, _ := address.LookupZIP(z.Code); got != z {
				t.Errorf("yielded %+v; LookupZIP answers %+v", z, got)
			}
		}
		if !near["94103"] {
			t.Errorf("%.0f miles: the origin's own ZIP code is missing", miles)
		}
		// Every ZIP code within the radius, by brute force over the codes
		// of the bay area and beyond.
		for code := 90000; code <= 96199; code++ {
			z, ok := address.LookupZIP(fmt.Sprintf("%05d", code))
			if !ok || !z.HasCentroid {
				continue
			}
			if d := address.DistanceMiles(origin.Lat, origin.Lon, z.Lat, z.Lon); d <= miles && !near[z.Code] {
				t.Errorf("%.0f miles: %s (%.1f miles) missing", miles, z.Code, d)
			}
		}
	}
}

func TestZIPsNearStopsWhenAsked(t *testing.T) {
	n := 0
	for range address.ZIPsNear(40.75, -73.99, 50) {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("n = %d", n)
	}
}

func TestZIPsNearFindsNothingAtSeaOrForANegativeRadius(t *testing.T) {
	for _, c := range []struct{ lat, lon, miles float64 }{{30, -40, 100}, {37.77, -122.42, -1}, {math.NaN(), 0, 10}} {
		for z := range address.ZIPsNear(c.lat, c.lon, c.miles) {
			t.Errorf("%v: found %s", c, z.Code)
		}
	}
}
