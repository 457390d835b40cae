package portal

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ServiceState is where one service of an order stands after submission,
// as the screening provider's staff set it.
type ServiceState string

// Service states. A service without a recorded state is pending.
const (
	ServicePending           ServiceState = "pending"
	ServiceInProgress        ServiceState = "in-progress"
	ServiceWaitingApplicant  ServiceState = "waiting-applicant"
	ServiceWaitingThirdParty ServiceState = "waiting-third-party"
	ServiceComplete          ServiceState = "complete"
)

// ServiceStates are the states in the order a screening goes through them.
var ServiceStates = []ServiceState{ServicePending, ServiceInProgress, ServiceWaitingApplicant,
	ServiceWaitingThirdParty, ServiceComplete}

// Valid reports whether s is a known state.
func (s ServiceState) Valid() bool {
	for _, v := range ServiceStates {
		if v == s {
			return true
		}
	}
	return false
}

// NeedsApplicant reports whether the applicant must act: the service's
// hasError.
func (s ServiceState) NeedsApplicant() bool { return s == ServiceWaitingApplicant }

// ETADays is an estimate in business days: the service completes between
// Min and Max business days after it was set.
type ETADays struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// MaxETADays bounds an estimate (a quarter of a year of business days).
const MaxETADays = 65

// ParseETADays reads "MIN-MAX" ("2-6") or a single number of days.
func ParseETADays(s string) (ETADays, error) {
	lo, hi, found := strings.Cut(strings.TrimSpace(s), "-")
	if !found {
		hi = lo
	}
	min, err1 := strconv.Atoi(strings.TrimSpace(lo))
	max, err2 := strconv.Atoi(strings.TrimSpace(hi))
	d := ETADays{Min: min, Max: max}
	if err1 != nil || err2 != nil || d.Validate() != nil {
		return ETADays{}, Errorf(EINVALID, "An estimate is MIN-MAX business days, such as 2-6 (0 to %d), not %q.", MaxETADays, s)
	}
	return d, nil
}

// Validate checks 0 <= Min <= Max <= MaxETADays.
func (d ETADays) Validate() error {
	if d.Min < 0 || d.Max < d.Min || d.Max > MaxETADays {
		return Errorf(EINVALID, "An estimate is MIN-MAX business days with 0 <= MIN <= MAX <= %d.", MaxETADays)
	}
	return nil
}

func (d ETADays) String() string { return fmt.Sprintf("%d-%d", d.Min, d.Max) }

// defaultETADays is how long each kind of service usually takes, in
// business days, unless the company says otherwise (PrefETAPrefix).
var defaultETADays = map[string]ETADays{
	"crim": {1, 3}, "cnet": {1, 3}, "civl": {2, 4}, "wawa": {1, 3}, "sexo": {1, 2}, "excl": {1, 2},
	"emps": {2, 5}, "iemp": {5, 15}, "dots": {3, 7}, "edus": {2, 5}, "iedu": {5, 15},
	"prof": {2, 5}, "cred": {1, 3}, "mvrs": {1, 2}, "drug": {2, 4}, "dtdr": {2, 4},
	"medi": {3, 7}, "clin": {3, 7}, "ssnt": {0, 1}, "ssnv": {0, 1}, "idvs": {0, 1},
	"cdit": {1, 2}, "cdct": {1, 2}, "cdts": {1, 2}, "bank": {1, 3}, "fedb": {1, 2},
}

// FallbackETADays is the estimate of a service the table does not name.
var FallbackETADays = ETADays{Min: 2, Max: 5}

// DefaultETADays is the usual time of a service code.
func DefaultETADays(code string) ETADays {
	if d, ok := defaultETADays[code]; ok {
		return d
	}
	return FallbackETADays
}

// PrefETAPrefix names a company's own estimate of a service: the company
// preference "eta.crim" = "2-6".
const PrefETAPrefix = "eta."

