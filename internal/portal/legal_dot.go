package portal

import (
	"strings"
	"time"
)

// DOT releases after setup (issue 10). 49 CFR 40.25 wants a release that
// names the one previous employer it authorizes, never a blanket release:
// the applicant signs the company's dot_release document once per
// DOT-regulated employer of their employment history. Each of these
// signatures is an instance of the document, keyed by the employment
// entry's id; the setup wizard's own dot_release (if the company has one
// that applies) is the instance "".

// Employment entries: the record kind and the keys of an entry that DOT
// releases read.
const (
	EmploymentRecordKind    = "service:employment"
	EmploymentEmployerName  = "employer_name"
	EmploymentEmployerIsDOT = "employer_dot"
)

// Answers to the DOT release question (49 CFR 40.25(j)).
const (
	AnswerYes = "yes"
	AnswerNo  = "no"
)

// DOTQuestion is the question every per-employer DOT release asks; the
// signed PDF prints it with the answer.
const DOTQuestion = "In the past two years, did you test positive on, or refuse, a pre-employment drug or alcohol test for a DOT-regulated employer that did not hire you?"

// DOTEntry is a DOT-flagged entry of the applicant's employment history.
type DOTEntry struct {
	ID           string
	EmployerName string
}

// DOTEntries returns the DOT-flagged entries of an employment record's
// entries (JSON objects), in their order, each id once. Entries without an
// id cannot be named by a signature and are skipped.
func DOTEntries(entries []map[string]any) []DOTEntry {
	var out []DOTEntry
	seen := map[string]bool{}
	for _, e := range entries {
		id, _ := e["id"].(string)
		id = strings.TrimSpace(id)
		if dot, _ := e[EmploymentEmployerIsDOT].(bool); !dot || id == "" || seen[id] {
			continue
		}
		seen[id] = true
		name, _ := e[EmploymentEmployerName].(string)
		out = append(out, DOTEntry{ID: id, EmployerName: strings.Join(strings.Fields(name), " ")})
	}
	return out
}

// DOTRelease is one per-employer release as GET /api/v2/user/subject lists
// it (dotReleases).
type DOTRelease struct {
	EntryID      string     `json:"entryId"`
	EmployerName string     `json:"employerName"`
	DocumentID   int64      `json:"documentId"`
	Signed       bool       `json:"signed"`
	SignedAt     *time.Time `json:"signedAt"`
}

// SignatureKey names one signature of a subject: a document and its
// instance ("" for the setup wizard's documents).
type SignatureKey struct {
	DocumentID int64
	Instance   string
}

// ReleaseDocument returns the company's document the per-employer releases
// sign: its dot_release document, an editable one first, the lowest id
// among equals. Visibility does not matter here: the DOT-flagged employer
// is what makes a release apply.
func (f *LegalFile) ReleaseDocument() (LegalDocument, bool) {
	var best LegalDocument
	found := false
	for _, d := range f.Documents {
		if d.Type.DocumentType != DocDOTRelease {
			continue
		}
		if !found || (d.Type.Editable && !best.Type.Editable) {
			best, found = d, true
		}
	}
	return best, found
}

// Instance returns the subject's signature of a document instance; the
// instance "" is the setup wizard's signature.
func (f *LegalFile) Instance(documentID int64, instance string) *Signature {
	if instance == "" {
		return f.Signatures[documentID]
	}
	return f.Instances[SignatureKey{documentID, instance}]
}

// DOTEntry returns the DOT-flagged employment entry with the id.
func (f *LegalFile) DOTEntry(id string) (DOTEntry, bool) {
	for _, e := range f.DOTEntries {
		if e.ID == id {
			return e, true
		}
	}
	return DOTEntry{}, false
}

