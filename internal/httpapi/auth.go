package httpapi

import (
	"errors"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"applicantportal/internal/password"
	"applicantportal/internal/portal"
)

func (s *Server) registerAuthRoutes(mux *routes) {
	mux.HandleFunc("POST /oauth/access_token", s.fromClient(s.handleTokenCreate))
	mux.HandleFunc("DELETE /oauth/access_token", s.require(setupAllowed, s.handleTokenDelete))
	mux.HandleFunc("GET "+tokenLoginPath, s.handleTokenLogin)
	mux.HandleFunc("POST /api/user/password/reset", s.handlePasswordResetRequest)
	mux.HandleFunc("POST /api/user/password/reset/confirm", s.fromClient(s.handlePasswordResetConfirm))
	mux.HandleFunc("POST /api/user/password/reset/verify", s.handlePasswordResetVerify)
}

// tokenRequest is the token endpoint's input, from JSON or a form.
type tokenRequest struct {
	GrantType    string `json:"grant_type"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Scope        string `json:"scope"`
	Username     string `json:"username"`
	Password     string `json:"password"`
	RefreshToken string `json:"refresh_token"`
	HandoffToken string `json:"handoff_token"` // grant_type handoff
	Code         string `json:"code"`          // grant_type one_time_code
}

type tokenResponse struct {
	TokenType    string `json:"token_type"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token,omitempty"`
	ExpiresIn    int    `json:"expires_in"`
	Scope        string `json:"scope"`
}

func newTokenResponse(p *portal.TokenPair) tokenResponse {
	return tokenResponse{TokenType: "Bearer", AccessToken: p.AccessToken, RefreshToken: p.RefreshToken,
		ExpiresIn: int(p.ExpiresIn.Seconds()), Scope: p.Scope}
}

var errUnsupportedGrant = &portal.Error{Code: portal.EMALFORMED, Message: "The grant type is not supported; use password, one_time_code, refresh_token or handoff."}
var errInvalidScope = &portal.Error{Code: portal.EMALFORMED, Message: "The requested scope is not valid; use default."}

// oauthCode is the RFC 6749 error code of a token endpoint error.
func oauthCode(err error) string {
	switch {
	case errors.Is(err, portal.ErrInvalidClient):
		return "invalid_client"
	case errors.Is(err, errUnsupportedGrant):
		return "unsupported_grant_type"
	case errors.Is(err, errInvalidScope):
		return "invalid_scope"
	case errors.Is(err, portal.ErrHandoffUsed), errors.Is(err, portal.ErrHandoffExpired), errors.Is(err, portal.ErrHandoffInvalid):
		return "invalid_grant"
	}
	switch portal.ErrorCode(err) {
	case portal.EUNAUTHORIZED:
		return "invalid_grant"
	case portal.ETHROTTLED:
		return "too_many_requests"
	case portal.EUNAVAILABLE:
		return "temporarily_unavailable"
	case portal.EINTERNAL, portal.ESTORAGEFULL:
		return "server_error"
	}
	return "invalid_request"
}

