package store_test

import (
	"context"
	"os"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// catalogDeadline bounds how long a change made by another process may go
// unseen: an event arrives within EventPoll on SQLite, at once on
// PostgreSQL; the rest is slack for a loaded machine.
const catalogDeadline = 2 * time.Second

// TestCatalogCacheSeesChanges: two stores on one database stand for
// `portal serve` (with its Events, so it caches companies and packages)
// and an operator command (a bare DB). A change made by the command is
// seen by serve within catalogDeadline; one made by serve itself at once;
// and each company is answered by its own id.
func TestCatalogCacheSeesChanges(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, openDB func(cfg store.Config) *store.DB) {
		open := func() *store.DB {
			cfg := storetest.Config(t)
			cfg.Sealer = nil // the catalog holds no sealed data
			return openDB(cfg)
		}
		testCatalogCacheSeesChanges(t, open(), open())
	})
}

func testCatalogCacheSeesChanges(t *testing.T, serve, cli *store.DB) {
	ctx := context.Background()
	openEvents(t, serve)
	acme, globex := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Globex"}
	for _, c := range []*portal.Company{acme, globex} {
		if err := cli.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	pkg := &portal.Package{CompanyID: acme.ID, Name: "Standard", Services: []portal.PackageService{{Code: "MVR"}}}
	if err := cli.CreatePackage(ctx, pkg); err != nil {
		t.Fatal(err)
	}
	company := func(db *store.DB, id int64) *portal.Company {
		t.Helper()
		c, err := db.FindCompanyByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// Until seen reports true, or catalogDeadline passes.
	eventually := func(what string, seen func() bool) {
		t.Helper()
		for end := time.Now().Add(catalogDeadline); !seen(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("%s: not seen within %v", what, catalogDeadline)
			}
		}
	}
	eventually("the new package as Acme's default", func() bool { return company(serve, acme.ID).PackageID == pkg.ID })
	// The creations' events may still be on their way; let them arrive,
	// so that the unseen change below meets a settled cache.
	time.Sleep(3 * store.EventPoll)

	// Each id answers its own company, cached or not, in either order.
	for range 2 {
		for _, want := range []*portal.Company{acme, globex} {
			if got := company(serve, want.ID); got.ID != want.ID || got.Name != want.Name {
				t.Fatalf("company %d = %d %q, want %q", want.ID, got.ID, got.Name, want.Name)
			}
		}
	}

	// serve answers from memory: a row changed behind the store's back
	// (no event) is not read again. This proves the cache is in use.
	if _, err := cli.SQL().ExecContext(ctx, `UPDATE companies SET name = 'Acme (renamed unseen)' WHERE id = $1`, acme.ID); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * store.EventPoll)
	if got := company(serve, acme.ID).Name; got != "Acme" {
		t.Fatalf("cached company name = %q, want the cached %q", got, "Acme")
	}

	// A change by another process, through the operator services.
	if _, err := cli.Operator().Companies.SetCompanyPreference(ctx, acme.ID, portal.PrefSubjectChat, "true"); err != nil {
		t.Fatal(err)
	}
	eventually("the other process's company preference", func() bool {
		return company(serve, acme.ID).Preferences.SubjectChat
	})
	if _, err := serve.FindPackageByID(ctx, pkg.ID); err != nil { // cached
		t.Fatal(err)
	}
	if _, err := cli.Operator().Companies.SetCompanyPreference(ctx, acme.ID, portal.PrefSelfPayEnabled, "1"); err != nil {
		t.Fatal(err)
	}
	eventually("the other process's package preference", func() bool {
		p, err := serve.FindPackageByID(ctx, pkg.ID)
		return err == nil && p.SelfPayEnabled
	})

	// A change by this process is seen at once.
	if _, err := serve.Operator().Companies.SetCompanyPreference(ctx, acme.ID, portal.PrefSubjectChat, "false"); err != nil {
		t.Fatal(err)
	}
	if company(serve, acme.ID).Preferences.SubjectChat {
		t.Error("this process's company preference not seen at once")
	}
	if _, err := serve.Operator().Companies.SetCompanyPreference(ctx, acme.ID, portal.PrefSelfPayEnabled, "0"); err != nil {
		t.Fatal(err)
	}
	if p, err := serve.FindPackageByID(ctx, pkg.ID); err != nil || p.SelfPayEnabled {
		t.Errorf("this process's package preference not seen at once: %+v, %v", p, err)
	}
	second := &portal.Package{CompanyID: globex.ID, Name: "Globex standard"}
	if err := serve.CreatePackage(ctx, second); err != nil {
		t.Fatal(err)
	}
	if got := company(serve, globex.ID).PackageID; got != second.ID {
		t.Errorf("Globex's default package = %d right after it was created, want %d", got, second.ID)
	}
}

