package portal

import (
	"context"
	"sort"
	"strconv"
	"strings"
)

// SubjectDataService keeps the data an applicant gives about themselves
// beyond the personal information: the location (where they live and will
// work, which decides the legal documents that apply) and the service data
// of the data pages (education, employment, credentials, references).
type SubjectDataService interface {
	// FindSubjectData returns the subject's data (an empty location when
	// none is set; only the service aliases the applicant saved).
	FindSubjectData(ctx context.Context, subjectID int64) (*SubjectData, error)
	// UpdateSubjectData changes what upd sets, once validated: the
	// residency always, the employment only while the operator left it
	// empty (ECONFLICT once setup is complete); service data while the
	// status is new or setup-complete (ErrProfileSubmitted after).
	UpdateSubjectData(ctx context.Context, subjectID int64, upd SubjectDataUpdate) (*SubjectData, error)
	// FindServices lists every service of the subject's package with its
	// fields (GET /api/v2/user/service).
	FindServices(ctx context.Context, subjectID int64) ([]AliasedService, error)
	// FindRequiredFields lists per page the fields always required.
	FindRequiredFields(ctx context.Context, subjectID int64) (map[string][]string, error)
	// FindSubjectView is the read model of GET /api/v2/user/subject.
	FindSubjectView(ctx context.Context, subjectID int64) (*SubjectView, error)
	// SubjectViewVersion names the state the subject view is built from
	// (the subject's rows, the catalog, the day) in one cheap read: an
	// answer built after it was read may be answered again while it is
	// the current one. ok is false when none can be trusted (no events
	// arrive, so a change of the catalog would go unseen).
	SubjectViewVersion(ctx context.Context, subjectID int64) (v ViewVersion, ok bool, err error)
}

// ViewVersion is SubjectViewVersion's answer: equal versions, equal views.
type ViewVersion struct {
	Subject int64  // moved on by every write to the subject's rows the view reads
	Catalog uint64 // moved on by every change of the catalog this process hears of
	Today   string // the date rules' day
}

// ErrProfileSubmitted refuses a change of the applicant's data once the
// profile was submitted (any status after setup-complete).
var ErrProfileSubmitted = &Error{Code: ECONFLICT, Message: "Your profile has been submitted; contact the employer to change it."}

// DataWritable reports whether the applicant may still change aliases,
// addresses and service data.
func DataWritable(s StatusID) bool { return s == StatusNew || s == StatusSetupComplete }

// SubjectData is what the applicant told about themselves besides the
// personal information.
type SubjectData struct {
	Location Location
	// NoDataAvailable says, per alias of NoDataAliases, that the applicant
	// has nothing to list.
	NoDataAvailable map[string]bool
	// Services are the entries of each service alias the applicant saved
	// (a single NoDataEntry when NoDataAvailable).
	Services map[string][]ServiceEntry
}

// ServiceRecord is what subject_records kind 'service:<alias>' holds.
type ServiceRecord struct {
	NoDataAvailable bool           `json:"noDataAvailable"`
	Entries         []ServiceEntry `json:"entries"`
}

// ServiceRecordKind is the subject_records kind of an alias's entries.
func ServiceRecordKind(alias string) string { return "service:" + alias }

// DataAvailableKey is the key of the entry that marks data unavailable.
const DataAvailableKey = "data_available"

// NoDataEntries is the list sent and stored in place of the entries when
// no data is available: exactly [{"data_available": false}].
func NoDataEntries() []ServiceEntry { return []ServiceEntry{{DataAvailableKey: false}} }

// isNoDataList reports whether entries is exactly NoDataEntries.
func isNoDataList(entries []map[string]any) bool {
	if len(entries) != 1 || len(entries[0]) != 1 {
		return false
	}
	v, ok := entries[0][DataAvailableKey].(bool)
	return ok && !v
}

// SubjectDataUpdate changes the parts that are set.
type SubjectDataUpdate struct {
	Location *LocationUpdate
	// NoDataAvailable and Services change only the aliases they hold.
	NoDataAvailable map[string]bool
	Services        map[string][]map[string]any
	// Validated is the profile save: every entry fully validated. Without
	// it (the in-flight save) only the structure is checked.
	Validated bool
}

