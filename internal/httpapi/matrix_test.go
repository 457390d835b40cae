package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/portal"
	idvsandbox "applicantportal/internal/sandbox/idv"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// The authorization matrix: one row per pattern the server registers (and
// per pattern of the sandbox pages it mounts under /sandbox/), saying who
// may call it and how to fill its path with another applicant's real
// resources. TestMatrixCoversEveryRoute reads the route tables, so a route
// added without its row (or a row left without its route) fails;
// TestAuthorizationMatrix sends every credential to every row.

// access is who may call a route.
type access int

const (
	// public: anyone, without a credential; the row says why.
	public access = iota
	// setupMay: an applicant, or the setup credential a token login
	// (an invitation link) hands out before a password exists.
	setupMay
	// applicantOnly: an applicant logged in with a password.
	applicantOnly
	// operatorKey: an operator API key, for its own company's data.
	operatorKey
	// sessionToken: the identity-verification sandbox's pages, opened with
	// the token of the session in the address (or the form), not a bearer.
	sessionToken
	// signedCallback: the identity-verification provider's callback,
	// believed on its HMAC signature alone.
	signedCallback
)

func (a access) String() string {
	return [...]string{"public", "setup credential", "applicant", "operator API key", "IDV session token", "signed callback"}[a]
}

// matrixRow is one route of the matrix.
type matrixRow struct {
	access access
	// why a public route is public (required for public rows).
	why string
	// path is the URL to call, filled with the victims' resources; nil
	// calls the pattern's own path (only for patterns without {names}).
	path func(w *matrixWorld) string
	// body is the request body (a map goes as JSON, a multipartBody as
	// multipart); nil sends {} to POST, PUT and PATCH and nothing else.
	body func(w *matrixWorld) any
	// victim says the path (or body) names a resource that is not the
	// caller's: applicant Bea's, or company Other's for what belongs to a
	// company. Applicant Ann, the setup credential and Other's API key
	// then get 403 or 404, never 2xx; Bea's own credential (or Acme's
	// key) reads a victim GET with 2xx, proving the path is real.
	victim bool
	// also are more paths sent like path, each mixing the caller's own
	// resource with a victim's (the caller's conversation and Bea's
	// file): the check of one must not stand for the other.
	also []alsoPath
	// ownedByOther says the victim resource is company Other's (Olga
	// reads it), not Bea's.
	ownedByOther bool
	// fuzz names the fuzz target that covers the route's body or query
	// ("" when it takes neither).
	fuzz string
}

// alsoPath is another path of a row, named for the subtest.
type alsoPath struct {
	name string
	path func(w *matrixWorld) string
}

// multipartBody is a multipart request body.
type multipartBody struct{ parts []uploadPart }

// The fuzz targets (internal/httpapi) that cover the routes' inputs.
const (
	fuzzJSON      = "FuzzJSONBodies"
	fuzzTokenForm = "FuzzTokenForm"
	fuzzMultipart = "FuzzMultipartUpload"
	fuzzQuery     = "FuzzDocumentFilterQuery"
	fuzzCallback  = "FuzzIDVCallback"
	// In internal/sandbox/idv: the sandbox's pages.
	fuzzSandboxPages = "FuzzPages"
)

func passwordGrantOf(username, password string) map[string]any {
	return map[string]any{"grant_type": "password", "username": username, "password": password,
		"client_id": "spa", "client_secret": "spa-secret", "scope": "default"}
}

func fixed(p string) func(*matrixWorld) string { return func(*matrixWorld) string { return p } }

