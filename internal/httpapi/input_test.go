package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

// setPath returns a copy of body with the value at path ("a.b.0.c")
// replaced by v. Maps and slices on the way are copied.
func setPath(body any, path []string, v any) any {
	if len(path) == 0 {
		return v
	}
	switch b := body.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range b {
			out[k] = x
		}
		out[path[0]] = setPath(b[path[0]], path[1:], v)
		return out
	case map[string]string:
		out := map[string]any{}
		for k, x := range b {
			out[k] = x
		}
		out[path[0]] = setPath(b[path[0]], path[1:], v)
		return out
	case []any:
		i, _ := strconv.Atoi(path[0])
		out := append([]any(nil), b...)
		out[i] = setPath(b[i], path[1:], v)
		return out
	}
	return setPath(map[string]any{}, path, v)
}

// stringPaths lists the paths of every string value in body.
func stringPaths(body any, prefix []string) [][]string {
	var out [][]string
	switch b := body.(type) {
	case string:
		return [][]string{prefix}
	case map[string]any:
		for k, v := range b {
			out = append(out, stringPaths(v, append(prefix[:len(prefix):len(prefix)], k))...)
		}
	case map[string]string:
		for k := range b {
			out = append(out, append(prefix[:len(prefix):len(prefix)], k))
		}
	case []any:
		for i, v := range b {
			out = append(out, stringPaths(v, append(prefix[:len(prefix):len(prefix)], strconv.Itoa(i)))...)
		}
	}
	return out
}

// badStrings are the text inputs every string field must survive. Refused
// are control characters and strings over their bound; the 512 four-byte
// characters are the most a field without a bound of its own takes (2 KB,
// under PostgreSQL's limit for an indexed text).
var badStrings = []struct {
	name        string
	value       string
	mustRefuse  bool
	namesField  bool // a 422 naming the field
	description string
}{
	{"NUL", "Ja\x00ne", true, true, "a NUL byte"},
	{"Bell", "Ja\x07ne", true, true, "a C0 control character"},
	{"NEL", "Ja\u0085ne", true, true, "a C1 control character"},
	{"Escape", "\x1b[31mJane", true, true, "an ANSI escape"},
	{"Long3000", strings.Repeat("a", 3000), true, true, "3000 characters"},
	{"Wide512", strings.Repeat("😀", 512), false, false, "512 four-byte characters"},
}