func (s *Server) handleTokenCreate(w http.ResponseWriter, r *http.Request) {
	fail := func(err error) {
		err = s.classify(err)
		s.writeError(w, r, err, oauthCode(err))
	}
	req, err := readTokenRequest(w, r)
	if err == nil {
		err = req.check()
	}
	if err != nil {
		fail(err)
		return
	}
	if req.Scope != "" && req.Scope != portal.ScopeDefault {
		fail(errInvalidScope)
		return
	}
	missing := func(names ...string) error {
		values := map[string]string{"client_id": req.ClientID, "client_secret": req.ClientSecret,
			"username": req.Username, "password": req.Password, "refresh_token": req.RefreshToken, "handoff_token": req.HandoffToken, "code": req.Code}
		for _, n := range names {
			if values[n] == "" {
				return portal.Errorf(portal.EMALFORMED, "The request is missing the %s parameter.", n)
			}
		}
		return nil
	}
	var pair *portal.TokenPair
	switch req.GrantType {
	case "password":
		if err := missing("client_id", "client_secret", "username", "password"); err != nil {
			fail(err)
			return
		}
		pair, err = s.svc.Auth.Login(r.Context(), portal.Credentials{
			ClientID: req.ClientID, ClientSecret: req.ClientSecret,
			Username: req.Username, Password: req.Password, IP: s.clientIP(r),
		})
	case "one_time_code":
		if err := missing("client_id", "client_secret", "username", "code"); err != nil {
			fail(err)
			return
		}
		pair, err = s.svc.SignIn.LoginWithCode(r.Context(), portal.CodeCredentials{
			ClientID: req.ClientID, ClientSecret: req.ClientSecret,
			Username: req.Username, Code: req.Code, IP: s.clientIP(r),
		})
	case "refresh_token":
		if err := missing("client_id", "client_secret", "refresh_token"); err != nil {
			fail(err)
			return
		}
		pair, err = s.svc.Auth.Refresh(r.Context(), req.ClientID, req.ClientSecret, req.RefreshToken)
	case "handoff":
		// A link to continue on another device; it answers the page too.
		if err = missing("client_id", "client_secret", "handoff_token"); err == nil {
			if err = s.handleHandoffGrant(w, r, req); err == nil {
				return
			}
		}
	case "":
		err = portal.Errorf(portal.EMALFORMED, "The request is missing the grant_type parameter.")
	default:
		err = errUnsupportedGrant
	}
	if err != nil {
		fail(err)
		return
	}
	if req.GrantType != "refresh_token" {
		s.keepLocale(r, pair.SubjectID)
	}
	writeJSON(w, http.StatusOK, newTokenResponse(pair))
}

// Bounds of the token endpoint's parameters, checked before any of them
// reaches the database (PostgreSQL refuses a NUL byte in text, and an index
// entry over 2.7 KB, with an error that would be a 500).
const (
	maxUsernameLength = portal.MaxUsernameLength // an e-mail address
	maxClientLength   = 128                      // client id and secret
	maxTokenLength    = 128                      // refresh token: ours are 43 characters
)

// check refuses parameters with control characters or over their bounds
// with invalid_request, the same on both databases.
func (req tokenRequest) check() error {
	for _, p := range []struct {
		name, value string
		max         int
	}{
		{"grant_type", req.GrantType, 64},
		{"scope", req.Scope, 64},
		{"client_id", req.ClientID, maxClientLength},
		{"client_secret", req.ClientSecret, maxClientLength},
		{"username", req.Username, maxUsernameLength},
		{"password", req.Password, password.MaxLength},
		{"refresh_token", req.RefreshToken, maxTokenLength},
		{"handoff_token", req.HandoffToken, maxTokenLength},
		{"code", req.Code, 32},
	} {
		if strings.ContainsFunc(p.value, unicode.IsControl) {
			return portal.Errorf(portal.EMALFORMED, "The %s parameter must not contain control characters.", p.name)
		}
		if !validText(p.value) {
			// A form body's values come as sent (a JSON body's are
			// checked as it is read).
			return portal.Errorf(portal.EMALFORMED, "The %s parameter must be UTF-8 text.", p.name)
		}
		n := utf8.RuneCountInString(p.value)
		// A password is measured as typed and as hashed (NFKC), and is too
		// long only when both are: either may be the shorter.
		if p.name == "password" && n > p.max {
			n = min(n, utf8.RuneCountInString(password.Normalize(p.value)))
		}
		if n > p.max {
			return portal.Errorf(portal.EMALFORMED, "The %s parameter is too long (at most %d characters).", p.name, p.max)
		}
	}
	return nil
}

// tokenLoginPath is where an invitation link's token is exchanged.
const tokenLoginPath = "/api/user"

// formHeader is the header a form body on the token endpoint must come
// with. A browser sends a form cross-site without asking (a "simple"
// request) but never a custom header, so without it any site could make
// its visitors' browsers post guesses and feed the login throttle. The app
// sends JSON, which a browser also never sends cross-site unasked.
const formHeader = "X-Requested-With"

