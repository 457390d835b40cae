package portal_test

import (
	"testing"

	"applicantportal/internal/portal"
)

// TestEstimateModel: the estimate is the model's fixed parts plus its
// per-unit parts times what the package asks for, the total rounded out to
// five minutes (low down, high up), parts in whole minutes of at least 1.
func TestEstimateModel(t *testing.T) {
	minute := portal.Seconds{Low: 60, High: 120}
	m := portal.EstimateModel{Account: minute, LegalStep: minute, Personal: minute, OtherNames: minute,
		AddressPage: minute, AddressYear: minute, ServicePage: minute, ServiceField: portal.Seconds{Low: 6, High: 12},
		Document: minute, PdfForm: minute, PdfFormField: portal.Seconds{Low: 30, High: 30}, Review: minute,
		IdentityCheck: minute, SiteChoice: minute, Payment: minute}
	var fields []portal.FieldDefinition
	for _, api := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
		fields = append(fields, portal.FieldDefinition{API: api, Name: api, Type: portal.FieldText})
	}
	pkg := &portal.Package{SelfPayEnabled: true, SelfPayInitialHoldAmt: "25.00",
		Services:      []portal.PackageService{{Code: "emps", Fields: fields}, {Code: "drug"}},
		DocumentTypes: []portal.DocumentType{{Type: "a"}, {Type: "b"}}}
	tests := []struct {
		name      string
		facts     portal.PreparationFacts
		want      portal.MinutesRange
		wantParts map[string]portal.MinutesRange
	}{
		{
			// account 1 + legal 0 + personal 1 + other names 1 + addresses 1+2 + review 1 + identity 1 = 8 low, 16 high.
			name:  "NoPackage",
			facts: portal.PreparationFacts{AddressYears: 2},
			want:  portal.MinutesRange{Low: 5, High: 20},
			wantParts: map[string]portal.MinutesRange{
				portal.PartAddresses: {Low: 3, High: 6}, portal.PartLegal: {Low: 1, High: 1},
			},
		},
		{
			// 8 + 3 legal + employment (1 + 10 x 0.1) 2 + documents 2 + form (1 + 4 x 0.5) 3 + site 1 + payment 1 = 20 low;
			// high 16 + 6 + 3 + 4 + 4 + 2 + 2 = 37.
			name: "EveryPart",
			facts: portal.PreparationFacts{AddressYears: 2, LegalSteps: 3,
				Preferences:  portal.CompanyPreferences{ApplicantCollectionSiteSelection: true},
				Finalization: portal.Finalization{Package: pkg, Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: true}},
				PdfForms:     []portal.PdfForm{{FieldNames: []string{"a", "b", "c", "d"}}}},
			want: portal.MinutesRange{Low: 20, High: 40},
			wantParts: map[string]portal.MinutesRange{
				portal.PartLegal: {Low: 3, High: 6}, "employment": {Low: 2, High: 4}, portal.PartDocuments: {Low: 2, High: 4},
				portal.PartPdfForms: {Low: 3, High: 4}, portal.PartCollectionSite: {Low: 1, High: 2}, portal.PartPayment: {Low: 1, High: 2},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := m.Estimate(tt.facts)
			if e.Minutes != tt.want {
				t.Errorf("minutes = %+v, want %+v", e.Minutes, tt.want)
			}
			got := map[string]portal.MinutesRange{}
			for _, p := range e.Parts {
				got[p.ID] = p.Minutes
			}
			for id, want := range tt.wantParts {
				if got[id] != want {
					t.Errorf("part %s = %+v, want %+v", id, got[id], want)
				}
			}
		})
	}
}

// TestMeasuredEstimateModel: the embedded measurement has every constant,
// and a quick applicant is never slower than an unhurried one.
func TestMeasuredEstimateModel(t *testing.T) {
	m := portal.MeasuredEstimateModel()
	for name, s := range map[string]portal.Seconds{"account": m.Account, "legalStep": m.LegalStep, "personal": m.Personal,
		"otherNames": m.OtherNames, "addressPage": m.AddressPage, "addressYear": m.AddressYear, "servicePage": m.ServicePage,
		"serviceField": m.ServiceField, "document": m.Document, "pdfForm": m.PdfForm, "pdfFormField": m.PdfFormField,
		"review": m.Review, "identityCheck": m.IdentityCheck, "siteChoice": m.SiteChoice, "payment": m.Payment} {
		if s.Low <= 0 || s.High < s.Low {
			t.Errorf("%s = %+v: want 0 < low <= high", name, s)
		}
	}
}
