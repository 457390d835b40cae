package portal

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
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

// MaxIdentificationCountryLength bounds the issuing country a DOT release
// names when the applicant has no SSN; the number is bounded by
// MaxIdentificationLength, as in the personal information form.
const MaxIdentificationCountryLength = 60

// SignatureFields are the values the applicant types or ticks when signing;
// they are stored with the signature and printed on the signed PDF. Which of
// them a document type needs is decided by SignRequest.Validate.
type SignatureFields struct {
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`

	AckConsent   bool `json:"ackConsent,omitempty"`   // e_sign: consent to electronic records
	AckNotices   bool `json:"ackNotices,omitempty"`   // e_sign: can read the notices electronically
	DeclineESign bool `json:"declineESign,omitempty"` // e_sign: paper forms instead

	AckReceipt  bool `json:"ackReceipt,omitempty"`  // disclosures: received and read
	AuthConsent bool `json:"authConsent,omitempty"` // authorization_for_background

	AckReceiptYourRights bool `json:"ackReceiptYourRights,omitempty"`
	AckFed               bool `json:"ackFed,omitempty"`
	AckNj                bool `json:"ackNj,omitempty"`
	AckWa                bool `json:"ackWa,omitempty"`
	AckSf                bool `json:"ackSf,omitempty"`
	AckNy                bool `json:"ackNy,omitempty"`
	AckCaCredit          bool `json:"ackCaCredit,omitempty"`
	AckVtCredit          bool `json:"ackVtCredit,omitempty"`
	AckMdCredit          bool `json:"ackMdCredit,omitempty"`

	LastFourSSN           string `json:"lastFourSSN,omitempty"` // dot_release
	NoSSN                 bool   `json:"noSSN,omitempty"`
	IdentificationCountry string `json:"identificationCountry,omitempty"`
	IdentificationNumber  string `json:"identificationNumber,omitempty"`

	FreeReportCopy bool `json:"freeReportCopy,omitempty"` // see FreeReportCopyOffered
}

// ack returns the value of an acknowledgement field by its app name.
func (f SignatureFields) ack(field string) bool {
	switch field {
	case AckFieldReceiptYourRights:
		return f.AckReceiptYourRights
	case AckFieldFed:
		return f.AckFed
	case AckFieldNj:
		return f.AckNj
	case AckFieldWa:
		return f.AckWa
	case AckFieldSf:
		return f.AckSf
	case AckFieldNy:
		return f.AckNy
	case AckFieldCaCredit:
		return f.AckCaCredit
	case AckFieldVtCredit:
		return f.AckVtCredit
	case AckFieldMdCredit:
		return f.AckMdCredit
	}
	return false
}

func (f *SignatureFields) setAck(field string) {
	switch field {
	case AckFieldReceiptYourRights:
		f.AckReceiptYourRights = true
	case AckFieldFed:
		f.AckFed = true
	case AckFieldNj:
		f.AckNj = true
	case AckFieldWa:
		f.AckWa = true
	case AckFieldSf:
		f.AckSf = true
	case AckFieldNy:
		f.AckNy = true
	case AckFieldCaCredit:
		f.AckCaCredit = true
	case AckFieldVtCredit:
		f.AckVtCredit = true
	case AckFieldMdCredit:
		f.AckMdCredit = true
	}
}

// LabeledValue is one typed-in value as the signed PDF prints it.
type LabeledValue struct {
	Label string
	Value string
}

// Labeled lists the values that were given, in a fixed order, for the signed
// PDF. The identification number is masked but for its last four characters.
func (f SignatureFields) Labeled() []LabeledValue {
	var out []LabeledValue
	text := func(label, v string) {
		if v != "" {
			out = append(out, LabeledValue{label, v})
		}
	}
	yes := func(label string, v bool) {
		if v {
			out = append(out, LabeledValue{label, "Yes"})
		}
	}
	text("First name", f.FirstName)
	text("Last name", f.LastName)
	yes("Consents to electronic records and signatures", f.AckConsent)
	yes("Can read and keep the notices electronically", f.AckNotices)
	yes("Declined electronic signing; asked for paper forms", f.DeclineESign)
	yes("Received and read this document", f.AckReceipt)
	yes("Authorizes the background check", f.AuthConsent)
	yes("Received the summary of rights", f.AckReceiptYourRights)
	for _, n := range rightsNotices {
		yes("Acknowledges "+n.Name, f.ack(n.AckField))
	}
	text("Last four digits of SSN", f.LastFourSSN)
	yes("Has no US Social Security number", f.NoSSN)
	text("Identification country", f.IdentificationCountry)
	text("Identification number", maskIdentification(f.IdentificationNumber))
	yes("Asks for a free copy of the report", f.FreeReportCopy)
	return out
}

func maskIdentification(s string) string {
	r := []rune(s)
	if len(r) <= 4 {
		return s
	}
	return strings.Repeat("*", len(r)-4) + string(r[len(r)-4:])
}

// SignRequest is the body of a signing call: the typed-in values and the
// signature image, a PNG as a data URL ("data:image/png;base64,...") or as
// plain base64. The typed-signature alternative is sent as a PNG as well.
type SignRequest struct {
	SignatureFields
	Signature string `json:"signature,omitempty"`
}

// Signer is what the application says about the person signing, to check the
// typed-in values against. The names are those the applicant was invited
// with (Subject.InvitedFirstName), which the applicant cannot change.
type Signer struct {
	FirstName string
	LastName  string
	SSN       string // plain text, empty when not yet stored
}

// SignOutcome is what a valid signing request means.
type SignOutcome string

const (
	// SignOutcomeSigned: the document is signed electronically.
	SignOutcomeSigned SignOutcome = "signed"
	// SignOutcomePaperForms: the applicant declined the e-sign consent. The
	// screening is not cancelled: the order is held, the operator sees it, and
	// the applicant is shown how to get and return paper forms.
	SignOutcomePaperForms SignOutcome = "paper_forms"
)

// Outcome tells a signature from a declined e-sign consent. Call it after
// Validate.
func (r SignRequest) Outcome(step LegalStep) SignOutcome {
	if step.DocumentType == DocESign && r.DeclineESign && !r.AckConsent {
		return SignOutcomePaperForms
	}
	return SignOutcomeSigned
}

// SignatureImage decodes the signature image (no checks; Validate checks).
func (r SignRequest) SignatureImage() ([]byte, error) {
	return DecodeSignatureImage(r.Signature)
}

// DecodeSignatureImage decodes a data URL or plain (standard or URL-safe)
// base64 text.
func DecodeSignatureImage(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "data:") {
		i := strings.Index(s, ",")
		if i < 0 || !strings.HasSuffix(s[:i], ";base64") {
			return nil, fmt.Errorf("signature: not a base64 data URL")
		}
		s = s[i+1:]
	}
	if s == "" {
		return nil, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("signature: invalid base64")
}

// signatureRequired reports whether a step needs a signature image. e_sign
// and rights are acknowledgements; an image sent with them is still checked.
func signatureRequired(stepType string) bool {
	return stepType != DocESign && stepType != DocRights
}

// Validate checks a signing request for a step (spec section 3 lists the
// fields per type) and returns a validation error naming each failed field.
// It does not check whether the step applies or is already signed; StepFor
// and the store do that. When the signer's SSN is known, the last four
// digits of a DOT release are checked against it (CheckLastFourSSN).
func (r SignRequest) Validate(step LegalStep, signer Signer) error {
	var fe FieldErrors
	switch step.DocumentType {
	case DocESign:
		if r.DeclineESign {
			if r.AckConsent {
				fe.Add("ackConsent", "Choose either to sign electronically or to use paper forms, not both.")
			}
			return fe.Err() // declining needs no names, acknowledgements or image
		}
		r.checkNames(&fe, signer)
		if !r.AckConsent {
			fe.Add("ackConsent", "Please consent to electronic records and signatures, or choose paper forms.")
		}
		if !r.AckNotices {
			fe.Add("ackNotices", "Please confirm that you can read and keep the notices electronically.")
		}
	case DocDisclosure, DocInvestigative, DocCaliforniaDisclosure, DocStateDisclosures:
		if !r.AckReceipt {
			fe.Add("ackReceipt", "Please confirm that you have received and read this disclosure.")
		}
	case DocAuthorization:
		r.checkNames(&fe, signer)
		if !r.AuthConsent {
			fe.Add("authConsent", "Please authorize the background check to continue.")
		}
	case DocRights:
		if !r.AckReceiptYourRights {
			fe.Add(AckFieldReceiptYourRights, "Please confirm that you have received the summary of your rights.")
		}
		for _, d := range step.Documents {
			n, ok := rightsNotice(d.Type.DocumentType)
			if ok && !r.ack(n.AckField) && !fe.Has(n.AckField) {
				fe.Add(n.AckField, "Please acknowledge "+n.Name+".")
			}
		}
	case DocDOTRelease:
		r.checkNames(&fe, signer)
		r.checkSSN(&fe, signer)
	}
	r.checkSignature(&fe, signatureRequired(step.DocumentType))
	return fe.Err()
}

func (r SignRequest) checkNames(fe *FieldErrors, s Signer) {
	check := func(field, label, typed, want string) {
		switch {
		case strings.TrimSpace(typed) == "":
			fe.Add(field, label+" is required.")
		case !legalNameMatches(typed, want):
			fe.Add(field, fmt.Sprintf("The %s must match the name on your application: %s", strings.ToLower(label), strings.TrimSpace(want)))
		}
	}
	check("firstName", "First name", r.FirstName, s.FirstName)
	check("lastName", "Last name", r.LastName, s.LastName)
}

// legalNameMatches compares names case-insensitively, ignoring surrounding and
// repeated spaces.
func legalNameMatches(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

func (r SignRequest) checkSSN(fe *FieldErrors, s Signer) {
	if r.NoSSN {
		// Bounded, as everything that is sealed and printed on the PDF;
		// the number as long as the personal information form allows.
		switch country := strings.TrimSpace(r.IdentificationCountry); {
		case country == "":
			fe.Add("identificationCountry", "Identification country is required when you have no SSN.")
		case utf8.RuneCountInString(country) > MaxIdentificationCountryLength || strings.ContainsFunc(country, unicode.IsControl):
			fe.Add("identificationCountry", fmt.Sprintf("Enter the country's name, at most %d characters.", MaxIdentificationCountryLength))
		}
		switch number := strings.TrimSpace(r.IdentificationNumber); {
		case number == "":
			fe.Add("identificationNumber", "Identification number is required when you have no SSN.")
		case utf8.RuneCountInString(number) > MaxIdentificationLength || strings.ContainsFunc(number, unicode.IsControl):
			fe.Add("identificationNumber", fmt.Sprintf("Enter the identification number as printed, at most %d characters.", MaxIdentificationLength))
		}
		return
	}
	four := strings.TrimSpace(r.LastFourSSN)
	switch {
	case four == "":
		fe.Add("lastFourSSN", "Enter the last four digits of your SSN, or tick that you have none.")
	case len(four) != 4 || strings.Trim(four, "0123456789") != "":
		fe.Add("lastFourSSN", "Enter exactly four digits.")
	case s.SSN != "":
		if err := CheckLastFourSSN(four, s.SSN); err != nil {
			*fe = append(*fe, ssnMismatch("lastFourSSN", SSNMismatchMessage))
		}
	}
}

func (r SignRequest) checkSignature(fe *FieldErrors, required bool) {
	img, err := r.SignatureImage()
	switch {
	case err != nil:
		fe.Add("signature", signatureUnreadable)
	case len(img) == 0:
		if required {
			fe.Add("signature", "Please sign the document.")
		}
	default:
		var pe *Error
		if errors.As(CheckSignatureImage(img), &pe) {
			*fe = append(*fe, pe.Fields...)
		}
	}
}

// Recorded returns the values to store with the signature: names trimmed,
// and only the fields the step asks for. The free-copy choice is kept only
// where it is offered (FreeReportCopyOffered, on FreeReportCopyDocumentType).
func (r SignRequest) Recorded(step LegalStep, loc Location) SignatureFields {
	var f SignatureFields
	names := func() {
		f.FirstName = strings.Join(strings.Fields(r.FirstName), " ")
		f.LastName = strings.Join(strings.Fields(r.LastName), " ")
	}
	switch step.DocumentType {
	case DocESign:
		if r.Outcome(step) == SignOutcomePaperForms {
			f.DeclineESign = true
			break
		}
		names()
		f.AckConsent, f.AckNotices = r.AckConsent, r.AckNotices
	case DocDisclosure, DocInvestigative, DocCaliforniaDisclosure, DocStateDisclosures:
		f.AckReceipt = r.AckReceipt
	case DocAuthorization:
		names()
		f.AuthConsent = r.AuthConsent
	case DocRights:
		for _, field := range step.AckFlags {
			if r.ack(field) {
				f.setAck(field)
			}
		}
	case DocDOTRelease:
		names()
		if f.NoSSN = r.NoSSN; f.NoSSN {
			f.IdentificationCountry = strings.TrimSpace(r.IdentificationCountry)
			f.IdentificationNumber = strings.TrimSpace(r.IdentificationNumber)
		} else {
			f.LastFourSSN = strings.TrimSpace(r.LastFourSSN)
		}
	}
	if step.DocumentType == FreeReportCopyDocumentType && FreeReportCopyOffered(loc) {
		f.FreeReportCopy = r.FreeReportCopy
	}
	return f
}

// Signature is the audit record of one signed document version.
type Signature struct {
	ID              int64           `json:"id"`
	DocumentID      int64           `json:"documentId"`
	SubjectID       int64           `json:"subjectId"`
	DocumentVersion int             `json:"documentVersion"`
	ContentSHA256   string          `json:"contentSha256"` // hex SHA-256 of the exact content shown and signed
	SignatureData   []byte          `json:"signatureData"` // PNG; empty for acknowledgement-only steps
	SignatureUserIP string          `json:"signatureUserIp"`
	SignerName      string          `json:"signerName"`
	CreatedAt       time.Time       `json:"createdAt"`
	Fields          SignatureFields `json:"fields"`
	Outcome         SignOutcome     `json:"outcome"`
	// Content is the exact HTML the applicant was shown and signed (tokens
	// replaced); ContentSHA256 is its hash and the signed PDF prints it.
	Content string `json:"-"`
}

// EventSSNMismatch is the app's event name for a rejected SSN check.
const EventSSNMismatch = "ssn-mismatch"

// SSNMismatchMessage is the field message of a failed SSN check.
const SSNMismatchMessage = "The last four digits do not match the SSN on your application. Please check them, or correct your SSN."

// CheckLastFourSSN compares the last four digits the applicant entered with
// the last four digits of the stored SSN (spec section 5). Both empty counts
// as valid; a mismatch is a validation error on the lastFourSSN field.
func CheckLastFourSSN(entered, storedSSN string) error {
	if strings.TrimSpace(entered) == lastFourOf(ssnDigits(storedSSN)) {
		return nil
	}
	return FieldErrors{ssnMismatch("lastFourSSN", SSNMismatchMessage)}.Err()
}

// CheckSSNAgainstSignatures runs the SSN check the other way round: legal
// documents are signed before personal information in setup, so an SSN
// saved later must end in the last four digits typed when signing (the DOT
// release asks for them). The mismatch is an error on the ssn field.
func (f *LegalFile) CheckSSNAgainstSignatures(ssn string) error {
	for _, sig := range f.Signatures {
		if sig == nil || sig.Fields.LastFourSSN == "" {
			continue
		}
		if CheckLastFourSSN(sig.Fields.LastFourSSN, ssn) != nil {
			return FieldErrors{ssnMismatch("ssn", "This SSN does not end in "+sig.Fields.LastFourSSN+
				", the last four digits you entered when signing your legal documents. Check the SSN, or the digits you signed with.")}.Err()
		}
	}
	return nil
}

func ssnMismatch(field, message string) FieldError {
	return FieldError{Field: field, Message: message, Code: EventSSNMismatch}
}

// IsSSNMismatch reports whether err carries the SSN check's rejection (from
// CheckLastFourSSN, CheckSSNAgainstSignatures or SignRequest.Validate): the
// app raises the ssn-mismatch event on it.
func IsSSNMismatch(err error) bool {
	var pe *Error
	if !errors.As(err, &pe) {
		return false
	}
	for _, f := range pe.Fields {
		if f.Code == EventSSNMismatch {
			return true
		}
	}
	return false
}

func ssnDigits(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func lastFourOf(s string) string {
	if len(s) > 4 {
		return s[len(s)-4:]
	}
	return s
}
