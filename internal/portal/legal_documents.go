package portal

import (
	"fmt"
	"slices"
	"sort"
)

// Legal document types (spec section 3). Any other documentType is a
// "dynamic" type an operator loaded: it sorts with priority 0 and needs a
// signature only.
const (
	DocESign                = "e_sign"
	DocDisclosure           = "disclosure"
	DocInvestigative        = "investigative_consumer_report"
	DocCaliforniaDisclosure = "california_disclosure"
	DocStateDisclosures     = "addl_state_disclosures"
	DocRights               = "rights"
	DocAuthorization        = "authorization_for_background"
	DocDOTRelease           = "dot_release"
)

// Rights notices: sub-documents that are merged into the single rights step.
const (
	DocRightsFed      = "rights_fed"       // the federal summary of rights (FCRA)
	DocRightsNJ       = "rights_nj"        // New Jersey
	DocRightsWA       = "rights_wa"        // Washington State
	DocRightsSF       = "rights_sf"        // San Francisco Fair Chance Ordinance
	DocRightsNY23a    = "rights_ny23a"     // New York Correction Law Article 23-A
	DocRightsCACredit = "rights_ca_credit" // California, credit reports
	DocRightsVTCredit = "rights_vt_credit" // Vermont, credit reports
	DocRightsMDCredit = "rights_md_credit" // Maryland, credit reports
)

// Acknowledgement fields of the rights step, as the app names them.
const (
	AckFieldReceiptYourRights = "ackReceiptYourRights"
	AckFieldFed               = "ackFed"
	AckFieldNj                = "ackNj"
	AckFieldWa                = "ackWa"
	AckFieldSf                = "ackSf"
	AckFieldNy                = "ackNy"
	AckFieldCaCredit          = "ackCaCredit"
	AckFieldVtCredit          = "ackVtCredit"
	AckFieldMdCredit          = "ackMdCredit"
)

// RightsNotice describes one sub-document of the rights step.
type RightsNotice struct {
	DocumentType string // e.g. DocRightsFed
	AckField     string // the flag the applicant ticks, e.g. AckFieldFed
	Name         string // how messages name the notice
}

// rightsNotices is in the order the rights step shows them: federal first.
var rightsNotices = []RightsNotice{
	{DocRightsFed, AckFieldFed, "A Summary of Your Rights Under the Fair Credit Reporting Act"},
	{DocRightsNJ, AckFieldNj, "the New Jersey notice of your rights"},
	{DocRightsWA, AckFieldWa, "the Washington State notice of your rights"},
	{DocRightsSF, AckFieldSf, "the San Francisco Fair Chance Ordinance notice"},
	{DocRightsNY23a, AckFieldNy, "the New York Correction Law Article 23-A notice"},
	{DocRightsCACredit, AckFieldCaCredit, "the California notice about credit reports"},
	{DocRightsVTCredit, AckFieldVtCredit, "the Vermont notice about credit reports"},
	{DocRightsMDCredit, AckFieldMdCredit, "the Maryland notice about credit reports"},
}

// RightsNotices lists the rights sub-documents in the order the rights step
// shows them.
func RightsNotices() []RightsNotice {
	return append([]RightsNotice(nil), rightsNotices...)
}

// rightsIndex returns the position of a type within the rights step: -1 for
// the plain "rights" type (shown first), 0.. for the notices, and false for a
// type that is not part of the rights step.
func rightsIndex(documentType string) (int, bool) {
	if documentType == DocRights {
		return -1, true
	}
	for i, n := range rightsNotices {
		if n.DocumentType == documentType {
			return i, true
		}
	}
	return 0, false
}

// IsRightsDocument reports whether a document type belongs to the merged
// rights step (the plain "rights" type or one of the rights notices).
func IsRightsDocument(documentType string) bool {
	_, ok := rightsIndex(documentType)
	return ok
}

