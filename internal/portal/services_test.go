package portal

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func field(api string, rank int, opts ...func(*FieldDefinition)) FieldDefinition {
	f := FieldDefinition{API: api, Name: strings.ToUpper(api[:1]) + api[1:], Type: FieldText, Rank: rank}
	for _, o := range opts {
		o(&f)
	}
	return f
}

func requiredField(f *FieldDefinition) { f.RequiredFlag = true }

func TestMergeFieldsLowestRankWins(t *testing.T) {
	a := []FieldDefinition{field("name", 10), field("city", 30)}
	b := []FieldDefinition{field("city", 20, requiredField), field("dot", 40), field("name", 50)}
	got := MergeFields(a, b)
	var apis []string
	for _, f := range got {
		apis = append(apis, f.API)
	}
	if strings.Join(apis, ",") != "name,city,dot" || !got[1].RequiredFlag || got[0].Options == nil {
		t.Errorf("merged = %+v", got)
	}
}

func TestServicePagesFollowThePackage(t *testing.T) {
	p := &Package{Services: []PackageService{
		{Code: "crim"}, {Code: "dots", Fields: []FieldDefinition{field("employer_dot", 140)}},
		{Code: "emps", Fields: []FieldDefinition{field("employer_name", 10)}}, {Code: "prof"},
	}}
	pages := ServicePages(p)
	if len(pages) != 2 || pages[0].Alias != AliasEmployment || pages[1].Alias != AliasProfessional {
		t.Fatalf("pages = %+v", pages)
	}
	if len(pages[0].Fields) != 2 || pages[0].Fields[0].API != "employer_name" {
		t.Errorf("employment fields = %+v", pages[0].Fields)
	}
	if ServicePages(nil) != nil {
		t.Error("no package, no pages")
	}
}

