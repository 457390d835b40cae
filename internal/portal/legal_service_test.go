package portal_test

import (
	"errors"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

func legalFile(status portal.StatusID, signed map[int64]portal.SignOutcome) *portal.LegalFile {
	doc := func(id int64, typ, vis string, regions ...portal.Region) portal.LegalDocument {
		return portal.LegalDocument{ID: id, Title: "Title " + typ, Version: 1, Content: "<p>{{firstName}}</p>",
			Type: portal.LegalDocumentType{ID: id, DocumentType: typ, Visibility: vis, Regions: regions, Editable: true}}
	}
	f := &portal.LegalFile{
		Subject:  &portal.Subject{ID: 7, FirstName: "Jane", LastName: "Doe", StatusID: status},
		Company:  &portal.Company{Name: "Acme"},
		Location: portal.Location{Employment: portal.Place{State: "US-CA", County: 6075}},
		Documents: []portal.LegalDocument{
			doc(1, portal.DocESign, "all"),
			doc(2, portal.DocDisclosure, "all"),
			doc(3, portal.DocRightsFed, "all"),
			doc(4, portal.DocRightsSF, "regional", portal.Region{CountyID: 6075}),
			doc(5, portal.DocRightsNJ, "regional", portal.Region{StateCode: "US-NJ"}),
			doc(6, portal.DocAuthorization, "all"),
		},
		Signatures: map[int64]*portal.Signature{},
	}
	for id, o := range signed {
		f.Signatures[id] = &portal.Signature{DocumentID: id, Outcome: o}
	}
	return f
}

func TestLegalFileSignableStep(t *testing.T) {
	for _, tc := range []struct {
		name     string
		status   portal.StatusID
		signed   map[int64]portal.SignOutcome
		id       int64
		wantCode string
		wantText string
		wantTodo []int64
	}{
		{"RightsStepNeedsEveryApplicableNotice", portal.StatusNew, nil, 4, "", "", []int64{3, 4}},
		{"PartlySignedStepNeedsTheRest", portal.StatusNew, map[int64]portal.SignOutcome{3: portal.SignOutcomeSigned}, 4, "", "", []int64{4}},
		{"ErrUnknownDocument", portal.StatusNew, nil, 99, portal.ENOTFOUND, "", nil},
		{"ErrDoesNotApply", portal.StatusNew, nil, 5, portal.ECONFLICT, "does not apply", nil},
		{"ErrAlreadySigned", portal.StatusNew, map[int64]portal.SignOutcome{2: portal.SignOutcomeSigned}, 2, portal.ECONFLICT, "already signed", nil},
		{"UnsignedAfterSetupBecameApplicableLater", portal.StatusSetupComplete, nil, 2, "", "", []int64{2}},
		{"ErrSignedAfterSetup", portal.StatusSetupComplete, map[int64]portal.SignOutcome{2: portal.SignOutcomeSigned}, 2, portal.ECONFLICT, "already signed", nil},
		{"ErrSubmitted", portal.StatusIDVStarted, nil, 2, portal.ECONFLICT, "has been submitted", nil},
		{"ErrComplete", portal.StatusComplete, nil, 2, portal.ECONFLICT, "has been submitted", nil},
		{"ErrPaperFormsChosen", portal.StatusNew, map[int64]portal.SignOutcome{1: portal.SignOutcomePaperForms}, 2, portal.ECONFLICT, "paper forms", nil},
		{"StepsBeforeTheAuthorizationInAnyOrder", portal.StatusNew, nil, 2, "", "", []int64{2}},
		{"ErrAuthorizationBeforeTheRest", portal.StatusNew, map[int64]portal.SignOutcome{1: portal.SignOutcomeSigned, 2: portal.SignOutcomeSigned}, 6,
			portal.ECONFLICT, `Please sign "Title rights_fed (and 1 more notice)" first`, nil},
		{"AuthorizationOnceEverythingElseIsSigned", portal.StatusNew, map[int64]portal.SignOutcome{1: portal.SignOutcomeSigned, 2: portal.SignOutcomeSigned,
			3: portal.SignOutcomeSigned, 4: portal.SignOutcomeSigned}, 6, "", "", []int64{6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, todo, err := legalFile(tc.status, tc.signed).SignableStep(tc.id)
			if portal.ErrorCode(err) != tc.wantCode || !strings.Contains(portal.ErrorMessage(err), tc.wantText) {
				t.Fatalf("err = %v, want code %q with %q", err, tc.wantCode, tc.wantText)
			}
			var ids []int64
			for _, d := range todo {
				ids = append(ids, d.ID)
			}
			if len(ids) != len(tc.wantTodo) || (len(ids) > 0 && ids[0] != tc.wantTodo[0]) {
				t.Errorf("to sign %v, want %v", ids, tc.wantTodo)
			}
		})
	}
}

func TestLegalFileSign(t *testing.T) {
	shown := func(d portal.LegalDocument) (string, string) { return "shown " + d.Title, "hash" + d.Title }
	ok := portal.SignRequest{SignatureFields: portal.SignatureFields{AckReceiptYourRights: true, AckFed: true, AckSf: true}}
	for _, tc := range []struct {
		name     string
		hashes   map[string]string
		wantCode string
		wantText string
	}{
		{"SignsWithTheHashesOfWhatWasShown", map[string]string{"3": "hashTitle rights_fed", "4": "HASHTITLE RIGHTS_SF"}, "", ""},
		{"ErrContentChanged", map[string]string{"3": "hashTitle rights_fed", "4": "old"}, portal.ECONFLICT, "changed since you opened it"},
		{"ErrHashMissing", map[string]string{"3": "hashTitle rights_fed"}, portal.EINVALID, "validation error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sigs, err := legalFile(portal.StatusNew, nil).Sign(portal.Signing{DocumentID: 3, Request: ok, ContentSHA256: tc.hashes, IP: "192.0.2.1", Shown: shown})
			if portal.ErrorCode(err) != tc.wantCode || !strings.Contains(portal.ErrorMessage(err), tc.wantText) {
				t.Fatalf("err = %v, want code %q with %q", err, tc.wantCode, tc.wantText)
			}
			if err != nil {
				return
			}
			if len(sigs) != 2 {
				t.Fatalf("%d signatures, want 2", len(sigs))
			}
			s := sigs[1]
			if s.DocumentID != 4 || s.Content != "shown Title rights_sf" || s.ContentSHA256 != "hashTitle rights_sf" ||
				s.SignatureUserIP != "192.0.2.1" || s.SignerName != "Jane Doe" || s.Outcome != portal.SignOutcomeSigned ||
				s.DocumentVersion != 1 || !s.Fields.AckSf {
				t.Errorf("signature = %+v", s)
			}
		})
	}
	t.Run("ErrInvalidRequest", func(t *testing.T) {
		_, err := legalFile(portal.StatusNew, nil).Sign(portal.Signing{DocumentID: 2, Request: ok, Shown: shown})
		if portal.ErrorCode(err) != portal.EINVALID {
			t.Errorf("err = %v, want a validation error", err)
		}
	})
}

