package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"applicantportal/internal/portal"
)

func (s *Server) registerUserRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v2/user", s.require(setupAllowed, s.handleUserGet))
	mux.HandleFunc("PATCH /api/v2/user", s.require(setupAllowed, s.handleUserPatch))
	mux.HandleFunc("PUT /api/v2/user/locale", s.require(setupAllowed, s.handleUserLocalePut))
	mux.HandleFunc("POST /api/v2/user/email/confirm", s.fromClient(s.handleEmailChangeConfirm))
	mux.HandleFunc("GET /api/settings/company/{id}", s.require(setupAllowed, s.handleCompanySettingsGet))
	mux.HandleFunc("GET /api/v2/user/profile", s.require(applicantOnly, s.handleProfileGet))
	mux.HandleFunc("POST /api/v2/user/subject/status", s.require(applicantOnly, s.handleSubjectStatusCreate))
}

// userResponse is GET /api/v2/user.
type userResponse struct {
	Subject         subjectJSON   `json:"subject"`
	Company         companyJSON   `json:"company"`
	Profile         profileJSON   `json:"profile"`
	IPAddress       string        `json:"ipAddress"`
	Package         *packageJSON  `json:"package"`
	PackageServices []serviceJSON `json:"packageServices"`
	// Finalization is what the server decided of the steps after identity
	// verification (portal.Finalization), so the app does not decide them
	// again; whether the applicant chooses the collection site is the
	// spec's subject.applicantCollectionSiteSelection.
	Finalization finalizationJSON `json:"finalization"`
}

type finalizationJSON struct {
	PaymentRequired bool          `json:"paymentRequired"`
	StatusAfterIDV  portal.Status `json:"statusAfterIdv"`
}

type subjectJSON struct {
	ID                               int64         `json:"id"`
	Username                         string        `json:"username"`
	Email                            string        `json:"email"`
	FirstName                        string        `json:"firstName"`
	LastName                         string        `json:"lastName"`
	FirstNameSnake                   string        `json:"first_name"`
	LastNameSnake                    string        `json:"last_name"`
	Phone                            string        `json:"phone"`
	Status                           portal.Status `json:"status"`
	FullProfile                      bool          `json:"fullProfile"`
	ApplicantCollectionSiteSelection bool          `json:"applicantCollectionSiteSelection"`
	HasPassword                      bool          `json:"hasPassword"`
	CompanyID                        int64         `json:"companyId"`
	PersonalInformation              any           `json:"personalInformation"`
	// PendingEmail is the address of an e-mail change waiting for its
	// confirmation link, or null.
	PendingEmail *string `json:"pendingEmail"`
	// Locale is the applicant's language, which the portal's e-mails and
	// texts to them are in.
	Locale portal.Locale `json:"locale"`
}

type companyJSON struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	PackageID *int64 `json:"packageId"`
}

type profileJSON struct {
	ID       int64  `json:"id"`
	Number   string `json:"number"`
	StatusID int    `json:"statusId"`
	// Status is what the applicant is shown of StatusID: "qa",
	// "complete" or "pending" (portal.ProfileStatusShown).
	Status          string               `json:"status"`
	Orders          []orderJSON          `json:"orders"`
	AccountingCodes []accountingCodeJSON `json:"accountingCodes"`
	// DocumentTypes are the codes of the document types the package asks
	// the applicant to upload, in rank order.
	DocumentTypes []string `json:"documentTypes"`
}

type orderJSON struct {
	ID         int64           `json:"id"`
	StatusID   portal.StatusID `json:"statusId"`
	StatusText string          `json:"statusText"`
}

type accountingCodeJSON struct {
	Type string `json:"type"`
	Code string `json:"code"`
}

type packageJSON struct {
	ID          int64             `json:"id"`
	Name        string            `json:"name"`
	Preferences map[string]string `json:"preferences"`
}

type serviceJSON struct {
	ID    int64  `json:"id"`
	Code  string `json:"code"`
	Name  string `json:"name"`
	Alias string `json:"alias"`
}

func (s *Server) newUserResponse(r *http.Request, v *portal.UserView) userResponse {
	sub, c := v.Subject, v.Company
	out := userResponse{
		Subject: subjectJSON{
			ID: sub.ID, Username: sub.Username, Email: sub.Email,
			FirstName: sub.FirstName, LastName: sub.LastName, FirstNameSnake: sub.FirstName, LastNameSnake: sub.LastName,
			Phone: sub.Phone, Status: portal.NewStatus(sub.StatusID), FullProfile: sub.FullProfile,
			ApplicantCollectionSiteSelection: v.Finalization.SiteSelectionApplies(),
			HasPassword:                      sub.HasPassword, CompanyID: c.ID,
			Locale: sub.Locale,
		},
		Company:         companyJSON{ID: c.ID, Name: c.Name},
		Profile:         newProfileJSON(v.Profile, c, v.Package),
		IPAddress:       s.clientIP(r),
		PackageServices: []serviceJSON{},
		Finalization: finalizationJSON{PaymentRequired: v.Finalization.PaymentRequired(),
			StatusAfterIDV: portal.NewStatus(v.StatusAfterIDV)},
	}
	if sub.PendingEmail != "" {
		out.Subject.PendingEmail = &sub.PendingEmail
	}
	if v.Personal != nil {
		out.Subject.PersonalInformation = v.Personal.Snapshot()
	}
	if c.PackageID != 0 {
		out.Company.PackageID = &c.PackageID
	}
	if p := v.Package; p != nil {
		enabled := "0"
		if v.Finalization.SelfPayEnabled() {
			enabled = "1"
		}
		out.Package = &packageJSON{ID: p.ID, Name: p.Name, Preferences: map[string]string{
			"applicant_self_pay_enabled":             enabled,
			"applicant_self_pay_initial_hold_amount": p.SelfPayInitialHoldAmt,
		}}
		// An applicant whose state forbids charging them is never sent to
		// self-pay: the app reads the package's preference (spec section
		// 4), so the preference is the effective one, and says why.
		if exempt := v.Finalization.ExemptState(); exempt != "" {
			out.Package.Preferences["applicant_self_pay_exempt_state"] = exempt
		}
		for _, svc := range p.Services {
			out.PackageServices = append(out.PackageServices, serviceJSON{ID: svc.ID, Code: svc.Code, Name: svc.Name, Alias: portal.ServiceAlias(svc.Code)})
		}
	}
	return out
}