// TestNoTextInputAnswers500 sends each bad string into every JSON string
// field of every endpoint that takes one (and the query and path values
// that carry tokens and ids): each answer is a 4xx, never a 500, on SQLite
// and PostgreSQL.
func TestNoTextInputAnswers500(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		esign := a.docs[portal.DocESign]
		dot := a.docs[portal.DocDOTRelease]
		sig := pngDataURL(legalPNG(t, 300, 100, false))
		endpoints := []struct {
			name, method, path, who string
			body                    map[string]any
		}{
			{"UserPatch", "PATCH", "/api/v2/user", "jane", map[string]any{"email": "new@example.org", "currentPassword": legalPassword,
				"firstName": "Jane", "lastName": "Doe", "phone": "202 456 1111", "password": "another long enough password"}},
			{"PersonalInfo", "PUT", "/api/v2/user", "john", with(validPersonal(), map[string]any{
				"middleName": "Ann", "noMiddleName": false, "mothersMaidenName": "Smith", "eveningDialCode": "1", "eveningPhoneNumber": "202 456 1111",
				"licenses":                  []any{map[string]any{"number": "L-1", "regionId": 5, "regionName": "California"}},
				"primaryNotificationMethod": map[string]any{"type": "both", "email": "john@example.com", "text": "202 456 1111"}})},
			{"PersonalInfoNoSSN", "PUT", "/api/v2/user", "john", with(validPersonal(), map[string]any{"ssn": "", "confirmSSN": "", "noSSN": true,
				"identificationCountry": "CA", "countryIdentificationNumber": "X123"})},
			{"Location", "POST", "/api/v2/user/data", "jane", map[string]any{"location": map[string]any{
				"residency": map[string]any{"state": "US-CA"}, "employment": map[string]any{"state": "US-CA"}}}},
			{"SignESign", "POST", fmt.Sprintf("/api/v2/user/document/%d/signature", esign), "pat",
				a.body("pat", []int64{esign}, map[string]any{"firstName": "Pat", "lastName": "Doe", "ackConsent": true, "ackNotices": true})},
			{"SignDOTRelease", "POST", fmt.Sprintf("/api/v2/user/document/%d/signature", dot), "pat",
				a.body("pat", []int64{dot}, map[string]any{"firstName": "Pat", "lastName": "Doe", "lastFourSSN": "1234", "signature": sig,
					"identificationCountry": "CA", "identificationNumber": "X123"})},
			{"Status", "POST", "/api/v2/user/subject/status", "jane", map[string]any{"statusId": "1"}},
			{"ResetRequest", "POST", "/api/user/password/reset", "", map[string]any{"username": "jane@example.com"}},
			{"ResetConfirm", "POST", "/api/user/password/reset/confirm", "", map[string]any{"token": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "password": "another long enough password"}},
			{"EmailConfirm", "POST", "/api/v2/user/email/confirm", "", map[string]any{"token": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}},
			{"TokenPassword", "POST", "/oauth/access_token", "", map[string]any{"grant_type": "password", "username": "john@example.com",
				"password": "wrong", "client_id": legalClientID, "client_secret": legalClientSecret, "scope": "default"}},
			{"TokenRefresh", "POST", "/oauth/access_token", "", map[string]any{"grant_type": "refresh_token", "refresh_token": "AAAA",
				"client_id": legalClientID, "client_secret": legalClientSecret, "scope": "default"}},
		}
		for _, ep := range endpoints {
			paths := stringPaths(ep.body, nil)
			for _, p := range paths {
				field := strings.Join(p, ".")
				for _, bad := range badStrings {
					t.Run(ep.name+"/"+field+"/"+bad.name, func(t *testing.T) {
						body := setPath(ep.body, p, bad.value)
						w := a.do(ep.method, ep.path, a.tokens[ep.who], body)
						if w.Code >= 500 || (bad.mustRefuse && w.Code < 400) {
							t.Fatalf("%s in %s = %d %s", bad.description, field, w.Code, w.Body)
						}
						// The signature image is exempt from the length ceiling: the
						// signing rules judge it, after checking the step may still
						// be signed (an earlier accepted case may have signed it).
						namesField := bad.namesField && !(field == "signature" && bad.name == "Long3000")
						// The token endpoint answers RFC 6749's invalid_request (400)
						// naming the parameter, not a field error.
						if namesField && ep.path == "/oauth/access_token" {
							if w.Code != 400 || !strings.Contains(w.Body.String(), "The "+field+" parameter") {
								t.Fatalf("%s in %s = %d %s; want 400 naming the parameter", bad.description, field, w.Code, w.Body)
							}
							return
						}
						if namesField && w.Code != 422 && w.Code != 429 {
							t.Fatalf("%s in %s = %d %s; want 422", bad.description, field, w.Code, w.Body)
						}
						if namesField && w.Code == 422 && !strings.Contains(w.Body.String(), `"field":"`+field+`"`) {
							t.Fatalf("%s in %s: the error does not name the field: %s", bad.description, field, w.Body)
						}
					})
				}
			}
		}
		for _, bad := range badStrings {
			t.Run("Query/"+bad.name, func(t *testing.T) {
				for _, path := range []string{
					"/api/user?token=" + url.QueryEscape(bad.value),
					"/api/v2/user/document?filter=" + url.QueryEscape(`{"documentType":"`+strings.ReplaceAll(bad.value, "\x00", `\u0000`)+`"}`),
					"/api/v2/banner/dismiss/" + url.PathEscape(bad.value),
					"/api/v2/user/document/" + url.PathEscape(bad.value),
					"/api/settings/company/" + url.PathEscape(bad.value),
				} {
					method := "GET"
					if strings.Contains(path, "dismiss") {
						method = "POST"
					}
					w := a.do(method, path, a.tokens["jane"], nil)
					if w.Code >= 500 {
						t.Fatalf("%s %s = %d %s", method, path[:min(len(path), 60)], w.Code, w.Body)
					}
					// A token that cannot be one is the 403 of an unknown invitation.
					if strings.HasPrefix(path, "/api/user?") && w.Code != 403 {
						t.Fatalf("token login with %s = %d %s; want 403", bad.description, w.Code, w.Body)
					}
				}
			})
		}
	})
}