// DOTReleases lists one release per DOT-flagged employment entry, in the
// entries' order. With no dot_release document the company has nothing to
// sign, and the list is empty.
func (f *LegalFile) DOTReleases() []DOTRelease {
	out := []DOTRelease{}
	d, ok := f.ReleaseDocument()
	if !ok {
		return out
	}
	for _, e := range f.DOTEntries {
		r := DOTRelease{EntryID: e.ID, EmployerName: e.EmployerName, DocumentID: d.ID}
		if sig := f.Instance(d.ID, e.ID); sig != nil {
			at := sig.CreatedAt
			r.Signed, r.SignedAt = true, &at
		}
		out = append(out, r)
	}
	return out
}

// SignableInstance returns the one-document step of a per-employer DOT
// release and the employment entry it names, when the subject may sign it
// now: during setup and after it, until the profile is submitted.
// ENOTFOUND: the document is not the company's release document, or the
// instance is not one of the subject's DOT-flagged entries. ECONFLICT:
// submitted, already signed, or paper forms chosen.
func (f *LegalFile) SignableInstance(documentID int64, instance string) (LegalStep, DOTEntry, error) {
	d, ok := f.ReleaseDocument()
	if !ok || d.ID != documentID {
		return LegalStep{}, DOTEntry{}, Errorf(ENOTFOUND, "Document not found.")
	}
	entry, ok := f.DOTEntry(instance)
	if !ok {
		return LegalStep{}, DOTEntry{}, Errorf(ENOTFOUND, "This employer is not one of the DOT-regulated employers of your employment history.")
	}
	if f.Subject.StatusID != StatusNew && f.Subject.StatusID != StatusSetupComplete {
		return LegalStep{}, DOTEntry{}, ErrProfileSubmitted
	}
	if f.Instance(documentID, instance) != nil {
		return LegalStep{}, DOTEntry{}, Errorf(ECONFLICT, "You have already signed the DOT release for %s.", entry.EmployerName)
	}
	if f.PaperFormsChosen() {
		return LegalStep{}, DOTEntry{}, Errorf(ECONFLICT, "You chose to sign paper forms. To sign electronically instead, undo that choice on the consent step first.")
	}
	step := LegalStep{DocumentType: DocDOTRelease, Priority: Priority(DocDOTRelease), Documents: []LegalDocument{d}, Instance: instance}
	return step, entry, nil
}

// CheckSignedEmployers refuses an employment list (the entries to store)
// that would put another employer on an entry whose release is signed:
// signed maps an entry id to the employer its signed release names. The
// release authorizes that one employer (49 CFR 40.25); were the entry
// renamed, the signature would count as the release of an employer the
// applicant never authorized. The same name in other letter case or
// spacing is the same employer. Removing the entry is allowed (its signed
// release stays on file); another employer is a new entry, with its own id.
func CheckSignedEmployers(entries []ServiceEntry, signed map[string]string) error {
	var fe FieldErrors
	for i, e := range entries {
		id, _ := e[EntryIDKey].(string)
		was, ok := signed[id]
		if !ok {
			continue
		}
		name, _ := e[EmploymentEmployerName].(string)
		if strings.EqualFold(strings.Join(strings.Fields(name), " "), strings.Join(strings.Fields(was), " ")) {
			continue
		}
		fe.Addf(AliasEmployment+"."+itoa(i)+"."+EmploymentEmployerName,
			"You signed the DOT release for %s. To list another employer, add a new entry.", was)
	}
	return fe.Err()
}

// checkDOTAnswer checks the answer to DOTQuestion.
func (r SignRequest) checkDOTAnswer(fe *FieldErrors) {
	switch strings.ToLower(strings.TrimSpace(r.TestedPositiveOrRefused)) {
	case AnswerYes, AnswerNo:
	case "":
		fe.Add("testedPositiveOrRefused", "Please answer whether you tested positive on, or refused, a pre-employment test for a DOT-regulated employer that did not hire you.")
	default:
		fe.Add("testedPositiveOrRefused", "Answer yes or no.")
	}
}
