package portal

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"
)

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

	// A per-employer DOT release (LegalStep.Instance): the employer it
	// names, set by the server from the employment entry, and the answer
	// to DOTQuestion, "yes" or "no".
	EmployerName            string `json:"employerName,omitempty"`
	TestedPositiveOrRefused string `json:"testedPositiveOrRefused,omitempty"`
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
	text("Previous employer", f.EmployerName)
	switch f.TestedPositiveOrRefused {
	case AnswerYes:
		out = append(out, LabeledValue{DOTQuestion, "Yes"})
	case AnswerNo:
		out = append(out, LabeledValue{DOTQuestion, "No"})
	}
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
	// Instance names the employment entry of a per-employer DOT release
	// (its id); "" signs a step of the setup wizard.
	Instance string `json:"instance,omitempty"`
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
				fe.Addf(n.AckField, "Please acknowledge %s.", n.Name)
			}
		}
	case DocDOTRelease:
		r.checkNames(&fe, signer)
		r.checkSSN(&fe, signer)
		if step.Instance != "" {
			r.checkDOTAnswer(&fe)
		}
	}
	r.checkSignature(&fe, signatureRequired(step.DocumentType))
	return fe.Err()
}

func (r SignRequest) checkNames(fe *FieldErrors, s Signer) {
	check := func(field, label, typed, want string) {
		switch {
		case strings.TrimSpace(typed) == "":
			fe.Addf(field, "%s is required.", label)
		case !legalNameMatches(typed, want):
			fe.Addf(field, "The %s must match the name on your application: %s", strings.ToLower(label), strings.TrimSpace(want))
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
		if step.Instance != "" {
			f.TestedPositiveOrRefused = strings.ToLower(strings.TrimSpace(r.TestedPositiveOrRefused))
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
	Instance        string          `json:"instance,omitempty"` // see LegalStep.Instance
	DocumentVersion int             `json:"documentVersion"`
	ContentSHA256   string          `json:"contentSha256"` // hex SHA-256 of the exact content shown and signed
	SignatureData   []byte          `json:"signatureData"` // PNG; empty for acknowledgement-only steps
	SignatureUserIP string          `json:"signatureUserIp"`
	SignerName      string          `json:"signerName"`
	CreatedAt       time.Time       `json:"createdAt"`
	Fields          SignatureFields `json:"fields"`
	Outcome         SignOutcome     `json:"outcome"`
	// Language is the language of the text shown and signed;
	// DocumentVersion is a version of that language's text.
	Language Locale `json:"language"`
	// Content is the exact HTML the applicant was shown and signed (tokens
	// replaced); ContentSHA256 is its hash and the signed PDF prints it.
	Content string `json:"-"`
}