// TestDuplicateKeysRefused: a key given twice, at any depth and in any
// letter case (encoding/json matches keys case-insensitively), is a 400
// naming it, instead of the last one winning.
func TestDuplicateKeysRefused(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		for _, tc := range []struct {
			name, method, path, body, want string
		}{
			{"TopLevel", "PATCH", "/api/v2/user", `{"firstName":"Jane","firstName":"Eve"}`, "firstName"},
			{"OtherCase", "PATCH", "/api/v2/user", `{"email":"a@example.com","EMAIL":"b@example.com","currentPassword":"x"}`, "EMAIL"},
			{"Nested", "PUT", "/api/v2/user", `{"primaryNotificationMethod":{"email":"a@example.com","email":"b@example.com"}}`, "primaryNotificationMethod.email"},
			{"InArray", "PUT", "/api/v2/user", `{"licenses":[{"number":"1"},{"number":"2","number":"3"}]}`, "licenses.1.number"},
			{"Location", "POST", "/api/v2/user/data", `{"location":{"residency":{"state":"US-CA","state":"US-NY"}}}`, "location.residency.state"},
			{"Reset", "POST", "/api/user/password/reset", `{"username":"jane@example.com","username":"eve@example.com"}`, "username"},
			{"UnicodeFolding", "PATCH", "/api/v2/user", `{"lastName":"Doe","la\u017ftName":"Eve"}`, "laſtName"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := a.do(tc.method, tc.path, a.tokens["jane"], tc.body)
				want := "The request has a duplicate key: " + tc.want + "."
				if w.Code != 400 || !strings.Contains(w.Body.String(), want) {
					t.Fatalf("= %d %s; want 400 %q", w.Code, w.Body, want)
				}
			})
		}
		deep := strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40)
		if w := a.do("PATCH", "/api/v2/user", a.tokens["jane"], deep); w.Code != 400 || !strings.Contains(w.Body.String(), "nested too deeply") {
			t.Fatalf("deep nesting = %d %s", w.Code, w.Body)
		}
		// A body that is not an object would decode as an empty change.
		for _, body := range []string{`null`, ` null `, `[]`, `"x"`, `1`} {
			for _, ep := range [][2]string{{"PATCH", "/api/v2/user"}, {"POST", "/api/v2/user/data"}, {"PUT", "/api/v2/user"}} {
				if w := a.do(ep[0], ep[1], a.tokens["jane"], body); w.Code != 400 || !strings.Contains(w.Body.String(), "must be a JSON object") {
					t.Fatalf("%s %s %s = %d %s; want 400", ep[0], ep[1], body, w.Code, w.Body)
				}
			}
		}
		// Distinct keys in distinct objects are no duplicates.
		w := a.do("POST", "/api/v2/user/data", a.tokens["jane"], `{"location":{"residency":{"state":"US-CA"},"employment":{"state":"US-CA"}}}`)
		if w.Code != 200 {
			t.Fatalf("location = %d %s", w.Code, w.Body)
		}
	})
}

// mailedToken returns the token of the newest link to path mailed to address.
func mailedToken(t *testing.T, a *legalAPI, address, path string) string {
	t.Helper()
	mails, err := a.db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := len(mails) - 1; i >= 0; i-- {
		if _, after, ok := strings.Cut(mails[i].Body, path+"?token="); ok && mails[i].To == address {
			tok, _ := url.QueryUnescape(strings.Fields(after)[0])
			return tok
		}
	}
	t.Fatalf("no %s link mailed to %s", path, address)
	return ""
}

