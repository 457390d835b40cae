package demo_test

import (
	"context"
	"strings"
	"testing"

	"applicantportal/internal/demo"
	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// seededTables are every table the demo seed writes to.
var seededTables = []string{"companies", "packages", "package_services", "package_document_types", "legal_documents", "legal_document_regions",
	"legal_document_versions", "legal_document_translations", "subjects", "profiles", "orders", "subject_locations", "token_families", "tokens",
	"invitations", "login_failures", "legal_signatures", "personal_info", "outbox", "pdf_forms", "files", "file_chunks"}

func rowCounts(t *testing.T, db *store.DB) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, table := range seededTables {
		var n int
		if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts[table] = n
	}
	return counts
}

func wantComplete(t *testing.T, db *store.DB, res demo.Result) {
	t.Helper()
	ctx := context.Background()
	if !res.Seeded || !strings.HasPrefix(res.InvitationURL, "http://portal.test/setup?token=") ||
		res.Username != demo.LoginEmail || res.Password != demo.LoginPass {
		t.Fatalf("Seed = %+v", res)
	}
	sub, err := db.Subjects().FindSubjectByUsername(ctx, demo.LoginEmail)
	if err != nil {
		t.Fatal(err)
	}
	if sub.StatusID != portal.StatusSetupComplete || !sub.HasPassword {
		t.Fatalf("demo login subject = %+v; want setup complete with a password", sub)
	}
	view, err := db.Subjects().FindUserView(ctx, sub.ID)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, dt := range view.Package.DocumentTypes {
		types = append(types, dt.Type)
	}
	if strings.Join(types, ",") != "drivers_license,diploma,other" {
		t.Errorf("demo package document types = %v", types)
	}
	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Auth().Login(ctx, portal.Credentials{ClientID: "spa", ClientSecret: "spa-secret", Username: demo.LoginEmail, Password: demo.LoginPass}); err != nil {
		t.Fatalf("demo login: %v", err)
	}
	token := strings.TrimPrefix(res.InvitationURL, "http://portal.test/setup?token=")
	if _, err := db.Auth().TokenLogin(ctx, token); err != nil {
		t.Fatalf("demo invitation link: %v", err)
	}
}

// TestFailedSeedLeavesNothingBehind proves a seed that fails halfway (here:
// a store without a data key cannot seal the demo login's personal
// information, after the company, the documents and both applicants were
// written) leaves an empty database, and that the next start seeds it all.
func TestFailedSeedLeavesNothingBehind(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		ctx := context.Background()
		noKey := storetest.Config(t)
		noKey.Sealer = nil
		broken := open(noKey)
		if _, err := demo.Seed(ctx, broken, "http://portal.test"); err == nil {
			t.Fatal("Seed without a data key succeeded")
		}
		for table, n := range rowCounts(t, broken) {
			if n != 0 {
				t.Errorf("the failed seed left %d rows in %s", n, table)
			}
		}
		broken.Close()

		db := open(storetest.Config(t))
		res, err := demo.Seed(ctx, db, "http://portal.test")
		if err != nil {
			t.Fatalf("the seed after a failed one: %v", err)
		}
		wantComplete(t, db, res)
	})
}

// TestSeedRunsOnce proves a restart seeds nothing more and gives a new
// invitation link.
func TestSeedRunsOnce(t *testing.T) {
	storetest.EachShared(t, func(t *testing.T, open func(store.Config) *store.DB) {
		ctx := context.Background()
		db := open(storetest.Config(t))
		first, err := demo.Seed(ctx, db, "http://portal.test")
		if err != nil {
			t.Fatal(err)
		}
		wantComplete(t, db, first)
		before := rowCounts(t, db)
		again, err := demo.Seed(ctx, db, "http://portal.test")
		if err != nil {
			t.Fatal(err)
		}
		if again.Seeded || again.InvitationURL == "" || again.InvitationURL == first.InvitationURL {
			t.Fatalf("second Seed = %+v; want no seeding and a new link", again)
		}
		after := rowCounts(t, db)
		before["invitations"]++
		for table, n := range after {
			if n != before[table] {
				t.Errorf("the second start changed %s: %d rows, %d before", table, n, before[table])
			}
		}
	})
}

// TestSeedAddsTheForms: the demo package has both forms, with the field
// names of the committed PDFs; the demo login (working in California, no
// Idaho address) is asked only for the MVR request.
func TestSeedAddsTheForms(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := demo.Seed(ctx, db, "http://portal.test"); err != nil {
			t.Fatal(err)
		}
		var codes []string
		rows, err := db.SQL().Query(`SELECT code FROM pdf_forms ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var c string
			rows.Scan(&c)
			codes = append(codes, c)
		}
		rows.Close()
		if strings.Join(codes, ",") != "idaho-release,mvr-request" {
			t.Errorf("demo forms %q; want idaho-release, mvr-request", codes)
		}
		sub, err := db.Subjects().FindSubjectByUsername(ctx, demo.LoginEmail)
		if err != nil {
			t.Fatal(err)
		}
		forms, err := db.Documents().FindPdfForms(ctx, sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(forms) != 1 || forms[0].Code != "mvr-request" || forms[0].Required || len(forms[0].FieldNames) != 8 {
			t.Errorf("the demo login's forms = %+v; want the optional MVR request with its 8 fields", forms)
		}
	})
}

// TestSeedLoadsTheSamplesInEveryLanguage: the demo employer's documents
// read in Spanish are the Spanish samples, each marked as a sample, and in
// English the English ones.
func TestSeedLoadsTheSamplesInEveryLanguage(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := demo.Seed(ctx, db, "http://portal.test"); err != nil {
			t.Fatal(err)
		}
		companies, err := db.FindCompanies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range portal.Locales {
			docs, err := db.FindCompanyLegalDocuments(portal.WithLocale(ctx, lang), companies[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			samples := legaltext.SamplesIn(lang)
			if len(docs) != len(samples) {
				t.Fatalf("%s: %d documents, %d samples", lang, len(docs), len(samples))
			}
			for i, d := range docs {
				if d.Language != lang || d.Title != samples[i].Title || d.Version != 1 || !legaltext.IsSample(d.Content) {
					t.Errorf("%s: document %s is %s %q version %d; want the sample %q", lang, d.Type.DocumentType, d.Language, d.Title, d.Version, samples[i].Title)
				}
			}
		}
	})
}
