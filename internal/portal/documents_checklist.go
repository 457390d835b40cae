package portal

// documentsPage is the checklist's /additional-documents entry (contract
// of issue 11): present when the package asks for documents, required when
// any type is, and missing one upload per required type without a
// document. sent holds the types with at least one document.
func documentsPage(p *Package, sent map[string]bool) (ChecklistPage, bool) {
	if p == nil || len(p.DocumentTypes) == 0 {
		return ChecklistPage{}, false
	}
	cp := ChecklistPage{ID: "additional-documents", Path: "/additional-documents", Title: "Additional Documents", Missing: []string{}}
	for _, t := range p.DocumentTypes {
		if !t.Required {
			continue
		}
		cp.Required = true
		if !sent[t.Type] {
			cp.Missing = append(cp.Missing, "Upload your "+t.Title+".")
		}
	}
	cp.Complete = len(cp.Missing) == 0
	return cp, true
}