// TestUserPatch: PATCH /api/v2/user applies the personal form's rules, and
// an e-mail change needs the current password and a confirmed link.
func TestUserPatch(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		jane := a.tokens["jane"]
		for _, tc := range []struct {
			name       string
			body       map[string]any
			wantStatus int
			wantField  string
		}{
			{"WhitespaceFirstName", map[string]any{"firstName": "   "}, 422, "firstName"},
			{"NameOver50", map[string]any{"lastName": strings.Repeat("a", 51)}, 422, "lastName"},
			{"NameWithDigits", map[string]any{"lastName": "D0e"}, 422, "lastName"},
			{"NameWithNewline", map[string]any{"firstName": "Ja\nne"}, 422, "firstName"},
			{"FreeTextPhone", map[string]any{"phone": "call me"}, 422, "phone"},
			{"PhoneOver32", map[string]any{"phone": strings.Repeat("2", 33)}, 422, "phone"},
			{"LooseEmail", map[string]any{"email": "a@b", "currentPassword": legalPassword}, 422, "email"},
			{"EmailWithoutCurrentPassword", map[string]any{"email": "new@example.org"}, 422, "currentPassword"},
			{"EmailWithWrongCurrentPassword", map[string]any{"email": "new@example.org", "currentPassword": "wrong"}, 422, "currentPassword"},
			{"EmailAndPasswordTogether", map[string]any{"email": "new@example.org", "currentPassword": legalPassword, "password": "another long enough password"}, 422, "email"},
			{"SameEmailIsNoChange", map[string]any{"email": "JANE@example.com"}, 200, ""},
			{"ValidNamesAndPhoneSaved", map[string]any{"firstName": " Janet ", "lastName": "O’Neil-Doe", "phone": "+44 20 7946 0958"}, 200, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := a.do("PATCH", "/api/v2/user", jane, tc.body)
				if w.Code != tc.wantStatus || (tc.wantField != "" && !strings.Contains(w.Body.String(), `"field":"`+tc.wantField+`"`)) {
					t.Fatalf("= %d %s; want %d on %q", w.Code, w.Body, tc.wantStatus, tc.wantField)
				}
			})
		}
		sub, _ := a.db.Subjects().FindSubjectByID(context.Background(), a.ids["jane"])
		if sub.FirstName != "Janet" || sub.LastName != "O’Neil-Doe" || sub.Phone != "+44 20 7946 0958" || sub.Email != "jane@example.com" {
			t.Fatalf("subject = %+v", sub)
		}

		t.Run("EmailChangeTakesEffectOnlyOnceConfirmed", func(t *testing.T) {
			w := a.do("PATCH", "/api/v2/user", jane, map[string]any{"email": "Jane.New@example.org", "currentPassword": legalPassword})
			if w.Code != 200 || !strings.Contains(w.Body.String(), `"email":"jane@example.com"`) || !strings.Contains(w.Body.String(), `"pendingEmail":"Jane.New@example.org"`) {
				t.Fatalf("PATCH = %d %s", w.Code, w.Body)
			}
			if w := a.do("GET", "/api/v2/user", jane, nil); !strings.Contains(w.Body.String(), `"pendingEmail":"Jane.New@example.org"`) {
				t.Fatalf("GET = %s", w.Body)
			}
			token := mailedToken(t, a, "Jane.New@example.org", "/confirm-email")
			mails, _ := a.db.Outbox(context.Background())
			if !strings.Contains(fmt.Sprint(mails), "jane@example.com") {
				t.Fatalf("no notice to the old address")
			}
			w = a.do("POST", "/api/v2/user/email/confirm", "", map[string]any{"token": token})
			if w.Code != 200 || !strings.Contains(w.Body.String(), `"message":"Your e-mail address has been changed."`) {
				t.Fatalf("confirm = %d %s", w.Code, w.Body)
			}
			if w := a.do("GET", "/api/v2/user", jane, nil); w.Code != 401 {
				t.Fatalf("the session that asked survived the change: %d", w.Code)
			}
			w = a.do("POST", "/api/v2/user/email/confirm", "", map[string]any{"token": token})
			if w.Code != 422 || !strings.Contains(w.Body.String(), portal.EmailChangeTokenInvalid) || !strings.Contains(w.Body.String(), `"field":"token"`) {
				t.Fatalf("second confirm = %d %s", w.Code, w.Body)
			}
		})
		t.Run("AddressTakenMeanwhileIs409", func(t *testing.T) {
			john := a.tokens["john"]
			if w := a.do("PATCH", "/api/v2/user", john, map[string]any{"email": "pat@example.com", "currentPassword": legalPassword}); w.Code != 200 {
				t.Fatalf("PATCH = %d %s", w.Code, w.Body)
			}
			w := a.do("POST", "/api/v2/user/email/confirm", "", map[string]any{"token": mailedToken(t, a, "pat@example.com", "/confirm-email")})
			if w.Code != 409 {
				t.Fatalf("confirm = %d %s", w.Code, w.Body)
			}
		})
	})
}

