package portal

import (
	"context"
	"math"
)

// What the applicant will need, in the order the journey asks for it. The
// ids are the app's catalogue keys (the title and "why" of each item are
// the app's strings, so a second language translates them); the facts
// beside an id (years, count, amount, names) are the package's.
const (
	PrepSSNAndBirthDate = "ssnAndBirthDate"
	PrepOtherNames      = "otherNames"
	PrepAddresses       = "addresses"
	PrepDriversLicence  = "driversLicence"
	PrepSchools         = "schools"
	PrepEmployers       = "employers"
	PrepLicences        = "licences"
	PrepReferences      = "references"
	PrepDocuments       = "documents"
	PrepPdfForms        = "pdfForms"
	PrepPhotoID         = "photoIdAndSelfie"
	PrepCollectionSite  = "collectionSite"
	PrepPaymentCard     = "paymentCard"
)

// PreparationItemIDs are every item id the portal knows, in journey order;
// a mark for any other id is ENOTFOUND.
var PreparationItemIDs = []string{
	PrepSSNAndBirthDate, PrepOtherNames, PrepAddresses, PrepDriversLicence, PrepSchools, PrepEmployers,
	PrepLicences, PrepReferences, PrepDocuments, PrepPdfForms, PrepPhotoID, PrepCollectionSite, PrepPaymentCard,
}

// IsPreparationItem reports whether id is one of PreparationItemIDs.
func IsPreparationItem(id string) bool { return contains(PreparationItemIDs, id) }

// PreparationItem is one thing the applicant will need, with the facts of
// the package that make it needed. Later is the applicant's own mark "I'll
// find this later"; it never blocks anything.
type PreparationItem struct {
	ID    string `json:"id"`
	Later bool   `json:"later"`
	// Years: addresses, how many years of history the package asks for.
	Years int `json:"years,omitempty"`
	// Count: documents to upload, PDF forms to fill.
	Count int `json:"count,omitempty"`
	// Names: the titles of the documents and forms, as the operator named
	// them (operator data, not catalogue strings).
	Names []string `json:"names,omitempty"`
	// Phones: the page asks for phone numbers (employers, references).
	Phones bool `json:"phones,omitempty"`
	// SSNRequired: the company requires an SSN (otherwise "I don't have
	// one" is a choice).
	SSNRequired bool `json:"ssnRequired,omitempty"`
	// Amount and Currency: the self-pay hold ("25.00", "USD").
	Amount   string `json:"amount,omitempty"`
	Currency string `json:"currency,omitempty"`
}

// PreparationFacts are what the list and the estimate are computed from:
// the subject's company, package and legal steps, read by the store.
type PreparationFacts struct {
	Preferences CompanyPreferences
	// Finalization decides whether a collection site and a payment apply
	// (the same rules as the steps themselves).
	Finalization Finalization
	// AddressYears is the package's look-back (DefaultAddressHistoryYears
	// when it sets none).
	AddressYears int
	// LegalSteps is how many legal steps the applicant signs.
	LegalSteps int
	// PdfForms are the package's forms that apply to the applicant now.
	PdfForms []PdfForm
	// Later are the ids the applicant marked "I'll find this later".
	Later map[string]bool
}

// Preparation is GET /api/v2/user/preparation: the list and the estimate.
type Preparation struct {
	Items    []PreparationItem `json:"items"`
	Estimate TimeEstimate      `json:"estimate"`
}

// PreparationService answers the Welcome step's list and keeps the
// applicant's "I'll find this later" marks.
type PreparationService interface {
	FindPreparation(ctx context.Context, subjectID int64) (*Preparation, error)
	// MarkPreparationItem sets or clears the subject's mark on one item of
	// their list; an id not on it is ENOTFOUND.
	MarkPreparationItem(ctx context.Context, subjectID int64, itemID string, later bool) (*Preparation, error)
}

func hasFieldType(fields []FieldDefinition, typ string) bool {
	for _, f := range fields {
		if f.Type == typ {
			return true
		}
	}
	return false
}

// needsDriversLicence: a motor vehicle record is searched by licence, and
// DOT services (DOT employment, DOT drug test) concern drivers.
func needsDriversLicence(p *Package) bool {
	if p == nil {
		return false
	}
	for _, s := range p.Services {
		switch s.Code {
		case "mvrs", "dots", "dtdr":
			return true
		}
	}
	return false
}