// TouchesServices reports whether the update changes service data.
func (u SubjectDataUpdate) TouchesServices() bool {
	return len(u.NoDataAvailable) > 0 || len(u.Services) > 0
}

// NoDataMessage refuses a noDataAvailable alias sent with entries.
const NoDataMessage = "When no data is available, send a single entry marking it unavailable."

// ApplyServices checks the update's service data against the package's
// pages and applies it to current (the saved records by alias; nil for an
// alias never saved), returning the records to store by alias. today
// ("YYYY-MM-DD") and lookups serve the full validation. Errors are
// FieldErrors named {alias}.{index}.{api}, or noDataAvailable.{alias} and
// services.{alias} for the lists themselves.
func (u SubjectDataUpdate) ApplyServices(pages []ServicePage, current map[string]*ServiceRecord, today string, lookups Lookups) (map[string]ServiceRecord, error) {
	fieldsOf := map[string][]FieldDefinition{}
	for _, p := range pages {
		fieldsOf[p.Alias] = p.Fields
	}
	var fe FieldErrors
	aliases := map[string]bool{}
	for a := range u.NoDataAvailable {
		aliases[a] = true
	}
	for a := range u.Services {
		aliases[a] = true
	}
	// A body naming far more pages than exist is refused in one message, not
	// one per name: an answer must never be much larger than the request.
	if len(aliases) > len(DataAliases)*2 {
		return nil, &Error{Code: EINVALID, Message: ValidationMessage,
			Fields: []FieldError{{Field: "services", Message: "Your profile has no page for most of these names."}}}
	}
	out := map[string]ServiceRecord{}
	for _, alias := range sortedKeys(aliases) {
		fields, ok := fieldsOf[alias]
		if !ok {
			if _, inServices := u.Services[alias]; inServices {
				fe.Addf("services."+alias, "Your profile has no %s page.", alias)
			} else {
				fe.Addf("noDataAvailable."+alias, "Your profile has no %s page.", alias)
			}
			continue
		}
		rec := ServiceRecord{Entries: []ServiceEntry{}}
		if cur := current[alias]; cur != nil {
			rec = *cur
		}
		noData, setNoData := u.NoDataAvailable[alias]
		entries, setEntries := u.Services[alias]
		if setNoData {
			if noData && !AllowsNoData(alias) {
				fe.Add("noDataAvailable."+alias, "This page needs at least one entry.")
				continue
			}
			if noData && setEntries && !isNoDataList(entries) {
				// The whole body is misread, not one field: its own message.
				return nil, &Error{Code: EINVALID, Message: NoDataMessage,
					Fields: []FieldError{{Field: "services." + alias, Message: NoDataMessage}}}
			}
			if noData {
				out[alias] = ServiceRecord{NoDataAvailable: true, Entries: NoDataEntries()}
				continue
			}
			if rec.NoDataAvailable {
				rec = ServiceRecord{Entries: []ServiceEntry{}}
			}
		}
		if !setEntries {
			out[alias] = rec
			continue
		}
		if !setNoData && rec.NoDataAvailable && isNoDataList(entries) {
			out[alias] = rec
			continue
		}
		if len(entries) > MaxServiceEntries {
			fe.Add("services."+alias, "You can list at most 20 entries.")
			continue
		}
		rec = ServiceRecord{Entries: make([]ServiceEntry, 0, len(entries))}
		ids := map[string]bool{}
		for i, raw := range entries {
			prefix := alias + "." + itoa(i) + "."
			if ids[stringOf(raw[EntryIDKey])] {
				delete(raw, EntryIDKey) // a copied entry gets its own id
			}
			entry, errs := CheckEntryStructure(fields, raw)
			ids[entry[EntryIDKey].(string)] = true
			if u.Validated && len(errs) == 0 {
				errs = ValidateEntry(fields, entry, today, lookups)
			}
			for _, f := range fields {
				if msg, ok := errs[f.API]; ok {
					fe.Add(prefix+f.API, msg)
				}
			}
			rec.Entries = append(rec.Entries, DropHidden(fields, entry))
		}
		out[alias] = rec
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// Place is one of the applicant's locations (subject data location, spec
// section 3).
type Place struct {
	NonUS  bool   `json:"nonUs"`
	State  string `json:"state"`  // a state code such as "US-CA"
	County int64  `json:"county"` // a county id (FIPS code)
	Signed bool   `json:"signed"`
}

// Location is where the applicant lives and where they will work; it decides
// which legal documents apply.
type Location struct {
	Residency  Place `json:"residency"`
	Employment Place `json:"employment"`
}

func (l Location) outsideUS() bool { return l.Residency.NonUS || l.Employment.NonUS }

// InState reports whether residency or employment is in one of the states
// (codes such as "US-CA").
func (l Location) InState(codes ...string) bool {
	for _, c := range codes {
		if stateCodesEqual(c, l.Residency.State) || stateCodesEqual(c, l.Employment.State) {
			return true
		}
	}
	return false
}

// stateCodesEqual compares state codes, ignoring case and surrounding spaces.
func stateCodesEqual(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	return a != "" && strings.EqualFold(a, b)
}

// LocationUpdate changes the location; nil leaves a place as it is.
type LocationUpdate struct {
	Residency  *Place
	Employment *Place
}

// Empty reports whether nothing is known about the place.
func (p Place) Empty() bool { return !p.NonUS && strings.TrimSpace(p.State) == "" && p.County == 0 }

// Normalized trims and upper-cases the state code; a place outside the US
// has neither state nor county.
func (p Place) Normalized() Place {
	p.State = strings.ToUpper(strings.TrimSpace(p.State))
	if p.NonUS {
		p.State, p.County = "", 0
	}
	return p
}

// PlaceLookups are what a place is checked against (package lookup
// provides them): whether a state code exists, and which state a county id
// lies in.
type PlaceLookups struct {
	KnownState func(code string) bool
	// CountyState answers the state code of a county id (a FIPS code such
	// as 6075, whose leading digits are its state's: 6 for US-CA), and false
	// for an id that is no county.
	CountyState func(county int64) (stateCode string, ok bool)
}

// Validate checks a place and adds its messages to fe; field prefixes the
// field names ("location.residency"). A county must lie in the place's
// state: a county alone, or one of another state, would make the legal
// documents follow a place the applicant did not give.
func (p Place) Validate(field string, lookups PlaceLookups, fe *FieldErrors) {
	p = p.Normalized()
	if p.State != "" && !lookups.KnownState(p.State) {
		fe.Add(field+".state", "Choose a state from the list.")
	}
	if p.County == 0 {
		return
	}
	state, ok := lookups.CountyState(p.County)
	switch {
	case p.County < 0 || !ok:
		fe.Add(field+".county", "Choose a county from the list.")
	case p.State == "":
		fe.Add(field+".county", "Choose a state before a county.")
	case !stateCodesEqual(state, p.State):
		fe.Add(field+".county", "Choose a county in the state you chose.")
	}
}

// Validate checks the places the update sets.
func (u SubjectDataUpdate) Validate(lookups PlaceLookups) error {
	var fe FieldErrors
	if l := u.Location; l != nil {
		if p := l.Residency; p != nil {
			p.Validate("location.residency", lookups, &fe)
		}
		if p := l.Employment; p != nil {
			p.Validate("location.employment", lookups, &fe)
		}
	}
	return fe.Err()
}

func itoa(i int) string { return strconv.Itoa(i) }

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// AliasedService is one service of the subject's package as GET
// /api/v2/user/service lists it.
type AliasedService struct {
	Alias   string         `json:"alias"`
	Service ServiceDetails `json:"service"`
}

// ServiceDetails are a package service's id, code, name and fields.
type ServiceDetails struct {
	ID     int64             `json:"id"`
	Code   string            `json:"code"`
	Name   string            `json:"name"`
	Fields []FieldDefinition `json:"fields"`
}

// SubjectServices lists every service of the package with its fields
// sorted by rank ([] for none).
func SubjectServices(p *Package) []AliasedService {
	out := []AliasedService{}
	if p == nil {
		return out
	}
	for _, svc := range p.Services {
		fields := make([]FieldDefinition, 0, len(svc.Fields))
		for _, f := range svc.Fields {
			fields = append(fields, f.Normalized())
		}
		SortFields(fields)
		out = append(out, AliasedService{Alias: ServiceAlias(svc.Code),
			Service: ServiceDetails{ID: svc.ID, Code: svc.Code, Name: svc.Name, Fields: fields}})
	}
	return out
}

// PersonalRequiredFields are the personal information fields the
// applicant must always fill (GET /api/v2/user/subject/required-fields).
var PersonalRequiredFields = []string{"firstName", "middleName", "lastName", "ssn", "dob", "daytimePhoneNumber",
	"driversLicenseNumber", "driversLicenseState", "primaryNotificationMethod"}

// RequiredFields are, per page, the fields required whatever else the
// applicant enters: the personal ones, and per service page the apis with
// requiredFlag.
func RequiredFields(p *Package) map[string][]string {
	out := map[string][]string{"personal": append([]string{}, PersonalRequiredFields...)}
	for _, page := range ServicePages(p) {
		apis := []string{}
		for _, f := range page.Fields {
			if f.RequiredFlag {
				apis = append(apis, f.API)
			}
		}
		out[page.Alias] = apis
	}
	return out
}

// ServiceStatus is one alias's status in GET /api/v2/user/subject.
type ServiceStatus struct {
	Status   string `json:"status"` // "pending" | "complete"
	HasError bool   `json:"hasError"`
}

// SubjectView is GET /api/v2/user/subject: the read model of the hub, the
// navigation and /confirmation.
type SubjectView struct {
	Location               Location                  `json:"location"`
	NoDataAvailable        map[string]bool           `json:"noDataAvailable"`
	InsufficientDataBypass bool                      `json:"insufficientDataBypass"`
	BypassNotes            string                    `json:"bypassNotes"`
	Services               map[string][]ServiceEntry `json:"services"`
	ServiceStatuses        map[string]ServiceStatus  `json:"serviceStatuses"`
	Aliases                any                       `json:"aliases"`
	Addresses              any                       `json:"addresses"`
	Pages                  []ChecklistPage           `json:"pages"`
	DotReleases            []DOTRelease              `json:"dotReleases"`
	ReadyToSubmit          bool                      `json:"readyToSubmit"`
}

// SubjectFacts are what the read model is built from; the store gathers
// them in one transaction, BuildSubjectView decides.
type SubjectFacts struct {
	Status            StatusID
	FullProfile       bool // the employer supplied the personal information
	PersonalInfoSaved bool
	Today             string // "YYYY-MM-DD"
	Lookups           Lookups
	Package           *Package // nil when the company has none
	Location          Location
	// Records are the saved service records by alias (absent: never saved).
	Records map[string]ServiceRecord

	// History holds the other names and the address history; nil leaves
	// their pages out and answers empty lists.
	History *HistoryFacts
	// DOTReleases are the per-employer releases of the DOT-flagged
	// employers; UnsignedDocuments the titles of the applicable legal
	// documents not signed yet (one added or made applicable after setup).
	DOTReleases       []DOTRelease
	UnsignedDocuments []string
	// Documents are the documents asked for and the forms that apply;
	// nil leaves their pages out.
	Documents *DocumentFacts
}

// HistoryFacts are the other names and address history parts of the read
// model, built by their own service: the lists as answered and each
// page's checklist entry.
type HistoryFacts struct {
	Aliases       any
	Addresses     any
	AliasesPage   ChecklistPage
	AddressesPage ChecklistPage
}

// NoDataMap is the noDataAvailable answer: every alias of NoDataAliases.
func NoDataMap(records map[string]ServiceRecord) map[string]bool {
	out := map[string]bool{}
	for _, a := range NoDataAliases {
		out[a] = records[a].NoDataAvailable
	}
	return out
}

// BuildSubjectView builds the read model from the facts.
func BuildSubjectView(f SubjectFacts) *SubjectView {
	v := &SubjectView{
		Location:        f.Location,
		NoDataAvailable: NoDataMap(f.Records),
		Services:        map[string][]ServiceEntry{},
		ServiceStatuses: map[string]ServiceStatus{},
		Aliases:         []any{},
		Addresses:       []any{},
		DotReleases:     nonNilReleases(f.DOTReleases),
	}
	personalDone := f.PersonalInfoSaved || f.FullProfile
	personal := ChecklistPage{ID: "personal", Path: "/personal", Title: "Personal Information", Required: true,
		Complete: personalDone, Missing: []string{}}
	if !personalDone {
		personal.Missing = append(personal.Missing, "Save your personal information.")
	}
	v.Pages = append(v.Pages, personal)
	v.Pages = append(v.Pages, historyPages(f.History, v)...)
	complete := map[string]bool{}
	for _, page := range ServicePages(f.Package) {
		rec, saved := f.Records[page.Alias]
		if saved {
			v.Services[page.Alias] = rec.Entries
		}
		cp := servicePage(page, rec, saved, f.Today, f.Lookups)
		complete[page.Alias] = cp.Complete
		v.Pages = append(v.Pages, cp)
	}
	if f.Package != nil {
		for _, svc := range f.Package.Services {
			alias := ServiceAlias(svc.Code)
			st := ServiceStatus{Status: "pending"}
			if f.Status == StatusComplete {
				st.Status = "complete"
			}
			if done, isPage := complete[alias]; isPage {
				st.HasError = !done
			}
			v.ServiceStatuses[alias] = st
		}
	}
	v.Pages = append(v.Pages, documentPages(f.Documents)...)
	v.Pages = append(v.Pages, signingPages(f)...)
	v.ReadyToSubmit = len(IncompletePages(v.Pages)) == 0
	return v
}

// signingPages are the checklist's signatures still to give: a DOT release
// per DOT-flagged employer (signed from /employment) and any legal document
// that became applicable after setup (signed from the hub). A full-profile
// applicant skipped the legal steps at setup: the employer collected them.
func signingPages(f SubjectFacts) []ChecklistPage {
	var out []ChecklistPage
	if len(f.DOTReleases) > 0 {
		p := ChecklistPage{ID: "dot-releases", Path: "/employment", Title: "DOT Releases", Required: true, Missing: []string{}}
		for _, r := range f.DOTReleases {
			if !r.Signed {
				p.Missing = append(p.Missing, "Sign the DOT release for "+r.EmployerName+".")
			}
		}
		p.Complete = len(p.Missing) == 0
		out = append(out, p)
	}
	if len(f.UnsignedDocuments) > 0 && !f.FullProfile {
		p := ChecklistPage{ID: "documents", Path: "/profile", Title: "Legal Documents", Required: true, Missing: []string{}}
		for _, t := range f.UnsignedDocuments {
			p.Missing = append(p.Missing, "Sign "+t+".")
		}
		out = append(out, p)
	}
	return out
}

func nonNilReleases(r []DOTRelease) []DOTRelease {
	if r == nil {
		return []DOTRelease{}
	}
	return r
}

// historyPages adds the other names and address history to the view: their
// lists and, in checklist order, their pages.
func historyPages(h *HistoryFacts, v *SubjectView) []ChecklistPage {
	if h == nil {
		return nil
	}
	if h.Aliases != nil {
		v.Aliases = h.Aliases
	}
	if h.Addresses != nil {
		v.Addresses = h.Addresses
	}
	return []ChecklistPage{h.AliasesPage, h.AddressesPage}
}

// servicePage is the checklist entry of one service page: complete once
// saved with no data available, or with at least one entry and every
// entry valid under full validation.
func servicePage(page ServicePage, rec ServiceRecord, saved bool, today string, lookups Lookups) ChecklistPage {
	cp := ChecklistPage{ID: page.Alias, Path: "/" + page.Alias, Title: pageTitles[page.Alias], Required: true, Missing: []string{}}
	switch {
	case saved && rec.NoDataAvailable:
	case !saved || len(rec.Entries) == 0:
		cp.Missing = append(cp.Missing, emptyPageMessages[page.Alias])
	default:
		for i, e := range rec.Entries {
			errs := ValidateEntry(page.Fields, e, today, lookups)
			for _, f := range page.Fields {
				if msg, ok := errs[f.API]; ok {
					cp.Missing = append(cp.Missing, "Entry "+itoa(i+1)+": "+msg)
					break
				}
			}
		}
	}
	cp.Complete = len(cp.Missing) == 0
	return cp
}

var emptyPageMessages = map[string]string{
	AliasEducation:    "Add the schools you attended, or say that you have none to list.",
	AliasEmployment:   "Add your employers, or say that you have none to list.",
	AliasCredential:   "Add your licenses and credentials, or say that you have none.",
	AliasProfessional: "Add at least one professional reference.",
}

// IncompletePages are the titles of the required pages not yet complete.
func IncompletePages(pages []ChecklistPage) []string {
	var out []string
	for _, p := range pages {
		if p.Required && !p.Complete {
			out = append(out, p.Title)
		}
	}
	return out
}