// readTokenRequest accepts JSON, and form bodies from clients that send
// formHeader (OAuth clients often post forms).
func readTokenRequest(w http.ResponseWriter, r *http.Request) (tokenRequest, error) {
	var req tokenRequest
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case isJSON(r):
		err := decodeJSON(w, r, &req)
		// RFC 6749 answers a bad parameter with invalid_request (400), not
		// with the field error decodeJSON gives other endpoints.
		var pe *portal.Error
		if errors.As(err, &pe) && pe.Code == portal.EINVALID && len(pe.Fields) > 0 {
			return req, portal.Errorf(portal.EMALFORMED, "The %s parameter is not valid: %s", pe.Fields[0].Field, pe.Fields[0].Message)
		}
		return req, err
	case mt == "application/x-www-form-urlencoded" && r.Header.Get(formHeader) == "":
		return req, portal.Errorf(portal.EUNSUPPORTED, "A form body needs the %s header; send application/json otherwise.", formHeader)
	case mt == "application/x-www-form-urlencoded":
		r.Body = http.MaxBytesReader(w, r.Body, MaxJSONBody)
		if err := r.ParseForm(); err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				return req, jsonError(err)
			}
			return req, portal.Errorf(portal.EMALFORMED, "The form body cannot be read.")
		}
		f := r.PostForm
		return tokenRequest{GrantType: f.Get("grant_type"), ClientID: f.Get("client_id"), ClientSecret: f.Get("client_secret"),
			Scope: f.Get("scope"), Username: f.Get("username"), Password: f.Get("password"), RefreshToken: f.Get("refresh_token"),
			HandoffToken: f.Get("handoff_token"), Code: f.Get("code")}, nil
	}
	return req, portal.Errorf(portal.EUNSUPPORTED, "The token endpoint takes application/json (or application/x-www-form-urlencoded with the %s header).", formHeader)
}

func (s *Server) handleTokenDelete(w http.ResponseWriter, r *http.Request) {
	token, _ := bearerToken(r)
	if err := s.svc.Auth.Revoke(r.Context(), token); err != nil {
		s.Error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleTokenLogin exchanges an invitation token for the user payload and
// a setup-scoped credential.
func (s *Server) handleTokenLogin(w http.ResponseWriter, r *http.Request) {
	pair, err := s.svc.Auth.TokenLogin(r.Context(), strings.TrimSpace(r.URL.Query().Get("token")))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.keepLocale(r, pair.SubjectID)
	view, err := s.svc.Subjects.FindUserView(r.Context(), pair.SubjectID)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, tokenLoginResponse{userResponse: s.newUserResponse(r, view), tokenResponse: newTokenResponse(pair)})
}

type tokenLoginResponse struct {
	userResponse
	tokenResponse
}

type resetRequest struct {
	Username string `json:"username"`
}

func (s *Server) handlePasswordResetRequest(w http.ResponseWriter, r *http.Request) {
	var req resetRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if strings.TrimSpace(req.Username) == "" {
		var fe portal.FieldErrors
		fe.Add("username", "Username is required")
		s.Error(w, r, fe.Err())
		return
	}
	if err := s.svc.Auth.RequestPasswordReset(r.Context(), req.Username, s.clientIP(r), s.cfg.BaseURL); err != nil {
		s.Error(w, r, err)
		return
	}
	// The same answer whether or not the username exists, and whether or
	// not too many requests held the e-mail back.
	writeJSON(w, http.StatusOK, messageBody(r, "Request has been sent"))
}

type resetConfirmRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

type resetVerifyRequest struct {
	Token string `json:"token"`
}

// handlePasswordResetVerify tells the reset page whether its link is still
// usable, before the applicant types a new password; the link is not spent.
// It is not throttled: a link is 32 random bytes, so guessing is hopeless,
// and each check is one indexed read, like the confirm it precedes.
type resetVerifyResponse struct {
	Valid    bool   `json:"valid"`
	Username string `json:"username"`
}

func (s *Server) handlePasswordResetVerify(w http.ResponseWriter, r *http.Request) {
	var req resetVerifyRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	username, err := s.svc.Auth.VerifyPasswordReset(r.Context(), req.Token)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resetVerifyResponse{Valid: true, Username: username})
}

func (s *Server) handlePasswordResetConfirm(w http.ResponseWriter, r *http.Request) {
	var req resetConfirmRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.Error(w, r, err)
		return
	}
	if err := s.svc.Auth.ConfirmPasswordReset(r.Context(), req.Token, req.Password); err != nil {
		s.Error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, messageBody(r, "Your password has been changed."))
}
