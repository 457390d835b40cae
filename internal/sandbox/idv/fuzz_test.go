package idvsandbox_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

// FuzzPages sends arbitrary queries, forms and uploads to the sandbox's
// pages (GET /sandbox/idv/{id}, POST /sandbox/idv/{id}/{action}), which the
// portal serves to any browser: never a 5xx, and without the session's
// token nothing moves the session.
func FuzzPages(f *testing.F) {
	for _, action := range []string{"document", "selfie", "approve", "decline", "abandon", "", "../x"} {
		f.Add(action, false, true, "token=right&sample=1", []byte(nil))
		f.Add(action, true, false, "token=wrong", jpegPhoto)
	}
	f.Add("document", true, true, "", pngPhoto)
	f.Add("document", true, true, "token=right", []byte("not a photo"))
	f.Add("selfie", false, false, "token=%zz&sample=", []byte(nil))
	f.Add("document", true, true, "token=right", heicPhoto)
	f.Fuzz(func(t *testing.T, action string, multipartForm, rightToken bool, fields string, file []byte) {
		v := newVisit(t, newProvider(newClock()))
		token := "wrong"
		if rightToken {
			token = v.token
		}
		fields = strings.ReplaceAll(fields, "token=right", "token="+url.QueryEscape(token))
		path := "/sandbox/idv/" + url.PathEscape(v.id) + "/" + url.PathEscape(action)

		var req *http.Request
		if multipartForm {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			values, _ := url.ParseQuery(fields)
			for k, vs := range values {
				for _, val := range vs {
					mw.WriteField(k, val)
				}
			}
			fw, _ := mw.CreateFormFile("file", "photo.jpg")
			fw.Write(file)
			mw.Close()
			req = httptest.NewRequest("POST", path, &body)
			req.Header.Set("Content-Type", mw.FormDataContentType())
		} else {
			req = httptest.NewRequest("POST", path, strings.NewReader(fields))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		rec := httptest.NewRecorder()
		v.handler.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("POST %s (%q) = %d: %s", path, fields, rec.Code, rec.Body)
		}
		// A request line holds no space or control character: the query
		// goes as a browser would send it.
		query, _ := url.ParseQuery(fields)
		if page := v.get("/sandbox/idv/" + url.PathEscape(v.id) + "?" + query.Encode()); page.Code >= 500 {
			t.Fatalf("GET the page with %q = %d", fields, page.Code)
		}
		if !strings.Contains(fields, "token="+url.QueryEscape(v.token)) {
			if st := v.state(); st.Status != portal.IDVActive {
				t.Fatalf("without the session's token the session moved to %+v", st)
			}
		}
	})
}
