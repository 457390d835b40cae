package portal

// Finalization is what the steps after identity verification depend on
// (spec sections 4 and 9): the company's collection-site setting, the
// package, and the applicant's residency under the operator's self-pay
// rules. Its methods make those steps' decisions once for the whole portal:
// the status moves (StatusFacts), the self-pay step, the collection-site
// step, the operators' list of what is left, and GET /api/v2/user, from
// which the app reads them rather than deciding again.
type Finalization struct {
	Preferences CompanyPreferences
	Package     *Package // nil when the company has none
	Location    Location
	SelfPay     SelfPayRules
}

// SiteSelectionApplies reports whether the applicant chooses the
// collection site: the company lets applicants choose it and the package
// holds a medical review service (spec section 4).
func (f Finalization) SiteSelectionApplies() bool {
	return f.Preferences.ApplicantCollectionSiteSelection && f.Package.HasMROService()
}

// ExemptState is the residency state that forbids charging the applicant
// (SelfPayRules.Exemption), or "".
func (f Finalization) ExemptState() string { return f.SelfPay.Exemption(f.Location) }

// SelfPayEnabled is the package's self-pay preference as the applicant
// sees it: off when their state forbids charging them, so that the spec's
// rule read off the preference never sends them to self-pay.
func (f Finalization) SelfPayEnabled() bool {
	return f.Package != nil && f.Package.SelfPayEnabled && f.ExemptState() == ""
}

// PaymentRequired is spec section 9's rule (self-pay on and a hold above
// 0) after the residency exemption.
func (f Finalization) PaymentRequired() bool {
	return f.Package.PaymentRequired() && f.ExemptState() == ""
}

// StatusAfterIDV is where the applicant goes once identity verification is
// finished, as CheckStatusMove will accept it (NextStatus), given whether a
// site is already chosen and the hold already authorized.
func (f Finalization) StatusAfterIDV(siteChosen, paymentAuthorized bool) StatusID {
	return NextStatus(StatusIDVStarted, StatusFacts{SiteSelectionAllowed: f.SiteSelectionApplies(), PaymentRequired: f.PaymentRequired(),
		SiteChosen: siteChosen, PaymentAuthorized: paymentAuthorized})
}

// Why a collection site cannot be chosen or changed now.
var (
	// Once collected, the collector already has the specimen, so another
	// site would mislead the applicant.
	errSiteCollected     = Errorf(ECONFLICT, "Your specimen has already been collected; the site can no longer change.")
	errSiteBeforeIDV     = Errorf(ECONFLICT, "A collection site can be chosen only after your identity is verified.")
	errSiteEmployerFixed = Errorf(ECONFLICT, "Your employer chooses the collection site; it cannot be changed here.")
)

// SiteChangeable answers nil when the applicant in status may choose a
// collection site, or change the one chosen (nil when none): while
// choosing one (MRO-site-selection-started), or afterwards
// (finalization-complete, /collection-site-update) when site selection
// applies; never once the specimen is collected. Otherwise it is
// ECONFLICT saying why. The collection-site GET's "changeable" and PUT
// both ask it.
func (f Finalization) SiteChangeable(status StatusID, choice *SiteChoice) error {
	switch {
	case choice != nil && choice.CollectedAt != nil:
		return errSiteCollected
	case status == StatusMROSiteSelection:
		return nil
	case status != StatusFinalizationComplete:
		return errSiteBeforeIDV
	case !f.SiteSelectionApplies():
		return errSiteEmployerFixed
	}
	return nil
}
