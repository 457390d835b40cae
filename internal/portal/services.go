package portal

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
)

// Data page aliases: the services whose pages the applicant fills in.
const (
	AliasEducation    = "education"
	AliasEmployment   = "employment"
	AliasCredential   = "credential"
	AliasProfessional = "professional"
)

// DataAliases are the service pages, in checklist order.
var DataAliases = []string{AliasEducation, AliasEmployment, AliasCredential, AliasProfessional}

// NoDataAliases are the pages on which the applicant may say no data is
// available.
var NoDataAliases = []string{AliasCredential, AliasEducation, AliasEmployment}

// IsDataAlias reports whether alias has a service page.
func IsDataAlias(alias string) bool { return contains(DataAliases, alias) }

// AllowsNoData reports whether the page of alias takes noDataAvailable.
func AllowsNoData(alias string) bool { return contains(NoDataAliases, alias) }

var pageTitles = map[string]string{ // #nosec G101 -- page titles, not credentials
	AliasEducation:    "Education",
	AliasEmployment:   "Employment",
	AliasCredential:   "Licenses and Credentials",
	AliasProfessional: "Professional References",
}

// ServicePage is one service page of a package: its alias and the merged
// fields of every service of that alias.
type ServicePage struct {
	Alias  string
	Fields []FieldDefinition
}

// ServicePages are the package's service pages in checklist order, only
// those the package has a service for.
func ServicePages(p *Package) []ServicePage {
	if p == nil {
		return nil
	}
	var out []ServicePage
	for _, alias := range DataAliases {
		var lists [][]FieldDefinition
		found := false
		for _, svc := range p.Services {
			if ServiceAlias(svc.Code) == alias {
				found = true
				lists = append(lists, svc.Fields)
			}
		}
		if found {
			out = append(out, ServicePage{Alias: alias, Fields: MergeFields(lists...)})
		}
	}
	return out
}

// ServicePageAliases are the aliases of ServicePages(p), in the same
// order, without merging the field definitions: for readers of the
// records that need no fields.
func ServicePageAliases(p *Package) []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, alias := range DataAliases {
		if slices.ContainsFunc(p.Services, func(svc PackageService) bool { return ServiceAlias(svc.Code) == alias }) {
			out = append(out, alias)
		}
	}
	return out
}

var apiRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

var fieldTypes = map[string]bool{
	FieldText: true, FieldTextarea: true, FieldEmail: true, FieldPhone: true, FieldDate: true, FieldMonth: true,
	FieldSelect: true, FieldRadio: true, FieldCheckbox: true, FieldState: true, FieldCountry: true,
}

// ValidateDefinitions checks a service's field definitions before they are
// stored: known types, unique well-formed apis, compilable formats, options
// where needed, and rules and "after" naming fields of the same list.
func ValidateDefinitions(fields []FieldDefinition) error {
	seen := map[string]bool{}
	for _, f := range fields {
		if !apiRE.MatchString(f.API) || f.API == EntryIDKey {
			return fmt.Errorf("field api %q is not a lower-case name", f.API)
		}
		if seen[f.API] {
			return fmt.Errorf("field %s defined twice", f.API)
		}
		seen[f.API] = true
	}
	for _, f := range fields {
		switch {
		case !fieldTypes[f.Type]:
			return fmt.Errorf("field %s: unknown type %q", f.API, f.Type)
		case f.Name == "":
			return fmt.Errorf("field %s: no name", f.API)
		case (f.Type == FieldSelect || f.Type == FieldRadio) && len(f.Options) == 0:
			return fmt.Errorf("field %s: no options", f.API)
		case f.After != "" && !seen[f.After]:
			return fmt.Errorf("field %s: after names unknown field %s", f.API, f.After)
		case f.After != "" && f.Type != FieldDate && f.Type != FieldMonth:
			return fmt.Errorf("field %s: after on a %s field", f.API, f.Type)
		}
		if !f.RequiredWhen.Valid() || !f.VisibleWhen.Valid() {
			return fmt.Errorf("field %s: incomplete rule", f.API)
		}
		if f.Format != "" {
			if _, err := regexp.Compile(`^(?:` + f.Format + `)$`); err != nil {
				return fmt.Errorf("field %s: format: %w", f.API, err)
			}
		}
		for _, api := range append(f.RequiredWhen.Fields(), f.VisibleWhen.Fields()...) {
			if !seen[api] {
				return fmt.Errorf("field %s: rule names unknown field %s", f.API, api)
			}
		}
	}
	return nil
}

// EncodeDefinitions is how package_services.fields stores definitions.
func EncodeDefinitions(fields []FieldDefinition) (string, error) {
	if fields == nil {
		fields = []FieldDefinition{}
	}
	b, err := json.Marshal(fields)
	return string(b), err
}

// DecodeDefinitions reads package_services.fields, sorted by rank.
func DecodeDefinitions(s string) ([]FieldDefinition, error) {
	fields := []FieldDefinition{}
	if s == "" {
		return fields, nil
	}
	if err := json.Unmarshal([]byte(s), &fields); err != nil {
		return nil, err
	}
	for i := range fields {
		fields[i] = fields[i].Normalized()
	}
	SortFields(fields)
	return fields, nil
}