// PreparationItems is the rule of what the applicant will need: only what
// the package really asks for, each with its facts and the applicant's mark.
func PreparationItems(f PreparationFacts) []PreparationItem {
	p := f.Finalization.Package
	years := f.AddressYears
	if years <= 0 {
		years = DefaultAddressHistoryYears
	}
	items := []PreparationItem{
		{ID: PrepSSNAndBirthDate, SSNRequired: f.Preferences.RequireSSN},
		{ID: PrepOtherNames},
		{ID: PrepAddresses, Years: years},
	}
	if needsDriversLicence(p) {
		items = append(items, PreparationItem{ID: PrepDriversLicence})
	}
	for _, page := range ServicePages(p) {
		phones := hasFieldType(page.Fields, FieldPhone)
		switch page.Alias {
		case AliasEducation:
			items = append(items, PreparationItem{ID: PrepSchools})
		case AliasEmployment:
			items = append(items, PreparationItem{ID: PrepEmployers, Phones: phones})
		case AliasCredential:
			items = append(items, PreparationItem{ID: PrepLicences})
		case AliasProfessional:
			items = append(items, PreparationItem{ID: PrepReferences, Phones: phones})
		}
	}
	if p != nil && len(p.DocumentTypes) > 0 {
		it := PreparationItem{ID: PrepDocuments, Count: len(p.DocumentTypes)}
		for _, d := range p.DocumentTypes {
			it.Names = append(it.Names, d.Title)
		}
		items = append(items, it)
	}
	if len(f.PdfForms) > 0 {
		it := PreparationItem{ID: PrepPdfForms, Count: len(f.PdfForms)}
		for _, form := range f.PdfForms {
			it.Names = append(it.Names, form.Title)
		}
		items = append(items, it)
	}
	// Every applicant verifies their identity (setup-complete moves only
	// to idv-started).
	items = append(items, PreparationItem{ID: PrepPhotoID})
	if f.Finalization.SiteSelectionApplies() {
		items = append(items, PreparationItem{ID: PrepCollectionSite})
	}
	if f.Finalization.PaymentRequired() {
		it := PreparationItem{ID: PrepPaymentCard, Amount: p.SelfPayInitialHoldAmt, Currency: "USD"}
		if m, ok := ParseMoney(p.SelfPayInitialHoldAmt, "USD"); ok {
			it.Amount = m.Text()
		}
		items = append(items, it)
	}
	for i := range items {
		items[i].Later = f.Later[items[i].ID]
	}
	return items
}

// BuildPreparation is the whole answer: the list and the estimate.
func BuildPreparation(f PreparationFacts, m EstimateModel) *Preparation {
	return &Preparation{Items: PreparationItems(f), Estimate: m.Estimate(f)}
}

// MinutesRange is a time in whole minutes, from a quick to an unhurried
// applicant.
type MinutesRange struct {
	Low  int `json:"low"`
	High int `json:"high"`
}

// EstimatePart is one part of the journey's time.
type EstimatePart struct {
	ID      string       `json:"id"`
	Minutes MinutesRange `json:"minutes"`
}

// TimeEstimate is the journey's time: the total and its parts.
type TimeEstimate struct {
	Minutes MinutesRange   `json:"minutes"`
	Parts   []EstimatePart `json:"parts"`
}

// Estimate parts, in journey order.
const (
	PartAccount        = "account"
	PartLegal          = "legal"
	PartPersonal       = "personal"
	PartOtherNames     = "otherNames"
	PartAddresses      = "addresses"
	PartDocuments      = "documents"
	PartPdfForms       = "pdfForms"
	PartReview         = "review"
	PartIdentity       = "identity"
	PartCollectionSite = "collectionSite"
	PartPayment        = "payment"
)

// Estimate computes the journey's time for the facts from the model:
// each part in seconds, low and high, summed, then the total rounded out
// to five minutes (down for low, up for high) so the promise is kept
// rather than beaten by a rounding.
func (m EstimateModel) Estimate(f PreparationFacts) TimeEstimate {
	p := f.Finalization.Package
	years := f.AddressYears
	if years <= 0 {
		years = DefaultAddressHistoryYears
	}
	type part struct {
		id  string
		sec Seconds
	}
	parts := []part{
		{PartAccount, m.Account},
		{PartLegal, m.LegalStep.Times(f.LegalSteps)},
		{PartPersonal, m.Personal},
		{PartOtherNames, m.OtherNames},
		{PartAddresses, m.AddressPage.Plus(m.AddressYear.Times(years))},
	}
	for _, page := range ServicePages(p) {
		parts = append(parts, part{page.Alias, m.ServicePage.Plus(m.ServiceField.Times(len(page.Fields)))})
	}
	if p != nil && len(p.DocumentTypes) > 0 {
		parts = append(parts, part{PartDocuments, m.Document.Times(len(p.DocumentTypes))})
	}
	if len(f.PdfForms) > 0 {
		var s Seconds
		for _, form := range f.PdfForms {
			s = s.Plus(m.PdfForm).Plus(m.PdfFormField.Times(len(form.FieldNames)))
		}
		parts = append(parts, part{PartPdfForms, s})
	}
	parts = append(parts, part{PartReview, m.Review}, part{PartIdentity, m.IdentityCheck})
	if f.Finalization.SiteSelectionApplies() {
		parts = append(parts, part{PartCollectionSite, m.SiteChoice})
	}
	if f.Finalization.PaymentRequired() {
		parts = append(parts, part{PartPayment, m.Payment})
	}
	var e TimeEstimate
	var total Seconds
	for _, pt := range parts {
		total = total.Plus(pt.sec)
		e.Parts = append(e.Parts, EstimatePart{ID: pt.id, Minutes: MinutesRange{
			Low: max(1, int(math.Round(pt.sec.Low/60))), High: max(1, int(math.Round(pt.sec.High/60)))}})
	}
	e.Minutes = MinutesRange{
		Low:  max(5, int(math.Floor(total.Low/60/5))*5),
		High: max(10, int(math.Ceil(total.High/60/5))*5),
	}
	if e.Minutes.High <= e.Minutes.Low {
		e.Minutes.High = e.Minutes.Low + 5
	}
	return e
}
