package portal_test

import (
	"reflect"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

func TestDOTEntries(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []map[string]any
		want    []portal.DOTEntry
	}{
		{"None", nil, nil},
		{"OnlyDOTFlagged", []map[string]any{
			{"id": "a", "employer_name": "Road", "employer_dot": true},
			{"id": "b", "employer_name": "Bakery", "employer_dot": false},
			{"id": "c", "employer_name": "Bakery 2"},
		}, []portal.DOTEntry{{ID: "a", EmployerName: "Road"}}},
		{"FlagMustBeABoolean", []map[string]any{{"id": "a", "employer_dot": "true"}}, nil},
		{"WithoutIdSkipped", []map[string]any{{"employer_name": "X", "employer_dot": true}, {"id": " ", "employer_dot": true}}, nil},
		{"EachIdOnce", []map[string]any{
			{"id": "a", "employer_name": "First", "employer_dot": true},
			{"id": "a", "employer_name": "Again", "employer_dot": true},
		}, []portal.DOTEntry{{ID: "a", EmployerName: "First"}}},
		{"NameSpacesCollapsed", []map[string]any{{"id": "a", "employer_name": "  Blue   Line ", "employer_dot": true}},
			[]portal.DOTEntry{{ID: "a", EmployerName: "Blue Line"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := portal.DOTEntries(tc.entries); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("DOTEntries = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestReleaseDocument(t *testing.T) {
	doc := func(id int64, typ string, editable bool) portal.LegalDocument {
		return portal.LegalDocument{ID: id, Type: portal.LegalDocumentType{DocumentType: typ, Editable: editable}}
	}
	for _, tc := range []struct {
		name string
		docs []portal.LegalDocument
		want int64 // 0: none
	}{
		{"None", []portal.LegalDocument{doc(1, portal.DocDisclosure, true)}, 0},
		{"TheOne", []portal.LegalDocument{doc(1, portal.DocDisclosure, true), doc(2, portal.DocDOTRelease, true)}, 2},
		{"LowestId", []portal.LegalDocument{doc(3, portal.DocDOTRelease, true), doc(5, portal.DocDOTRelease, true)}, 3},
		{"EditableFirst", []portal.LegalDocument{doc(3, portal.DocDOTRelease, false), doc(5, portal.DocDOTRelease, true)}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &portal.LegalFile{Documents: tc.docs}
			d, ok := f.ReleaseDocument()
			if ok != (tc.want != 0) || d.ID != tc.want {
				t.Errorf("ReleaseDocument = %d, %v; want %d", d.ID, ok, tc.want)
			}
		})
	}
}

func TestCheckSSNAgainstSignatures(t *testing.T) {
	for _, tc := range []struct {
		name, ssn string
		signed    []string
		want      string // the digits the error names; "" for none
	}{
		{"NothingSigned", "123-45-6789", nil, ""},
		{"EndsInTheSignedDigits", "123-45-1234", []string{"1234"}, ""},
		{"EndsInEverySignature", "123-45-1234", []string{"1234", "1234"}, ""},
		{"ErrOtherDigits", "123-45-9999", []string{"1234"}, "1234"},
		{"ErrTheFirstThatDiffers", "123-45-1234", []string{"1234", "5678", "4321"}, "5678"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := portal.CheckSSNAgainstSignatures(tc.ssn, tc.signed)
			if portal.IsSSNMismatch(err) != (tc.want != "") {
				t.Fatalf("err = %v, want mismatch %v", err, tc.want != "")
			}
			if tc.want != "" && !strings.Contains(err.(*portal.Error).Fields[0].Message, "does not end in "+tc.want+",") {
				t.Errorf("message = %q, want it to name %s", err.(*portal.Error).Fields[0].Message, tc.want)
			}
		})
	}
}

func TestCheckSignedEmployers(t *testing.T) {
	signed := map[string]string{"a1a1a1a1a1a1a1a1": "Road & Rail Freight"}
	const msg = "You signed the DOT release for Road & Rail Freight. To list another employer, add a new entry."
	for _, tc := range []struct {
		name    string
		entries []portal.ServiceEntry
		want    map[string]string // field -> message; nil when allowed
	}{
		{"Unchanged", []portal.ServiceEntry{{"id": "a1a1a1a1a1a1a1a1", "employer_name": "Road & Rail Freight", "employer_dot": true}}, nil},
		{"CaseAndSpacing", []portal.ServiceEntry{{"id": "a1a1a1a1a1a1a1a1", "employer_name": "  road &  rail FREIGHT "}}, nil},
		{"Removed", []portal.ServiceEntry{{"id": "b2b2b2b2b2b2b2b2", "employer_name": "Other Freight"}}, nil},
		{"NoEntries", nil, nil},
		{"Renamed", []portal.ServiceEntry{{"id": "a1a1a1a1a1a1a1a1", "employer_name": "Other Freight", "employer_dot": true}},
			map[string]string{"employment.0.employer_name": msg}},
		{"RenamedAndNoLongerDOT", []portal.ServiceEntry{{"id": "b2b2b2b2b2b2b2b2", "employer_name": "x"}, {"id": "a1a1a1a1a1a1a1a1", "employer_name": "Other", "employer_dot": false}},
			map[string]string{"employment.1.employer_name": msg}},
		{"Blanked", []portal.ServiceEntry{{"id": "a1a1a1a1a1a1a1a1"}}, map[string]string{"employment.0.employer_name": msg}},
		{"NotAString", []portal.ServiceEntry{{"id": "a1a1a1a1a1a1a1a1", "employer_name": 5}}, map[string]string{"employment.0.employer_name": msg}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := portal.CheckSignedEmployers(tc.entries, signed)
			var got map[string]string
			if pe, ok := err.(*portal.Error); ok {
				got = map[string]string{}
				for _, f := range pe.Fields {
					got[f.Field] = f.Message
				}
			} else if err != nil {
				t.Fatalf("error = %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors = %v, want %v", got, tc.want)
			}
		})
	}
}
