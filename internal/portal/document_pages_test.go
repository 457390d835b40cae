package portal

import (
	"strings"
	"testing"
)

func TestDocumentsAndFormsJoinTheChecklist(t *testing.T) {
	license := DocumentType{Type: "drivers_license", Title: "Driver's license or state ID", Required: true}
	diploma := DocumentType{Type: "diploma", Title: "Diploma or transcript"}
	idCard := DocumentType{Type: "id", Title: "ID card", Required: true}
	idaho := PdfForm{ID: 1, Title: "Idaho background check release", Required: true}
	mvr := PdfForm{ID: 2, Title: "Motor vehicle record request"}
	sent := &File{ID: 9}
	cases := []struct {
		name        string
		docs        *DocumentFacts
		wantPages   string // ids; "+" complete, "?" optional
		wantMissing string
		wantReady   bool
	}{
		{"no documents part", nil, "personal+", "", true},
		{"a package asking for nothing", &DocumentFacts{}, "personal+", "", true},
		{"only optional documents and forms", &DocumentFacts{Types: []DocumentType{diploma}, Forms: []PdfForm{mvr}},
			"personal+ additional-documents+? fillable-pdf-form+?", "", true},
		{"a required document not sent", &DocumentFacts{Types: []DocumentType{license, diploma}, Sent: map[string]int{"diploma": 2}},
			"personal+ additional-documents", "Upload your driver's license or state ID.", false},
		{"an acronym keeps its capitals", &DocumentFacts{Types: []DocumentType{idCard}},
			"personal+ additional-documents", "Upload your ID card.", false},
		{"a required document sent", &DocumentFacts{Types: []DocumentType{license}, Sent: map[string]int{"drivers_license": 1}},
			"personal+ additional-documents+", "", true},
		{"a required form not submitted", &DocumentFacts{Forms: []PdfForm{idaho, mvr}},
			"personal+ fillable-pdf-form", "Fill in and submit the Idaho background check release.", false},
		{"a required form submitted", &DocumentFacts{Forms: []PdfForm{{Title: "Idaho", Required: true, Submitted: sent}, mvr}},
			"personal+ fillable-pdf-form+", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := BuildSubjectView(SubjectFacts{FullProfile: true, Documents: c.docs})
			var ids, missing []string
			for _, p := range v.Pages {
				id := p.ID
				if p.Complete {
					id += "+"
				}
				if !p.Required {
					id += "?"
				}
				ids = append(ids, id)
				missing = append(missing, p.Missing...)
			}
			if got := strings.Join(ids, " "); got != c.wantPages {
				t.Errorf("pages = %q, want %q", got, c.wantPages)
			}
			if got := strings.Join(missing, " "); got != c.wantMissing {
				t.Errorf("missing = %q, want %q", got, c.wantMissing)
			}
			if v.ReadyToSubmit != c.wantReady {
				t.Errorf("ready = %v, want %v", v.ReadyToSubmit, c.wantReady)
			}
		})
	}
}
