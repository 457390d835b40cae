package portal

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// LegalService keeps a company's legal documents and the applicant's
// signatures (the location that decides which apply is subject data).
type LegalService interface {
	// FindLegalDocuments gathers the subject's legal file: the company's
	// current documents, the subject's signatures and location.
	FindLegalDocuments(ctx context.Context, subjectID int64) (*LegalFile, error)
	// FindLegalDocumentList is FindLegalDocuments for the document list:
	// without Subject, Company, Location, nor the Content of documents and
	// signatures, which the list does not show and which are most of the
	// bytes read.
	FindLegalDocumentList(ctx context.Context, subjectID int64) (*LegalFile, error)
	// SignLegalDocuments is a whole signing call: it reads the subject's
	// legal file and stored SSN, checks the call (LegalFile.Sign) and
	// stores, in one transaction, one signature per document the step
	// still needs. The transaction re-checks the rules against the stored
	// state and answers ECONFLICT when a document is already signed, its
	// version changed, setup is complete or the documents are not exactly
	// those the step needs. A paper-forms outcome holds the subject's
	// orders and e-mails the applicant how to get and return the forms.
	// It answers the file after signing.
	SignLegalDocuments(ctx context.Context, subjectID int64, call SigningCall) (*LegalFile, error)
	// DeleteSignature deletes the subject's signature of a document:
	// ENOTFOUND when there is none, ECONFLICT once setup is complete.
	// Deleting a paper-forms choice lifts the order hold.
	DeleteSignature(ctx context.Context, subjectID, documentID int64) error
}

// LegalFile is what signing decides from: who signs, for which company,
// where they live and work, the company's current documents and the
// subject's signatures.
type LegalFile struct {
	Subject    *Subject
	Company    *Company
	Location   Location
	Documents  []LegalDocument      // the company's current versions, by id
	Signatures map[int64]*Signature // the subject's setup signatures (instance ""), by document id
	// Instances are the subject's per-employer DOT releases (instance not
	// ""), and DOTEntries the DOT-flagged entries of their employment
	// history that call for one.
	Instances  map[SignatureKey]*Signature
	DOTEntries []DOTEntry
}

// Document returns one of the company's documents.
func (f *LegalFile) Document(id int64) (LegalDocument, bool) {
	for _, d := range f.Documents {
		if d.ID == id {
			return d, true
		}
	}
	return LegalDocument{}, false
}

// Signed reports whether the subject signed the document (or chose paper
// forms on it).
func (f *LegalFile) Signed(documentID int64) bool { return f.Signatures[documentID] != nil }

// Steps are the legal steps of the subject, in order.
func (f *LegalFile) Steps() []LegalStep { return LegalSteps(f.Documents, f.Location) }

// PendingSteps are the steps that still need a signature.
func (f *LegalFile) PendingSteps() []LegalStep { return PendingSteps(f.Steps(), f.Signed) }

// UnsignedTitles names the pending steps, for the setup-completion rule.
func (f *LegalFile) UnsignedTitles() []string {
	var titles []string
	for _, s := range f.PendingSteps() {
		titles = append(titles, s.Title())
	}
	return titles
}

// PaperFormsChosen reports whether the applicant declined electronic
// signing.
func (f *LegalFile) PaperFormsChosen() bool {
	for _, s := range f.Signatures {
		if s.Outcome == SignOutcomePaperForms {
			return true
		}
	}
	return false
}

