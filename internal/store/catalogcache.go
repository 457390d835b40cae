package store

import (
	"context"
	"database/sql"
	"slices"
	"sync"

	"applicantportal/internal/portal"
)

// catalogTopic is the event every change of a company or a package (its
// services and document types) publishes with the change: each process's
// Events then drops its catalog cache (Events.deliver).
const catalogTopic = "store.catalog"

// maxCachedCatalog bounds each map of the catalog cache; when one is full
// it starts again empty.
const maxCachedCatalog = 10000

// catalogCache keeps companies and packages (with their services and
// document types) by id, and each company's legal documents (titles,
// versions and regions, no texts) by company and language, as they were
// read: every authenticated request reads the applicant's company and
// package, the document list and the subject view its legal documents, and
// they change only by an operator's hand. Entries are keyed by the row's id, so an applicant only
// ever gets the company and package their subject row names.
//
// It answers only while an Events of the database is receiving the
// events of every process (live > 0): a change made anywhere publishes
// catalogTopic in its transaction, and its arrival voids every entry
// (within EventPoll on SQLite, at once on PostgreSQL). A change this
// process makes voids them at once and again when its transaction ends.
// Without events, or while they are out (a lost listening connection, a
// failing poll), the cache is empty and every read asks the database.
type catalogCache struct {
	mu sync.Mutex
	// live counts the Events receiving this database's events.
	live int
	// gen moves on at every change: a read begun before it is not kept.
	gen       uint64
	companies map[int64]portal.Company
	packages  map[packageKey]*portal.Package
	legalDocs map[legalDocsKey][]portal.LegalDocument
	// The transactions that change the catalog: reads in them go to the
	// database, and their end voids the cache again.
	voidAtEnd
}

// legalDocsKey names a company's legal documents as read in one language
// (titles differ by language).
type legalDocsKey struct {
	company int64
	lang    portal.Locale
}

// packageKey tells a package read with its services' field definitions
// from one read without them.
type packageKey struct {
	id     int64
	fields bool
}

func newCatalogCache() *catalogCache {
	c := &catalogCache{companies: map[int64]portal.Company{}, packages: map[packageKey]*portal.Package{},
		legalDocs: map[legalDocsKey][]portal.LegalDocument{}}
	c.voidAtEnd = newVoidAtEnd(c.forget)
	return c
}

// usable tells whether a read on q may use the cache, and the generation
// to give put: not while no events arrive, nor in a transaction that
// changes the catalog.
func (c *catalogCache) usable(q queryer) (uint64, bool) {
	if c.changing(q) {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live <= 0 {
		return 0, false
	}
	return c.gen, true
}

func (c *catalogCache) company(id int64) (*portal.Company, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	co, ok := c.companies[id]
	if !ok {
		return nil, false
	}
	return &co, true
}

// putCompany keeps a company read at generation gen, unless the catalog
// changed since.
func (c *catalogCache) putCompany(co *portal.Company, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || c.live <= 0 {
		return
	}
	if len(c.companies) >= maxCachedCatalog {
		clear(c.companies)
	}
	c.companies[co.ID] = *co
}

func (c *catalogCache) pkg(id int64, fields bool) (*portal.Package, bool) {
	c.mu.Lock()
	p, ok := c.packages[packageKey{id, fields}]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	return clonePackage(p), true
}

// putPackage keeps a copy of a package read at generation gen, unless the
// catalog changed since.
func (c *catalogCache) putPackage(p *portal.Package, fields bool, gen uint64) {
	kept := clonePackage(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || c.live <= 0 {
		return
	}
	if len(c.packages) >= maxCachedCatalog {
		clear(c.packages)
	}
	c.packages[packageKey{p.ID, fields}] = kept
}

// clonePackage copies what a caller could change in place: the slices of
// services, of their fields and of document types. The field definitions'
// options and rules are shared, as the definitionCache shares them.
func clonePackage(p *portal.Package) *portal.Package {
	out := *p
	out.Services = append([]portal.PackageService(nil), p.Services...)
	for i := range out.Services {
		if out.Services[i].Fields != nil {
			out.Services[i].Fields = append([]portal.FieldDefinition(nil), out.Services[i].Fields...)
		}
	}
	out.DocumentTypes = append([]portal.DocumentType(nil), p.DocumentTypes...)
	return &out
}

// legalDocuments answers a copy of the company's legal documents (without
// their texts) in a language.
func (c *catalogCache) legalDocuments(key legalDocsKey) ([]portal.LegalDocument, bool) {
	c.mu.Lock()
	docs, ok := c.legalDocs[key]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	return cloneLegalDocuments(docs), true
}

// putLegalDocuments keeps a copy of a company's legal documents read at
// generation gen, unless the catalog changed since.
func (c *catalogCache) putLegalDocuments(key legalDocsKey, docs []portal.LegalDocument, gen uint64) {
	kept := cloneLegalDocuments(docs)
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || c.live <= 0 {
		return
	}
	if len(c.legalDocs) >= maxCachedCatalog {
		clear(c.legalDocs)
	}
	c.legalDocs[key] = kept
}

// cloneLegalDocuments copies the list and each document's regions, all a
// caller could change in place.
func cloneLegalDocuments(docs []portal.LegalDocument) []portal.LegalDocument {
	if docs == nil {
		return nil
	}
	out := slices.Clone(docs)
	for i := range out {
		out[i].Type.Regions = slices.Clone(out[i].Type.Regions)
	}
	return out
}

// forget voids every entry: the catalog changed (or may have, unseen).
func (c *catalogCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.companies)
	clear(c.packages)
	clear(c.legalDocs)
}

// receiving is told when an Events starts (true) or stops (false)
// receiving every event: at its start and end, and around an outage. The
// cache is voided either way: events may have been missed.
func (c *catalogCache) receiving(on bool) {
	c.mu.Lock()
	if on {
		c.live++
	} else {
		c.live--
	}
	c.mu.Unlock()
	c.forget()
}

// catalogChanged publishes catalogTopic in tx, with the change, and voids
// this process's cache now and when tx ends. Every write to companies,
// packages, package_services, package_document_types and the legal
// documents (legal_documents and their versions, translations and regions)
// calls it.
func (s *conn) catalogChanged(ctx context.Context, tx *sql.Tx) error {
	s.catalog.forgetAfter(tx)
	return s.publishIn(ctx, tx, catalogTopic, []byte(`{}`))
}