// ETAPreferenceCode answers the service code of an estimate preference's
// name ("eta.crim" -> "crim"), and whether name is one.
func ETAPreferenceCode(name string) (string, bool) {
	code, ok := strings.CutPrefix(name, PrefETAPrefix)
	return code, ok && serviceCodeRE.MatchString(code)
}

var serviceCodeRE = apiRE

// ReasonAction is what the applicant can do about a reason: a link in the
// app.
type ReasonAction struct {
	Label string
	// Spanish is Label in Spanish.
	Spanish string
	Path    string
}

// LabelIn is the action's label in l.
func (a ReasonAction) LabelIn(l Locale) string {
	if l == LocaleEsUS {
		return a.Spanish
	}
	return a.Label
}

// ServiceReason is one entry of the catalogue of reasons why a service
// stands where it does. Its Code is stable (webhooks and scripts name it).
type ServiceReason struct {
	Code string
	// Applicant is the plain text the applicant reads; "{date}" is the
	// reason's date (the day the court reopens). Spanish is the same in
	// Spanish.
	Applicant string
	Spanish   string
	// Operator says when staff use the reason.
	Operator string
	Action   *ReasonAction
	// State is the state the reason implies.
	State ServiceState
	// NeedsDate: the note is the reason's date, YYYY-MM-DD, and the
	// estimate counts from it.
	NeedsDate bool
	// AddDays lengthens the estimate.
	AddDays ETADays
}

// AppUploadPath is where a submitted applicant sends documents: the
// upload on the app's home page, which this opens. /additional-documents
// closes at submission (spec section 2: setup-complete only), and the
// reasons apply after it.
const AppUploadPath = "/#documents"

// ServiceReasons is the catalogue, in the order it is listed.
var ServiceReasons = []ServiceReason{
	{Code: "court-closed", State: ServiceWaitingThirdParty, NeedsDate: true,
		Applicant: "The county court is closed until {date}; we will search its records when it reopens.",
		Spanish:   "El tribunal del condado está cerrado hasta el {date}; buscaremos en sus registros cuando vuelva a abrir.",
		Operator:  "The court to search is closed; --note is the day it reopens (YYYY-MM-DD). The estimate counts from that day."},
	{Code: "county-search-pending", State: ServiceWaitingThirdParty,
		Applicant: "We have asked the county for its records and are waiting for its answer.",
		Spanish:   "Pedimos los registros al condado y estamos esperando su respuesta.",
		Operator:  "A county records search was ordered and has not come back."},
	{Code: "awaiting-records", State: ServiceWaitingThirdParty,
		Applicant: "We are waiting for records from a school, licensing board or agency.",
		Spanish:   "Estamos esperando registros de una escuela, una junta de licencias o una agencia.",
		Operator:  "Waiting for a third party (school, board, agency) to send records."},
	{Code: "employer-not-responding", State: ServiceWaitingApplicant, AddDays: ETADays{Min: 3, Max: 7},
		Applicant: "Your former employer has not answered yet. Uploading a W-2 or pay stub can speed this up.",
		Spanish:   "Su empleador anterior todavía no ha respondido. Subir un formulario W-2 o un talón de pago puede acelerar esto.",
		Operator:  "A former employer does not answer; the applicant may send a W-2 or pay stub. Adds 3-7 business days.",
		Action:    &ReasonAction{Label: "Upload a W-2 or pay stub", Spanish: "Subir un formulario W-2 o un talón de pago", Path: AppUploadPath}},
	{Code: "name-mismatch", State: ServiceWaitingApplicant,
		Applicant: "A record shows your name differently from your profile. Send us a document that shows the name, such as a marriage certificate or court order.",
		Spanish:   "Un registro muestra su nombre de forma distinta a su perfil. Envíenos un documento que muestre ese nombre, como un certificado de matrimonio o una orden judicial.",
		Operator:  "A source holds the applicant under another name; ask for a document showing it.",
		Action:    &ReasonAction{Label: "Send a document showing the name", Spanish: "Enviar un documento que muestre el nombre", Path: AppUploadPath}},
	{Code: "identity-documents-needed", State: ServiceWaitingApplicant,
		Applicant: "We need a copy of an identity document, such as a driver's license or passport, to finish this check.",
		Spanish:   "Necesitamos una copia de un documento de identidad, como una licencia de conducir o un pasaporte, para terminar esta verificación.",
		Operator:  "The applicant must send an identity document.",
		Action:    &ReasonAction{Label: "Upload an identity document", Spanish: "Subir un documento de identidad", Path: AppUploadPath}},
	{Code: "mro-review", State: ServiceInProgress,
		Applicant: "A doctor (the medical review officer) is reviewing your drug test result. They may call you.",
		Spanish:   "Un médico (el médico revisor, medical review officer) está revisando el resultado de su prueba de drogas. Es posible que lo llame.",
		Operator:  "The drug test result is with the medical review officer."},
}