// StepType returns the type of the legal step a document type belongs to:
// DocRights for every rights notice, the type itself otherwise.
func StepType(documentType string) string {
	if IsRightsDocument(documentType) {
		return DocRights
	}
	return documentType
}

// Priority returns the legal step priority of spec section 9: higher comes
// first, authorization comes last, anything else (dot_release and dynamic
// types included) is 0.
func Priority(documentType string) int {
	switch StepType(documentType) {
	case DocESign:
		return 100
	case DocDisclosure:
		return 99
	case DocInvestigative:
		return 98
	case DocCaliforniaDisclosure:
		return 97
	case DocStateDisclosures:
		return 96
	case DocRights:
		return 95
	case DocAuthorization:
		return -100
	}
	return 0
}

// Visibility values of a legal document type. Any value other than all and
// non_us is treated as regional, as spec section 5 says ("otherwise").
const (
	VisibilityAll      = "all"
	VisibilityNonUS    = "non_us"
	VisibilityRegional = "regional"
)

// Region is where a regional document applies: a state code such as "US-CA",
// a county id (the county's FIPS code, e.g. 6075 for San Francisco), or both.
type Region struct {
	StateCode string `json:"state,omitempty"`
	CountyID  int64  `json:"county,omitempty"`
}

// LegalDocumentType says what a legal document is and for whom it applies.
type LegalDocumentType struct {
	ID           int64    `json:"id"`
	DocumentType string   `json:"documentType"`
	Visibility   string   `json:"visibility"`
	Regions      []Region `json:"regions"`
	Code         string   `json:"code"`
	// Editable is false for documents that are shown elsewhere but never
	// signed as a legal step; LegalSteps skips them.
	Editable bool `json:"editable"`
}

// LegalDocument is one version of a company's legal text.
type LegalDocument struct {
	ID        int64             `json:"id"`
	CompanyID int64             `json:"companyId"`
	Type      LegalDocumentType `json:"type"`
	Title     string            `json:"title"`
	Version   int               `json:"version"`
	Content   string            `json:"content"` // sanitized HTML, tokens not yet replaced
	// Language is the language of Title and Content: the one asked for
	// when the document has a text in it, else en-US, which every
	// document has. Version numbers the texts of that language.
	Language Locale `json:"language"`
}

func (r Region) matches(p Place) bool {
	return (r.StateCode != "" && stateCodesEqual(r.StateCode, p.State)) ||
		(r.CountyID != 0 && r.CountyID == p.County)
}

// Applies reports whether a document type is visible for a location (spec
// section 5): all always; non_us only when residency or employment is outside
// the US; otherwise when a region's state code or county id matches residency
// or employment. Applies answers visibility only: LegalSteps additionally
// skips non-editable documents, so use LegalSteps (or StepFor) to decide what
// may or must be signed.
func Applies(t LegalDocumentType, loc Location) bool {
	switch t.Visibility {
	case VisibilityAll:
		return true
	case VisibilityNonUS:
		return loc.outsideUS()
	}
	for _, r := range t.Regions {
		if r.matches(loc.Residency) || r.matches(loc.Employment) {
			return true
		}
	}
	return false
}

// LegalStep is one step of the legal part of setup. Every step holds one
// document, except the rights step, which holds every applicable rights
// notice.
type LegalStep struct {
	DocumentType string          `json:"documentType"` // DocRights for the merged rights step
	Priority     int             `json:"priority"`
	Documents    []LegalDocument `json:"documents"`
	// AckFlags are the acknowledgements the rights step needs:
	// ackReceiptYourRights, then one flag per notice it holds. Empty for
	// other steps.
	AckFlags []string `json:"ackFlags,omitempty"`
	// Instance is the employment entry a per-employer DOT release names
	// (SignableInstance); "" for the steps of the setup wizard.
	Instance string `json:"instance,omitempty"`
}

// Holds reports whether the step contains the document.
func (s LegalStep) Holds(documentID int64) bool {
	for _, d := range s.Documents {
		if d.ID == documentID {
			return true
		}
	}
	return false
}

