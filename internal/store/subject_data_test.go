package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
	"applicantportal/internal/store"
)

// updateLocation is the applicant's change of location through the
// subject-data service.
func updateLocation(ctx context.Context, db *store.DB, subjectID int64, upd portal.LocationUpdate) (portal.Location, error) {
	d, err := db.SubjectData().UpdateSubjectData(ctx, subjectID, portal.SubjectDataUpdate{Location: &upd})
	if err != nil {
		return portal.Location{}, err
	}
	return d.Location, nil
}

func findLocation(ctx context.Context, db *store.DB, subjectID int64) (portal.Location, error) {
	d, err := db.SubjectData().FindSubjectData(ctx, subjectID)
	if err != nil {
		return portal.Location{}, err
	}
	return d.Location, nil
}

func TestUpdateLocation(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		t.Run("ResidencySetEmploymentKeptFromOperator", func(t *testing.T) {
			loc, err := updateLocation(ctx, db, w.jane.ID, portal.LocationUpdate{
				Residency:  &portal.Place{State: " us-tx ", County: 48201},
				Employment: &portal.Place{State: "US-NV"},
			})
			if err != nil {
				t.Fatal(err)
			}
			want := portal.Location{Residency: portal.Place{State: "US-TX", County: 48201}, Employment: portal.Place{State: "US-CA", County: 6075}}
			if loc != want {
				t.Errorf("location = %+v, want %+v", loc, want)
			}
			if got, _ := findLocation(ctx, db, w.jane.ID); got != want {
				t.Errorf("stored = %+v, want %+v", got, want)
			}
		})
		t.Run("EmploymentSetWhenOperatorLeftItEmpty", func(t *testing.T) {
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "nowhere@example.com", FirstName: "N", LastName: "W"})
			if err != nil {
				t.Fatal(err)
			}
			loc, err := updateLocation(ctx, db, s.ID, portal.LocationUpdate{Employment: &portal.Place{NonUS: true, State: "US-CA"}})
			if err != nil {
				t.Fatal(err)
			}
			if loc.Employment != (portal.Place{NonUS: true}) {
				t.Errorf("employment = %+v, want outside the US without a state", loc.Employment)
			}
		})
		t.Run("ErrSetupComplete", func(t *testing.T) {
			if err := db.SetSubjectStatus(ctx, w.john.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
			_, err := updateLocation(ctx, db, w.john.ID, portal.LocationUpdate{Residency: &portal.Place{State: "US-TX"}})
			wantLegalError(t, err, portal.ECONFLICT, "")
		})
	})
}

func TestUpdateLocationRefusesUnknownStates(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		_, err := updateLocation(ctx, db, w.jane.ID, portal.LocationUpdate{Residency: &portal.Place{State: "US-ZZ"}})
		wantLegalError(t, err, portal.EINVALID, "")
		if got, _ := findLocation(ctx, db, w.jane.ID); got.Residency.State != "" {
			t.Errorf("residency stored despite the error: %+v", got.Residency)
		}
	})
}

// serviceWorld is a company whose package has education, employment with
// DOT and a criminal search (no page), and one applicant.
type serviceWorld struct {
	company *portal.Company
	pkg     *portal.Package
	jane    *portal.Subject
}

func newServiceWorld(t *testing.T, db *store.DB) *serviceWorld {
	t.Helper()
	ctx := context.Background()
	w := &serviceWorld{company: &portal.Company{Name: "Acme"}}
	if err := db.CreateCompany(ctx, w.company); err != nil {
		t.Fatal(err)
	}
	w.pkg = &portal.Package{CompanyID: w.company.ID, Name: "Drivers"}
	for _, code := range []string{"edus", "emps", "dots", "crim"} {
		w.pkg.Services = append(w.pkg.Services, portal.PackageService{Code: code, Fields: servicedefs.Standard(code)})
	}
	if err := db.CreatePackage(ctx, w.pkg); err != nil {
		t.Fatal(err)
	}
	var err error
	if w.jane, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"}); err != nil {
		t.Fatal(err)
	}
	return w
}

// validEmployer is an employment entry that passes full validation.
func validEmployer() map[string]any {
	return map[string]any{
		"employer_name": " Acme Freight ", "employer_city": "Reno", "employer_state": "US-NV", "employer_country": "US",
		"employer_phone_no": "(775) 555-0100", "job_title": "Driver", "start_date": "2019-04-01", "currently_employed": false,
		"end_date": "2023-06-30", "may_contact": "no", "reason_for_leaving": "Moved", "employer_dot": true, "dot_agency": "fmcsa",
	}
}

