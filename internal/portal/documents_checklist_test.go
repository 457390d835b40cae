package portal_test

import (
	"reflect"
	"testing"

	"applicantportal/internal/portal"
)

func TestAdditionalDocumentsPage(t *testing.T) {
	license := portal.DocumentType{Type: "drivers_license", Title: "Driver's license", Required: true}
	diploma := portal.DocumentType{Type: "diploma", Title: "Diploma"}
	court := portal.DocumentType{Type: "court", Title: "Court record", Required: true}
	tests := []struct {
		name  string
		types []portal.DocumentType
		sent  map[string]bool
		want  *portal.ChecklistPage // nil: no page
	}{
		{"NoTypesNoPage", nil, nil, nil},
		{"OptionalOnlyNotRequired", []portal.DocumentType{diploma}, nil,
			&portal.ChecklistPage{Required: false, Complete: true, Missing: []string{}}},
		{"RequiredMissing", []portal.DocumentType{license, diploma, court}, map[string]bool{"diploma": true},
			&portal.ChecklistPage{Required: true, Complete: false, Missing: []string{"Upload your Driver's license.", "Upload your Court record."}}},
		{"RequiredSent", []portal.DocumentType{license, diploma}, map[string]bool{"drivers_license": true},
			&portal.ChecklistPage{Required: true, Complete: true, Missing: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := portal.BuildSubjectView(portal.SubjectFacts{Status: portal.StatusSetupComplete, Today: "2026-11-22",
				Package: &portal.Package{DocumentTypes: tt.types}, DocumentTypesSent: tt.sent})
			var got *portal.ChecklistPage
			for i, p := range v.Pages {
				if p.ID == "additional-documents" {
					got = &v.Pages[i]
				}
			}
			if tt.want == nil {
				if got != nil {
					t.Fatalf("page = %+v, want none", got)
				}
				return
			}
			want := *tt.want
			want.ID, want.Path, want.Title = "additional-documents", "/additional-documents", "Additional Documents"
			if got == nil || !reflect.DeepEqual(*got, want) {
				t.Fatalf("page = %+v, want %+v", got, want)
			}
			if tt.want.Required && !tt.want.Complete && v.ReadyToSubmit {
				t.Errorf("ReadyToSubmit = %v with a required document missing", v.ReadyToSubmit)
			}
		})
	}
}