// Title names the step in messages: its document's title, or for a rights
// step holding several notices, the first one's title and how many follow.
func (s LegalStep) Title() string {
	switch len(s.Documents) {
	case 0:
		return s.DocumentType
	case 1:
		return s.Documents[0].Title
	}
	if len(s.Documents) == 2 {
		return s.Documents[0].Title + " (and 1 more notice)"
	}
	return fmt.Sprintf("%s (and %d more notices)", s.Documents[0].Title, len(s.Documents)-1)
}

// LegalSteps returns the steps the applicant signs, in order: applicable,
// editable documents, by the priorities of spec section 9 (higher first), by
// id within a priority, with the rights notices merged into one step.
func LegalSteps(docs []LegalDocument, loc Location) []LegalStep {
	var shown []LegalDocument
	for _, d := range docs {
		if d.Type.Editable && Applies(d.Type, loc) {
			shown = append(shown, d)
		}
	}
	sort.SliceStable(shown, func(i, j int) bool {
		pi, pj := Priority(shown[i].Type.DocumentType), Priority(shown[j].Type.DocumentType)
		if pi != pj {
			return pi > pj
		}
		return shown[i].ID < shown[j].ID
	})

	var steps []LegalStep
	rights := -1 // index of the rights step in steps
	for _, d := range shown {
		t := d.Type.DocumentType
		if !IsRightsDocument(t) {
			steps = append(steps, LegalStep{DocumentType: t, Priority: Priority(t), Documents: []LegalDocument{d}})
			continue
		}
		if rights < 0 {
			rights = len(steps)
			steps = append(steps, LegalStep{DocumentType: DocRights, Priority: Priority(DocRights)})
		}
		steps[rights].Documents = append(steps[rights].Documents, d)
	}
	if rights >= 0 {
		s := &steps[rights]
		sort.SliceStable(s.Documents, func(i, j int) bool {
			a, _ := rightsIndex(s.Documents[i].Type.DocumentType)
			b, _ := rightsIndex(s.Documents[j].Type.DocumentType)
			return a < b
		})
		s.AckFlags = []string{AckFieldReceiptYourRights}
		for _, d := range s.Documents {
			if n, ok := rightsNotice(d.Type.DocumentType); ok && !slices.Contains(s.AckFlags, n.AckField) {
				s.AckFlags = append(s.AckFlags, n.AckField)
			}
		}
	}
	return steps
}

// StepFor returns the step holding a document; false means the document does
// not apply to the applicant (or is not theirs), so it cannot be signed.
func StepFor(steps []LegalStep, documentID int64) (LegalStep, bool) {
	for _, s := range steps {
		if s.Holds(documentID) {
			return s, true
		}
	}
	return LegalStep{}, false
}

// PendingSteps returns the steps with at least one document not yet signed;
// setup is complete only when there are none.
func PendingSteps(steps []LegalStep, signed func(documentID int64) bool) []LegalStep {
	var pending []LegalStep
	for _, s := range steps {
		for _, d := range s.Documents {
			if !signed(d.ID) {
				pending = append(pending, s)
				break
			}
		}
	}
	return pending
}

func rightsNotice(documentType string) (RightsNotice, bool) {
	for _, n := range rightsNotices {
		if n.DocumentType == documentType {
			return n, true
		}
	}
	return RightsNotice{}, false
}

// FreeReportCopyOffered reports whether the applicant gets the "send me a free
// copy of the report" checkbox: residency or employment in California,
// Oklahoma or Minnesota, whose laws give that choice.
func FreeReportCopyOffered(loc Location) bool {
	return loc.InState("US-CA", "US-OK", "US-MN")
}

// FreeReportCopyDocumentType is the step that carries the free-copy checkbox
// (outside the document text); the choice is stored with its signature.
const FreeReportCopyDocumentType = DocAuthorization
