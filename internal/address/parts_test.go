package address_test

import (
	"testing"

	"applicantportal/internal/address"
	"applicantportal/internal/portal"
)

func TestCheckPartsNamesAddressFields(t *testing.T) {
	fields := map[string]bool{"street1": true, "city": true, "state": true, "zip": true, "country": true}
	for _, a := range []portal.Address{
		{Country: "US"},
		{Country: "US", Street1: "1 Main St", City: "Boise", State: "US-TX", Zip: "83702"},
		{Country: "US", Street1: "Unit 2050 Box 4190", City: "Boise", State: "US-AP", Zip: "09012"},
		{Country: "CA"},
		{Country: "CA", Street1: "301 Front St W", City: "Toronto", State: "ON", Zip: "12345"},
		{Country: "ZZ", Street1: "1 Nowhere"},
	} {
		for _, p := range address.CheckParts(a) {
			if !fields[p.Field] || p.Message == "" {
				t.Errorf("%+v: problem %+v does not name an address field", a, p)
			}
		}
	}
	if p := address.CheckParts(portal.Address{Country: "US", City: "Boise", State: "US-ID", Zip: "83702"}); len(p) == 0 || p[0].Field != "street1" {
		t.Errorf("a US address without a street: %+v, want street1", p)
	}
	if p := address.CheckParts(portal.Address{Country: "CA", City: "Toronto", State: "ON", Zip: "M5V 2T6"}); len(p) == 0 || p[0].Field != "street1" {
		t.Errorf("an address abroad without a street: %+v, want street1", p)
	}
}