func saveServices(ctx context.Context, db *store.DB, subjectID int64, validated bool, noData map[string]bool, services map[string][]map[string]any) (*portal.SubjectData, error) {
	return db.SubjectData().UpdateSubjectData(ctx, subjectID, portal.SubjectDataUpdate{NoDataAvailable: noData, Services: services, Validated: validated})
}

func TestPackageServiceFieldsRoundTrip(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newServiceWorld(t, db)
		got, err := db.FindPackageByID(ctx, w.pkg.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Services) != 4 {
			t.Fatalf("services = %d", len(got.Services))
		}
		for i, svc := range got.Services {
			want := w.pkg.Services[i].Fields
			if len(svc.Fields) != len(want) {
				t.Fatalf("%s: %d fields, want %d", svc.Code, len(svc.Fields), len(want))
			}
			for j := range want {
				a, _ := json.Marshal(svc.Fields[j])
				b, _ := json.Marshal(want[j].Normalized())
				if string(a) != string(b) {
					t.Errorf("%s field %d:\n got %s\nwant %s", svc.Code, j, a, b)
				}
			}
		}
		bad := &portal.Package{CompanyID: w.company.ID, Name: "Broken", Services: []portal.PackageService{{Code: "emps",
			Fields: []portal.FieldDefinition{{API: "x", Name: "X", Type: "text", VisibleWhen: portal.Equals("nope", "1")}}}}}
		if err := db.CreatePackage(ctx, bad); err == nil {
			t.Error("a rule on an unknown field was stored")
		}
	})
}