// matrix holds a row for every pattern of (*httpapi.Server).Routes(),
// keyed by the pattern exactly as registered.
var matrix = map[string]matrixRow{
	"GET /healthz": {access: public, why: "load balancers probe it; it answers ok or unavailable, nothing of anyone"},

	// The token endpoint and the ways in before a token exists.
	"POST /oauth/access_token": {access: public, why: "the OAuth token endpoint: it checks the client and the grant (password, code, refresh, handoff) itself", fuzz: fuzzTokenForm,
		body: func(w *matrixWorld) any { return passwordGrantOf(w.bea.Email, "not Bea's password") }},
	"DELETE /oauth/access_token": {access: setupMay},
	"GET /api/user": {access: public, why: "token login: the invitation token in the query is the credential",
		path: fixed("/api/user?token=not-an-invitation"), fuzz: fuzzQuery},
	"POST /api/user/password/reset": {access: public, why: "a forgotten password: answers the same for any username and mails only the account's owner", fuzz: fuzzJSON,
		body: func(w *matrixWorld) any { return map[string]any{"username": w.bea.Email} }},
	"POST /api/user/password/reset/confirm": {access: public, why: "the e-mailed reset token in the body is the credential", fuzz: fuzzJSON},
	"POST /api/user/password/reset/verify":  {access: public, why: "checks an e-mailed reset token, which is the credential", fuzz: fuzzJSON},
	"GET /api/v2/links/status": {access: public, why: "says whether an e-mailed link's token is still good; the token is the credential",
		path: fixed("/api/v2/links/status?kind=invitation&token=not-a-link"), fuzz: fuzzQuery},
	"POST /api/v2/links/renew": {access: public, why: "mails a new link to the owner of an expired one; answers the same whoever asks", fuzz: fuzzJSON,
		body: func(w *matrixWorld) any { return map[string]any{"kind": "invitation", "email": w.bea.Email} }},
	"POST /api/v2/login/code": {access: public, why: "texts or mails a one-time code to the account's owner; answers the same for any username", fuzz: fuzzJSON,
		body: func(w *matrixWorld) any { return map[string]any{"username": w.bea.Email} }},
	"POST /api/v2/user/email/confirm":      {access: public, why: "the e-mailed confirmation token in the body is the credential", fuzz: fuzzJSON},
	"POST /api/v2/reminders/stop":          {access: public, why: "the unsubscribe link's token in the body is the credential (RFC 8058 one-click)", fuzz: fuzzJSON},
	"POST /api/v2/reminders/resume":        {access: public, why: "the unsubscribe link's token in the body is the credential", fuzz: fuzzJSON},
	"GET /api/v2/lookup/statesByCountryId": {access: public, why: "reference data (states of a country) the forms show before login", path: fixed("/api/v2/lookup/statesByCountryId?countryId=1"), fuzz: fuzzQuery},
	"GET /api/v2/lookup/{key}":             {access: public, why: "reference data (countries, suffixes) the forms show before login", path: fixed("/api/v2/lookup/countries")},
	"POST /api/v2/idv/callback":            {access: signedCallback, fuzz: fuzzCallback, body: func(w *matrixWorld) any { return map[string]any{"sessionId": w.beaIDV, "status": "completed"} }, victim: true},

	// The user and the setup steps.
	"GET /api/v2/user":                            {access: setupMay},
	"PATCH /api/v2/user":                          {access: setupMay, fuzz: fuzzJSON, body: func(*matrixWorld) any { return map[string]any{"password": "x"} }},
	"PUT /api/v2/user":                            {access: applicantOnly, fuzz: fuzzJSON},
	"PUT /api/v2/user/locale":                     {access: setupMay, fuzz: fuzzJSON},
	"PUT /api/v2/user/timezone":                   {access: setupMay, fuzz: fuzzJSON},
	"GET /api/v2/user/events":                     {access: setupMay},
	"GET /api/settings/company/{id}":              {access: setupMay, victim: true, ownedByOther: true, path: func(w *matrixWorld) string { return fmt.Sprintf("/api/settings/company/%d", w.other.ID) }},
	"GET /api/v2/user/profile":                    {access: applicantOnly},
	"POST /api/v2/user/subject/status":            {access: applicantOnly, fuzz: fuzzJSON},
	"GET /api/v2/user/preparation":                {access: setupMay},
	"PUT /api/v2/user/preparation/{id}":           {access: setupMay, fuzz: fuzzJSON, path: fixed("/api/v2/user/preparation/addresses")},
	"GET /api/v2/banner/active":                   {access: setupMay},
	"POST /api/v2/banner/dismiss/{id}":            {access: setupMay, victim: true, ownedByOther: true, fuzz: fuzzJSON, path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/banner/dismiss/%d", w.otherBanner) }},
	"GET /api/v2/validation/address":              {access: setupMay, fuzz: fuzzQuery, path: fixed("/api/v2/validation/address?street=1+Main+St&city=Boise&state=ID&zip=83702")},
	"GET /api/v2/validation/internationaladdress": {access: setupMay, fuzz: fuzzQuery, path: fixed("/api/v2/validation/internationaladdress?country=CA&city=Toronto")},

	// Legal documents: the company's documents, and each applicant's
	// signatures of them.
	"GET /api/v2/user/document": {access: applicantOnly, fuzz: fuzzQuery, path: fixed("/api/v2/user/document?filter=" + url.QueryEscape(`{"signed":true}`))},
	"GET /api/v2/document/{id}": {access: applicantOnly, victim: true, ownedByOther: true, fuzz: fuzzQuery,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/document/%d", w.otherLegalDoc) },
		also: []alsoPath{{"BeasSignedCopy", func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/document/%d?signed=true", w.beaSigned) }}}},
	"POST /api/v2/user/document/{id}/signature": {access: applicantOnly, victim: true, ownedByOther: true, fuzz: fuzzJSON,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/user/document/%d/signature", w.otherLegalDoc) }},
	"GET /api/v2/user/document/{id}": {access: applicantOnly, victim: true, fuzz: fuzzQuery,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/user/document/%d", w.beaSigned) }},
	"DELETE /api/v2/user/document/{id}": {access: applicantOnly, victim: true,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/user/document/%d", w.beaSigned) }},

	// The applicant's answers.
	"GET /api/v2/user/data":                    {access: applicantOnly},
	"POST /api/v2/user/data":                   {access: applicantOnly, fuzz: fuzzJSON},
	"POST /api/v2/user/profile":                {access: applicantOnly, fuzz: fuzzJSON},
	"GET /api/v2/user/subject/alias":           {access: applicantOnly},
	"PUT /api/v2/user/subject/alias":           {access: applicantOnly, fuzz: fuzzJSON},
	"GET /api/v2/user/subject/address":         {access: applicantOnly},
	"PUT /api/v2/user/subject/address":         {access: applicantOnly, fuzz: fuzzJSON},
	"PUT /api/v2/user/subject/notification":    {access: applicantOnly, fuzz: fuzzJSON},
	"GET /api/v2/user/drafts":                  {access: applicantOnly},
	"GET /api/v2/user/drafts/{form}":           {access: applicantOnly, path: fixed("/api/v2/user/drafts/personal")},
	"PUT /api/v2/user/drafts/{form}":           {access: applicantOnly, fuzz: fuzzJSON, path: fixed("/api/v2/user/drafts/personal")},
	"DELETE /api/v2/user/drafts/{form}":        {access: applicantOnly, path: fixed("/api/v2/user/drafts/personal")},
	"GET /api/v2/user/service":                 {access: applicantOnly},
	"GET /api/v2/user/subject/required-fields": {access: applicantOnly},
	"GET /api/v2/user/subject":                 {access: applicantOnly},
	"GET /api/v2/user/order/{id}": {access: applicantOnly, victim: true,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/user/order/%d", w.beaOrder) }},

	// Uploaded documents, fillable forms and reports.
	"GET /api/v2/user/profile/documents":  {access: applicantOnly},
	"POST /api/v2/user/profile/documents": {access: applicantOnly, fuzz: fuzzMultipart, body: func(*matrixWorld) any { return multipartBody{} }},
	"GET /api/v2/user/profile/documents/{id}": {access: applicantOnly, victim: true,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/user/profile/documents/%d", w.beaDocument) }},
	"DELETE /api/v2/user/profile/documents/{id}": {access: applicantOnly, victim: true,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/user/profile/documents/%d", w.beaDocument) }},
	"GET /api/v2/user/profile/fillable-pdf-forms": {access: applicantOnly},
	"GET /api/v2/user/profile/fillable-pdf-form/{documentId}": {access: applicantOnly, victim: true, ownedByOther: true,
		path: func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/user/profile/fillable-pdf-form/%d", w.otherForm)
		}},
	"GET /api/v2/user/profile/fillable-pdf-form/{documentId}/submitted": {access: applicantOnly, victim: true,
		path: func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/user/profile/fillable-pdf-form/%d/submitted", w.acmeForm)
		}},
	"POST /api/v2/user/profile/fillable-pdf-form/{documentId}": {access: applicantOnly, victim: true, ownedByOther: true, fuzz: fuzzMultipart,
		path: func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/user/profile/fillable-pdf-form/%d", w.otherForm)
		},
		body: func(*matrixWorld) any { return multipartBody{[]uploadPart{pdfPart([]byte("%PDF-1.4\n%%EOF\n"))}} }},
	"GET /api/v2/user/profile/report/access":   {access: applicantOnly},
	"POST /api/v2/user/profile/report/confirm": {access: applicantOnly, fuzz: fuzzJSON},
	"GET /api/v2/user/profile/report":          {access: applicantOnly, fuzz: fuzzQuery, path: fixed("/api/v2/user/profile/report?disposition=inline")},
	"GET /api/v2/user/profile/drug-report":     {access: applicantOnly, fuzz: fuzzQuery},
	"GET /api/v2/user/profile/ecoc-form":       {access: applicantOnly, fuzz: fuzzQuery},
	"GET /api/v2/user/adverse-action":          {access: applicantOnly},

	// Identity verification, payment, collection sites.
	"PUT /api/v2/idv/session": {access: applicantOnly, victim: true, fuzz: fuzzJSON,
		body: func(w *matrixWorld) any { return map[string]any{"subjectId": w.bea.ID} }},
	"GET /api/v2/idv/session/{id}": {access: applicantOnly, victim: true,
		path: func(w *matrixWorld) string { return "/api/v2/idv/session/" + w.beaIDV }},
	"GET /api/v2/payment":              {access: applicantOnly},
	"POST /api/v2/payment/auth":        {access: applicantOnly, fuzz: fuzzJSON},
	"GET /api/v2/collection-sites":     {access: applicantOnly, fuzz: fuzzQuery, path: fixed("/api/v2/collection-sites?zip=83702")},
	"GET /api/v2/user/collection-site": {access: applicantOnly},
	"PUT /api/v2/user/collection-site": {access: applicantOnly, fuzz: fuzzJSON},

	// Chat, disputes, handoff to a phone.
	"GET /api/v2/user/subject/profile/{profileId}/chat-messages": {access: applicantOnly, victim: true, path: beaChat("")},
	"POST /api/v2/user/subject/profile/{profileId}/chat-messages": {access: applicantOnly, victim: true, fuzz: fuzzMultipart, path: beaChat(""),
		body: func(*matrixWorld) any { return map[string]any{"message": "Hello from Ann"} }},
	"GET /api/v2/user/subject/profile/{profileId}/chat-messages/unread-messages": {access: applicantOnly, victim: true, path: beaChat("/unread-messages")},
	"POST /api/v2/user/subject/profile/{profileId}/chat-messages/read":           {access: applicantOnly, victim: true, fuzz: fuzzJSON, path: beaChat("/read")},
	"GET /api/v2/user/subject/profile/{profileId}/chat-messages/download-file": {access: applicantOnly, victim: true, fuzz: fuzzQuery,
		path: func(w *matrixWorld) string { return beaChat("/download-file?fileId=")(w) + fmt.Sprint(w.beaChatFile) },
		also: []alsoPath{{"OwnConversationBeasFile", func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/user/subject/profile/%d/chat-messages/download-file?fileId=%d", w.annProfile, w.beaChatFile)
		}}}},
	"GET /api/v2/user/subject/profile/{profileId}/chat-messages/events": {access: applicantOnly, victim: true, path: beaChat("/events")},
	"GET /api/v2/user/disputes":                                         {access: applicantOnly},
	"POST /api/v2/user/disputes":                                        {access: applicantOnly, fuzz: fuzzMultipart},
	"GET /api/v2/user/disputes/{id}": {access: applicantOnly, victim: true,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/user/disputes/%d", w.beaDispute) }},
	"POST /api/v2/user/disputes/{id}/information": {access: applicantOnly, victim: true, fuzz: fuzzMultipart,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/user/disputes/%d/information", w.beaDispute) },
		body: func(*matrixWorld) any { return map[string]any{"message": "Ann adds this."} }},
	"GET /api/v2/user/disputes/{id}/files/{fileId}": {access: applicantOnly, victim: true,
		path: func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/user/disputes/%d/files/%d", w.beaDispute, w.beaDisputeFile)
		},
		also: []alsoPath{{"OwnDisputeBeasFile", func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/user/disputes/%d/files/%d", w.annDispute, w.beaDisputeFile)
		}}}},
	"GET /api/v2/user/handoff":  {access: applicantOnly},
	"POST /api/v2/user/handoff": {access: applicantOnly, fuzz: fuzzJSON},

	// The operator API: an API key acts on its own company only.
	"POST /api/v2/operator/invitations":    {access: operatorKey, fuzz: fuzzJSON},
	"GET /api/v2/operator/applicants":      {access: operatorKey, fuzz: fuzzQuery, path: fixed("/api/v2/operator/applicants?stalled=false")},
	"GET /api/v2/operator/applicants/{id}": {access: operatorKey, victim: true, path: beaApplicant("")},
	"GET /api/v2/operator/banners":         {access: operatorKey},
	"POST /api/v2/operator/banners":        {access: operatorKey, fuzz: fuzzJSON},
	"DELETE /api/v2/operator/banners/{id}": {access: operatorKey, victim: true,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/operator/banners/%d", w.acmeBanner) },
		also: []alsoPath{{"EveryonesMaintenanceBanner", func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/operator/banners/%d", w.globalBanner) }}}},
	"GET /api/v2/operator/applicants/{id}/adverse-action":        {access: operatorKey, victim: true, path: beaApplicant("/adverse-action")},
	"POST /api/v2/operator/applicants/{id}/adverse-action/pre":   {access: operatorKey, victim: true, fuzz: fuzzJSON, path: beaApplicant("/adverse-action/pre")},
	"POST /api/v2/operator/applicants/{id}/adverse-action/final": {access: operatorKey, victim: true, fuzz: fuzzJSON, path: beaApplicant("/adverse-action/final")},
	"GET /api/v2/operator/chats":                                 {access: operatorKey},
	"GET /api/v2/operator/applicants/{id}/chat-messages":         {access: operatorKey, victim: true, path: beaApplicant("/chat-messages")},
	"POST /api/v2/operator/applicants/{id}/chat-messages": {access: operatorKey, victim: true, fuzz: fuzzMultipart, path: beaApplicant("/chat-messages"),
		body: func(*matrixWorld) any { return map[string]any{"message": "From Other's key"} }},
	"GET /api/v2/operator/applicants/{id}/chat-messages/download-file": {access: operatorKey, victim: true, fuzz: fuzzQuery,
		path: func(w *matrixWorld) string {
			return beaApplicant("/chat-messages/download-file?fileId=")(w) + fmt.Sprint(w.beaChatFile)
		},
		also: []alsoPath{{"OwnApplicantBeasFile", func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/operator/applicants/%d/chat-messages/download-file?fileId=%d", w.olga.ID, w.beaChatFile)
		}}}},
	"GET /api/v2/operator/disputes": {access: operatorKey, fuzz: fuzzQuery, path: fixed("/api/v2/operator/disputes?state=received")},
	"GET /api/v2/operator/disputes/{id}": {access: operatorKey, victim: true,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/operator/disputes/%d", w.beaDispute) }},
	"POST /api/v2/operator/disputes/{id}/answer": {access: operatorKey, victim: true, fuzz: fuzzJSON,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/operator/disputes/%d/answer", w.beaDispute) },
		body: func(*matrixWorld) any { return map[string]any{"message": "Other's answer"} }},
	"POST /api/v2/operator/disputes/{id}/resolve": {access: operatorKey, victim: true, fuzz: fuzzJSON,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/operator/disputes/%d/resolve", w.beaDispute) },
		body: func(*matrixWorld) any { return map[string]any{"outcome": "corrected", "message": "Other's resolution"} }},
	"GET /api/v2/operator/disputes/{id}/files/{fileId}": {access: operatorKey, victim: true,
		path: func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/operator/disputes/%d/files/%d", w.beaDispute, w.beaDisputeFile)
		},
		also: []alsoPath{{"OwnDisputeBeasFile", func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/operator/disputes/%d/files/%d", w.olgaDispute, w.beaDisputeFile)
		}}}},
	"GET /api/v2/operator/applicants/{id}/services": {access: operatorKey, victim: true, path: beaApplicant("/services")},
	"PUT /api/v2/operator/applicants/{id}/services/{code}": {access: operatorKey, victim: true, fuzz: fuzzJSON, path: beaApplicant("/services/crim"),
		body: func(*matrixWorld) any { return map[string]any{"state": "complete"} }},
	"PUT /api/v2/operator/applicants/{id}/order-status": {access: operatorKey, victim: true, fuzz: fuzzJSON, path: beaApplicant("/order-status"),
		body: func(*matrixWorld) any { return map[string]any{"statusId": 2} }},
	"PUT /api/v2/operator/applicants/{id}/profile-status": {access: operatorKey, victim: true, fuzz: fuzzJSON, path: beaApplicant("/profile-status"),
		body: func(*matrixWorld) any { return map[string]any{"statusId": 1} }},
	"GET /api/v2/operator/service-reasons": {access: operatorKey},
	"POST /api/v2/operator/webhooks":       {access: operatorKey, fuzz: fuzzJSON},
	"GET /api/v2/operator/webhooks":        {access: operatorKey},
	"DELETE /api/v2/operator/webhooks/{id}": {access: operatorKey, victim: true,
		path: func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/operator/webhooks/%d", w.acmeWebhook) }},
	"GET /api/v2/operator/webhooks/{id}/deliveries": {access: operatorKey, victim: true,
		path: func(w *matrixWorld) string {
			return fmt.Sprintf("/api/v2/operator/webhooks/%d/deliveries", w.acmeWebhook)
		}},
	"POST /api/v2/operator/applicants/{id}/reports/{kind}": {access: operatorKey, victim: true, fuzz: fuzzMultipart, path: beaApplicant("/reports/report"),
		body: func(*matrixWorld) any { return rawBody{"application/pdf", []byte("%PDF-1.4\nOther's report\n%%EOF\n")} }},
	"GET /api/v2/operator/applicants/{id}/report-views": {access: operatorKey, victim: true, path: beaApplicant("/report-views")},

	// The mount of the built-in outside parties (their own routes are in
	// sandboxMatrix) and the catch-alls.
	"/sandbox/": {access: public, why: "the mount of the sandbox pages, whose own routes each have a row in sandboxMatrix",
		path: fixed("/sandbox/nothing-here")},
	"/api/":   {access: public, why: "catch-all: a JSON 404 or 405 for an unknown API path", path: fixed("/api/v2/nothing-here")},
	"/oauth/": {access: public, why: "catch-all: a JSON 404 or 405 for an unknown OAuth path", path: fixed("/oauth/nothing-here")},
	"/":       {access: public, why: "the single-page app's files and index.html, the same for everyone"},
}

// sandboxMatrix holds a row for every pattern of the identity-verification
// sandbox's pages ((*idvsandbox.Provider).Routes()), mounted at /sandbox/.
var sandboxMatrix = map[string]matrixRow{
	"GET /sandbox/idv/assets/{name}": {access: public, why: "the pages' stylesheet and scripts, the same for everyone", path: fixed("/sandbox/idv/assets/idv.css")},
	"GET /sandbox/idv/{id}": {access: sessionToken, victim: true, fuzz: fuzzSandboxPages,
		path: func(w *matrixWorld) string { return "/sandbox/idv/" + url.PathEscape(w.beaIDV) }},
	"POST /sandbox/idv/{id}/{action}": {access: sessionToken, victim: true, fuzz: fuzzSandboxPages,
		path: func(w *matrixWorld) string { return "/sandbox/idv/" + url.PathEscape(w.beaIDV) + "/document" }},
	"/": {access: public, why: "catch-all: the sandbox's page-not-found page", path: fixed("/sandbox/idv/x/y/z")},
}

// rawBody is a request body sent as is with its content type.
type rawBody struct {
	contentType string
	content     []byte
}

func beaChat(rest string) func(*matrixWorld) string {
	return func(w *matrixWorld) string {
		return fmt.Sprintf("/api/v2/user/subject/profile/%d/chat-messages%s", w.beaProfile, rest)
	}
}

func beaApplicant(rest string) func(*matrixWorld) string {
	return func(w *matrixWorld) string { return fmt.Sprintf("/api/v2/operator/applicants/%d%s", w.bea.ID, rest) }
}

// matrixWorld is two companies. Acme has applicant Ann (the caller), Bea
// (the victim, with one resource of every kind) and Pat (invited, whose
// token login gives the setup credential); Other has Olga. Every secret
// of Bea's and of Acme's is a marker no answer to another caller may hold.
type matrixWorld struct {
	*harness
	clock *time.Time
	svc   portal.Services
	srv   *httpapi.Server

	acme, other    *portal.Company
	ann, bea, pat  *portal.Subject
	acmeKey        string
	otherKey       string
	revokedKey     string
	callers        map[string]string // credential name -> bearer token (Ann's; Pat's setup credential)
	beaToken       string
	olgaToken      string
	annIDVToken    string
	beaIDV         string
	beaIDVToken    string
	beaProfile     int64
	annProfile     int64
	annDispute     int64
	olgaDispute    int64
	olga           *portal.Subject
	beaSigned      int64
	otherLegalDoc  int64
	beaDocument    int64
	beaDispute     int64
	beaDisputeFile int64
	beaChatFile    int64
	acmeForm       int64
	otherForm      int64
	beaOrder       int64
	acmeBanner     int64
	globalBanner   int64
	otherBanner    int64
	acmeWebhook    int64

	// beaMarkers are Bea's data: no answer to another caller holds one.
	// acmeMarkers are Acme's data, which Acme's applicants may see but
	// Other's key may not; otherMarkers are Other's, which Other's key
	// may see and nobody of Acme's.
	beaMarkers, acmeMarkers, otherMarkers []string
}

const matrixPassword = "a long enough passphrase"

func newMatrixWorld(t *testing.T, db *store.DB, clock *time.Time) *matrixWorld {
	t.Helper()
	ctx := context.Background()
	w := &matrixWorld{harness: newHarness(t, db, "192.0.2.1:1234"), clock: clock, callers: map[string]string{}}
	svc := storeServices(db, w.events())
	w.svc = svc.Services
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.UpsertClient(ctx, "spa", "spa-secret", "test"))
	w.acme = &portal.Company{Name: "Acme"}
	w.acme.Preferences.SubjectChat = true
	w.other = &portal.Company{Name: "Other"}
	w.other.Preferences.SubjectChat = true
	must(db.CreateCompany(ctx, w.acme))
	must(db.CreateCompany(ctx, w.other))
	acmePkg := &portal.Package{CompanyID: w.acme.ID, Name: "Standard", Services: []portal.PackageService{{Code: "crim"}},
		DocumentTypes: []portal.DocumentType{{Type: "drivers_license", Title: "Driver's license"}}}
	otherPkg := &portal.Package{CompanyID: w.other.ID, Name: "Standard", Services: []portal.PackageService{{Code: "crim"}}}
	must(db.CreatePackage(ctx, acmePkg))
	must(db.CreatePackage(ctx, otherPkg))
	addForm := func(pkg int64) int64 {
		f, err := db.Documents().AddPdfForm(ctx, portal.NewPdfForm{PackageID: pkg, Code: "idaho-release", Title: "Idaho release", PDF: formFile(t, idahoPath)})
		must(err)
		return f.ID
	}
	w.acmeForm, w.otherForm = addForm(acmePkg.ID), addForm(otherPkg.ID)
	legal := func(c *portal.Company, title string) int64 {
		d := &portal.LegalDocument{CompanyID: c.ID, Title: title, Content: "<p>" + title + "</p>",
			Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Visibility: portal.VisibilityAll, Editable: true}}
		_, err := db.SaveLegalDocument(ctx, d)
		must(err)
		return d.ID
	}
	acmeDisclosure := legal(w.acme, "Acme disclosure")
	w.otherLegalDoc = legal(w.other, "Other's secret disclosure")

	subject := func(c *portal.Company, email, first, last string) *portal.Subject {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: email, FirstName: first, LastName: last})
		must(err)
		return s
	}
	w.ann = subject(w.acme, "ann.applicant@example.com", "Ann", "Caller")
	w.bea = subject(w.acme, "beatrix.quillfeather@example.com", "Beatrix", "Quillfeather")
	w.pat = subject(w.acme, "pat.invited@example.com", "Pat", "Invited")
	w.olga = subject(w.other, "olga@example.com", "Olga", "Berg")
	must(db.Auth().SetInitialPassword(ctx, w.olga.ID, matrixPassword))
	must(db.Auth().SetInitialPassword(ctx, w.ann.ID, matrixPassword))
	must(db.Auth().SetInitialPassword(ctx, w.bea.ID, matrixPassword))

	// The expired token first: the clock then moves on almost an hour,
	// and the rest of the world is made, and again past its expiry.
	w.callers["ExpiredToken"] = w.login(w.ann)
	*w.clock = w.clock.Add(59 * time.Minute)
	defer func() { *w.clock = w.clock.Add(2 * time.Minute) }()

	w.callers["Applicant"] = w.login(w.ann)
	w.beaToken = w.login(w.bea)
	revoked := w.login(w.ann)
	w.callers["RevokedToken"] = revoked
	first, err := db.Auth().Login(ctx, portal.Credentials{ClientID: "spa", ClientSecret: "spa-secret", Username: w.ann.Username, Password: matrixPassword, IP: "192.0.2.1"})
	must(err)
	second, err := db.Auth().Refresh(ctx, "spa", "spa-secret", first.RefreshToken)
	must(err)
	if _, err := db.Auth().Refresh(ctx, "spa", "spa-secret", first.RefreshToken); err == nil {
		t.Fatal("a reused refresh token was accepted")
	}
	w.callers["TokenOfAFamilyRevokedByReuse"] = second.AccessToken
	w.callers["SetupCredential"] = w.setupCredential()
	w.olgaToken = w.login(w.olga)

	ops := db.Operator()
	_, w.acmeKey, err = ops.APIKeys.CreateAPIKey(ctx, w.acme.ID, "Acme HR")
	must(err)
	_, w.otherKey, err = ops.APIKeys.CreateAPIKey(ctx, w.other.ID, "Other HR")
	must(err)
	old, revokedKey, err := ops.APIKeys.CreateAPIKey(ctx, w.acme.ID, "Acme's old HR system")
	must(err)
	must(ops.APIKeys.RevokeAPIKey(ctx, old.ID))
	w.revokedKey = revokedKey

	b, err := ops.Banners.PostBanner(ctx, portal.BannerRequest{Message: "Acme notice", CompanyID: w.acme.ID})
	must(err)
	w.acmeBanner = b.ID
	b, err = ops.Banners.PostBanner(ctx, portal.BannerRequest{Message: "Other's private notice", CompanyID: w.other.ID})
	must(err)
	w.otherBanner = b.ID
	global, err := db.SetBanner(ctx, "Scheduled maintenance tonight")
	must(err)
	w.globalBanner = global.ID
	hook, _, err := ops.Webhooks.CreateWebhookEndpoint(ctx, w.acme.ID, "https://acme-hooks.example.com/events")
	must(err)
	w.acmeWebhook = hook.ID

	srv, err := httpapi.New(httpapi.Config{BaseURL: "https://portal.example.com", ClientID: "spa", ClientSecret: "spa-secret",
		Sandboxes: w.sandbox().Handler(), IDVPageURL: "/sandbox/idv/{id}?token={token}"}, svc, testIndex, nil)
	must(err)
	w.srv, w.handler = srv, srv.Handler()

	// Logging out revokes at once.
	if rec := w.send(request{Method: "DELETE", URL: "/oauth/access_token", Token: revoked}); rec.Code != http.StatusNoContent {
		t.Fatalf("log out = %d %s", rec.Code, rec.Body)
	}

	// Bea's resources, each made at a status that allows it.
	profile, err := db.Subjects().FindProfile(ctx, w.bea.ID)
	must(err)
	w.beaProfile = profile.ID
	if profile, err = db.Subjects().FindProfile(ctx, w.ann.ID); err != nil {
		t.Fatal(err)
	}
	w.annProfile = profile.ID
	rec := w.send(request{Method: "GET", URL: "/api/v2/user/profile", Token: w.beaToken})
	var orders struct {
		Orders []struct {
			ID int64 `json:"id"`
		} `json:"orders"`
	}
	if json.Unmarshal(rec.Body.Bytes(), &orders) != nil || len(orders.Orders) == 0 {
		t.Fatalf("Bea's profile = %d %s", rec.Code, rec.Body)
	}
	w.beaOrder = orders.Orders[0].ID
	w.beaSigned = acmeDisclosure
	w.signDisclosure(acmeDisclosure)
	_, err = w.svc.Drafts.SaveDraft(ctx, w.bea.ID, "personal", map[string]json.RawMessage{"middleName": json.RawMessage(`"Bea-draft-Zenobia"`)})
	must(err)
	msg, err := w.svc.Chat.SendChatMessage(ctx, w.bea.ID, w.beaProfile, "Bea-chat-about-my-record",
		&portal.Upload{Name: "bea-chat-attachment.png", ContentType: "image/png", Body: bytes.NewReader(pngFile)})
	must(err)
	w.beaChatFile = msg.File.ID
	must(db.SetSubjectStatus(ctx, w.bea.ID, portal.StatusNew, portal.StatusSetupComplete))
	doc, err := w.svc.Documents.AddDocument(ctx, w.bea.ID, "drivers_license",
		portal.Upload{Name: "bea-license-scan.png", ContentType: "image/png", Body: bytes.NewReader(pngFile)})
	must(err)
	w.beaDocument = doc.ID
	_, err = w.svc.Documents.SubmitPdfForm(ctx, w.bea.ID, w.acmeForm,
		portal.Upload{Name: "bea-idaho-filled.pdf", ContentType: "application/pdf", Body: bytes.NewReader(formFile(t, idahoFilledPath))})
	must(err)
	must(db.SetSubjectStatus(ctx, w.bea.ID, portal.StatusSetupComplete, portal.StatusIDVStarted))
	must(db.SetSubjectStatus(ctx, w.ann.ID, portal.StatusNew, portal.StatusSetupComplete))
	must(db.SetSubjectStatus(ctx, w.ann.ID, portal.StatusSetupComplete, portal.StatusIDVStarted))
	session, err := w.svc.IDV.StartSession(ctx, w.bea.ID)
	must(err)
	w.beaIDV, w.beaIDVToken = session.ID, session.Token
	session, err = w.svc.IDV.StartSession(ctx, w.ann.ID)
	must(err)
	w.annIDVToken = session.Token
	must(db.SetSubjectStatus(ctx, w.bea.ID, portal.StatusIDVStarted, portal.StatusFinalizationComplete))
	openDispute := func(s *portal.Subject, explanation, fileName string) *portal.Dispute {
		evidence := []*portal.Upload{{Name: fileName, ContentType: "application/pdf", Body: bytes.NewReader(evidencePDF)}}
		d, err := w.svc.Disputes.OpenDispute(ctx, s.ID, portal.NewDispute{Reason: "inaccurate", ServiceCode: "crim", Explanation: explanation},
			func() (*portal.Upload, error) {
				if len(evidence) == 0 {
					return nil, nil
				}
				up := evidence[0]
				evidence = evidence[1:]
				return up, nil
			})
		must(err)
		return d
	}
	dispute := openDispute(w.bea, "Bea-dispute-the-record-is-not-mine", "bea-court-letter.pdf")
	w.beaDispute, w.beaDisputeFile = dispute.ID, dispute.Files[0].ID
	must(db.SetSubjectStatus(ctx, w.ann.ID, portal.StatusIDVStarted, portal.StatusFinalizationComplete))
	w.annDispute = openDispute(w.ann, "Ann's own dispute", "ann-letter.pdf").ID
	must(db.SetSubjectStatus(ctx, w.olga.ID, portal.StatusNew, portal.StatusFinalizationComplete))
	w.olgaDispute = openDispute(w.olga, "Olga's own dispute", "olga-letter.pdf").ID
	_, err = ops.Documents.AttachReport(ctx, portal.AttachReportRequest{CompanyID: w.acme.ID, SubjectID: w.bea.ID,
		Kind: portal.ReportBackground, Name: "bea-background-report.pdf", Body: bytes.NewReader(evidencePDF)})
	must(err)
	_, err = ops.AdverseActions.SendPreAdverseAction(ctx, portal.PreAdverseRequest{CompanyID: w.acme.ID, SubjectID: w.bea.ID, Note: "Bea-adverse-note"})
	must(err)

	w.beaMarkers = []string{w.bea.Email, "Beatrix", "Quillfeather", "Bea-draft-Zenobia", "Bea-chat-about-my-record",
		"bea-chat-attachment", "bea-license-scan", "bea-idaho-filled", w.beaIDV, w.beaIDVToken, "bea-court-letter",
		"Bea-dispute-the-record-is-not-mine", "bea-background-report", "Bea-adverse-note"}
	w.otherMarkers = []string{"Other's secret disclosure", "Other's private notice", "olga@example.com", "Olga's own dispute", "olga-letter"}
	w.acmeMarkers = []string{"acme-hooks.example.com", "Acme notice", "Acme HR", w.ann.Email, w.pat.Email}

	return w
}

// sandbox is the identity-verification sandbox over the harness's
// records and secret, as storeServices builds it.
func (w *matrixWorld) sandbox() *idvsandbox.Provider {
	return idvsandbox.New(idvsandbox.Config{Records: w.db.SandboxRecords(), Secret: []byte("harness callback secret"), SessionTTL: time.Hour, CheckDelay: time.Second})
}

func (w *matrixWorld) login(s *portal.Subject) string {
	w.t.Helper()
	pair, err := w.db.Auth().Login(context.Background(), portal.Credentials{ClientID: "spa", ClientSecret: "spa-secret",
		Username: s.Username, Password: matrixPassword, IP: "192.0.2.1"})
	if err != nil {
		w.t.Fatal(err)
	}
	return pair.AccessToken
}

// setupCredential is Pat's setup-scoped credential from a token login
// with a new invitation.
func (w *matrixWorld) setupCredential() string {
	w.t.Helper()
	ctx := context.Background()
	invitation, err := w.db.Auth().CreateInvitation(ctx, w.pat.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	pair, err := w.db.Auth().TokenLogin(ctx, invitation)
	if err != nil || pair.Scope != portal.ScopeSetup {
		w.t.Fatalf("token login = %+v, %v", pair, err)
	}
	return pair.AccessToken
}

// signDisclosure signs Acme's disclosure as Bea, through the API.
func (w *matrixWorld) signDisclosure(id int64) {
	w.t.Helper()
	rec := w.send(request{Method: "GET", URL: fmt.Sprintf("/api/v2/document/%d", id), Token: w.beaToken})
	var content struct {
		ContentSHA256 string `json:"contentSha256"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &content) != nil || content.ContentSHA256 == "" {
		w.t.Fatalf("read disclosure = %d %s", rec.Code, rec.Body)
	}
	rec = w.send(request{Method: "POST", URL: fmt.Sprintf("/api/v2/user/document/%d/signature", id), Token: w.beaToken,
		Body: map[string]any{"ackReceipt": true, "signature": pngDataURL(legalPNG(w.t, 300, 100, false)), "contentSha256": map[string]string{fmt.Sprint(id): content.ContentSHA256}}})
	if rec.Code != http.StatusCreated {
		w.t.Fatalf("sign disclosure = %d %s", rec.Code, rec.Body)
	}
}

// call sends row's request as the credential c.
func (w *matrixWorld) call(method string, row matrixRow, target string, c credential) *httptest.ResponseRecorder {
	w.t.Helper()
	r := request{Method: method, URL: target, Token: c.bearer}
	var body any
	if row.body != nil {
		body = row.body(w)
	} else if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		body = map[string]any{}
	}
	if row.access == sessionToken {
		if method == http.MethodGet {
			r.URL += "?token=" + url.QueryEscape(c.session)
		} else {
			body = rawBody{"application/x-www-form-urlencoded", []byte(url.Values{"token": {c.session}, "sample": {"1"}}.Encode())}
		}
	}
	switch b := body.(type) {
	case nil:
	case multipartBody:
		stream, ct := multipartStream(b.parts...)
		content, err := io.ReadAll(stream)
		if err != nil {
			w.t.Fatal(err)
		}
		r.Body, r.ContentType = content, ct
	case rawBody:
		r.Body, r.ContentType = b.content, b.contentType
	default:
		r.Body = b
	}
	if c.signature != "" {
		content, err := json.Marshal(body)
		if err != nil {
			w.t.Fatal(err)
		}
		r.Body, r.ContentType = content, "application/json"
		r.Header = map[string]string{idvsandbox.SignatureHeader: idvsandbox.Sign([]byte("not the provider's secret"), time.Now(), content)}
	}
	if strings.HasSuffix(target, "/events") || strings.Contains(target, "/events?") {
		return w.sendStream(r)
	}
	return w.send(r)
}

// sendStream sends a request to an event stream and reads what it
// answers up to its first flush: a refusal whole, a stream's first bytes.
func (w *matrixWorld) sendStream(r request) *httptest.ResponseRecorder {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, r.Method, r.URL, nil)
	req.RemoteAddr = w.remoteAddr
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	rec := &firstFlush{ResponseRecorder: httptest.NewRecorder(), cancel: cancel}
	w.handler.ServeHTTP(rec, req)
	return rec.ResponseRecorder
}

// firstFlush ends a stream's request at its first flush.
type firstFlush struct {
	*httptest.ResponseRecorder
	cancel func()
}

func (f *firstFlush) Flush() {
	f.ResponseRecorder.Flush()
	f.cancel()
}

// methodAndPath splits a pattern; one without a method is sent as GET.
func methodAndPath(pattern string) (string, string) {
	if method, path, ok := strings.Cut(pattern, " "); ok {
		return method, path
	}
	return http.MethodGet, pattern
}

// TestMatrixCoversEveryRoute: every registered pattern has its row, every
// row a registered pattern, every public row its reason, and every row
// with {names} in its pattern a path filling them.
func TestMatrixCoversEveryRoute(t *testing.T) {
	check := func(t *testing.T, table string, rows map[string]matrixRow, registered []string) {
		for _, pattern := range registered {
			row, ok := rows[pattern]
			if !ok {
				t.Errorf("%q is registered but has no row in %s: add one in internal/httpapi/matrix_test.go saying who may call it and how to fill its path with another applicant's resources", pattern, table)
				continue
			}
			if row.access == public && row.why == "" {
				t.Errorf("%s row %q is public without a reason: say why in its why field", table, pattern)
			}
			if _, path := methodAndPath(pattern); strings.Contains(path, "{") && row.path == nil {
				t.Errorf("%s row %q does not fill its path: give it a path with the victims' resources", table, pattern)
			}
		}
		for pattern := range rows {
			if !slices.Contains(registered, pattern) {
				t.Errorf("%s row %q is for a pattern no longer registered: remove or rename it", table, pattern)
			}
		}
	}
	check(t, "matrix", matrix, serverRoutes(t))
	check(t, "sandboxMatrix", sandboxMatrix, idvsandbox.New(idvsandbox.Config{}).Routes())

	// A route's input is fuzzed: a row names its fuzz target, which
	// exists and reaches the route (FuzzJSONBodies takes every POST, PUT
	// and PATCH of Routes(), FuzzDocumentFilterQuery every GET; the upload
	// routes are listed in uploadRoutes).
	targets := fuzzTargets(t, ".", "../sandbox/idv")
	for table, rows := range map[string]map[string]matrixRow{"matrix": matrix, "sandboxMatrix": sandboxMatrix} {
		for pattern, row := range rows {
			method, _ := methodAndPath(pattern)
			switch {
			case row.fuzz == "" && (method == "POST" || method == "PUT" || method == "PATCH"):
				t.Errorf("%s row %q takes a body but names no fuzz target: name the one that sends it arbitrary input (fuzz_test.go)", table, pattern)
			case row.fuzz != "" && !targets[row.fuzz]:
				t.Errorf("%s row %q names fuzz target %s, which does not exist", table, pattern, row.fuzz)
			case row.fuzz == fuzzJSON && method != "POST" && method != "PUT" && method != "PATCH",
				row.fuzz == fuzzQuery && method != "GET":
				t.Errorf("%s row %q names %s, which does not send %s requests", table, pattern, row.fuzz, method)
			case row.fuzz == fuzzMultipart && !slices.ContainsFunc(uploadRoutes, func(u uploadRoute) bool { return u.route == pattern }):
				t.Errorf("%s row %q names %s but is not in uploadRoutes (fuzz_test.go): add it there", table, pattern, row.fuzz)
			}
		}
	}
}

// fuzzTargets are the names of the Fuzz functions in the test files of
// the folders.
func fuzzTargets(t *testing.T, dirs ...string) map[string]bool {
	t.Helper()
	found := map[string]bool{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fuzz") {
					found[fn.Name.Name] = true
				}
			}
		}
	}
	return found
}

// TestAuthorizationMatrix sends, to every route of the matrix, no
// credential, an expired, a revoked and a reuse-revoked access token, the
// setup credential, applicant Ann's token against Bea's (and company
// Other's) resources, Other's API key against Acme's, and a revoked API
// key; and checks each answer against the row's access.
func TestAuthorizationMatrix(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return now }
	storetest.Each(t, cfg, func(t *testing.T, db *store.DB) {
		start := time.Now()
		w := newMatrixWorld(t, db, &now)
		setUp := time.Since(start)
		// The sandbox first: the server's last row logs out.
		runMatrix(t, w, sandboxMatrix, "sandbox ", w.sandbox().Routes())
		runMatrix(t, w, matrix, "", w.srv.Routes())
		t.Logf("world made in %v, every row sent in %v", setUp.Round(time.Millisecond), (time.Since(start) - setUp).Round(time.Millisecond))
	})
}

// credential is one caller of the matrix: a bearer token, or for the
// sandbox's pages a session's token in the address or form, or for the
// callback a signature.
type credential struct {
	name                       string
	bearer, session, signature string
}

func runMatrix(t *testing.T, w *matrixWorld, rows map[string]matrixRow, prefix string, registered []string) {
	// Logging out ends the credential it is sent with: that row goes last.
	registered = slices.Clone(registered)
	slices.SortStableFunc(registered, func(a, b string) int {
		return boolInt(a == "DELETE /oauth/access_token") - boolInt(b == "DELETE /oauth/access_token")
	})
	for _, pattern := range registered {
		row, ok := rows[pattern]
		if !ok {
			continue // TestMatrixCoversEveryRoute names it
		}
		method, target := methodAndPath(pattern)
		if row.path != nil {
			target = row.path(w)
		}
		t.Run(prefix+pattern, func(t *testing.T) {
			for _, c := range w.credentials(method, row) {
				t.Run(c.name, func(t *testing.T) {
					rec := w.call(method, row, target, c)
					w.judge(t, row, c.name, rec)
				})
			}
			for _, also := range row.also {
				for _, c := range w.credentials(method, row) {
					if c.name == "Owner" {
						continue
					}
					t.Run(also.name+"/"+c.name, func(t *testing.T) {
						rec := w.call(method, row, also.path(w), c)
						w.judge(t, row, c.name, rec)
					})
				}
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// credentials are the callers sent to a row: those of every row; for the
// sandbox pages another session's token; for the callback a forged
// signature; and for a victim GET its owner, whose success proves that
// the path names a real resource.
func (w *matrixWorld) credentials(method string, row matrixRow) []credential {
	out := []credential{{name: "NoCredential"}}
	for _, name := range []string{"ExpiredToken", "RevokedToken", "TokenOfAFamilyRevokedByReuse", "SetupCredential", "Applicant"} {
		out = append(out, credential{name: name, bearer: w.callers[name]})
	}
	out = append(out, credential{name: "OtherCompanysAPIKey", bearer: w.otherKey}, credential{name: "RevokedAPIKey", bearer: w.revokedKey})
	switch row.access {
	case sessionToken:
		out = append(out, credential{name: "AnotherSessionsToken", session: w.annIDVToken})
	case signedCallback:
		out = append(out, credential{name: "ForgedSignature", signature: "forged"})
	}
	if !row.victim || method != http.MethodGet {
		return out
	}
	switch {
	case row.access == operatorKey:
		out = append(out, credential{name: "Owner", bearer: w.acmeKey})
	case row.access == sessionToken:
		out = append(out, credential{name: "Owner", session: w.beaIDVToken})
	case row.ownedByOther:
		out = append(out, credential{name: "Owner", bearer: w.olgaToken})
	default:
		out = append(out, credential{name: "Owner", bearer: w.beaToken})
	}
	return out
}

var denied = []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}

// judge checks one answer against the row: the status the credential
// must get, never a 5xx, and no marker of data the caller may not see.
func (w *matrixWorld) judge(t *testing.T, row matrixRow, cred string, rec *httptest.ResponseRecorder) {
	t.Helper()
	code, body := rec.Code, rec.Body.String()
	if code >= 500 {
		t.Fatalf("= %d %s; never a 5xx", code, body)
	}
	if cred == "Owner" {
		if code < 200 || code > 299 {
			t.Errorf("= %d %.300s; want 2xx: the owner reads it, or the path names no real resource", code, body)
		}
		return
	}
	markers := slices.Concat(w.beaMarkers, w.otherMarkers)
	switch cred {
	case "OtherCompanysAPIKey":
		markers = slices.Concat(w.beaMarkers, w.acmeMarkers)
	case "NoCredential", "RevokedAPIKey", "AnotherSessionsToken", "ForgedSignature":
		markers = slices.Concat(w.beaMarkers, w.otherMarkers, w.acmeMarkers)
	}
	for _, m := range markers {
		if strings.Contains(body, m) {
			t.Errorf("= %d; the answer holds %q, which is not the caller's: %.300s", code, m, body)
		}
	}
	want := func(ok bool, what string) {
		t.Helper()
		if !ok {
			t.Errorf("= %d %.300s; want %s (the route is for: %s)", code, body, what, row.access)
		}
	}
	isDenied := slices.Contains(denied, code)
	switch row.access {
	case public:
		// Anyone may call it; the markers are the check.
	case setupMay, applicantOnly:
		switch cred {
		case "SetupCredential":
			if row.access == applicantOnly {
				want(code == http.StatusForbidden, "403: the setup credential reaches only the setup steps")
			} else if row.victim {
				want(code == http.StatusForbidden || code == http.StatusNotFound, "403 or 404: not the caller's")
			} else {
				want(code != http.StatusUnauthorized && code != http.StatusForbidden, "the setup credential let through")
			}
		case "Applicant":
			if row.victim {
				want(code == http.StatusForbidden || code == http.StatusNotFound, "403 or 404: not the caller's")
			} else {
				want(code != http.StatusUnauthorized && code != http.StatusForbidden, "the applicant let through")
			}
		default:
			want(code == http.StatusUnauthorized, "401")
		}
	case operatorKey:
		switch cred {
		case "OtherCompanysAPIKey":
			if row.victim {
				want(code == http.StatusNotFound, "404: another company's")
			} else {
				want(code != http.StatusUnauthorized && code != http.StatusForbidden, "the API key let through")
			}
		case "SetupCredential", "Applicant":
			want(code == http.StatusUnauthorized || code == http.StatusForbidden, "401 or 403: an applicant's token is no API key")
		default:
			want(code == http.StatusUnauthorized, "401")
		}
	case sessionToken:
		// No bearer opens a session's page: its own token must be in the
		// address or the form.
		want(code == http.StatusForbidden || code == http.StatusNotFound, "403 or 404 without the session's token")
	case signedCallback:
		want(isDenied || code == http.StatusBadRequest, "refused without the provider's signature")
	}
}
