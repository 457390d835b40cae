package servicedefs_test

import (
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
)

func TestStandardFieldsAreValidDefinitions(t *testing.T) {
	for _, code := range []string{"edus", "iedu", "emps", "iemp", "dots", "cred", "prof"} {
		fields := servicedefs.Standard(code)
		if len(fields) == 0 {
			t.Errorf("%s: no fields", code)
		}
		if err := portal.ValidateDefinitions(fields); err != nil {
			t.Errorf("%s: %v", code, err)
		}
	}
	// dots only adds to employment: it is valid merged with emps.
	if err := portal.ValidateDefinitions(portal.MergeFields(servicedefs.Standard("emps"), servicedefs.Standard("dots"))); err != nil {
		t.Error(err)
	}
	if servicedefs.Standard("crim") != nil {
		t.Error("crim has no applicant fields")
	}
}

// TestEveryTextHasItsSpanish: each label, hint and option label of the
// standard definitions has a Spanish text.
func TestEveryTextHasItsSpanish(t *testing.T) {
	texts := servicedefs.Texts()
	if len(texts) < 50 {
		t.Fatalf("%d texts; the standard definitions hold more", len(texts))
	}
	for _, code := range servicedefs.Codes {
		for _, f := range servicedefs.Standard(code) {
			all := []string{f.Name, f.Hint}
			for _, o := range f.Options {
				all = append(all, o.Label)
			}
			for _, en := range all {
				if en == "" {
					continue
				}
				if es, ok := servicedefs.Translation(en, portal.LocaleEsUS); !ok || strings.TrimSpace(es) == "" {
					t.Errorf("%s.%s: %q has no Spanish", code, f.API, en)
				}
			}
		}
	}
}

func TestLocalize(t *testing.T) {
	custom := servicedefs.Standard("emps")
	custom[0].Name = "Company you worked for"
	for _, tt := range []struct {
		name       string
		fields     []portal.FieldDefinition
		locale     portal.Locale
		api, want  string
		option     string // the label of the field's first option, when it has options
		hintPrefix string
	}{
		{name: "SpanishLabel", fields: servicedefs.Standard("emps"), locale: portal.LocaleEsUS, api: "employer_name", want: "Nombre del empleador",
			hintPrefix: "El nombre legal o comercial"},
		{name: "SpanishOptions", fields: servicedefs.Standard("edus"), locale: portal.LocaleEsUS, api: "graduated", want: "¿Se graduó?", option: "Sí"},
		{name: "OperatorsTextStays", fields: custom, locale: portal.LocaleEsUS, api: "employer_name", want: "Company you worked for"},
		{name: "English", fields: servicedefs.Standard("prof"), locale: portal.LocaleEnUS, api: "reference_name", want: "Full name"},
		{name: "OtherLanguage", fields: servicedefs.Standard("prof"), locale: "fr-FR", api: "reference_name", want: "Full name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := servicedefs.Standard("edus")[7].Options[0].Label
			got := servicedefs.Localize(tt.fields, tt.locale)
			var f *portal.FieldDefinition
			for i := range got {
				if got[i].API == tt.api {
					f = &got[i]
				}
			}
			if f == nil || f.Name != tt.want {
				t.Fatalf("%s: %+v; want the label %q", tt.api, f, tt.want)
			}
			if tt.option != "" && f.Options[0].Label != tt.option {
				t.Errorf("options %+v; want %q first", f.Options, tt.option)
			}
			if !strings.HasPrefix(f.Hint, tt.hintPrefix) {
				t.Errorf("hint %q; want it to start %q", f.Hint, tt.hintPrefix)
			}
			if tt.fields[0].Name == "Nombre del empleador" || servicedefs.Standard("edus")[7].Options[0].Label != before {
				t.Error("Localize changed the definitions it was given")
			}
		})
	}
}