// SignableStep returns the step holding a document and the documents of it
// still to sign, when the subject may sign it now: during setup, and after
// it a step that is not signed yet. Setup completes only with every
// applicable step signed, so such a step is one that became applicable
// later (a document the employer added, or an employment location set
// since); it is signed with the same audit trail. ENOTFOUND: not one of
// the company's documents. ECONFLICT: the profile is submitted, the
// document does not apply to the subject, the step is already signed, the
// applicant chose paper forms, or it is the authorization and another step
// is still to sign.
func (f *LegalFile) SignableStep(documentID int64) (LegalStep, []LegalDocument, error) {
	if _, ok := f.Document(documentID); !ok {
		return LegalStep{}, nil, Errorf(ENOTFOUND, "Document not found.")
	}
	if f.Subject.StatusID != StatusNew && f.Subject.StatusID != StatusSetupComplete {
		return LegalStep{}, nil, ErrProfileSubmitted
	}
	step, ok := StepFor(f.Steps(), documentID)
	if !ok {
		return LegalStep{}, nil, Errorf(ECONFLICT, "This document does not apply to you, so it cannot be signed.")
	}
	var todo []LegalDocument
	for _, d := range step.Documents {
		if !f.Signed(d.ID) {
			todo = append(todo, d)
		}
	}
	if len(todo) == 0 {
		return LegalStep{}, nil, Errorf(ECONFLICT, "You have already signed this document.")
	}
	if step.DocumentType != DocESign && f.PaperFormsChosen() {
		return LegalStep{}, nil, Errorf(ECONFLICT, "You chose to sign paper forms. To sign electronically instead, undo that choice on the consent step first.")
	}
	// The authorization is given last, once every disclosure was read and
	// signed (FCRA: the disclosure comes before the authorization).
	if first := f.PendingSteps()[0]; step.DocumentType == DocAuthorization && !first.Holds(documentID) {
		return LegalStep{}, nil, Errorf(ECONFLICT, "Please sign %q first: the authorization comes after every other document.", first.Title())
	}
	return step, todo, nil
}

// Signing is one signing call: what the applicant sent and what the server
// adds to it.
type Signing struct {
	DocumentID int64 // any document of the step
	// Instance is the employment entry of a per-employer DOT release
	// (Request.Instance); "" signs a step of the setup wizard.
	Instance string
	Request  SignRequest
	// ContentSHA256 maps each document id (as text) of the step to the hash
	// of the content the applicant read.
	ContentSHA256 map[string]string
	IP            string // the signer's, from the connection
	// SSN is the stored SSN ("" when none), which the last four digits of
	// a DOT release must match.
	SSN string
	// Shown returns a document's content exactly as the applicant is shown
	// it (tokens replaced) and the hash of that content.
	Shown func(LegalDocument) (content, sha256 string)
}

// SigningCall is a signing call as the HTTP layer reads it, with the one
// thing only it knows: where image work runs. The service renders each
// document as the applicant was shown it itself.
type SigningCall struct {
	DocumentID    int64
	Request       SignRequest
	ContentSHA256 map[string]string
	IP            string
	// Bounded runs the image work of checking the signature (decoding and
	// compacting it) on a bounded number of workers; nil runs it directly.
	Bounded func(work func() error) error
}

// Sign checks a signing call against the file: the step may be signed now
// (SignableStep), the request is valid for it (SignRequest.Validate), and
// the applicant read the current content of every document it signs
// (ErrContentChanged otherwise). It returns one audit record per document
// still to sign, for LegalService.SignLegalStep.
func (f *LegalFile) Sign(s Signing) ([]Signature, error) {
	step, todo, err := f.signable(s.DocumentID, s.Instance)
	if err != nil {
		return nil, err
	}
	r := s.Request
	// The typed name must be the invited one: the applicant can edit the
	// subject's names, so checking against those would check nothing.
	signer := Signer{FirstName: f.Subject.InvitedFirstName, LastName: f.Subject.InvitedLastName, SSN: s.SSN}
	if err := r.Validate(step, signer); err != nil {
		return nil, err
	}
	// What is stored (and printed) is the image re-encoded once, small and
	// 8-bit, so no download decodes what the applicant sent.
	var img []byte
	if raw, _ := r.SignatureImage(); len(raw) > 0 { // Validate checked it
		if img, err = CompactSignatureImage(raw); err != nil {
			return nil, err
		}
	}
	fields := r.Recorded(step, f.Location)
	if step.Instance != "" {
		entry, _ := f.DOTEntry(step.Instance) // signable checked it
		fields.EmployerName = entry.EmployerName
	}
	name := strings.TrimSpace(fields.FirstName + " " + fields.LastName)
	if name == "" {
		name = strings.TrimSpace(f.Subject.FirstName + " " + f.Subject.LastName)
	}
	var sigs []Signature
	var missing FieldErrors
	changed := false
	for _, d := range todo {
		content, hash := s.Shown(d)
		key := strconv.FormatInt(d.ID, 10)
		switch given := strings.TrimSpace(s.ContentSHA256[key]); {
		case given == "":
			missing.Add("contentSha256."+key, "The hash of the document you read is missing. Please reload the document.")
		case !strings.EqualFold(given, hash):
			changed = true
		}
		sigs = append(sigs, Signature{
			DocumentID: d.ID, SubjectID: f.Subject.ID, Instance: step.Instance, DocumentVersion: d.Version, Language: d.Language, Content: content, ContentSHA256: hash,
			SignatureData: img, SignatureUserIP: s.IP, SignerName: name, Fields: fields, Outcome: r.Outcome(step),
		})
	}
	if err := missing.Err(); err != nil {
		return nil, err
	}
	if changed {
		return nil, ErrContentChanged
	}
	return sigs, nil
}