// TestTypedNameIsCheckedAgainstTheInvitedName: the names an applicant can
// edit do not decide what a signature must say.
func TestTypedNameIsCheckedAgainstTheInvitedName(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		pat := a.tokens["pat"]
		if w := a.do("PATCH", "/api/v2/user", pat, map[string]any{"firstName": "Mallory", "lastName": "Other"}); w.Code != 200 {
			t.Fatalf("PATCH = %d %s", w.Code, w.Body)
		}
		id := a.docs[portal.DocESign]
		sign := func(first, last string) (int, string) {
			w := a.do("POST", fmt.Sprintf("/api/v2/user/document/%d/signature", id), pat,
				a.body("pat", []int64{id}, map[string]any{"firstName": first, "lastName": last, "ackConsent": true, "ackNotices": true}))
			return w.Code, w.Body.String()
		}
		if code, body := sign("Mallory", "Other"); code != 422 || !strings.Contains(body, "Pat") {
			t.Fatalf("signing with the edited name = %d %s; want 422 naming the invited name", code, body)
		}
		if code, body := sign("pat", " DOE "); code != 201 {
			t.Fatalf("signing with the invited name = %d %s", code, body)
		}
	})
}

// TestWrongTypeNamesTheValue: a value of the wrong JSON type is a 422 on
// the value's path, indexes included, in words a client understands: no
// Go type or struct name leaks.
func TestWrongTypeNamesTheValue(t *testing.T) {
	eachLegalAPI(t, func(t *testing.T, a *legalAPI) {
		for _, tc := range []struct {
			name, method, path, body, field, message string
		}{
			{"AliasField", "PUT", "/api/v2/user/subject/alias", `{"aliases":[{"type":"maiden"},{"type":1}]}`, "aliases.1.type", "This value has the wrong type: expected text."},
			{"AliasEntry", "PUT", "/api/v2/user/subject/alias", `{"aliases":["x"]}`, "aliases.0", "This value has the wrong type: expected an object."},
			{"AliasList", "PUT", "/api/v2/user/subject/alias", `{"aliases":{}}`, "aliases", "This value has the wrong type: expected a list."},
			{"AddressCurrent", "PUT", "/api/v2/user/subject/address", `{"addresses":[{"current":"true"}]}`, "addresses.0.current", "This value has the wrong type: expected true or false."},
			{"Notification", "PUT", "/api/v2/user/subject/notification", `{"type":{"a":1}}`, "type", "This value has the wrong type: expected text."},
			{"Services", "POST", "/api/v2/user/data", `{"services":[1]}`, "services", "This value has the wrong type: expected an object."},
			{"ServiceList", "POST", "/api/v2/user/profile", `{"services":{"employment":"x"}}`, "services.employment", "This value has the wrong type: expected a list."},
			{"ServiceEntry", "POST", "/api/v2/user/data", `{"services":{"employment":[{},"x"]}}`, "services.employment.1", "This value has the wrong type: expected an object."},
			{"NoData", "POST", "/api/v2/user/data", `{"noDataAvailable":{"education":"yes"}}`, "noDataAvailable.education", "This value has the wrong type: expected true or false."},
			{"CountyRange", "POST", "/api/v2/user/data", `{"location":{"residency":{"county":99999999999999999999}}}`, "location.residency.county", "This number is out of range."},
			{"License", "PUT", "/api/v2/user", `{"licenses":[{"number":"1"},{"regionId":"six"}]}`, "licenses.1.regionId", "This value has the wrong type: expected a number."},
			{"Spaces", "PUT", "/api/v2/user/subject/alias", "{ \"aliases\" : [ { \"type\" : 1 } ] }", "aliases.0.type", "This value has the wrong type: expected text."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := a.do(tc.method, tc.path, a.tokens["jane"], tc.body)
				var got struct {
					ErrorFields []portal.FieldError `json:"errorFields"`
				}
				_ = json.Unmarshal(w.Body.Bytes(), &got)
				for i, f := range got.ErrorFields {
					if f.Code == "" {
						t.Errorf("field %s has no code", f.Field)
					}
					got.ErrorFields[i].Code = ""
				}
				want := []portal.FieldError{{Field: tc.field, Message: tc.message}}
				if w.Code != 422 || !reflect.DeepEqual(got.ErrorFields, want) {
					t.Fatalf("= %d %s; want 422 %v", w.Code, w.Body, want)
				}
			})
		}
		// A control character in a service value is named as the entry's
		// field errors are ({alias}.{index}.{api}).
		w := a.do("POST", "/api/v2/user/data", a.tokens["jane"], `{"services":{"employment":[{"job_title":"a\u0001"}]}}`)
		if w.Code != 422 || !strings.Contains(w.Body.String(), `"field":"employment.0.job_title"`) {
			t.Fatalf("control character = %d %s", w.Code, w.Body)
		}
	})
}
