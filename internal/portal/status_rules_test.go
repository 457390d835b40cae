package portal_test

import (
	"slices"
	"strconv"
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
		{"AnIncompleteProfileIsSaidFirst", portal.StatusSetupComplete, portal.StatusIDVStarted, portal.StatusFacts{IncompletePages: []string{"Education"}}, portal.ECONFLICT, "Your profile is not complete yet: Education."},
		{"FinalizationNeedsFinishedIDV", portal.StatusIDVStarted, portal.StatusFinalizationComplete, portal.StatusFacts{}, portal.ECONFLICT, "identity verification"},
		{"FinalizationAfterIDV", portal.StatusIDVStarted, portal.StatusFinalizationComplete, portal.StatusFacts{IDVFinished: true}, "", ""},
		{"SelfPayAfterIDV", portal.StatusIDVStarted, portal.StatusSelfPayRequired, portal.StatusFacts{IDVFinished: true, PaymentRequired: true}, "", ""},
		{"NoSelfPayWhenNothingIsOwed", portal.StatusIDVStarted, portal.StatusSelfPayRequired, portal.StatusFacts{IDVFinished: true}, portal.ECONFLICT, "no payment is required"},
		{"NoSkippingTheSite", portal.StatusIDVStarted, portal.StatusFinalizationComplete, portal.StatusFacts{IDVFinished: true, SiteSelectionAllowed: true}, portal.ECONFLICT, "choose a collection site first"},
		{"NoSkippingThePayment", portal.StatusIDVStarted, portal.StatusFinalizationComplete, portal.StatusFacts{IDVFinished: true, PaymentRequired: true}, portal.ECONFLICT, "payment has not been authorized"},
		{"NoSkippingThePaymentAfterTheSite", portal.StatusMROSiteSelection, portal.StatusFinalizationComplete, portal.StatusFacts{SiteChosen: true, PaymentRequired: true}, portal.ECONFLICT, "payment has not been authorized"},
		{"PaidBeforeSoStraightToFinal", portal.StatusMROSiteSelection, portal.StatusFinalizationComplete, portal.StatusFacts{SiteChosen: true, PaymentRequired: true, PaymentAuthorized: true}, "", ""},
		{"SiteSelectionNeedsPermission", portal.StatusIDVStarted, portal.StatusMROSiteSelection, portal.StatusFacts{IDVFinished: true}, portal.ECONFLICT, "collection-site"},
		{"SiteSelectionAfterIDV", portal.StatusIDVStarted, portal.StatusMROSiteSelection, portal.StatusFacts{IDVFinished: true, SiteSelectionAllowed: true}, "", ""},
		{"LeavingSiteSelectionNeedsASite", portal.StatusMROSiteSelection, portal.StatusFinalizationComplete, portal.StatusFacts{}, portal.ECONFLICT, "collection site"},
		{"SiteChosenThenSelfPay", portal.StatusMROSiteSelection, portal.StatusSelfPayRequired, portal.StatusFacts{SiteChosen: true, PaymentRequired: true}, "", ""},
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
			// The error's text holds its message and, for a field error, the field and its message.
			if portal.ErrorCode(err) != tt.wantCode || !strings.Contains(err.Error(), tt.wantText) {
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

// TestStatusFlow walks spec section 4's flow from idv-started over every
// combination of the company's site-selection setting, an MRO service in
// the package, the package's self-pay preference and hold, and a residency
// that forbids charging applicants.
func TestStatusFlow(t *testing.T) {
	rules := portal.SelfPayRules{ForbiddenStates: []string{"US-CA"}}
	for _, siteSetting := range []bool{false, true} {
		for _, mro := range []bool{false, true} {
			for _, selfPay := range []string{"0", "1"} {
				for _, hold := range []string{"0.00", "25.00"} {
					for _, state := range []string{"US-TX", "US-CA"} {
						name := "site=" + strconv.FormatBool(siteSetting) + "/mro=" + strconv.FormatBool(mro) + "/selfPay=" + selfPay + "/hold=" + hold + "/" + state
						t.Run(name, func(t *testing.T) {
							pkg := &portal.Package{SelfPayEnabled: selfPay == "1", SelfPayInitialHoldAmt: hold}
							if mro {
								pkg.Services = []portal.PackageService{{Code: "drug"}}
							}
							fin := portal.Finalization{Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: siteSetting},
								Package: pkg, Location: portal.Location{Residency: portal.Place{State: state}}, SelfPay: rules}
							f := portal.StatusFacts{IDVFinished: true,
								SiteSelectionAllowed: fin.SiteSelectionApplies(),
								PaymentRequired:      fin.PaymentRequired()}
							var want []portal.StatusID
							if siteSetting && mro {
								want = append(want, portal.StatusMROSiteSelection)
							}
							if selfPay == "1" && hold != "0.00" && state != "US-CA" {
								want = append(want, portal.StatusSelfPayRequired)
							}
							want = append(want, portal.StatusFinalizationComplete)

							var got []portal.StatusID
							for from := portal.StatusIDVStarted; from != portal.StatusFinalizationComplete; {
								next := portal.NextStatus(from, f)
								if err := portal.CheckStatusMove(from, next, f); err != nil {
									t.Fatalf("the flow's own next step %s -> %s is refused: %v", from.Text(), next.Text(), err)
								}
								if next != portal.StatusFinalizationComplete {
									if err := portal.CheckStatusMove(from, portal.StatusFinalizationComplete, f); err == nil {
										t.Fatalf("%s -> Finalization Complete skips %s", from.Text(), next.Text())
									}
								}
								got = append(got, next)
								switch next { // the step is done
								case portal.StatusMROSiteSelection:
									f.SiteChosen = true
								case portal.StatusSelfPayRequired:
									f.PaymentAuthorized = true
								}
								from = next
							}
							if !slices.Equal(got, want) {
								t.Fatalf("flow = %v; want %v", got, want)
							}
							if after := fin.StatusAfterIDV(false, false); after != want[0] {
								t.Fatalf("StatusAfterIDV = %v; want %v", after, want[0])
							}
						})
					}
				}
			}
		}
	}
}

func TestSelfPayExemption(t *testing.T) {
	rules := portal.SelfPayRules{ForbiddenStates: portal.DefaultSelfPayForbiddenStates}
	for _, tt := range []struct {
		name string
		loc  portal.Location
		want string
	}{
		{"ResidentOfAForbiddingState", portal.Location{Residency: portal.Place{State: "US-CA"}}, "US-CA"},
		{"CaseDoesNotMatter", portal.Location{Residency: portal.Place{State: "us-mn"}}, "us-mn"},
		{"OtherState", portal.Location{Residency: portal.Place{State: "US-TX"}}, ""},
		{"WorkingThereIsNotLivingThere", portal.Location{Residency: portal.Place{State: "US-TX"}, Employment: portal.Place{State: "US-CA"}}, ""},
		{"OutsideTheUS", portal.Location{Residency: portal.Place{NonUS: true}}, ""},
		{"Unknown", portal.Location{}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := rules.Exemption(tt.loc); got != tt.want {
				t.Fatalf("Exemption = %q; want %q", got, tt.want)
			}
		})
	}
}

func TestParseMoney(t *testing.T) {
	for _, tt := range []struct {
		in    string
		cents int64
		ok    bool
	}{
		{"25.00", 2500, true}, {"25", 2500, true}, {"25.5", 2550, true}, {"0.01", 1, true},
		{"", 0, false}, {"-1", 0, false}, {"1.234", 0, false}, {"1e3", 0, false}, {"12,00", 0, false},
	} {
		m, ok := portal.ParseMoney(tt.in, "USD")
		if ok != tt.ok || m.Cents != tt.cents {
			t.Errorf("ParseMoney(%q) = %d, %v; want %d, %v", tt.in, m.Cents, ok, tt.cents, tt.ok)
		}
		if ok && tt.in == "25.5" && m.Text() != "25.50" {
			t.Errorf("Text = %q; want 25.50", m.Text())
		}
	}
}
