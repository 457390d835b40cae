package store_test

import (
	"context"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// Decoded field definitions are remembered by their stored text, so a
// change made through another handle of the database (another instance,
// an operator command) is seen at once, and a caller changing its copy
// changes no one else's.
func TestServiceDefinitionsFollowTheStoredText(t *testing.T) {
	ctx := context.Background()
	storetest.EachShared(t, func(t *testing.T, open func(cfg store.Config) *store.DB) {
		cfg := storetest.Config(t)
		here, there := open(cfg), open(cfg)
		c := &portal.Company{Name: "Acme"}
		if err := here.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		pkg := &portal.Package{CompanyID: c.ID, Name: "Basic", Services: []portal.PackageService{{Code: "edus", Fields: servicedefs.Standard("edus")}}}
		if err := here.CreatePackage(ctx, pkg); err != nil {
			t.Fatal(err)
		}
		fieldCount := func() int {
			t.Helper()
			p, err := here.FindPackageByID(ctx, pkg.ID)
			if err != nil {
				t.Fatal(err)
			}
			return len(p.Services[0].Fields)
		}
		before := fieldCount()
		mine, err := here.FindPackageByID(ctx, pkg.ID)
		if err != nil {
			t.Fatal(err)
		}
		mine.Services[0].Fields[0].Name = "changed by a caller"
		if p, _ := here.FindPackageByID(ctx, pkg.ID); p.Services[0].Fields[0].Name == "changed by a caller" {
			t.Fatal("a caller's change reached another caller")
		}
		fewer, err := portal.EncodeDefinitions(servicedefs.Standard("edus")[:2])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := there.SQL().ExecContext(ctx, `UPDATE package_services SET fields = $1 WHERE package_id = $2`, fewer, pkg.ID); err != nil {
			t.Fatal(err)
		}
		if got := fieldCount(); got != 2 || before <= 2 {
			t.Fatalf("%d fields after the change elsewhere (%d before), want 2", got, before)
		}
	})
}
