package portal

import "strconv"

// AliasesPage is the checklist page of the other names (GET
// /api/v2/user/subject "pages"): complete once saved, an empty list being
// an answer.
func AliasesPage(l AliasList) ChecklistPage {
	p := ChecklistPage{ID: "aliases", Path: "/aliases", Title: "Other Names", Required: true, Complete: l.Saved, Missing: []string{}}
	if !l.Saved {
		p.Missing = append(p.Missing, "Tell us about any other names you have used, or that you have used none.")
	}
	return p
}

// AddressesPage is the checklist page of the address history: complete once
// saved and valid today (invalid is ValidateAddresses' answer for the saved
// list; the months pass, so a history complete last month may have a gap
// today). Missing holds the messages of what is wrong, each once.
func AddressesPage(h AddressHistory, invalid error) ChecklistPage {
	p := ChecklistPage{ID: "addresses", Path: "/addresses", Title: "Address History", Required: true, Missing: []string{}}
	years := h.RequiredYears
	if years <= 0 {
		years = DefaultAddressHistoryYears
	}
	switch {
	case !h.Saved:
		p.Missing = append(p.Missing, "Add every address where you lived in the last "+strconv.Itoa(years)+" years.")
	case invalid != nil:
		seen := map[string]bool{}
		if e, ok := invalid.(*Error); ok {
			for _, f := range e.Fields {
				if !seen[f.Message] {
					seen[f.Message] = true
					p.Missing = append(p.Missing, f.Message)
				}
			}
		}
		if len(p.Missing) == 0 {
			p.Missing = append(p.Missing, "Check your address history.")
		}
	default:
		p.Complete = true
	}
	return p
}
