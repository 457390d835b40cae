package portal_test

import (
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

func TestCheckStatusMove(t *testing.T) {
	ready := portal.StatusFacts{HasPassword: true, PersonalInfoSaved: true}
	tests := []struct {
		name     string
		from, to portal.StatusID
		facts    portal.StatusFacts
		wantCode string // "" means allowed
		wantText string
	}{
		{"SetupCompletesWhenEverythingIsDone", portal.StatusNew, portal.StatusSetupComplete, ready, "", ""},
		{"SetupNeedsAPassword", portal.StatusNew, portal.StatusSetupComplete, portal.StatusFacts{PersonalInfoSaved: true}, portal.ECONFLICT, "create a password"},
		{"SetupNamesUnsignedDocuments", portal.StatusNew, portal.StatusSetupComplete, portal.StatusFacts{HasPassword: true, PersonalInfoSaved: true, UnsignedDocuments: []string{"Disclosure", "Authorization"}}, portal.ECONFLICT, "sign Disclosure and Authorization"},
		{"SetupNeedsPersonalInformation", portal.StatusNew, portal.StatusSetupComplete, portal.StatusFacts{HasPassword: true}, portal.ECONFLICT, "save your personal information"},
		{"FullProfileNeedsOnlyThePassword", portal.StatusNew, portal.StatusSetupComplete, portal.StatusFacts{HasPassword: true, FullProfile: true, UnsignedDocuments: []string{"Disclosure"}}, "", ""},
		{"IDVStartsAfterSetup", portal.StatusSetupComplete, portal.StatusIDVStarted, portal.StatusFacts{}, "", ""},
		{"IDVWaitsForTheProfile", portal.StatusSetupComplete, portal.StatusIDVStarted, portal.StatusFacts{IncompletePages: []string{"Education", "Employment"}}, portal.ECONFLICT, "Your profile is not complete yet: Education, Employment."},
		{"FinalizationNeedsFinishedIDV", portal.StatusIDVStarted, portal.StatusFinalizationComplete, portal.StatusFacts{}, portal.ECONFLICT, "identity verification"},
		{"FinalizationAfterIDV", portal.StatusIDVStarted, portal.StatusFinalizationComplete, portal.StatusFacts{IDVFinished: true}, "", ""},
		{"SelfPayAfterIDV", portal.StatusIDVStarted, portal.StatusSelfPayRequired, portal.StatusFacts{IDVFinished: true}, "", ""},
		{"SiteSelectionNeedsPermission", portal.StatusIDVStarted, portal.StatusMROSiteSelection, portal.StatusFacts{IDVFinished: true}, portal.ECONFLICT, "collection-site"},
		{"SiteSelectionAfterIDV", portal.StatusIDVStarted, portal.StatusMROSiteSelection, portal.StatusFacts{IDVFinished: true, SiteSelectionAllowed: true}, "", ""},
		{"LeavingSiteSelectionNeedsASite", portal.StatusMROSiteSelection, portal.StatusFinalizationComplete, portal.StatusFacts{}, portal.ECONFLICT, "collection site"},
		{"SiteChosenThenSelfPay", portal.StatusMROSiteSelection, portal.StatusSelfPayRequired, portal.StatusFacts{SiteChosen: true}, "", ""},
		{"SelfPayNeedsPayment", portal.StatusSelfPayRequired, portal.StatusFinalizationComplete, portal.StatusFacts{}, portal.ECONFLICT, "payment"},
		{"PaidThenFinal", portal.StatusSelfPayRequired, portal.StatusFinalizationComplete, portal.StatusFacts{PaymentAuthorized: true}, "", ""},
		{"FinalBackToSiteSelection", portal.StatusFinalizationComplete, portal.StatusMROSiteSelection, portal.StatusFacts{SiteSelectionAllowed: true}, "", ""},
		{"NoSkippingSetup", portal.StatusNew, portal.StatusFinalizationComplete, ready, portal.ECONFLICT, "not allowed"},
		{"NoGoingBack", portal.StatusSetupComplete, portal.StatusNew, ready, portal.ECONFLICT, "not allowed"},
		{"UnknownStatusInvalid", portal.StatusNew, portal.StatusID(42), ready, portal.EINVALID, "Unknown status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := portal.CheckStatusMove(tt.from, tt.to, tt.facts)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if portal.ErrorCode(err) != tt.wantCode || !strings.Contains(portal.ErrorMessage(err), tt.wantText) {
				t.Fatalf("err = %v; want %s containing %q", err, tt.wantCode, tt.wantText)
			}
		})
	}
}

func TestPaymentRequired(t *testing.T) {
	for _, tt := range []struct {
		name string
		pkg  *portal.Package
		want bool
	}{
		{"NoPackage", nil, false},
		{"SelfPayOff", &portal.Package{SelfPayInitialHoldAmt: "25.00"}, false},
		{"ZeroHold", &portal.Package{SelfPayEnabled: true, SelfPayInitialHoldAmt: "0.00"}, false},
		{"HoldAboveZero", &portal.Package{SelfPayEnabled: true, SelfPayInitialHoldAmt: "25.00"}, true},
		{"CentsOnly", &portal.Package{SelfPayEnabled: true, SelfPayInitialHoldAmt: "0.01"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.pkg.PaymentRequired(); got != tt.want {
				t.Fatalf("PaymentRequired = %v; want %v", got, tt.want)
			}
		})
	}
}
