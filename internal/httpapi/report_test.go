package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	"applicantportal/internal/portal"
)

// reportAPI is documentsAPI's Jane with her personal information (born
// 1990-04-12, SSN ending 6789) and API keys of her company and of another.
type reportAPI struct {
	*documentsAPI
	acmeKey, otherKey string
}

func eachReportAPI(t *testing.T, run func(t *testing.T, a *reportAPI)) {
	t.Helper()
	eachDocumentsAPI(t, func(t *testing.T, d *documentsAPI) {
		ctx := context.Background()
		a := &reportAPI{documentsAPI: d}
		if err := d.db.Personal().SavePersonalInfo(ctx, d.ids["jane"], &portal.PersonalInfo{FirstName: "Jane", LastName: "Doe",
			DOB: "1990-04-12", SSN: "123456789"}); err != nil {
			t.Fatal(err)
		}
		var acme int64
		if err := d.db.SQL().QueryRow(`SELECT company_id FROM subjects WHERE id = $1`, d.ids["jane"]).Scan(&acme); err != nil {
			t.Fatal(err)
		}
		other := &portal.Company{Name: "Other"}
		if err := d.db.CreateCompany(ctx, other); err != nil {
			t.Fatal(err)
		}
		ops := d.db.Operator()
		var err error
		if _, a.acmeKey, err = ops.APIKeys.CreateAPIKey(ctx, acme, "HR system"); err != nil {
			t.Fatal(err)
		}
		if _, a.otherKey, err = ops.APIKeys.CreateAPIKey(ctx, other.ID, "Other HR"); err != nil {
			t.Fatal(err)
		}
		run(t, a)
	})
}

func (a *reportAPI) confirm(who string, body map[string]any) *httptest.ResponseRecorder {
	a.t.Helper()
	return a.send(request{Method: "POST", URL: "/api/v2/user/profile/report/confirm", Token: a.tokens[who], Body: body})
}

func TestReportDownloads(t *testing.T) {
	eachReportAPI(t, func(t *testing.T, a *reportAPI) {
		kinds := []struct {
			path, missing, file string
			kind                portal.ReportKind
		}{
			{"report", "Your background report is not available yet.", "background-report", portal.ReportBackground},
			{"drug-report", "Your drug test report is not available yet.", "drug-test-report", portal.ReportDrug},
			{"ecoc-form", "Your custody and control form is not available yet.", "custody-and-control-form", portal.ReportECOC},
		}
		profile, err := a.db.Subjects().FindProfile(context.Background(), a.ids["jane"])
		if err != nil {
			t.Fatal(err)
		}
		if rec := a.confirm("jane", map[string]any{"dob": "1990-04-12", "ssnLast4": "6789"}); rec.Code != 200 || jsonOf(t, rec)["granted"] != true {
			t.Fatalf("confirm = %d %s", rec.Code, rec.Body)
		}
		for _, k := range kinds {
			t.Run(k.path, func(t *testing.T) {
				rec := a.do("GET", "/api/v2/user/profile/"+k.path, "jane")
				if rec.Code != 404 || jsonOf(t, rec)["errorMessage"] != k.missing {
					t.Fatalf("before attaching = %d %s", rec.Code, rec.Body)
				}
				content := []byte("%PDF-1.4\n" + k.path + "\n%%EOF\n")
				rec = a.send(request{Method: "POST", URL: fmt.Sprintf("/api/v2/operator/applicants/%d/reports/%s", a.ids["jane"], k.path),
					Token: a.acmeKey, Body: content, ContentType: "application/pdf"})
				if rec.Code != 201 || jsonOf(t, rec)["size"] != float64(len(content)) {
					t.Fatalf("attach = %d %s", rec.Code, rec.Body)
				}
				name := k.file + "-" + profile.Number + ".pdf"
				for _, disposition := range []string{"?disposition=inline", ""} {
					rec = a.do("GET", "/api/v2/user/profile/"+k.path+disposition, "jane")
					if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), content) || rec.Header().Get("Content-Type") != "application/pdf" ||
						rec.Header().Get("Content-Disposition") != `attachment; filename="`+name+`"; filename*=UTF-8''`+name ||
						rec.Header().Get("Content-Security-Policy") != "sandbox" {
						t.Errorf("after attaching = %d %v %q", rec.Code, rec.Header(), rec.Body)
					}
				}
				if rec := a.do("GET", "/api/v2/user/profile/"+k.path, "bob"); rec.Code != 404 {
					t.Errorf("bob = %d", rec.Code)
				}
			})
		}
		rec := a.send(request{Method: "GET", URL: fmt.Sprintf("/api/v2/operator/applicants/%d/report-views", a.ids["jane"]), Token: a.acmeKey})
		views := jsonOf(t, rec)["payload"].([]any)
		if rec.Code != 200 || len(views) != 6 {
			t.Fatalf("views = %d %s", rec.Code, rec.Body)
		}
		if v := views[0].(map[string]any); v["kind"] != "ecoc-form" || v["disposition"] != "attachment" || v["address"] != "192.0.2.1" {
			t.Errorf("newest view = %v", v)
		}
		reports := jsonOf(t, a.do("GET", "/api/v2/user/profile/documents", "jane"))["reports"].([]any)
		if len(reports) != 3 {
			t.Fatalf("reports = %v", reports)
		}
		for i, k := range kinds {
			r := reports[i].(map[string]any)
			if r["kind"] != k.path || r["name"] != k.file+"-"+profile.Number+".pdf" {
				t.Errorf("report %d = %v", i, r)
			}
		}
	})
}

