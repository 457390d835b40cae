package store_test

import (
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"context"
	"testing"
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
