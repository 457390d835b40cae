package address

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sync"
)

// format is a country's address format (one entry of data/countries.json).
type format struct {
	Code            string   `json:"code"`
	Name            string   `json:"name"`
	Require         []string `json:"require"`
	PostalCode      string   `json:"postalCode"`
	HasPostalCodes  bool     `json:"hasPostalCodes"`
	HasAdminAreas   bool     `json:"hasAdminAreas"`
	LocalityLabel   string   `json:"localityLabel"`
	AdminAreaLabel  string   `json:"adminAreaLabel"`
	PostalCodeLabel string   `json:"postalCodeLabel"`
	// PostalCodeExamples are real postal codes, comma separated.
	PostalCodeExamples string `json:"postalCodeExamples"`

	postalCode *regexp.Regexp // the whole value must match; nil: no postal codes
}

func (f *format) requires(part string) bool { return slices.Contains(f.Require, part) }

var formats = sync.OnceValue(func() map[string]*format {
	m, err := parseFormats()
	if err != nil {
		panic("address: data/countries.json: " + err.Error())
	}
	return m
})

func parseFormats() (map[string]*format, error) {
	b, err := dataFS.ReadFile("data/countries.json")
	if err != nil {
		return nil, err
	}
	var list []*format
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, err
	}
	m := make(map[string]*format, len(list))
	for _, f := range list {
		if f.PostalCode != "" {
			// Postal codes are matched upper-cased: libaddressinput's
			// patterns are written in capitals.
			if f.postalCode, err = regexp.Compile(`^(?:` + f.PostalCode + `)$`); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Code, err)
			}
		}
		m[f.Code] = f
	}
	return m, nil
}

func formatOf(country string) (*format, bool) {
	f, ok := formats()[country]
	return f, ok
}
