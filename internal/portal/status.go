package portal

import (
	"fmt"
	"strings"
)

// StatusID is an order status id (spec section 4). The subject's status is
// one of these, and the app routes by it.
type StatusID int

// Order statuses, with the ids of spec section 4.
const (
	StatusNew                  StatusID = 0
	StatusSetupComplete        StatusID = 1
	StatusFinalizationComplete StatusID = 2
	StatusIDVStarted           StatusID = 3
	StatusComplete             StatusID = 4
	StatusQA                   StatusID = 5
	StatusMROSiteSelection     StatusID = 6
	StatusSelfPayRequired      StatusID = 7
)

var statusTexts = map[StatusID]string{
	StatusNew:                  "New",
	StatusSetupComplete:        "Setup Complete",
	StatusFinalizationComplete: "Finalization Complete",
	StatusIDVStarted:           "IDV session started",
	StatusComplete:             "Complete",
	StatusQA:                   "QA",
	StatusMROSiteSelection:     "MRO site selection session started",
	StatusSelfPayRequired:      "Self-pay required",
}

// Text is the status text the app shows.
func (s StatusID) Text() string {
	if t, ok := statusTexts[s]; ok {
		return t
	}
	return fmt.Sprintf("Status %d", int(s))
}

// Valid reports whether s is a known order status.
func (s StatusID) Valid() bool {
	_, ok := statusTexts[s]
	return ok
}

// Status is the subject's status as the API answers it.
type Status struct {
	StatusID   StatusID `json:"statusId"`
	StatusText string   `json:"statusText"`
}

// NewStatus pairs an id with its text.
func NewStatus(id StatusID) Status { return Status{StatusID: id, StatusText: id.Text()} }

// StatusFacts are what a status move may depend on. The caller gathers them
// from storage; CheckStatusMove decides.
type StatusFacts struct {
	HasPassword          bool
	UnsignedDocuments    []string // titles of applicable legal documents not yet signed
	PersonalInfoSaved    bool
	FullProfile          bool // full-profile applicants skip the legal and personal steps
	IDVFinished          bool
	SiteSelectionAllowed bool // Finalization.SiteSelectionApplies
	SiteChosen           bool
	// PaymentRequired is Finalization.PaymentRequired; PaymentAuthorized
	// that the hold is taken.
	PaymentRequired   bool
	PaymentAuthorized bool
	// IncompletePages are the titles of the required checklist pages not
	// yet complete (SubjectView.Pages); identity verification waits for
	// none.
	IncompletePages []string
}

// StatusMove is an applicant's move of their own status. Declared is the
// applicant's declaration, made with the submission (the move to
// idv-started, which locks the profile), that what they gave is true and
// complete. The app asks for it before it submits; the server records
// when it was made and does not refuse a move without it, since the
// spec's contract for this call is the status id alone.
type StatusMove struct {
	To       StatusID
	Declared bool
}

// CheckStatusMove returns nil when the subject may move from one status to
// another, and otherwise an ECONFLICT error naming what is missing. The app
// sets some statuses "locally"; the server is still the authority.
func CheckStatusMove(from, to StatusID, f StatusFacts) error {
	deny := func(why string) error {
		return Errorf(ECONFLICT, "Cannot change status from %s to %s: %s", from.Text(), to.Text(), why)
	}
	if !to.Valid() {
		return Errorf(EINVALID, "Unknown status id %d.", int(to))
	}
	switch {
	case from == StatusNew && to == StatusSetupComplete:
		var missing []string
		if !f.HasPassword {
			missing = append(missing, "create a password")
		}
		// A full-profile applicant's employer supplied the rest, so their
		// setup is only the first three steps (spec section 6).
		if len(f.UnsignedDocuments) > 0 && !f.FullProfile {
			missing = append(missing, "sign "+joinList(f.UnsignedDocuments))
		}
		if !f.PersonalInfoSaved && !f.FullProfile {
			missing = append(missing, "save your personal information")
		}
		if len(missing) > 0 {
			return deny("please " + joinList(missing) + " first.")
		}
		return nil
	case from == StatusSetupComplete && to == StatusIDVStarted:
		if len(f.IncompletePages) > 0 {
			return Errorf(ECONFLICT, "Your profile is not complete yet: %s.", strings.Join(f.IncompletePages, ", "))
		}
		return nil
	case from == StatusIDVStarted && (to == StatusMROSiteSelection || to == StatusSelfPayRequired || to == StatusFinalizationComplete):
		if !f.IDVFinished {
			return deny("identity verification is not finished.")
		}
		return checkNextStep(from, to, f, deny)
	case from == StatusMROSiteSelection && (to == StatusSelfPayRequired || to == StatusFinalizationComplete):
		if !f.SiteChosen {
			return deny("no collection site has been chosen.")
		}
		return checkNextStep(from, to, f, deny)
	case from == StatusSelfPayRequired && to == StatusFinalizationComplete:
		if !f.PaymentAuthorized {
			return deny("the payment has not been authorized.")
		}
		return nil
	case from == StatusFinalizationComplete && to == StatusMROSiteSelection:
		if !f.SiteSelectionAllowed {
			return deny("collection-site selection is not available.")
		}
		return nil
	}
	return deny("this change is not allowed.")
}

// NextStatus is where spec section 4's flow goes from a status once its
// step is done: after identity verification, collection-site selection when
// the company allows it and an MRO service is present (and no site is
// chosen yet), else self-pay when payment is required (and not yet
// authorized), else finalization-complete; after the site, self-pay or
// finalization-complete likewise. Other statuses have no next step here
// and answer themselves.
func NextStatus(from StatusID, f StatusFacts) StatusID {
	switch from {
	case StatusIDVStarted:
		if f.SiteSelectionAllowed && !f.SiteChosen {
			return StatusMROSiteSelection
		}
		fallthrough
	case StatusMROSiteSelection:
		if f.PaymentRequired && !f.PaymentAuthorized {
			return StatusSelfPayRequired
		}
		return StatusFinalizationComplete
	case StatusSelfPayRequired:
		return StatusFinalizationComplete
	}
	return from
}

// checkNextStep refuses a move that skips a step of the flow (the site or
// the payment) or takes one that does not apply.
func checkNextStep(from, to StatusID, f StatusFacts, deny func(string) error) error {
	next := NextStatus(from, f)
	switch {
	case to == next:
		return nil
	case next == StatusMROSiteSelection:
		return deny("please choose a collection site first.")
	case next == StatusSelfPayRequired:
		return deny("the payment has not been authorized.")
	case to == StatusMROSiteSelection:
		return deny("collection-site selection is not available.")
	}
	return deny("no payment is required.")
}

func joinList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	out := items[0]
	for _, it := range items[1 : len(items)-1] {
		out += ", " + it
	}
	return out + " and " + items[len(items)-1]
}
