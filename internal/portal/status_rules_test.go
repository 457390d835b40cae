package portal_test

import (
	"os"
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

func TestValidatePassword(t *testing.T) {
	for _, tt := range []struct {
		name, password string
		ok             bool
	}{
		{"EmptyRejected", "", false},
		{"BelowMinimumRejected", "fourteen chars", false},
		{"MinimumAccepted", "fifteen chars!!", true},
		{"CountsCharactersNotBytes", "éàèùçéàèùçéàèùç", true},
		{"OverMaximumRejected", strings.Repeat("xyz!", portal.MaxPasswordLength/4) + "x", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := portal.ValidatePassword("password", tt.password, 15); (err == nil) != tt.ok {
				t.Fatalf("ValidatePassword = %v; want ok %v", err, tt.ok)
			}
		})
	}
}

// TestPasswordPolicy walks NIST SP 800-63B's rules: each bad password gets
// its one message, the first rule it breaks.
func TestPasswordPolicy(t *testing.T) {
	ids := []string{"jane.doe@example.com", "Jane.Doe@Example.com"}
	for _, tt := range []struct {
		name, password, want string // want "" means accepted
	}{
		{"Accepted", "correct horse battery staple", ""},
		{"FifteenSpaces", strings.Repeat(" ", 15), portal.MsgPasswordVariety},
		{"FifteenNULs", strings.Repeat("\x00", 15), portal.MsgPasswordControl},
		{"NULInside", "correct horse\x00battery staple", portal.MsgPasswordControl},
		{"Tab", "correct horse\tbattery staple", portal.MsgPasswordControl},
		{"C1Control", "correct horse\u0085battery staple", portal.MsgPasswordControl},
		{"SameLetter", strings.Repeat("a", 15), portal.MsgPasswordVariety},
		{"ThreeLetters", "abcabcabcabcabc", portal.MsgPasswordVariety},
		{"OnlyUnicodeSpaces", " \u1680\u2028\u2029 \u1680\u2028\u2029 \u1680\u2028\u2029 \u1680\u2028\u2029", portal.MsgPasswordVariety},
		{"TheEmail", "jane.doe@example.com", portal.MsgPasswordIdentity},
		{"TheEmailOtherCase", "JANE.DOE@EXAMPLE.COM", portal.MsgPasswordIdentity},
		{"ContainsTheEmail", "my jane.doe@example.com!", portal.MsgPasswordIdentity},
		{"ContainsTheLocalPart", "I am Jane.Doe, hello there", portal.MsgPasswordIdentity},
		{"ContainsTheLocalPartFullWidth", "I am Ｊａｎｅ.Ｄｏｅ, hello there", portal.MsgPasswordIdentity},
		{"Common", "1qaz2wsx3edc4rfv", portal.MsgPasswordCommon},
		{"CommonOtherCase", "PASSWORD1234567", ""}, // not listed: accepted
		{"CommonRepeated", "SunshineSunshine", portal.MsgPasswordCommon},
		{"CommonFullWidth", "１ＱＡＺ２ＷＳＸ３ＥＤＣ４ＲＦＶ", portal.MsgPasswordCommon},
		{"LengthCountsTheNFKCForm", "abcde\ufb01\ufb01\ufb01\ufb01\ufb01", ""}, // ﬁ is f+i: 15 characters
		{"DecomposedCountsAsComposed", strings.Repeat("e\u0301bcd", 3) + "xy", portal.MsgPasswordTooShort},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := portal.ValidatePassword("password", tt.password, 15, ids...)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			pe, ok := err.(*portal.Error)
			want := tt.want
			if want == portal.MsgPasswordTooShort {
				want = "Password must be at least 15 characters long."
			}
			if !ok || len(pe.Fields) != 1 || pe.Fields[0].Field != "password" || pe.Fields[0].Message != want {
				t.Fatalf("err = %v; want the one message %q", err, want)
			}
		})
	}
}

// TestPasswordRulesAreDocumented keeps docs/api.md, which the app follows,
// true to the server's messages.
func TestPasswordRulesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range portal.PasswordRules {
		msg := strings.ReplaceAll(r.Message, "%d", "N")
		if !strings.Contains(string(doc), msg) {
			t.Errorf("docs/api.md lacks the message %q", msg)
		}
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