func newProfileJSON(p *portal.Profile, c *portal.Company, pkg *portal.Package) profileJSON {
	out := profileJSON{ID: p.ID, Number: p.Number, StatusID: p.StatusID, Status: portal.ProfileStatusShown(p.StatusID),
		Orders: []orderJSON{}, AccountingCodes: []accountingCodeJSON{}, DocumentTypes: []string{}}
	for _, o := range p.Orders {
		out.Orders = append(out.Orders, orderJSON{ID: o.ID, StatusID: o.StatusID, StatusText: o.StatusID.Text()})
	}
	if c.AccountingCode != "" {
		out.AccountingCodes = append(out.AccountingCodes, accountingCodeJSON{Type: "primary", Code: c.AccountingCode})
	}
	if pkg != nil {
		for _, dt := range pkg.DocumentTypes {
			out.DocumentTypes = append(out.DocumentTypes, dt.Type)
		}
	}
	return out
}

func (s *Server) writeUser(w http.ResponseWriter, r *http.Request, subjectID int64) {
	view, err := s.svc.Subjects.FindUserView(r.Context(), subjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.newUserResponse(r, view))
}

type localeRequest struct {
	Locale portal.Locale `json:"locale"`
}

// handleUserLocalePut keeps the language the applicant switched to in the
// app, so that the e-mails and texts sent to them later are in it.
func (s *Server) handleUserLocalePut(w http.ResponseWriter, r *http.Request) {
	var req localeRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Subjects.SetLocale(r.Context(), callerFrom(r.Context()).SubjectID, req.Locale); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleUserGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	s.writeUser(w, r, sess.SubjectID)
}

// userPatch is PATCH /api/v2/user: only the fields present change.
type userPatch struct {
	Password        *string `json:"password"`
	CurrentPassword string  `json:"currentPassword"`
	Email           *string `json:"email"`
	FirstName       *string `json:"firstName"`
	LastName        *string `json:"lastName"`
	Phone           *string `json:"phone"`
}

func (p userPatch) update() portal.SubjectUpdate {
	return portal.SubjectUpdate{Email: p.Email, FirstName: p.FirstName, LastName: p.LastName, Phone: p.Phone}
}

func (s *Server) handleUserPatch(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	var req userPatch
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	err := s.svc.Auth.UpdateAccount(r.Context(), *sess, portal.AccountChange{
		Password: req.Password, CurrentPassword: req.CurrentPassword, Subject: req.update(),
		IP: s.clientIP(r), ConfirmURLBase: s.cfg.BaseURL,
	})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeUser(w, r, sess.SubjectID)
}

type emailConfirmRequest struct {
	Token string `json:"token"`
}

// handleEmailChangeConfirm needs no access token: the link may be opened on
// another device, and its token alone proves the request.
func (s *Server) handleEmailChangeConfirm(w http.ResponseWriter, r *http.Request) {
	var req emailConfirmRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Auth.ConfirmEmailChange(r.Context(), strings.TrimSpace(req.Token)); err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, messageBody(r, "Your e-mail address has been changed."))
}

type companySettingsJSON struct {
	ID                    int64                     `json:"id"`
	CompanyLogoURLAddress string                    `json:"companyLogoUrlAddress"`
	Preferences           portal.CompanyPreferences `json:"preferences"`
}

// handleCompanySettingsGet answers the subject's own company only; any
// other id is 404, as if it did not exist.
func (s *Server) handleCompanySettingsGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	notFound := portal.Errorf(portal.ENOTFOUND, "Company not found.")
	if err != nil {
		s.Error(w, r, notFound)
		return
	}
	c, err := s.svc.Subjects.FindCompanySettings(r.Context(), sess.SubjectID, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, companySettingsJSON{ID: c.ID, CompanyLogoURLAddress: c.LogoURL, Preferences: c.Preferences})
}

func (s *Server) handleProfileGet(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	view, err := s.svc.Subjects.FindUserView(r.Context(), sess.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newProfileJSON(view.Profile, view.Company, view.Package))
}

type statusRequest struct {
	StatusID *portal.StatusID `json:"statusId"`
	// Declaration: the applicant declares what they gave true and
	// complete; the move to idv-started needs it.
	Declaration bool `json:"declaration"`
}

// handleSubjectStatusCreate moves the subject's status; the store decides
// whether the move is allowed, in the transaction that makes it.
func (s *Server) handleSubjectStatusCreate(w http.ResponseWriter, r *http.Request) {
	sess := callerFrom(r.Context())
	var req statusRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if req.StatusID == nil {
		var fe portal.FieldErrors
		fe.Add("statusId", "statusId is required.")
		s.Error(w, r, fe.Err())
		return
	}
	move := portal.StatusMove{To: *req.StatusID, Declared: req.Declaration}
	if err := s.svc.Subjects.MoveSubjectStatus(r.Context(), sess.SubjectID, move); err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeUser(w, r, sess.SubjectID)
}
