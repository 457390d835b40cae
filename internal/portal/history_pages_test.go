package portal_test

import (
	"reflect"
	"testing"

	"applicantportal/internal/portal"
)

func TestHistoryPages(t *testing.T) {
	if p := portal.AliasesPage(portal.AliasList{}); p.Complete || len(p.Missing) != 1 || p.ID != "aliases" || p.Path != "/aliases" || p.Title != "Other Names" || !p.Required {
		t.Errorf("unsaved aliases page = %+v", p)
	}
	if p := portal.AliasesPage(portal.AliasList{Saved: true, Aliases: []portal.Alias{}}); !p.Complete || len(p.Missing) != 0 {
		t.Errorf("saved empty aliases page = %+v", p)
	}

	h := portal.AddressHistory{AddressCoverage: portal.AddressCoverage{RequiredYears: 10}}
	p := portal.AddressesPage(h, nil)
	if p.Complete || !reflect.DeepEqual(p.Missing, []string{"Add every address where you lived in the last 10 years."}) ||
		p.ID != "addresses" || p.Path != "/addresses" || p.Title != "Address History" || !p.Required {
		t.Errorf("unsaved addresses page = %+v", p)
	}
	h.Saved = true
	var fe portal.FieldErrors
	fe.Add("addresses.gaps.0", "Add the address where you lived from November 2016 to January 2020.")
	fe.Add("addresses.1.zip", "ZIP code 83702 is not in Texas.")
	fe.Add("addresses.2.zip", "ZIP code 83702 is not in Texas.")
	p = portal.AddressesPage(h, fe.Err())
	if p.Complete || !reflect.DeepEqual(p.Missing, []string{"Add the address where you lived from November 2016 to January 2020.", "ZIP code 83702 is not in Texas."}) {
		t.Errorf("invalid addresses page = %+v", p)
	}
	if p := portal.AddressesPage(h, nil); !p.Complete || len(p.Missing) != 0 {
		t.Errorf("valid addresses page = %+v", p)
	}
}
