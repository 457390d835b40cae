package portal_test

import (
	"slices"
	"testing"

	"applicantportal/internal/portal"
)

func TestPdfFormAppliesTo(t *testing.T) {
	idaho := portal.PdfForm{States: []string{"US-ID"}}
	tests := []struct {
		name      string
		form      portal.PdfForm
		loc       portal.Location
		addresses []string
		want      bool
	}{
		{"NoStatesIsEveryone", portal.PdfForm{}, portal.Location{}, nil, true},
		{"NoStatesAbroad", portal.PdfForm{}, portal.Location{Residency: portal.Place{NonUS: true}}, nil, true},
		{"Residency", idaho, portal.Location{Residency: portal.Place{State: "US-ID"}}, nil, true},
		{"Employment", idaho, portal.Location{Employment: portal.Place{State: "US-ID"}}, nil, true},
		{"AnyAddress", idaho, portal.Location{Employment: portal.Place{State: "US-CA"}}, []string{"US-CA", "US-ID"}, true},
		{"BareCodeMatchesISOCode", portal.PdfForm{States: []string{"ID"}}, portal.Location{Residency: portal.Place{State: "US-ID"}}, nil, true},
		{"ISOCodeMatchesBareAddressState", idaho, portal.Location{}, []string{"id"}, true},
		{"CaseAndSpaces", idaho, portal.Location{Residency: portal.Place{State: " us-id "}}, nil, true},
		{"OneOfSeveralStates", portal.PdfForm{States: []string{"US-WA", "US-ID"}}, portal.Location{Employment: portal.Place{State: "US-ID"}}, nil, true},
		{"Elsewhere", idaho, portal.Location{Residency: portal.Place{State: "US-CA"}, Employment: portal.Place{State: "US-OR"}}, []string{"US-WA"}, false},
		{"NothingKnown", idaho, portal.Location{}, nil, false},
		{"EmptyStatesDoNotMatch", portal.PdfForm{States: []string{""}}, portal.Location{}, []string{""}, false},
		{"PrefixAloneIsNotAState", portal.PdfForm{States: []string{"US-"}}, portal.Location{Residency: portal.Place{State: "US-"}}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.form.AppliesTo(tt.loc, tt.addresses); got != tt.want {
				t.Errorf("AppliesTo = %v; want %v", got, tt.want)
			}
		})
	}
}

func TestSameFields(t *testing.T) {
	tests := []struct {
		name                string
		want, got           []string
		missing, unexpected []string
	}{
		{"Same", []string{"a", "b"}, []string{"a", "b"}, nil, nil},
		{"OrderAndDuplicatesDoNotMatter", []string{"a", "b"}, []string{"b", "a", "a"}, nil, nil},
		{"Missing", []string{"a", "b", "c"}, []string{"a"}, []string{"b", "c"}, nil},
		{"Unexpected", []string{"a"}, []string{"z", "a", "m"}, nil, []string{"m", "z"}},
		{"Both", []string{"a", "b"}, []string{"b", "c"}, []string{"a"}, []string{"c"}},
		{"CaseMatters", []string{"name"}, []string{"Name"}, []string{"name"}, []string{"Name"}},
		{"NothingSubmitted", []string{"a"}, nil, []string{"a"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			missing, unexpected := portal.SameFields(tt.want, tt.got)
			if !slices.Equal(missing, tt.missing) || !slices.Equal(unexpected, tt.unexpected) {
				t.Errorf("SameFields = %q, %q; want %q, %q", missing, unexpected, tt.missing, tt.unexpected)
			}
		})
	}
}
