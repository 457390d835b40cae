package httpapi

import (
	"context"
	"net/http"

	"applicantportal/internal/portal"
)

// access says which credentials reach a route. The caller's identity and
// scope travel in the request's context (callerFrom), so no handler takes
// them as a parameter or decides by a flag.
type access int

const (
	// applicantOnly: an applicant's credential from a login (scope
	// default). A setup credential is refused with 403.
	applicantOnly access = iota
	// setupAllowed: an applicant's credential, or the setup credential an
	// invitation link gives before a password exists.
	setupAllowed
)

// allows reports whether a credential of the scope reaches a route of a:
// only the setup scope is limited.
func (a access) allows(scope string) bool {
	return scope != portal.ScopeSetup || a == setupAllowed
}

type callerKey struct{}

// require resolves the bearer token before calling h: 401 without a valid
// one, 403 when its scope does not reach the route; otherwise the caller's
// session goes into the request's context.
func (s *Server) require(a access, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearerToken(r)
		if !ok {
			s.Error(w, r, portal.Errorf(portal.EUNAUTHORIZED, "You must log in to access that resource."))
			return
		}
		sess, err := s.svc.Auth.Authenticate(r.Context(), token)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		if !a.allows(sess.Scope) {
			s.Error(w, r, portal.Errorf(portal.EFORBIDDEN, "Please create your password and log in first."))
			return
		}
		ctx := portal.WithActor(r.Context(), portal.Actor{Kind: portal.ActorApplicant, ID: sess.SubjectID, Address: s.clientIP(r)})
		h(w, r.WithContext(context.WithValue(ctx, callerKey{}, sess)))
	}
}

// fromClient names, for the audit trail, the client's address as who acts
// on a route that signs in without an access token (the token endpoint,
// reset and e-mail links); the store names the applicant once the
// credential shows who it is.
func (s *Server) fromClient(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h(w, r.WithContext(portal.WithActor(r.Context(), portal.Actor{Kind: portal.ActorApplicant, Address: s.clientIP(r)})))
	}
}

// callerFrom is the session require put into the context. Only handlers
// behind require call it; elsewhere it panics, which is a routing bug.
func callerFrom(ctx context.Context) *portal.Session {
	sess, ok := ctx.Value(callerKey{}).(*portal.Session)
	if !ok {
		panic("httpapi: callerFrom outside require")
	}
	return sess
}