// TestLegalFileSignChecksTheInvitedName: the typed name must be the one the
// applicant was invited with, not the subject's editable names.
func TestLegalFileSignChecksTheInvitedName(t *testing.T) {
	shown := func(d portal.LegalDocument) (string, string) { return "shown", "hash" }
	f := legalFile(portal.StatusNew, nil)
	f.Subject.FirstName, f.Subject.LastName = "Mallory", "Other" // edited after the invitation
	f.Subject.InvitedFirstName, f.Subject.InvitedLastName = "Jane", "Doe"
	sign := func(first, last string) error {
		_, err := f.Sign(portal.Signing{DocumentID: 1, ContentSHA256: map[string]string{"1": "hash"}, Shown: shown,
			Request: portal.SignRequest{SignatureFields: portal.SignatureFields{FirstName: first, LastName: last, AckConsent: true, AckNotices: true}}})
		return err
	}
	var pe *portal.Error
	if err := sign("Mallory", "Other"); !errors.As(err, &pe) || len(pe.Fields) != 2 || !strings.Contains(pe.Fields[0].Message, "Jane") {
		t.Fatalf("the edited name = %v; want errors on both names, naming the invited one", err)
	}
	if err := sign(" jane ", "DOE"); err != nil {
		t.Fatalf("the invited name = %v", err)
	}
}

func TestLegalDocumentFilter(t *testing.T) {
	yes, no := true, false
	fed := portal.LegalDocument{Type: portal.LegalDocumentType{DocumentType: portal.DocRightsFed}}
	for _, tc := range []struct {
		name   string
		filter portal.LegalDocumentFilter
		signed bool
		want   bool
	}{
		{"EmptyMatchesAll", portal.LegalDocumentFilter{}, false, true},
		{"ExactType", portal.LegalDocumentFilter{DocumentTypes: []string{portal.DocRightsFed}}, false, true},
		{"StepTypeMatchesNotice", portal.LegalDocumentFilter{DocumentTypes: []string{portal.DocRights}}, false, true},
		{"OtherTypeExcluded", portal.LegalDocumentFilter{DocumentTypes: []string{portal.DocESign}}, false, false},
		{"SignedWanted", portal.LegalDocumentFilter{Signed: &yes}, true, true},
		{"UnsignedWantedButSigned", portal.LegalDocumentFilter{Signed: &no}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.filter.Match(fed, tc.signed); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPlaceValidate(t *testing.T) {
	lookups := portal.PlaceLookups{
		KnownState: func(c string) bool { return c == "US-CA" || c == "US-NY" },
		CountyState: func(id int64) (string, bool) {
			switch id {
			case 6075, 6037:
				return "US-CA", true
			case 36061:
				return "US-NY", true
			}
			return "", false
		},
	}
	for _, tc := range []struct {
		name  string
		place portal.Place
		want  string // the failing field, or ""
		msg   string // its message, when one is wanted
	}{
		{"KnownStateLowerCase", portal.Place{State: " us-ca ", County: 6075}, "", ""},
		{"StateWithoutCounty", portal.Place{State: "US-NY"}, "", ""},
		{"EmptyPlace", portal.Place{}, "", ""},
		{"OutsideUSIgnoresStateAndCounty", portal.Place{NonUS: true, State: "XX", County: 36061}, "", ""},
		{"ErrUnknownState", portal.Place{State: "US-XX"}, "location.residency.state", "Choose a state from the list."},
		{"ErrNegativeCounty", portal.Place{State: "US-CA", County: -1}, "location.residency.county", "Choose a county from the list."},
		{"ErrUnknownCounty", portal.Place{State: "US-CA", County: 6000}, "location.residency.county", "Choose a county from the list."},
		{"ErrCountyWithoutState", portal.Place{County: 6075}, "location.residency.county", "Choose a state before a county."},
		{"ErrCountyOfAnotherState", portal.Place{State: "US-NY", County: 6075}, "location.residency.county", "Choose a county in the state you chose."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fe portal.FieldErrors
			tc.place.Validate("location.residency", lookups, &fe)
			if (tc.want == "") != (len(fe) == 0) || (tc.want != "" && fe[0].Field != tc.want) {
				t.Fatalf("errors %v, want field %q", fe, tc.want)
			}
			if tc.msg != "" && fe[0].Message != tc.msg {
				t.Errorf("message %q, want %q", fe[0].Message, tc.msg)
			}
		})
	}
}