// TestCatalogCacheCopies: what the cache answers is the caller's own, so a
// caller changing it changes nothing for the next.
func TestCatalogCacheCopies(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		openEvents(t, db)
		c := &portal.Company{Name: "Acme"}
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		pkg := &portal.Package{CompanyID: c.ID, Name: "Standard", Services: []portal.PackageService{{Code: "emps"}},
			DocumentTypes: []portal.DocumentType{{Type: "license", Title: "License"}}}
		if err := db.CreatePackage(ctx, pkg); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			p, err := db.FindPackageByID(ctx, pkg.ID)
			if err != nil {
				t.Fatal(err)
			}
			if p.Services[0].Code != "emps" || len(p.Services[0].Fields) == 0 || p.DocumentTypes[0].Type != "license" {
				t.Fatalf("package = %+v, want its emps service with fields and its license", p)
			}
			p.Services[0].Code, p.Services[0].Fields[0].Name, p.DocumentTypes[0].Type = "changed", "changed", "changed"
			co, err := db.FindCompanyByID(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if co.Name != "Acme" {
				t.Fatalf("company name = %q, want Acme", co.Name)
			}
			co.Name = "changed"
		}
	})
}

// TestCatalogCacheDroppedOnAnEventsOutage: while the listening connection
// is lost, events may be missed, so the cache is dropped: a change that
// published nothing (typed into the database by hand) is read once the
// connection is lost.
func TestCatalogCacheDroppedOnAnEventsOutage(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip(storetest.EnvURL + " is not set; the listening connection is PostgreSQL's")
	}
	db := storetest.OpenPostgres(t, storetest.Config(t))
	ev := openEvents(t, db)
	ctx := context.Background()
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	name := func() string {
		t.Helper()
		got, err := db.FindCompanyByID(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Name
	}
	time.Sleep(3 * store.EventPoll) // the creation's event has arrived
	name()                          // cached
	if _, err := db.SQL().ExecContext(ctx, `UPDATE companies SET name = 'Acme (by hand)' WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	if got := name(); got != "Acme" {
		t.Fatalf("name = %q before the outage, want the cached Acme", got)
	}
	subscribed, cancel := ev.Subscribe(ctx, "chat.1")
	defer cancel()
	var schema string
	db.SQL().QueryRow(`SELECT current_schema()`).Scan(&schema)
	if _, err := db.SQL().Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`,
		`LISTEN "portal_events.`+schema+`"`); err != nil {
		t.Fatal(err)
	}
	// The subscription closes once it listens again, after the cache was
	// dropped at the loss.
	if _, ok := next(t, subscribed); ok {
		t.Fatal("got an event, want the subscription closed by the outage")
	}
	if got := name(); got != "Acme (by hand)" {
		t.Errorf("name = %q after the outage, want the database's", got)
	}
}