func TestServiceDataRoundTrip(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newServiceWorld(t, db)
		d, err := db.SubjectData().FindSubjectData(ctx, w.jane.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Services) != 0 || len(d.NoDataAvailable) != 3 || d.NoDataAvailable["employment"] {
			t.Fatalf("fresh data = %+v", d)
		}

		// The in-flight save keeps a half-filled entry, trims it, drops
		// unknown keys and the values of hidden fields, and gives it an id.
		draft := map[string]any{"employer_name": " Acme Freight ", "nickname": "x", "currently_employed": true, "end_date": "2020-01-01"}
		d, err = saveServices(ctx, db, w.jane.ID, false, nil, map[string][]map[string]any{"employment": {draft}})
		if err != nil {
			t.Fatal(err)
		}
		e := d.Services["employment"][0]
		id, _ := e["id"].(string)
		if len(id) != 16 || e["employer_name"] != "Acme Freight" || e["nickname"] != nil || e["end_date"] != nil || e["currently_employed"] != true {
			t.Fatalf("draft stored as %v", e)
		}
		// Sealed: the row does not hold the employer in plain text.
		var sealed []byte
		if err := db.SQL().QueryRowContext(ctx, `SELECT sealed FROM subject_records WHERE subject_id = $1 AND kind = 'service:employment'`, w.jane.ID).Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(sealed), "Acme") {
			t.Error("the record is stored in plain text")
		}

		// The validated save names each failing field; nothing changes.
		_, err = saveServices(ctx, db, w.jane.ID, true, nil, map[string][]map[string]any{"employment": {validEmployer(), {"id": id, "employer_name": "Other"}}})
		wantFields(t, err, map[string]string{
			"employment.1.employer_city": "City is required.", "employment.1.start_date": "Start date is required.",
			"employment.1.end_date": "End date is required.", "employment.1.may_contact": "May we contact this employer? is required.",
		})
		if d, _ = db.SubjectData().FindSubjectData(ctx, w.jane.ID); d.Services["employment"][0]["employer_name"] != "Acme Freight" || len(d.Services["employment"]) != 1 {
			t.Errorf("failed save changed the data: %v", d.Services["employment"])
		}

		// A valid save keeps the given id; the new entry gets its own.
		first := validEmployer()
		first["id"] = id
		d, err = saveServices(ctx, db, w.jane.ID, true, nil, map[string][]map[string]any{"employment": {first, validEmployer()}})
		if err != nil {
			t.Fatal(err)
		}
		es := d.Services["employment"]
		if len(es) != 2 || es[0]["id"] != id || es[1]["id"] == id || es[0]["supervisor_name"] != nil {
			t.Fatalf("entries = %v", es)
		}

		// No data available: stored as the single marker; entries refused.
		_, err = saveServices(ctx, db, w.jane.ID, true, map[string]bool{"education": true}, map[string][]map[string]any{"education": {{"school_name": "X"}}})
		wantLegalError(t, err, portal.EINVALID, "")
		wantFields(t, err, map[string]string{"services.education": portal.NoDataMessage})
		d, err = saveServices(ctx, db, w.jane.ID, true, map[string]bool{"education": true}, map[string][]map[string]any{"education": {{"data_available": false}}})
		if err != nil {
			t.Fatal(err)
		}
		if !d.NoDataAvailable["education"] || len(d.Services["education"]) != 1 || d.Services["education"][0]["data_available"] != false || len(d.Services["employment"]) != 2 {
			t.Fatalf("after no data: %+v", d)
		}

		// Aliases outside the package and more than 20 entries are refused.
		_, err = saveServices(ctx, db, w.jane.ID, false, nil, map[string][]map[string]any{"credential": {}})
		wantFields(t, err, map[string]string{"services.credential": "Your profile has no credential page."})
		many := make([]map[string]any, 21)
		for i := range many {
			many[i] = map[string]any{}
		}
		_, err = saveServices(ctx, db, w.jane.ID, false, nil, map[string][]map[string]any{"employment": many})
		wantFields(t, err, map[string]string{"services.employment": "You can list at most 20 entries."})

		// The read model: personal missing, education and employment done.
		v, err := db.SubjectData().FindSubjectView(ctx, w.jane.ID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range v.Pages {
			ids = append(ids, fmt.Sprintf("%s:%v", p.ID, p.Complete))
		}
		if got := strings.Join(ids, " "); got != "personal:false aliases:false addresses:false education:true employment:true" || v.ReadyToSubmit {
			t.Errorf("pages = %s, ready = %v", got, v.ReadyToSubmit)
		}
		if st := v.ServiceStatuses["employment"]; st.Status != "pending" || st.HasError {
			t.Errorf("employment status = %+v", st)
		}

		// After setup the data still changes; once submitted it does not.
		if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
			t.Fatal(err)
		}
		err = db.Subjects().MoveSubjectStatus(ctx, w.jane.ID, portal.StatusMove{To: portal.StatusIDVStarted, Declared: true})
		wantLegalError(t, err, portal.ECONFLICT, "Your profile is not complete yet: Personal Information, Other Names, Address History.")
		if _, err := saveServices(ctx, db, w.jane.ID, false, map[string]bool{"employment": false}, nil); err != nil {
			t.Fatal(err)
		}
		if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
			t.Fatal(err)
		}
		_, err = saveServices(ctx, db, w.jane.ID, false, nil, map[string][]map[string]any{"employment": {}})
		wantLegalError(t, err, portal.ECONFLICT, "Your profile has been submitted")
	})
}

func wantFields(t *testing.T, err error, want map[string]string) {
	t.Helper()
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Code != portal.EINVALID {
		t.Fatalf("error = %v, want field errors", err)
	}
	got := map[string]string{}
	for _, f := range pe.Fields {
		got[f.Field] = f.Message
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}

// A package service without field definitions (an old database, or an
// operator who left them out) or with definitions that do not decode (a
// hand-edited row) gets the standard ones: its page is never required with
// nothing to fill in, and the company's applicants are not locked out.
func TestPackageServiceFieldsFallBackToTheStandardOnes(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		pkg := &portal.Package{Name: "Old", Services: []portal.PackageService{{Code: "emps"}, {Code: "edus"}, {Code: "crim"}}}
		c := &portal.Company{Name: "Old Corp"}
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		pkg.CompanyID = c.ID
		if err := db.CreatePackage(ctx, pkg); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SQL().ExecContext(ctx, `UPDATE package_services SET fields = '{"not": "a list"' WHERE package_id = $1 AND code = 'edus'`, pkg.ID); err != nil {
			t.Fatal(err)
		}
		got, err := db.FindPackageByID(ctx, pkg.ID)
		if err != nil {
			t.Fatalf("a bad row must not fail the package: %v", err)
		}
		for _, svc := range got.Services {
			want := len(servicedefs.Standard(svc.Code))
			if len(svc.Fields) != want {
				t.Errorf("%s: %d fields, want the %d standard ones", svc.Code, len(svc.Fields), want)
			}
		}
	})
}
