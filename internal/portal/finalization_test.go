package portal_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
)

// finalization is an applicant of a company that lets applicants choose
// the site or not, with a package holding the services of codes and a
// self-pay hold, living in state under rules forbidding charging
// residents of US-CA.
func finalization(siteSetting bool, codes []string, selfPay bool, hold, state string) portal.Finalization {
	pkg := &portal.Package{SelfPayEnabled: selfPay, SelfPayInitialHoldAmt: hold}
	for _, code := range codes {
		pkg.Services = append(pkg.Services, portal.PackageService{Code: code})
	}
	return portal.Finalization{
		Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: siteSetting},
		Package:     pkg,
		Location:    portal.Location{Residency: portal.Place{State: state}},
		SelfPay:     portal.SelfPayRules{ForbiddenStates: []string{"US-CA"}},
	}
}

func TestFinalizationSiteSelectionApplies(t *testing.T) {
	for _, tt := range []struct {
		name        string
		siteSetting bool
		codes       []string
		want        bool
	}{
		{"DrugTest", true, []string{"crim", "drug"}, true},
		{"MedicalExamination", true, []string{"medi"}, true},
		{"ClinicalTest", true, []string{"clin"}, true},
		{"NoMedicalReviewService", true, []string{"crim", "dtdr"}, false},
		{"CompanyChoosesTheSite", false, []string{"drug"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := finalization(tt.siteSetting, tt.codes, false, "", "").SiteSelectionApplies(); got != tt.want {
				t.Fatalf("SiteSelectionApplies = %v; want %v", got, tt.want)
			}
		})
	}
	if (portal.Finalization{Preferences: portal.CompanyPreferences{ApplicantCollectionSiteSelection: true}}).SiteSelectionApplies() {
		t.Error("site selection applies without a package")
	}
}

func TestFinalizationPaymentRequired(t *testing.T) {
	for _, tt := range []struct {
		name           string
		selfPay        bool
		hold, state    string
		enabled, owing bool
		exempt         string
	}{
		{"SelfPayWithAHold", true, "25.00", "US-TX", true, true, ""},
		{"ACent", true, "0.01", "US-TX", true, true, ""},
		{"NoHold", true, "0.00", "US-TX", true, false, ""},
		{"EmptyHold", true, "", "US-TX", true, false, ""},
		{"SelfPayOff", false, "25.00", "US-TX", false, false, ""},
		{"ResidentOfAStateForbiddingIt", true, "25.00", "US-CA", false, false, "US-CA"},
		{"UnknownResidency", true, "25.00", "", true, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := finalization(false, nil, tt.selfPay, tt.hold, tt.state)
			if got := f.PaymentRequired(); got != tt.owing {
				t.Errorf("PaymentRequired = %v; want %v", got, tt.owing)
			}
			if got := f.SelfPayEnabled(); got != tt.enabled {
				t.Errorf("SelfPayEnabled = %v; want %v", got, tt.enabled)
			}
			if got := f.ExemptState(); got != tt.exempt {
				t.Errorf("ExemptState = %q; want %q", got, tt.exempt)
			}
		})
	}
	if f := (portal.Finalization{}); f.PaymentRequired() || f.SelfPayEnabled() {
		t.Error("payment required without a package")
	}
}

func TestFinalizationStatusAfterIDV(t *testing.T) {
	for _, tt := range []struct {
		name             string
		f                portal.Finalization
		siteChosen, paid bool
		want             portal.StatusID
	}{
		{"SiteFirst", finalization(true, []string{"drug"}, true, "25.00", "US-TX"), false, false, portal.StatusMROSiteSelection},
		{"SelfPayWhenNoSiteToChoose", finalization(false, []string{"drug"}, true, "25.00", "US-TX"), false, false, portal.StatusSelfPayRequired},
		{"FinalWhenNothingIsOwed", finalization(false, []string{"drug"}, true, "0", "US-TX"), false, false, portal.StatusFinalizationComplete},
		{"FinalForAnExemptResident", finalization(false, nil, true, "25.00", "US-CA"), false, false, portal.StatusFinalizationComplete},
		{"SiteAlreadyChosen", finalization(true, []string{"drug"}, true, "25.00", "US-TX"), true, false, portal.StatusSelfPayRequired},
		{"AlreadyPaid", finalization(true, []string{"drug"}, true, "25.00", "US-TX"), true, true, portal.StatusFinalizationComplete},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.StatusAfterIDV(tt.siteChosen, tt.paid); got != tt.want {
				t.Fatalf("StatusAfterIDV = %v; want %v", got.Text(), tt.want.Text())
			}
		})
	}
}