// TestCatalogCacheSeesLegalDocumentChanges: the legal documents' titles
// and regions, which the document list and the subject view read from the
// catalog cache, follow every write of SaveLegalDocument (an English title,
// the regions, a translation's title): made by another process (`portal
// documents load`) within catalogDeadline, by this one at once; and what
// the cache answers is the caller's own.
func TestCatalogCacheSeesLegalDocumentChanges(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, openDB func(cfg store.Config) *store.DB) {
		cfg := storetest.Config(t)
		cfg.Now = func() time.Time { return legalClock }
		serve, cli := openDB(cfg), openDB(cfg)
		openEvents(t, serve)
		w := newLegalWorld(t, cli)
		w.loadSpanishSamples(t)
		ctx := context.Background()
		es := portal.WithLocale(ctx, portal.LocaleEsUS)
		// The disclosure as serve's document list shows it, in ctx's language.
		disclosure := func(ctx context.Context) portal.LegalDocument {
			t.Helper()
			f, err := serve.Legal().FindLegalDocumentList(ctx, w.jane.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Documents {
				if d.ID == w.docs[portal.DocDisclosure] {
					return d
				}
			}
			t.Fatalf("no disclosure in %+v", f.Documents)
			return portal.LegalDocument{}
		}
		eventually := func(what string, seen func() bool) {
			t.Helper()
			for end := time.Now().Add(catalogDeadline); !seen(); time.Sleep(10 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatalf("%s: not seen within %v", what, catalogDeadline)
				}
			}
		}
		time.Sleep(3 * store.EventPoll) // the loads' events have arrived
		base := disclosure(ctx)
		disclosure(es)

		// Cached: a title changed behind the store's back is not read.
		if _, err := cli.SQL().ExecContext(ctx, `UPDATE legal_documents SET title = 'unseen' WHERE id = $1`, base.ID); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * store.EventPoll)
		if got := disclosure(ctx).Title; got != base.Title {
			t.Fatalf("cached title = %q, want the cached %q", got, base.Title)
		}

		// Each caller gets its own copy.
		d := disclosure(ctx)
		d.Type.Regions = append(d.Type.Regions, portal.Region{StateCode: "US-XX"})
		if got := disclosure(ctx).Type.Regions; len(got) != len(base.Type.Regions) {
			t.Fatalf("regions %+v after a caller changed its copy, want %+v", got, base.Type.Regions)
		}

		save := func(db *store.DB, title string, lang portal.Locale, regions []portal.Region) {
			t.Helper()
			vis := portal.VisibilityAll
			if len(regions) > 0 {
				vis = portal.VisibilityRegional
			}
			d := &portal.LegalDocument{CompanyID: w.company.ID, Title: title, Content: "<p>" + title + "</p>", Language: lang,
				Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Visibility: vis, Regions: regions, Editable: true}}
			if _, err := db.SaveLegalDocument(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
		ca := []portal.Region{{StateCode: "US-CA"}}
		tests := []struct {
			name string
			by   *store.DB
			save func(db *store.DB)
			seen func() bool
		}{
			{"an English title and regions", cli, func(db *store.DB) { save(db, "Disclosure (other)", portal.LocaleEnUS, ca) },
				func() bool { d := disclosure(ctx); return d.Title == "Disclosure (other)" && len(d.Type.Regions) == 1 }},
			{"a translation's title", cli, func(db *store.DB) { save(db, "Divulgación (otra)", portal.LocaleEsUS, nil) },
				func() bool { return disclosure(es).Title == "Divulgación (otra)" }},
			{"an English title, by this process", serve, func(db *store.DB) { save(db, "Disclosure (here)", portal.LocaleEnUS, nil) },
				func() bool { d := disclosure(ctx); return d.Title == "Disclosure (here)" && len(d.Type.Regions) == 0 }},
			{"a translation's title, by this process", serve, func(db *store.DB) { save(db, "Divulgación (aquí)", portal.LocaleEsUS, nil) },
				func() bool { return disclosure(es).Title == "Divulgación (aquí)" }},
		}
		for _, tt := range tests {
			disclosure(ctx) // cached before the change
			disclosure(es)
			tt.save(tt.by)
			if tt.by == serve {
				if !tt.seen() {
					t.Errorf("%s: not seen at once", tt.name)
				}
				continue
			}
			eventually(tt.name, tt.seen)
		}
	})
}