func TestReportAPI(t *testing.T) {
	eachReportAPI(t, func(t *testing.T, a *reportAPI) {
		jane := a.ids["jane"]
		pdf := []byte("%PDF-1.4\nreport\n%%EOF\n")
		attach := func(id int64, kind string) string {
			return fmt.Sprintf("/api/v2/operator/applicants/%d/reports/%s", id, kind)
		}
		views := func(id int64) string { return fmt.Sprintf("/api/v2/operator/applicants/%d/report-views", id) }
		multipartPDF, ct := multipartStream(filePart("Background.pdf", "application/pdf", pdf))
		var multipartBody bytes.Buffer
		multipartBody.ReadFrom(multipartPDF)
		tests := []struct {
			name       string
			req        request
			wantStatus int
			wantBody   string
		}{
			{"AccessBeforeConfirming", request{Method: "GET", URL: "/api/v2/user/profile/report/access", Token: a.tokens["jane"]}, 200,
				`{"granted":false,"grantedUntil":null,"lockedUntil":null,"ssnRequired":true,"triesLeft":5,"fileNames":{"drug-report":"drug-test-report-`},
			{"ConfirmEmpty", request{Method: "POST", URL: "/api/v2/user/profile/report/confirm", Token: a.tokens["jane"], Body: map[string]any{}}, 422,
				`{"field":"dob","message":"Enter your date of birth.","code":"personal.dob_required"}`},
			{"ConfirmWrong", request{Method: "POST", URL: "/api/v2/user/profile/report/confirm", Token: a.tokens["jane"],
				Body: map[string]any{"dob": "1990-04-12", "ssnLast4": "1234"}}, 422, `4 tries left before a 15-minute lock`},
			{"AttachAnotherCompanysApplicant", request{Method: "POST", URL: attach(jane, "report"), Token: a.otherKey, Body: pdf, ContentType: "application/pdf"}, 404,
				`"errorMessage":"Applicant not found."`},
			{"AttachWithoutKey", request{Method: "POST", URL: attach(jane, "report"), Body: pdf, ContentType: "application/pdf"}, 401, ``},
			{"AttachNotAPDF", request{Method: "POST", URL: attach(jane, "report"), Token: a.acmeKey, Body: "hello", ContentType: "application/pdf"}, 415,
				`it is not a real PDF`},
			{"AttachUnknownKind", request{Method: "POST", URL: attach(jane, "credit"), Token: a.acmeKey, Body: pdf, ContentType: "application/pdf"}, 422, `Unknown report kind`},
			{"AttachMultipart", request{Method: "POST", URL: attach(jane, "report"), Token: a.acmeKey, Body: multipartBody.Bytes(), ContentType: ct}, 201,
				`"name":"Background.pdf"`},
			{"ReportForbiddenBeforeConfirming", request{Method: "GET", URL: "/api/v2/user/profile/report", Token: a.tokens["jane"]}, 403,
				`"errorMessage":"Confirm your identity to open your report."`},
			{"ViewsOfAnotherCompanysApplicant", request{Method: "GET", URL: views(jane), Token: a.otherKey}, 404, `"errorMessage":"Applicant not found."`},
			{"Views", request{Method: "GET", URL: views(jane), Token: a.acmeKey}, 200, `{"freeCopy":null,"freeCopyAsked":false,"payload":[]}`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := a.send(tt.req)
				if rec.Code != tt.wantStatus || !bytes.Contains(rec.Body.Bytes(), []byte(tt.wantBody)) {
					t.Errorf("= %d %s; want %d with %s", rec.Code, rec.Body, tt.wantStatus, tt.wantBody)
				}
			})
		}
		t.Run("LockedWithRetryAfter", func(t *testing.T) {
			for i := 0; i < 3; i++ {
				a.confirm("jane", map[string]any{"dob": "1990-04-12", "ssnLast4": "1234"})
			}
			rec := a.confirm("jane", map[string]any{"dob": "1990-04-12", "ssnLast4": "1234"})
			if rec.Code != 429 || rec.Header().Get("Retry-After") != "900" || !bytes.Contains(rec.Body.Bytes(), []byte("you can try again at")) {
				t.Errorf("fifth wrong try = %d %v %s", rec.Code, rec.Header(), rec.Body)
			}
			if rec := a.confirm("jane", map[string]any{"dob": "1990-04-12", "ssnLast4": "6789"}); rec.Code != 429 {
				t.Errorf("right answer while locked = %d %s", rec.Code, rec.Body)
			}
		})
	})
}