func TestFinalizationSiteChangeable(t *testing.T) {
	allowed := finalization(true, []string{"drug"}, false, "", "")
	fixed := finalization(false, []string{"drug"}, false, "", "")
	noMRO := finalization(true, []string{"crim"}, false, "", "")
	collectedAt := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	chosen := &portal.SiteChoice{}
	collected := &portal.SiteChoice{CollectedAt: &collectedAt}
	for _, tt := range []struct {
		name     string
		f        portal.Finalization
		status   portal.StatusID
		choice   *portal.SiteChoice
		wantText string // "" means allowed
	}{
		{"WhileChoosing", fixed, portal.StatusMROSiteSelection, nil, ""},
		{"ChangeWhileChoosing", fixed, portal.StatusMROSiteSelection, chosen, ""},
		{"FirstSiteAfterFinalization", allowed, portal.StatusFinalizationComplete, nil, ""},
		{"ChangeAfterFinalization", allowed, portal.StatusFinalizationComplete, chosen, ""},
		{"EmployerChoosesAfterFinalization", fixed, portal.StatusFinalizationComplete, chosen, "Your employer chooses the collection site; it cannot be changed here."},
		{"NoMedicalReviewAfterFinalization", noMRO, portal.StatusFinalizationComplete, nil, "Your employer chooses the collection site; it cannot be changed here."},
		{"Collected", allowed, portal.StatusFinalizationComplete, collected, "Your specimen has already been collected; the site can no longer change."},
		{"CollectedWhileChoosing", allowed, portal.StatusMROSiteSelection, collected, "Your specimen has already been collected; the site can no longer change."},
		{"BeforeIdentityVerification", allowed, portal.StatusIDVStarted, nil, "A collection site can be chosen only after your identity is verified."},
		{"WhilePaying", allowed, portal.StatusSelfPayRequired, nil, "A collection site can be chosen only after your identity is verified."},
		{"Complete", allowed, portal.StatusComplete, chosen, "A collection site can be chosen only after your identity is verified."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.f.SiteChangeable(tt.status, tt.choice)
			if tt.wantText == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if portal.ErrorCode(err) != portal.ECONFLICT || portal.ErrorMessage(err) != tt.wantText {
				t.Fatalf("err = %v; want ECONFLICT %q", err, tt.wantText)
			}
		})
	}
}

// mroCodes finds a medical review service code written as a string.
var mroCodes = regexp.MustCompile("[\"'`](medi|clin)[\"'`]")

// TestMROServiceCodesOnlyInPortal keeps the medical review group
// (IsMROService) in one place: no other Go package and no part of the app
// lists "medi" and "clin" to decide site selection again. They read
// Finalization's decisions (the app through GET /api/v2/user).
func TestMROServiceCodesOnlyInPortal(t *testing.T) {
	for _, root := range []string{"../../internal", "../../cmd", "../../web/src"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if filepath.ToSlash(path) == "../../internal/portal" {
					return filepath.SkipDir
				}
				return nil
			}
			switch filepath.Ext(path) {
			case ".go", ".ts", ".tsx":
			default:
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			found := map[string]bool{}
			for _, m := range mroCodes.FindAllStringSubmatch(string(b), -1) {
				found[m[1]] = true
			}
			if len(found) == 2 {
				t.Errorf("%s lists the medical review service codes; read portal.Finalization's decision instead", strings.TrimPrefix(path, "../../"))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
