package portal

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// Draft forms: what an applicant typed into one of these forms and has not
// submitted yet is kept on the server, so it survives a closed tab and
// follows the applicant to another device.
const (
	DraftPersonal  = "personal"
	DraftAliases   = "aliases"
	DraftAddresses = "addresses"
	DraftAccount   = "account"
	// DraftServicePrefix starts a service page's form key: service:ALIAS,
	// ALIAS one of DataAliases that the subject's package has.
	DraftServicePrefix = "service:"
)

// MaxDraftSize bounds one draft's fields, encoded as JSON: every form of the
// portal fits many times over (seven years of addresses is a few KiB).
const MaxDraftSize = 64 << 10

// maxDraftFieldName bounds a field's name (a form path such as
// addresses.3.zipCode).
const maxDraftFieldName = 200

// DefaultDraftTTL is how long a draft is kept after its last save unless
// the operator says otherwise.
const DefaultDraftTTL = 30 * 24 * time.Hour

// Draft is a form's unsubmitted input: only the fields the applicant
// changed, by the form's own field names, with the values the form holds.
type Draft struct {
	Form      string
	Fields    map[string]json.RawMessage
	UpdatedAt time.Time
	ExpiresAt time.Time
}

// DraftService keeps each subject's drafts, one per form. Every method is
// scoped to the subject: another subject's draft does not exist.
type DraftService interface {
	// FindDrafts returns the subject's live drafts.
	FindDrafts(ctx context.Context, subjectID int64) ([]Draft, error)
	// FindDraft returns the subject's live draft of form (ENOTFOUND when
	// there is none or it expired).
	FindDraft(ctx context.Context, subjectID int64, form string) (*Draft, error)
	// SaveDraft merges changes into the draft of form (a null value removes
	// its field) and moves its expiry; ECONFLICT once the form is locked.
	SaveDraft(ctx context.Context, subjectID int64, form string, changes map[string]json.RawMessage) (*Draft, error)
	// DeleteDraft discards the draft of form; no draft is no error.
	DeleteDraft(ctx context.Context, subjectID int64, form string) error
}

// DraftForm is a parsed form key: the form, and for a service page its
// alias.
type DraftForm struct {
	Key   string
	Alias string // set for service:ALIAS
}

// ParseDraftForm checks a form key's shape; whether a service page belongs
// to the subject's package is the store's question (IsService then).
func ParseDraftForm(key string) (DraftForm, error) {
	switch key {
	case DraftPersonal, DraftAliases, DraftAddresses, DraftAccount:
		return DraftForm{Key: key}, nil
	}
	if alias, ok := strings.CutPrefix(key, DraftServicePrefix); ok && IsDataAlias(alias) {
		return DraftForm{Key: key, Alias: alias}, nil
	}
	return DraftForm{}, ErrUnknownDraftForm
}

// IsService reports whether the form is a service page's.
func (f DraftForm) IsService() bool { return f.Alias != "" }

// ErrUnknownDraftForm answers a form key that names no form of the portal
// (or no service page of the subject's package): as an absent resource.
var ErrUnknownDraftForm = Errorf(ENOTFOUND, "No such form: use personal, aliases, addresses, account or service:ALIAS with a service page of your package.")

// MergeDraft applies changes to fields (a null removes the field) and
// checks the result: field names short and non-empty, the whole within
// MaxDraftSize. fields is not modified.
func MergeDraft(fields, changes map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	var fe FieldErrors
	if changes == nil {
		fe.Add("fields", "fields is required: an object of the changed fields.")
		return nil, fe.Err()
	}
	out := make(map[string]json.RawMessage, len(fields)+len(changes))
	for k, v := range fields {
		out[k] = v
	}
	for k, v := range changes {
		if strings.TrimSpace(k) == "" || len(k) > maxDraftFieldName {
			fe.Add("fields", "Each field needs a name of 1 to 200 characters.")
			return nil, fe.Err()
		}
		if len(v) == 0 || string(v) == "null" {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	if b, _ := json.Marshal(out); len(b) > MaxDraftSize {
		return nil, Errorf(ETOOLARGE, "The draft is larger than %d KiB; submit the form or discard the draft.", MaxDraftSize>>10)
	}
	return out, nil
}