// FindServiceReason looks a reason up by its code.
func FindServiceReason(code string) (ServiceReason, bool) {
	for _, r := range ServiceReasons {
		if r.Code == code {
			return r, true
		}
	}
	return ServiceReason{}, false
}

func serviceReasonCodes() string {
	codes := make([]string, len(ServiceReasons))
	for i, r := range ServiceReasons {
		codes[i] = r.Code
	}
	return strings.Join(codes, ", ")
}

func serviceStateNames() string {
	names := make([]string, len(ServiceStates))
	for i, s := range ServiceStates {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// reasonDate reads the date a reason's note holds.
func reasonDate(note string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(note))
	return t, err == nil
}

// ApplicantText is the reason in the applicant's words, in l, with its
// date filled in. Notes are internal: only a reason that takes a date
// shows it.
func (r ServiceReason) ApplicantText(note string, l Locale) string {
	text := r.Applicant
	if l == LocaleEsUS {
		text = r.Spanish
	}
	if !r.NeedsDate {
		return text
	}
	d, _ := reasonDate(note)
	return strings.ReplaceAll(text, "{date}", l.OrDefault().Date(d))
}

// SetServiceStateRequest is an operator setting one service of an
// applicant's order (portal service set).
type SetServiceStateRequest struct {
	SubjectID int64
	Code      string
	// State may be left empty when Reason implies one.
	State  ServiceState
	Reason string
	// Note is internal to the staff, except the date of a reason that
	// takes one (NeedsDate), which the applicant reads.
	Note string
	// ETADays overrides the estimate for this service; nil takes the
	// company's or the default, lengthened by the reason.
	ETADays *ETADays
}

// MaxServiceNote bounds an operator's note.
const MaxServiceNote = 1000

// Normalize checks the request's own fields, fills in the state the
// reason implies, and answers the reason (nil for none). What depends on
// the applicant (the code in their package) is the store's to check.
func (req *SetServiceStateRequest) Normalize() (*ServiceReason, error) {
	var fe FieldErrors
	req.Note = strings.TrimSpace(req.Note)
	var reason *ServiceReason
	if req.Reason != "" {
		r, ok := FindServiceReason(req.Reason)
		if !ok {
			fe.Addf("reason", "Unknown reason %q: say one of %s.", req.Reason, serviceReasonCodes())
		} else {
			reason = &r
			if req.State == "" {
				req.State = r.State
			}
		}
	}
	switch {
	case !req.State.Valid():
		fe.Addf("state", "Unknown state %q: say one of %s.", string(req.State), serviceStateNames())
	case reason != nil && reason.State != req.State:
		fe.Addf("reason", "The reason %s means the state %s, not %s.", reason.Code, reason.State, req.State)
	}
	if reason != nil && reason.NeedsDate {
		if _, ok := reasonDate(req.Note); !ok {
			fe.Addf("note", "The reason %s needs the date in the note, as YYYY-MM-DD (2026-12-10).", reason.Code)
		}
	}
	if len(req.Note) > MaxServiceNote {
		fe.Addf("note", "A note is at most %d characters.", MaxServiceNote)
	}
	if req.ETADays != nil {
		if err := req.ETADays.Validate(); err != nil {
			fe.Add("etaDays", ErrorMessage(err))
		}
	}
	return reason, fe.Err()
}

// ServiceProgress is one service of an applicant's order as the staff set
// it. A service never set is pending, with no estimate.
type ServiceProgress struct {
	Code   string
	Name   string
	State  ServiceState
	Reason string
	Note   string
	// ETADays and ETAFrom make the estimate: between Min and Max business
	// days after ETAFrom (the time the state was set, or the reason's
	// date when later). ETAFrom is zero when there is no estimate.
	ETADays   ETADays
	ETAFrom   time.Time
	UpdatedAt time.Time
}

// Estimate is an estimated completion as dates.
type Estimate struct {
	Earliest time.Time
	Latest   time.Time
}

// Estimate is the service's estimated completion; nil when complete or
// never set.
func (p ServiceProgress) Estimate() *Estimate {
	if p.State == ServiceComplete || p.ETAFrom.IsZero() {
		return nil
	}
	return &Estimate{Earliest: AddBusinessDays(p.ETAFrom, p.ETADays.Min), Latest: AddBusinessDays(p.ETAFrom, p.ETADays.Max)}
}

// PlanEstimate is where an estimate counts from and how many business
// days it spans: from now, or the reason's date when later; the days
// given (override), else the company's, else the default, lengthened by
// the reason. A complete service has none (zero time).
func PlanEstimate(now time.Time, state ServiceState, reason *ServiceReason, note string, days ETADays) (time.Time, ETADays) {
	if state == ServiceComplete {
		return time.Time{}, ETADays{}
	}
	from := now
	if reason != nil {
		if d, ok := reasonDate(note); ok && reason.NeedsDate && d.After(from) {
			from = d
		}
		days.Min += reason.AddDays.Min
		days.Max += reason.AddDays.Max
	}
	return from, days
}

// ProfileStatusName is the spec's name of a profile status id, and
// whether the id is known.
func ProfileStatusName(id int) (string, bool) {
	for name, v := range profileStatuses().IDs {
		if v == id {
			return name, true
		}
	}
	return "", false
}

// ProfileStatusNames lists the known profile statuses as "NAME (id)",
// by id.
func ProfileStatusNames() string {
	ids := profileStatuses().IDs
	names := make([]string, 0, len(ids))
	for n := range ids {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return ids[names[i]] < ids[names[j]] })
	for i, n := range names {
		names[i] = fmt.Sprintf("%s (%d)", n, ids[n])
	}
	return strings.Join(names, ", ")
}

