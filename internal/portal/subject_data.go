package portal

import (
	"context"
	"strings"
)

// SubjectDataService keeps the data an applicant gives about themselves
// beyond the personal information: for now the location (where they live
// and will work, which decides the legal documents that apply); aliases,
// addresses, history and service data join it.
type SubjectDataService interface {
	// FindSubjectData returns the subject's data (an empty location when
	// none is set).
	FindSubjectData(ctx context.Context, subjectID int64) (*SubjectData, error)
	// UpdateSubjectData changes what upd sets, once validated: the
	// residency always, the employment only while the operator left it
	// empty. ECONFLICT once setup is complete.
	UpdateSubjectData(ctx context.Context, subjectID int64, upd SubjectDataUpdate) (*SubjectData, error)
}

// SubjectData is what the applicant told about themselves besides the
// personal information.
type SubjectData struct {
	Location Location
}

// SubjectDataUpdate changes the parts that are not nil.
type SubjectDataUpdate struct {
	Location *LocationUpdate
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

// Validate checks a place and adds its messages to fe; field prefixes the
// field names ("location.residency"). knownState says whether a state code
// exists.
func (p Place) Validate(field string, knownState func(code string) bool, fe *FieldErrors) {
	p = p.Normalized()
	if p.State != "" && !knownState(p.State) {
		fe.Add(field+".state", "Choose a state from the list.")
	}
	if p.County < 0 {
		fe.Add(field+".county", "Choose a county from the list.")
	}
}

// Validate checks the places the update sets; knownState says whether a
// state code exists.
func (u SubjectDataUpdate) Validate(knownState func(code string) bool) error {
	var fe FieldErrors
	if l := u.Location; l != nil {
		if p := l.Residency; p != nil {
			p.Validate("location.residency", knownState, &fe)
		}
		if p := l.Employment; p != nil {
			p.Validate("location.employment", knownState, &fe)
		}
	}
	return fe.Err()
}