func TestValidateDefinitions(t *testing.T) {
	ok := []FieldDefinition{field("a", 10), field("b", 20, func(f *FieldDefinition) { f.VisibleWhen = Equals("a", "x") })}
	if err := ValidateDefinitions(ok); err != nil {
		t.Fatal(err)
	}
	for name, fields := range map[string][]FieldDefinition{
		"DuplicateAPI": {field("a", 10), field("a", 20)},
		"BadAPI":       {field("A b", 10)},
		"IDIsReserved": {field("id", 10)},
		"UnknownType":  {field("a", 10, func(f *FieldDefinition) { f.Type = "number" })},
		"SelectNoOpts": {field("a", 10, func(f *FieldDefinition) { f.Type = FieldSelect })},
		"BadFormat":    {field("a", 10, func(f *FieldDefinition) { f.Format = "(" })},
		"AfterUnknown": {field("a", 10, func(f *FieldDefinition) { f.Type = FieldDate; f.After = "b" })},
		"AfterOnText":  {field("a", 10), field("b", 20, func(f *FieldDefinition) { f.After = "a" })},
		"RuleUnknown":  {field("a", 10, func(f *FieldDefinition) { f.RequiredWhen = Not(Filled("zz", true)) })},
		"NoName":       {field("a", 10, func(f *FieldDefinition) { f.Name = "" })},
	} {
		if err := ValidateDefinitions(fields); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func TestApplyServices(t *testing.T) {
	pages := []ServicePage{
		{Alias: AliasEmployment, Fields: []FieldDefinition{field("employer_name", 10, requiredField)}},
		{Alias: AliasProfessional, Fields: []FieldDefinition{field("reference_name", 10, requiredField)}},
	}
	saved := &ServiceRecord{Entries: []ServiceEntry{{"id": "00000000000000aa", "employer_name": "Old"}}}
	apply := func(u SubjectDataUpdate, current map[string]*ServiceRecord) (map[string]ServiceRecord, error) {
		return u.ApplyServices(pages, current, "2026-11-22", nil)
	}

	t.Run("OnlyNamedAliasesChange", func(t *testing.T) {
		out, err := apply(SubjectDataUpdate{Services: map[string][]map[string]any{AliasProfessional: {{"reference_name": "Sam"}}}},
			map[string]*ServiceRecord{AliasEmployment: saved})
		if err != nil || len(out) != 1 || out[AliasProfessional].Entries[0]["reference_name"] != "Sam" {
			t.Fatalf("out = %v, err = %v", out, err)
		}
	})
	t.Run("CopiedIDsAreRenewed", func(t *testing.T) {
		out, err := apply(SubjectDataUpdate{Services: map[string][]map[string]any{AliasEmployment: {
			{"id": "00000000000000aa", "employer_name": "A"}, {"id": "00000000000000aa", "employer_name": "B"}, {"id": "not-hex"}}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		es := out[AliasEmployment].Entries
		if es[0]["id"] != "00000000000000aa" || es[1]["id"] == es[0]["id"] || es[2]["id"] == "not-hex" {
			t.Errorf("ids = %v %v %v", es[0]["id"], es[1]["id"], es[2]["id"])
		}
	})
	t.Run("NoDataWithoutServicesStoresTheMarker", func(t *testing.T) {
		out, err := apply(SubjectDataUpdate{NoDataAvailable: map[string]bool{AliasEmployment: true}}, map[string]*ServiceRecord{AliasEmployment: saved})
		want := ServiceRecord{NoDataAvailable: true, Entries: NoDataEntries()}
		if err != nil || !reflect.DeepEqual(out[AliasEmployment], want) {
			t.Errorf("out = %v, err = %v", out, err)
		}
	})
	t.Run("NoDataOffKeepsNoMarker", func(t *testing.T) {
		marked := &ServiceRecord{NoDataAvailable: true, Entries: NoDataEntries()}
		out, err := apply(SubjectDataUpdate{NoDataAvailable: map[string]bool{AliasEmployment: false}}, map[string]*ServiceRecord{AliasEmployment: marked})
		if err != nil || out[AliasEmployment].NoDataAvailable || len(out[AliasEmployment].Entries) != 0 {
			t.Errorf("out = %v, err = %v", out, err)
		}
	})
	t.Run("MarkerResentWhileNoDataStaysAsIs", func(t *testing.T) {
		marked := &ServiceRecord{NoDataAvailable: true, Entries: NoDataEntries()}
		out, err := apply(SubjectDataUpdate{Services: map[string][]map[string]any{AliasEmployment: {{"data_available": false}}}},
			map[string]*ServiceRecord{AliasEmployment: marked})
		if err != nil || !out[AliasEmployment].NoDataAvailable {
			t.Errorf("out = %v, err = %v", out, err)
		}
	})
	t.Run("ValidatedSaveNamesFields", func(t *testing.T) {
		_, err := apply(SubjectDataUpdate{Validated: true, Services: map[string][]map[string]any{AliasEmployment: {{"employer_name": "A"}, {}}}}, nil)
		pe, _ := err.(*Error)
		if pe == nil || len(pe.Fields) != 1 || pe.Fields[0].Field != "employment.1.employer_name" || pe.Fields[0].Message != "Employer_name is required." {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("InFlightSaveSkipsRequired", func(t *testing.T) {
		if _, err := apply(SubjectDataUpdate{Services: map[string][]map[string]any{AliasEmployment: {{}}}}, nil); err != nil {
			t.Error(err)
		}
	})
}

func TestBuildSubjectView(t *testing.T) {
	pkg := &Package{Services: []PackageService{
		{Code: "emps", Fields: []FieldDefinition{field("employer_name", 10, requiredField)}},
		{Code: "edus", Fields: []FieldDefinition{field("school_name", 10, requiredField)}},
		{Code: "crim"},
	}}
	base := SubjectFacts{Status: StatusSetupComplete, Today: "2026-11-22", Package: pkg, Records: map[string]ServiceRecord{}}
	titles := func(v *SubjectView) string {
		var out []string
		for _, p := range v.Pages {
			s := p.ID
			if p.Complete {
				s += "+"
			}
			out = append(out, s)
		}
		return strings.Join(out, " ")
	}

	v := BuildSubjectView(base)
	if titles(v) != "personal education employment" || v.ReadyToSubmit {
		t.Errorf("fresh: %s ready=%v", titles(v), v.ReadyToSubmit)
	}
	if v.Aliases == nil || v.Addresses == nil || v.DotReleases == nil || len(v.Services) != 0 {
		t.Error("lists must answer [] and services {}")
	}
	if got := v.Pages[2].Missing; len(got) != 1 || got[0] != "Add your employers, or say that you have none to list." {
		t.Errorf("employment missing = %v", got)
	}

	done := base
	done.PersonalInfoSaved = true
	done.Records = map[string]ServiceRecord{
		AliasEmployment: {Entries: []ServiceEntry{{"id": "1", "employer_name": "Acme"}}},
		AliasEducation:  {NoDataAvailable: true, Entries: NoDataEntries()},
	}
	v = BuildSubjectView(done)
	if titles(v) != "personal+ education+ employment+" || !v.ReadyToSubmit || !v.NoDataAvailable[AliasEducation] {
		t.Errorf("done: %s ready=%v", titles(v), v.ReadyToSubmit)
	}
	if st := v.ServiceStatuses["crim"]; st != (ServiceStatus{Status: "pending"}) {
		t.Errorf("crim = %+v", st)
	}

	complete := done
	complete.Status = StatusComplete
	if st := BuildSubjectView(complete).ServiceStatuses[AliasEmployment]; st != (ServiceStatus{Status: "complete"}) {
		t.Errorf("complete order: %+v", st)
	}

	invalid := done
	invalid.Records = map[string]ServiceRecord{AliasEmployment: {Entries: []ServiceEntry{{"id": "1"}, {"id": "2", "employer_name": "B"}}},
		AliasEducation: done.Records[AliasEducation]}
	v = BuildSubjectView(invalid)
	if got := v.Pages[2]; got.Complete || !reflect.DeepEqual(got.Missing, []string{"Entry 1: Employer_name is required."}) {
		t.Errorf("invalid employment page = %+v", got)
	}
	if got := IncompletePages(v.Pages); !reflect.DeepEqual(got, []string{"Employment"}) {
		t.Errorf("incomplete = %v", got)
	}

	// The other names and address history join through History.
	withHistory := done
	withHistory.History = &HistoryFacts{
		Aliases:       []string{"alias"},
		AliasesPage:   ChecklistPage{ID: "aliases", Path: "/aliases", Title: "Other Names", Required: true, Complete: true},
		AddressesPage: ChecklistPage{ID: "addresses", Path: "/addresses", Title: "Address History", Required: true},
	}
	v = BuildSubjectView(withHistory)
	if titles(v) != "personal+ aliases+ addresses education+ employment+" || v.ReadyToSubmit {
		t.Errorf("with history: %s ready=%v", titles(v), v.ReadyToSubmit)
	}
	if !reflect.DeepEqual(v.Aliases, []string{"alias"}) {
		t.Errorf("aliases = %v", v.Aliases)
	}
}

func TestSigningPagesJoinTheChecklist(t *testing.T) {
	cases := []struct {
		name        string
		facts       SubjectFacts
		wantPages   string
		wantMissing string
	}{
		// Only the full-profile applicant (personal information from the
		// employer, nothing left to sign) is ready.
		{"nothing to sign", SubjectFacts{}, "personal", ""},
		{"an unsigned DOT release",
			SubjectFacts{DOTReleases: []DOTRelease{{EntryID: "a", EmployerName: "Acme Freight"}, {EntryID: "b", EmployerName: "Beta", Signed: true}}},
			"personal dot-releases", "Sign the DOT release for Acme Freight."},
		{"every DOT release signed", SubjectFacts{DOTReleases: []DOTRelease{{EntryID: "b", Signed: true}}}, "personal dot-releases+", ""},
		{"a document applicable after setup", SubjectFacts{UnsignedDocuments: []string{"Idaho release"}}, "personal documents", "Sign Idaho release."},
		{"a full-profile applicant signed on paper with the employer", SubjectFacts{FullProfile: true, UnsignedDocuments: []string{"Disclosure"}}, "personal+", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := BuildSubjectView(c.facts)
			var ids, missing []string
			for _, p := range v.Pages {
				id := p.ID
				if p.Complete {
					id += "+"
				}
				ids = append(ids, id)
				if p.ID != "personal" {
					missing = append(missing, p.Missing...)
				}
			}
			if got := strings.Join(ids, " "); got != c.wantPages {
				t.Errorf("pages = %q, want %q", got, c.wantPages)
			}
			if got := strings.Join(missing, " "); got != c.wantMissing {
				t.Errorf("missing = %q, want %q", got, c.wantMissing)
			}
			if want := c.facts.FullProfile; v.ReadyToSubmit != want {
				t.Errorf("ready = %v, want %v", v.ReadyToSubmit, want)
			}
		})
	}
}

func TestInFlightCheckIgnoresHiddenFields(t *testing.T) {
	fields := []FieldDefinition{
		{API: "current", Name: "I work here", Type: FieldCheckbox, Rank: 1},
		{API: "reason", Name: "Reason for leaving", Type: FieldTextarea, Rank: 2,
			VisibleWhen: Equals("current", false)},
	}
	long := strings.Repeat("x", 5000)
	cases := []struct {
		name     string
		entry    map[string]any
		wantErr  string
		wantKept bool
	}{
		{"a visible value over its limit is refused", map[string]any{"current": false, "reason": long}, "Reason for leaving must be at most 2000 characters.", false},
		{"a hidden value is dropped unchecked", map[string]any{"current": true, "reason": long}, "", false},
		{"a visible value within its limit is kept", map[string]any{"current": false, "reason": "Moved"}, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs := CheckEntryStructure(fields, c.entry)
			if errs["reason"] != c.wantErr {
				t.Errorf("error = %q, want %q", errs["reason"], c.wantErr)
			}
			if _, kept := out["reason"]; kept != c.wantKept {
				t.Errorf("reason kept = %v, want %v", kept, c.wantKept)
			}
		})
	}
}

func TestManyUnknownPagesAreOneMessage(t *testing.T) {
	pages := []ServicePage{{Alias: "education", Fields: []FieldDefinition{{API: "school_name", Name: "School name", Type: FieldText, Rank: 1}}}}
	cases := []struct {
		name    string
		unknown int
		want    int // field errors
	}{
		{"one unknown page names it", 1, 1},
		{"a few unknown pages name each", 3, 3},
		{"thousands of names are one message", 5000, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := SubjectDataUpdate{Services: map[string][]map[string]any{}}
			for i := 0; i < c.unknown; i++ {
				u.Services["page"+strconv.Itoa(i)] = []map[string]any{}
			}
			_, err := u.ApplyServices(pages, nil, "2026-11-22", nil)
			var pe *Error
			if !errors.As(err, &pe) || len(pe.Fields) != c.want {
				t.Fatalf("error = %v, want %d field errors", err, c.want)
			}
		})
	}
}
