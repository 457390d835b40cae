package portal_test

import (
	"reflect"
	"testing"

	"applicantportal/internal/address"
	"applicantportal/internal/lookup"
	"applicantportal/internal/portal"
)

func TestValidateAddresses(t *testing.T) {
	// Today is Nov 2026; 7 years back is Nov 2019.
	cur := portal.Address{Country: "US", Street1: "1 Main St", City: "Boise", State: "US-ID", Zip: "83702", From: "2022-03", Current: true}
	prev := portal.Address{Country: "US", Street1: "2 Oak Ave", City: "Austin", State: "US-TX", Zip: "78701", From: "2015-01", To: "2022-03"}
	abroad := portal.Address{Country: "CA", Street1: "3 Rue Nord", City: "Montréal", State: "QC", Zip: "H2X 1Y4", From: "2015-01", To: "2019-06"}
	mod := func(a portal.Address, f func(a *portal.Address)) portal.Address { f(&a); return a }
	parts := func(a portal.Address) []portal.AddressPartProblem {
		if a.Country == "US" && a.Zip == "00000" {
			return []portal.AddressPartProblem{{Field: "zip", Message: "ZIP code 00000 is not in Idaho."}}
		}
		return nil
	}
	rules := portal.AddressRules{Today: historyToday, RequiredYears: 7, CheckParts: parts}
	for _, tc := range []struct {
		name      string
		addresses []portal.Address
		years     int
		want      map[string]string
	}{
		{"Valid", []portal.Address{cur, prev}, 0, nil},
		{"BoundaryMonthShared", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.To = "2022-03" })}, 0, nil},
		{"ContiguousMonths", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.To = "2022-02" })}, 0, nil},
		{"OrderDoesNotMatter", []portal.Address{prev, cur}, 0, nil},
		{"Empty", nil, 0, map[string]string{"addresses": "Add your current address."}},
		{"TooMany", make([]portal.Address, 31), 0, map[string]string{"addresses": "List at most 30 addresses."}},
		{"NoCurrent", []portal.Address{mod(cur, func(a *portal.Address) { a.Current, a.To = false, "2026-11" }), prev}, 0,
			map[string]string{"addresses.0.current": `Tick "I live here now" on the address where you live now.`}},
		{"TwoCurrent", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.Current, a.To = true, "" })}, 0,
			map[string]string{"addresses.1.current": "Only one address can be your current address."}},
		{"CurrentWithEnd", []portal.Address{mod(cur, func(a *portal.Address) { a.To = "2026-10" }), prev}, 0,
			map[string]string{"addresses.0.to": "Leave To empty for your current address."}},
		{"PastNeedsTo", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.To = "" })}, 0,
			map[string]string{"addresses.1.to": "To is required."}},
		{"FromRequired", []portal.Address{mod(cur, func(a *portal.Address) { a.From = "" }), prev}, 0,
			map[string]string{"addresses.0.from": "From is required."}},
		{"BadMonth", []portal.Address{mod(cur, func(a *portal.Address) { a.From = "03/2022" }), prev}, 0,
			map[string]string{"addresses.0.from": "From must be a real date."}},
		{"FutureFrom", []portal.Address{mod(cur, func(a *portal.Address) { a.From = "2027-01" }), prev}, 0,
			map[string]string{"addresses.0.from": "From cannot be in the future."}},
		{"EndsBeforeItStarts", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.From, a.To = "2022-03", "2015-01" })}, 0,
			map[string]string{"addresses.1.to": "To cannot be before From."}},
		{"Overlap", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.To = "2022-05" })}, 0,
			map[string]string{"addresses.0.from": "This period overlaps your address at 2 Oak Ave."}},
		{"Inside", []portal.Address{cur, prev, mod(abroad, func(a *portal.Address) { a.From, a.To = "2018-01", "2018-06" })}, 0,
			map[string]string{"addresses.2.from": "This period overlaps your address at 2 Oak Ave."}},
		// The app found the same (web/src/features/history/lib/address-rules.ts): a one-month stay inside
		// another period is an overlap; a gap across the first required month, after an older address, is a gap.
		{"OneMonthInside", []portal.Address{cur, prev, mod(abroad, func(a *portal.Address) { a.From, a.To = "2018-01", "2018-01" })}, 0,
			map[string]string{"addresses.2.from": "This period overlaps your address at 2 Oak Ave."}},
		{"GapAcrossStart", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.From, a.To = "2010-01", "2019-06" })}, 0,
			map[string]string{"addresses.gaps.0": "Add the address where you lived from November 2019 to February 2022."}},
		{"OverlapAndGap", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.To = "2021-01" }), mod(abroad, func(a *portal.Address) { a.From, a.To = "2018-01", "2018-06" })}, 0,
			map[string]string{"addresses.2.from": "This period overlaps your address at 2 Oak Ave.",
				"addresses.gaps.0": "Add the address where you lived from February 2021 to February 2022."}},
		{"Gap", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.To = "2021-10" })}, 0,
			map[string]string{"addresses.gaps.0": "Add the address where you lived from November 2021 to February 2022."}},
		{"OneMonthGap", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.To = "2022-01" })}, 0,
			map[string]string{"addresses.gaps.0": "Add the address where you lived in February 2022."}},
		{"MissingStart", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.From = "2020-02" })}, 0,
			map[string]string{"addresses.gaps.0": "Add the address where you lived from November 2019 to January 2020."}},
		{"StartingInTheFirstMonthIsEnough", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.From = "2019-11" })}, 0, nil},
		{"PackageYears", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.From = "2020-02" })}, 10,
			map[string]string{"addresses.gaps.0": "Add the address where you lived from November 2016 to January 2020."}},
		{"ShortHistoryEnough", []portal.Address{mod(cur, func(a *portal.Address) { a.From = "2023-10" })}, 3, nil},
		{"International", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.From = "2019-06" }), abroad}, 0, nil},
		{"AddressParts", []portal.Address{mod(cur, func(a *portal.Address) { a.Zip = "00000"; a.Country = "" }), mod(prev, func(a *portal.Address) { a.Zip = "00000" })}, 0,
			map[string]string{"addresses.0.country": "Country is required.", "addresses.1.zip": "ZIP code 00000 is not in Idaho."}},
		{"TooLong", []portal.Address{mod(cur, func(a *portal.Address) { a.Zip = "123456789012345678901" }), prev}, 0,
			map[string]string{"addresses.0.zip": "ZIP code must be at most 20 characters."}},
		{"PartErrorsStillShowGaps", []portal.Address{cur, mod(prev, func(a *portal.Address) { a.To = "2021-10"; a.Zip = "00000" })}, 0,
			map[string]string{"addresses.1.zip": "ZIP code 00000 is not in Idaho.",
				"addresses.gaps.0": "Add the address where you lived from November 2021 to February 2022."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rules
			if tc.years != 0 {
				r.RequiredYears = tc.years
			}
			got := fieldMessages(t, portal.ValidateAddresses(tc.addresses, r))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors = %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestAddressCoverage(t *testing.T) {
	cur := portal.Address{Country: "US", State: "US-TX", From: "2022-03", Current: true}
	old := portal.Address{Country: "us", State: "us-id", From: "2016-01", To: "2021-06"}
	for _, tc := range []struct {
		name      string
		addresses []portal.Address
		want      portal.AddressCoverage
	}{
		{"Nothing", nil, portal.AddressCoverage{RequiredYears: 7, CoverageStart: "2019-11",
			Gaps: []portal.MonthRange{{From: "2019-11", To: "2026-11"}}}},
		{"GapAndIdaho", []portal.Address{cur, old}, portal.AddressCoverage{RequiredYears: 7, CoverageStart: "2019-11",
			Gaps: []portal.MonthRange{{From: "2021-07", To: "2022-02"}}, ReleaseFormRequired: true}},
		{"MissingStartAndEnd", []portal.Address{{Country: "FR", From: "2021-01", To: "2024-12"}}, portal.AddressCoverage{RequiredYears: 7, CoverageStart: "2019-11",
			Gaps: []portal.MonthRange{{From: "2019-11", To: "2020-12"}, {From: "2025-01", To: "2026-11"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := portal.Coverage(tc.addresses, historyToday, 0)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("coverage = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestAddressSharedCases runs testdata/address-cases.json, the table of
// address history cases the app's Vitest runs too (its "about" says the
// shape), with the address checks the save runs.
func TestAddressSharedCases(t *testing.T) {
	table, today := readHistoryTable(t, "address-cases.json", 50)
	// The app is given these as the states lookup: they must be its codes.
	for _, code := range table.StateCodes {
		if !lookup.IsStateCode(code) {
			t.Errorf("stateCodes: %q is not a code of the states lookup", code)
		}
	}
	for _, c := range table.Cases {
		t.Run(c.Name, func(t *testing.T) {
			rules := portal.AddressRules{Today: today, RequiredYears: table.RequiredYears, CheckParts: address.CheckParts, Draft: c.Draft}
			if c.RequiredYears != 0 {
				rules.RequiredYears = c.RequiredYears
			}
			c.check(t, portal.ValidateAddresses(withBase[portal.Address](t, table.Base, c.Addresses), rules))
		})
	}
}
