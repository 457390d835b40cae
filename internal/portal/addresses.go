package portal

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultAddressHistoryYears is how many years of addresses a package needs
// unless it says otherwise (packages.address_history_years).
const DefaultAddressHistoryYears = 7

// Address is one place the applicant lived. Country is "US" or another ISO
// 3166-1 alpha-2 code; State is a US state code ("US-CA") or, abroad, the
// region as written. From and To are months ("YYYY-MM"); the current
// address has no To.
type Address struct {
	ID      string `json:"id"`
	Country string `json:"country"`
	Street1 string `json:"street1"`
	Street2 string `json:"street2"`
	City    string `json:"city"`
	State   string `json:"state"`
	Zip     string `json:"zip"`
	From    string `json:"from"`
	To      string `json:"to"`
	Current bool   `json:"current"`
}

// Normalized trims every text and upper-cases the country (and a US state
// code).
func (a Address) Normalized() Address {
	trim := strings.TrimSpace
	a.ID = trim(a.ID)
	a.Country = strings.ToUpper(trim(a.Country))
	a.Street1, a.Street2, a.City, a.Zip = trim(a.Street1), trim(a.Street2), trim(a.City), trim(a.Zip)
	a.State = trim(a.State)
	if a.Country == "US" {
		a.State = strings.ToUpper(a.State)
	}
	a.From, a.To = trim(a.From), trim(a.To)
	return a
}

// NormalizeAddresses returns the addresses normalized (nil becomes empty).
func NormalizeAddresses(addresses []Address) []Address {
	out := make([]Address, 0, len(addresses))
	for _, a := range addresses {
		out = append(out, a.Normalized())
	}
	return out
}

// InIdaho reports whether the address is in Idaho, for which the employer
// needs the applicant's signed Idaho release form.
func (a Address) InIdaho() bool { return a.Country == "US" && strings.EqualFold(a.State, "US-ID") }

// AddressPartProblem is one wrong part of an address, named as the
// Address's JSON field (street1, city, state, zip, country).
type AddressPartProblem struct {
	Field   string
	Message string
}

// AddressRules are the facts the address checks need.
type AddressRules struct {
	Today         time.Time
	RequiredYears int
	// CheckParts checks the street, city, state, ZIP and country of one
	// (normalized) address (the store passes address.CheckParts);
	// nil checks nothing.
	CheckParts func(Address) []AddressPartProblem
	// Draft checks a list saved half done ("Save for later"): each address
	// must be right, but the list need not yet cover the required years
	// nor hold the current address.
	Draft bool
}

// MonthRange is a period of whole months, both ends included.
type MonthRange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// AddressHistory is GET /api/v2/user/subject/address.
type AddressHistory struct {
	Addresses []Address
	Saved     bool
	AddressCoverage
}

// AddressCoverage is what the addresses cover of the required years.
type AddressCoverage struct {
	RequiredYears int
	// CoverageStart is the first month that must be covered: today minus
	// RequiredYears, as "YYYY-MM".
	CoverageStart string
	// Gaps are the months from CoverageStart to today no address covers,
	// a missing start included.
	Gaps                []MonthRange
	ReleaseFormRequired bool
}

// coverageStart is the first month the addresses must cover.
func coverageStart(today time.Time, years int) int { return monthOf(today) - 12*years }

// span is an address's period as month numbers; end is today's month for
// the current address.
type span struct {
	i        int
	from, to int
}

// spans returns the periods that parse (to not before from), sorted by
// from, then by their order in the list.
func spans(addresses []Address, today time.Time) []span {
	now := monthOf(today)
	var out []span
	for i, a := range addresses {
		f, ok := ParseMonth(a.From)
		if !ok {
			continue
		}
		t := now
		if !a.Current || a.To != "" {
			if t, ok = ParseMonth(a.To); !ok {
				continue
			}
		}
		if t < f {
			continue
		}
		out = append(out, span{i, f, t})
	}
	slices.SortStableFunc(out, func(a, b span) int { return a.from - b.from })
	return out
}

// gaps returns the uncovered periods from start to now; each with the span
// after it (-1 for a gap at the end).
func gaps(sp []span, start, now int) (out []MonthRange, after []int) {
	cursor := start
	for k, s := range sp {
		if s.from > cursor && cursor <= now {
			out = append(out, MonthRange{FormatMonth(cursor), FormatMonth(min(s.from-1, now))})
			after = append(after, k)
		}
		// Periods may share their boundary month.
		cursor = max(cursor, s.to+1)
	}
	if cursor <= now {
		out = append(out, MonthRange{FormatMonth(cursor), FormatMonth(now)})
		after = append(after, -1)
	}
	return out, after
}