// signable is SignableStep for the setup wizard's documents (instance "")
// and SignableInstance for a per-employer DOT release.
func (f *LegalFile) signable(documentID int64, instance string) (LegalStep, []LegalDocument, error) {
	if instance == "" {
		return f.SignableStep(documentID)
	}
	step, _, err := f.SignableInstance(documentID, instance)
	if err != nil {
		return LegalStep{}, nil, err
	}
	return step, step.Documents, nil
}

// Signable is what the signing transaction re-checks against the stored
// state: the documents (of the instance) still to sign.
func (f *LegalFile) Signable(documentID int64, instance string) ([]LegalDocument, error) {
	_, todo, err := f.signable(documentID, instance)
	return todo, err
}

// ErrSetupComplete refuses changes to what setup collected once it is done.
var ErrSetupComplete = &Error{Code: ECONFLICT, Message: "Your setup is complete; signed documents and your location can no longer change here."}

// ErrContentChanged answers a signature of content other than the current
// one.
var ErrContentChanged = &Error{Code: ECONFLICT, Message: "The document changed since you opened it. Please read it again."}

// LegalDocumentFilter narrows the list of legal documents (GET
// /api/v2/user/document?filter=...). Empty fields match everything.
type LegalDocumentFilter struct {
	// DocumentTypes matches a document's type, or the step type ("rights"
	// matches every rights notice).
	DocumentTypes []string
	Signed        *bool
}

// Match reports whether a document passes the filter.
func (f LegalDocumentFilter) Match(d LegalDocument, signed bool) bool {
	if len(f.DocumentTypes) > 0 && !slices.Contains(f.DocumentTypes, d.Type.DocumentType) &&
		!slices.Contains(f.DocumentTypes, StepType(d.Type.DocumentType)) {
		return false
	}
	return f.Signed == nil || *f.Signed == signed
}

// HoldPaperForms is the order hold of an applicant who declined electronic
// signing: the screening waits for the signed paper forms.
const HoldPaperForms = "paper_forms"

// HoldText says what an order hold means, for the operator.
func HoldText(reason string) string {
	switch reason {
	case "":
		return ""
	case HoldPaperForms:
		return "paper forms requested"
	}
	return reason
}

var documentTypePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// Validate checks a legal document an operator loads.
func (d LegalDocument) Validate() error {
	var fe FieldErrors
	if !documentTypePattern.MatchString(d.Type.DocumentType) {
		fe.Add("documentType", "The document type must be lower-case letters, digits and underscores, starting with a letter (e.g. disclosure).")
	}
	if d.Type.Code != "" && !documentTypePattern.MatchString(d.Type.Code) {
		fe.Add("code", "The code must be lower-case letters, digits and underscores, starting with a letter.")
	}
	// A translation (another language than en-US) is a title and a text:
	// for whom it applies is the English document's.
	translation := d.Language != "" && d.Language != LocaleEnUS
	switch {
	case translation:
	case d.Type.Visibility == VisibilityAll, d.Type.Visibility == VisibilityNonUS:
	case d.Type.Visibility == VisibilityRegional:
		if len(d.Type.Regions) == 0 {
			fe.Add("regions", "A regional document needs at least one region (a state code or a county id).")
		}
		for _, r := range d.Type.Regions {
			if strings.TrimSpace(r.StateCode) == "" && r.CountyID <= 0 {
				fe.Add("regions", "Each region needs a state code (US-CA) or a county id (6075).")
				break
			}
		}
	default:
		fe.Add("visibility", "The visibility must be all, non_us or regional.")
	}
	if d.Language != "" && !slices.Contains(Locales, d.Language) {
		fe.Add("language", "The language must be en-US or es-US.")
	}
	if strings.TrimSpace(d.Title) == "" {
		fe.Add("title", "The document needs a title.")
	}
	if strings.TrimSpace(d.Content) == "" {
		fe.Add("content", "The document has no text.")
	}
	return fe.Err()
}