// ValidOrderStatuses lists the order statuses as "id Text".
func ValidOrderStatuses() string {
	var out []string
	for id := StatusNew; id.Valid(); id++ {
		out = append(out, fmt.Sprintf("%d %s", id, id.Text()))
	}
	return strings.Join(out, ", ")
}

// OperatorScreeningService is how the staff move a screening after
// submission: each service's state, the order's status and the profile's.
// Each call checks, writes, records it in the audit trail, queues the
// employer's webhook event, tells the applicant when they must act or the
// screening completes, and updates their open pages. companyID 0 is any
// company (the command line); otherwise another company's applicant is
// ENOTFOUND.
type OperatorScreeningService interface {
	// SetServiceState sets one service of the applicant's order; a code
	// the applicant's package lacks, an unknown state or reason is
	// EINVALID naming the field.
	SetServiceState(ctx context.Context, companyID int64, req SetServiceStateRequest) (*ServiceProgress, error)
	// SetOrderStatus sets the applicant's orders and status to any order
	// status (spec section 4), without the applicant's move rules.
	SetOrderStatus(ctx context.Context, companyID, subjectID int64, status StatusID) error
	// SetProfileStatus sets the applicant's profile status (spec ids).
	SetProfileStatus(ctx context.Context, companyID, subjectID int64, status int) error
	// ServiceStates lists every service of the applicant's package with
	// where it stands.
	ServiceStates(ctx context.Context, companyID, subjectID int64) ([]ServiceProgress, error)
}
