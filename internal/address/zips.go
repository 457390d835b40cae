package address

import (
	"bufio"
	"compress/gzip"
	"embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed data/uszips.tsv.gz data/countries.json
var dataFS embed.FS

// ZIP is a US ZIP code as the shipped data knows it.
type ZIP struct {
	Code  string // 5 digits
	State string // the states lookup's code: "US-CA", "US-PR", "US-AE"
	City  string // the Postal Service's preferred city name
	// Lat and Lon are the ZIP code's centroid in degrees; HasCentroid is
	// false for the few ZIP codes (mostly military) the data has none for.
	Lat, Lon    float64
	HasCentroid bool
}

// zipRow is a ZIP code packed for the table (43,000 of them).
type zipRow struct {
	zip      int32
	lat, lon int32 // 1/10000 degree
	city     uint16
	state    [2]byte
	centroid bool
}

type zipTable struct {
	rows   []zipRow // sorted by zip
	cities []string
}

// zips parses the embedded ZIP data on first use (about 20 ms). A broken
// file is a build mistake that the tests catch, so it panics.
var zips = sync.OnceValue(func() *zipTable {
	t, err := parseZIPs()
	if err != nil {
		panic("address: data/uszips.tsv.gz: " + err.Error())
	}
	return t
})

// parseZIPs reads the format internal/gen writes: per line the ZIP code's
// difference from the line before's (empty: +1), the state and city (empty:
// as before) and the centroid's difference from the last one (empty: none).
func parseZIPs() (*zipTable, error) {
	f, err := dataFS.Open("data/uszips.tsv.gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	t := &zipTable{rows: make([]zipRow, 0, 43000)}
	cityIDs := map[string]uint16{}
	sc := bufio.NewScanner(zr)
	var zip, lat, lon int
	var state, city string
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 5 {
			return nil, fmt.Errorf("line %d: %d fields", n, len(fields))
		}
		num := func(s string, empty int) (int, error) {
			if s == "" {
				return empty, nil
			}
			v, err := strconv.Atoi(s)
			if err != nil {
				return 0, fmt.Errorf("line %d: %w", n, err)
			}
			return v, nil
		}
		d, err := num(fields[0], 1)
		if err != nil {
			return nil, err
		}
		zip += d
		if fields[1] != "" {
			state = fields[1]
		}
		if fields[2] != "" {
			city = fields[2]
		}
		if len(state) != 2 || city == "" || zip <= 0 || zip > 99999 {
			return nil, fmt.Errorf("line %d: bad record", n)
		}
		row := zipRow{zip: int32(zip), state: [2]byte{state[0], state[1]}}
		if fields[3] != "" || fields[4] != "" {
			dLat, err := num(fields[3], 0)
			if err != nil {
				return nil, err
			}
			dLon, err := num(fields[4], 0)
			if err != nil {
				return nil, err
			}
			lat, lon = lat+dLat, lon+dLon
			row.lat, row.lon, row.centroid = int32(lat), int32(lon), true // #nosec G115 -- generated data, bounded to ±180 degrees in millionths
		}
		id, ok := cityIDs[city]
		if !ok {
			id = uint16(len(t.cities)) // #nosec G115 -- the table refuses more than 1<<16 cities below
			cityIDs[city] = id
			t.cities = append(t.cities, city)
		}
		row.city = id
		if k := len(t.rows); k > 0 && t.rows[k-1].zip >= row.zip {
			return nil, fmt.Errorf("line %d: not sorted", n)
		}
		t.rows = append(t.rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(t.cities) > 1<<16 {
		return nil, fmt.Errorf("%d cities do not fit the table", len(t.cities))
	}
	return t, nil
}

// LookupZIP finds a 5-digit ZIP code in the shipped data.
func LookupZIP(code string) (ZIP, bool) {
	// Five ASCII digits: strconv.Atoi alone would also take "+0501" as
	// 00501 (FuzzLookupZIP found it).
	if len(code) != 5 || strings.Trim(code, "0123456789") != "" {
		return ZIP{}, false
	}
	n, err := strconv.Atoi(code)
	if err != nil {
		return ZIP{}, false
	}
	t := zips()
	i := sort.Search(len(t.rows), func(i int) bool { return t.rows[i].zip >= int32(n) }) // #nosec G109 G115 -- code is 5 digits, so n < 100000
	if i == len(t.rows) || t.rows[i].zip != int32(n) {                                   // #nosec G109 G115 -- code is 5 digits, so n < 100000
		return ZIP{}, false
	}
	row := t.rows[i]
	z := ZIP{Code: code, State: "US-" + string(row.state[:]), City: t.cities[row.city], HasCentroid: row.centroid}
	if row.centroid {
		z.Lat, z.Lon = float64(row.lat)/1e4, float64(row.lon)/1e4
	}
	return z, true
}

// ZIPCount is how many ZIP codes the shipped data has.
func ZIPCount() int { return len(zips().rows) }
