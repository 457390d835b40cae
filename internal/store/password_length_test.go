package store_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// TestPasswordMinimumIsNeverBelow12 (ASVS 2.1.1): a company minimum stored
// when the floor was 8 reads, and is applied, as portal.MinSubjectPasswordLength
// (12); a higher one stands. An operator can no longer set one below 12
// (TestOperatorCompanyPreferences).
func TestPasswordMinimumIsNeverBelow12(t *testing.T) {
	const words = "zebra quilt mango fjord violin"
	if portal.MinSubjectPasswordLength != 12 {
		t.Fatalf("portal.MinSubjectPasswordLength = %d; ASVS 2.1.1 asks 12", portal.MinSubjectPasswordLength)
	}
	storetest.Each(t, sessionConfig(t, newClock()), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, tt := range []struct {
			stored, applied int
		}{
			{8, 12},
			{11, 12},
			{12, 12},
			{15, 15},
		} {
			t.Run(fmt.Sprintf("Stored%dApplies%d", tt.stored, tt.applied), func(t *testing.T) {
				company := &portal.Company{Name: "Floor", Preferences: portal.CompanyPreferences{SubjectPasswordLength: tt.stored}}
				if err := db.CreateCompany(ctx, company); err != nil {
					t.Fatal(err)
				}
				c, err := db.FindCompanyByID(ctx, company.ID)
				if err != nil || c.Preferences.SubjectPasswordLength != tt.applied {
					t.Fatalf("company reads %+v, %v; want minimum %d", c, err, tt.applied)
				}
				prefs, err := db.Operator().Companies.CompanyPreferences(ctx, company.ID)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range prefs {
					if p.Name == portal.PrefSubjectPasswordLength && p.Value != strconv.Itoa(tt.applied) {
						t.Errorf("the operator sees %s = %s; want %d", p.Name, p.Value, tt.applied)
					}
				}
				sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: company.ID, Email: fmt.Sprintf("floor%d@example.com", tt.stored),
					FirstName: "Riley", LastName: "Stonebridge"})
				if err != nil {
					t.Fatal(err)
				}
				short, long := words[:tt.applied-1], words[:tt.applied]
				pe := wantCode(t, db.Auth().SetInitialPassword(ctx, sub.ID, short), portal.EINVALID)
				if want := fmt.Sprintf("at least %d characters", tt.applied); !strings.Contains(pe.Fields[0].Message, want) {
					t.Errorf("%q refused with %v; want %q", short, pe.Fields, want)
				}
				if err := db.Auth().SetInitialPassword(ctx, sub.ID, long); err != nil {
					t.Errorf("%q (%d characters) refused: %v", long, len(long), err)
				}
			})
		}
	})
}