// Coverage says what the addresses cover of the required years.
func Coverage(addresses []Address, today time.Time, years int) AddressCoverage {
	if years <= 0 {
		years = DefaultAddressHistoryYears
	}
	addresses = NormalizeAddresses(addresses)
	start := coverageStart(today, years)
	g, _ := gaps(spans(addresses, today), start, monthOf(today))
	c := AddressCoverage{RequiredYears: years, CoverageStart: FormatMonth(start), Gaps: g}
	if c.Gaps == nil {
		c.Gaps = []MonthRange{}
	}
	for _, a := range addresses {
		c.ReleaseFormRequired = c.ReleaseFormRequired || a.InIdaho()
	}
	return c
}

// ValidateAddresses checks an address history; field errors are named
// addresses.{i}.{field} ("addresses" for the list itself).
func ValidateAddresses(addresses []Address, rules AddressRules) error {
	var fe FieldErrors
	switch {
	case len(addresses) == 0:
		fe.Add("addresses", "Add your current address.")
		return fe.Err()
	case len(addresses) > MaxAddresses:
		fe.Addf("addresses", "List at most %d addresses.", MaxAddresses)
		return fe.Err()
	}
	years := rules.RequiredYears
	if years <= 0 {
		years = DefaultAddressHistoryYears
	}
	addresses = NormalizeAddresses(addresses)
	now := monthOf(rules.Today)
	currents := 0
	for i, a := range addresses {
		key := "addresses." + strconv.Itoa(i) + "."
		if a.Country == "" {
			fe.Add(key+"country", "Country is required.")
		}
		checkHistoryText(&fe, key+"street1", "Street", a.Street1, false, MaxAddressPartLen)
		checkHistoryText(&fe, key+"street2", "Street line 2", a.Street2, false, MaxAddressPartLen)
		checkHistoryText(&fe, key+"city", "City", a.City, false, MaxAddressPartLen)
		checkHistoryText(&fe, key+"state", "State", a.State, false, MaxAddressPartLen)
		checkHistoryText(&fe, key+"zip", "ZIP code", a.Zip, false, 20)
		if a.Country != "" && rules.CheckParts != nil {
			for _, p := range rules.CheckParts(a) {
				if !fe.Has(key + p.Field) {
					fe.Add(key+p.Field, p.Message)
				}
			}
		}
		if a.Current {
			currents++
			switch {
			case currents > 1:
				fe.Add(key+"current", "Only one address can be your current address.")
			case a.To != "":
				fe.Add(key+"to", "Leave To empty for your current address.")
			}
		}
		f, fOK := checkMonth(&fe, key+"from", "From", a.From, true, now)
		if !a.Current {
			t, tOK := checkMonth(&fe, key+"to", "To", a.To, true, now)
			if fOK && tOK && t < f {
				fe.Add(key+"to", "To cannot be before From.")
			}
		}
	}
	if currents == 0 && !rules.Draft {
		fe.Add("addresses.0.current", `Tick "I live here now" on the address where you live now.`)
	}

	// Coverage only when the periods themselves are right: a wrong date
	// would otherwise show twice.
	periodsWrong := periodErrors(fe)
	sp := spans(addresses, rules.Today)
	// Overlaps: each address against the earlier-starting ones; sharing the
	// boundary month is allowed. Two current addresses overlap by
	// definition; that has its own message.
	for k, b := range sp {
		if currents > 1 {
			break
		}
		field := "addresses." + strconv.Itoa(b.i) + ".from"
		for _, a := range sp[:k] {
			if b.from < a.to && !fe.Has(field) {
				fe.Addf(field, "This period overlaps your address at %s.", addresses[a.i].Street1)
			}
		}
	}
	if periodsWrong || rules.Draft {
		return fe.Err()
	}
	// A gap is the list's, not one address's: said as the address still
	// missing, at addresses.gaps.{n}.
	g, after := gaps(sp, coverageStart(rules.Today, years), now)
	n := 0
	for k, gap := range g {
		if after[k] < 0 {
			continue // no current address: reported above
		}
		fe = append(fe, gapError("addresses.gaps."+strconv.Itoa(n), gap))
		n++
	}
	return fe.Err()
}

// gapError asks for the address of the months gap leaves out: "Add the
// address where you lived from March 2019 to June 2020."
func gapError(field string, gap MonthRange) FieldError {
	from, _ := ParseMonth(gap.From)
	to, _ := ParseMonth(gap.To)
	if from == to {
		return FieldErrorf(field, "Add the address where you lived in %s.", fullMonthText(from))
	}
	return FieldErrorf(field, "Add the address where you lived from %s to %s.", fullMonthText(from), fullMonthText(to))
}

// fullMonthText is a month as a sentence says it: "March 2019", translated
// with its sentence.
func fullMonthText(m int) Phrase {
	return Phrasef("%s %d", time.Month(m%12+1).String(), m/12)
}

// periodErrors reports whether a from, to or current field already failed.
func periodErrors(fe FieldErrors) bool {
	for _, f := range fe {
		if strings.HasSuffix(f.Field, ".from") || strings.HasSuffix(f.Field, ".to") || strings.HasSuffix(f.Field, ".current") {
			return true
		}
	}
	return false
}
