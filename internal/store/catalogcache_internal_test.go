package store

import (
	"database/sql"
	"testing"

	"applicantportal/internal/portal"
)

// TestCatalogCacheAnswersOnlyWhileEventsArrive: without an Events
// receiving (none opened, or one in an outage) nothing is kept or
// answered; an outage drops what was kept; a read begun before a change is
// not kept after it; a transaction that changes the catalog reads the
// database.
func TestCatalogCacheAnswersOnlyWhileEventsArrive(t *testing.T) {
	acme := &portal.Company{ID: 1, Name: "Acme"}
	tests := []struct {
		name string
		// run leaves c with or without Acme cached.
		run  func(c *catalogCache)
		want bool
	}{
		{"kept while events arrive", func(c *catalogCache) {
			c.receiving(true)
			gen, ok := c.usable(nil)
			if !ok {
				t.Fatal("not usable while events arrive")
			}
			c.putCompany(acme, gen)
		}, true},
		{"no events: not kept", func(c *catalogCache) {
			if _, ok := c.usable(nil); ok {
				t.Fatal("usable without events")
			}
			c.putCompany(acme, 0)
		}, false},
		{"an outage drops what was kept", func(c *catalogCache) {
			c.receiving(true)
			gen, _ := c.usable(nil)
			c.putCompany(acme, gen)
			c.receiving(false)
		}, false},
		{"back after an outage: kept again", func(c *catalogCache) {
			c.receiving(true)
			c.receiving(false)
			c.receiving(true)
			gen, _ := c.usable(nil)
			c.putCompany(acme, gen)
		}, true},
		{"a read begun before a change is not kept", func(c *catalogCache) {
			c.receiving(true)
			gen, _ := c.usable(nil)
			c.forget() // the change's event arrives while the read runs
			c.putCompany(acme, gen)
		}, false},
		{"a changing transaction reads the database, and its end voids the cache", func(c *catalogCache) {
			c.receiving(true)
			tx := new(sql.Tx)
			c.forgetAfter(tx)
			if _, ok := c.usable(tx); ok {
				t.Fatal("usable in a transaction that changes the catalog")
			}
			gen, _ := c.usable(nil)
			c.putCompany(acme, gen) // a read outside, before the commit
			c.ended(tx)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCatalogCache()
			tt.run(c)
			got, ok := c.company(acme.ID)
			if ok != tt.want {
				t.Fatalf("cached = %v, want %v", ok, tt.want)
			}
			if ok && *got != *acme {
				t.Fatalf("cached company = %+v, want %+v", got, acme)
			}
		})
	}
}
