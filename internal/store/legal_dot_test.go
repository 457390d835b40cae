package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/servicedefs"
	"applicantportal/internal/signedpdf"
	"applicantportal/internal/store"
)

// employment is a saved employment record as POST /api/v2/user/profile
// stores it.
type employment struct {
	NoDataAvailable bool             `json:"noDataAvailable"`
	Entries         []map[string]any `json:"entries"`
}

// dotHistory: two DOT-regulated employers, one that is not, and a DOT entry
// without an id (which no signature can name).
var dotHistory = employment{Entries: []map[string]any{
	{"id": "a1a1a1a1a1a1a1a1", "employer_name": "Road & Rail Freight", "employer_dot": true},
	{"id": "b2b2b2b2b2b2b2b2", "employer_name": "Corner Bakery", "employer_dot": false},
	{"id": "c3c3c3c3c3c3c3c3", "employer_name": "  Blue   Line Transit ", "employer_dot": true},
	{"employer_name": "No Id Trucking", "employer_dot": true},
}}

func saveEmployment(t *testing.T, db *store.DB, subjectID int64, e employment) {
	t.Helper()
	if err := db.SaveRecordForTest(context.Background(), subjectID, portal.EmploymentRecordKind, e); err != nil {
		t.Fatal(err)
	}
}

// releaseRequest is what the app sends to sign a per-employer release.
func releaseRequest(t testing.TB, s *portal.Subject, instance, answer string) portal.SignRequest {
	r := fullRequest(t, s)
	r.Instance, r.TestedPositiveOrRefused = instance, answer
	return r
}

// signRelease signs through the whole service call, with the hashes of the
// content as GET /api/v2/document/{id} shows it (legaltext.Shown).
func (w *legalWorld) signRelease(t *testing.T, subjectID, documentID int64, req portal.SignRequest) (*portal.LegalFile, error) {
	t.Helper()
	f := w.file(t, subjectID)
	hashes := map[string]string{}
	for _, d := range f.Documents {
		_, hashes[strconv.FormatInt(d.ID, 10)] = legaltext.Shown(f, d, req.Instance)
	}
	return w.db.Legal().SignLegalDocuments(context.Background(), subjectID, portal.SigningCall{
		DocumentID: documentID, Request: req, ContentSHA256: hashes, IP: "198.51.100.7",
	})
}

func TestDOTReleases(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		release := w.docs[portal.DocDOTRelease]
		list := func(t *testing.T, subjectID int64) []portal.DOTRelease {
			t.Helper()
			got, err := db.DOTReleases(ctx, subjectID)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		t.Run("NoneBeforeEmploymentIsSaved", func(t *testing.T) {
			if got := list(t, w.jane.ID); got == nil || len(got) != 0 {
				t.Errorf("releases = %#v, want an empty list", got)
			}
		})
		t.Run("NoneWhenNoDataIsAvailable", func(t *testing.T) {
			saveEmployment(t, db, w.john.ID, employment{NoDataAvailable: true, Entries: []map[string]any{{"data_available": false}}})
			if got := list(t, w.john.ID); len(got) != 0 {
				t.Errorf("releases = %#v, want none", got)
			}
		})
		saveEmployment(t, db, w.jane.ID, dotHistory)
		t.Run("OnePerDOTFlaggedEntryInOrder", func(t *testing.T) {
			got := list(t, w.jane.ID)
			want := []portal.DOTRelease{
				{EntryID: "a1a1a1a1a1a1a1a1", EmployerName: "Road & Rail Freight", DocumentID: release},
				{EntryID: "c3c3c3c3c3c3c3c3", EmployerName: "Blue Line Transit", DocumentID: release},
			}
			if len(got) != len(want) {
				t.Fatalf("releases = %#v, want %#v", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("release %d = %#v, want %#v", i, got[i], want[i])
				}
			}
		})
		t.Run("SignedOnesCarryTheirTime", func(t *testing.T) {
			if _, err := w.signRelease(t, w.jane.ID, release, releaseRequest(t, w.jane, "c3c3c3c3c3c3c3c3", "no")); err != nil {
				t.Fatal(err)
			}
			got := list(t, w.jane.ID)
			if got[0].Signed || got[0].SignedAt != nil {
				t.Errorf("the first release is signed: %#v", got[0])
			}
			if !got[1].Signed || got[1].SignedAt == nil || !got[1].SignedAt.Equal(legalClock) {
				t.Errorf("the second release = %#v, want signed at %v", got[1], legalClock)
			}
		})
		t.Run("OnlyTheSubjectsOwn", func(t *testing.T) {
			if got := list(t, w.john.ID); len(got) != 0 {
				t.Errorf("john's releases = %#v", got)
			}
		})
	})
}

func TestSignDOTRelease(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		release := w.docs[portal.DocDOTRelease]
		saveEmployment(t, db, w.jane.ID, dotHistory)
		for _, tc := range []struct {
			name       string
			documentID int64
			req        portal.SignRequest
			code, msg  string
		}{
			{"ErrUnknownInstance", release, releaseRequest(t, w.jane, "ffffffffffffffff", "no"), portal.ENOTFOUND, "not one of the DOT-regulated employers"},
			{"ErrEntryNotDOT", release, releaseRequest(t, w.jane, "b2b2b2b2b2b2b2b2", "no"), portal.ENOTFOUND, "not one of the DOT-regulated employers"},
			{"ErrNotTheReleaseDocument", w.docs[portal.DocDisclosure], releaseRequest(t, w.jane, "a1a1a1a1a1a1a1a1", "no"), portal.ENOTFOUND, "Document not found"},
			{"ErrAnotherCompanysDocument", w.otherID, releaseRequest(t, w.jane, "a1a1a1a1a1a1a1a1", "no"), portal.ENOTFOUND, "Document not found"},
			{"ErrAnswerMissing", release, releaseRequest(t, w.jane, "a1a1a1a1a1a1a1a1", ""), portal.EINVALID, ""},
			{"ErrAnswerNotYesOrNo", release, releaseRequest(t, w.jane, "a1a1a1a1a1a1a1a1", "maybe"), portal.EINVALID, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := w.signRelease(t, w.jane.ID, tc.documentID, tc.req)
				wantLegalError(t, err, tc.code, tc.msg)
				if tc.code == portal.EINVALID && !fieldNamed(err, "testedPositiveOrRefused") {
					t.Errorf("error %v does not name testedPositiveOrRefused", err)
				}
			})
		}
		t.Run("ErrOtherSubjectsEntry", func(t *testing.T) {
			_, err := w.signRelease(t, w.john.ID, release, releaseRequest(t, w.john, "a1a1a1a1a1a1a1a1", "no"))
			wantLegalError(t, err, portal.ENOTFOUND, "")
		})

		if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
			t.Fatal(err)
		}
		t.Run("SignedAfterSetupWithTheAuditTrail", func(t *testing.T) {
			f, err := w.signRelease(t, w.jane.ID, release, releaseRequest(t, w.jane, "a1a1a1a1a1a1a1a1", "YES"))
			if err != nil {
				t.Fatal(err)
			}
			sig := f.Instance(release, "a1a1a1a1a1a1a1a1")
			switch {
			case sig == nil:
				t.Fatal("no signature of the instance")
			case f.Signed(release):
				t.Error("the instance counts as the setup wizard's signature")
			case !strings.Contains(sig.Content, "Road &amp; Rail Freight"):
				t.Errorf("the signed content does not name the employer: %s", sig.Content)
			case sig.ContentSHA256 != signedpdf.ContentHash(sig.Content):
				t.Errorf("content hash %s does not match the content", sig.ContentSHA256)
			case sig.SignatureUserIP != "198.51.100.7", !sig.CreatedAt.Equal(legalClock), len(sig.SignatureData) == 0:
				t.Errorf("audit fields: ip %q, at %v, %d bytes of image", sig.SignatureUserIP, sig.CreatedAt, len(sig.SignatureData))
			case sig.Fields.TestedPositiveOrRefused != "yes", sig.Fields.EmployerName != "Road & Rail Freight", sig.Instance != "a1a1a1a1a1a1a1a1":
				t.Errorf("fields = %+v, instance %q", sig.Fields, sig.Instance)
			case sig.SignerName != "Jane Doe", sig.DocumentVersion != 1:
				t.Errorf("signer %q, version %d", sig.SignerName, sig.DocumentVersion)
			}
		})
		t.Run("TheAnswerIsSealed", func(t *testing.T) {
			var fields string
			var sealed []byte
			if err := db.SQL().QueryRow(`SELECT fields, sealed_fields FROM legal_signatures WHERE subject_id = $1 AND instance = $2`,
				w.jane.ID, "a1a1a1a1a1a1a1a1").Scan(&fields, &sealed); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(fields, "testedPositiveOrRefused") || len(sealed) == 0 {
				t.Errorf("fields %s in plain text, %d bytes sealed", fields, len(sealed))
			}
		})
		t.Run("ErrSignedTwice", func(t *testing.T) {
			_, err := w.signRelease(t, w.jane.ID, release, releaseRequest(t, w.jane, "a1a1a1a1a1a1a1a1", "no"))
			wantLegalError(t, err, portal.ECONFLICT, "already signed the DOT release for Road & Rail Freight")
		})
		t.Run("ErrEmployerRenamedWhileSigning", func(t *testing.T) {
			// The release was read for "Blue Line Transit"; another tab renamed
			// the entry before the signature reached the transaction.
			renamed := employment{Entries: []map[string]any{
				{"id": "a1a1a1a1a1a1a1a1", "employer_name": "Road & Rail Freight", "employer_dot": true},
				{"id": "c3c3c3c3c3c3c3c3", "employer_name": "Green Line Transit", "employer_dot": true},
			}}
			saveEmployment(t, db, w.jane.ID, renamed)
			defer saveEmployment(t, db, w.jane.ID, dotHistory)
			err := db.Legal().SignLegalStep(ctx, w.jane.ID, []portal.Signature{{
				DocumentID: release, DocumentVersion: 1, Instance: "c3c3c3c3c3c3c3c3", Content: "release", ContentSHA256: "hash",
				SignerName: "Jane Doe", SignatureUserIP: "198.51.100.7",
				Fields: portal.SignatureFields{EmployerName: "Blue Line Transit", TestedPositiveOrRefused: "no"},
			}})
			wantLegalError(t, err, portal.ECONFLICT, "changed since you opened it")
		})
		t.Run("EachEmployerItsOwnRelease", func(t *testing.T) {
			f, err := w.signRelease(t, w.jane.ID, release, releaseRequest(t, w.jane, "c3c3c3c3c3c3c3c3", "no"))
			if err != nil {
				t.Fatal(err)
			}
			a, c := f.Instance(release, "a1a1a1a1a1a1a1a1"), f.Instance(release, "c3c3c3c3c3c3c3c3")
			if c == nil || !strings.Contains(c.Content, "Blue Line Transit") || strings.Contains(c.Content, "Road") ||
				c.ContentSHA256 == a.ContentSHA256 || c.Fields.TestedPositiveOrRefused != "no" {
				t.Errorf("second release = %+v", c)
			}
		})
		t.Run("DeletingLeavesTheReleases", func(t *testing.T) {
			wantLegalError(t, db.Legal().DeleteSignature(ctx, w.jane.ID, release), portal.ENOTFOUND, "")
			if w.file(t, w.jane.ID).Instance(release, "a1a1a1a1a1a1a1a1") == nil {
				t.Error("the release is gone")
			}
		})
		t.Run("ErrAfterSubmission", func(t *testing.T) {
			saveEmployment(t, db, w.jane.ID, employment{Entries: append(dotHistory.Entries,
				map[string]any{"id": "d4d4d4d4d4d4d4d4", "employer_name": "Late Haulage", "employer_dot": true})})
			if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
				t.Fatal(err)
			}
			_, err := w.signRelease(t, w.jane.ID, release, releaseRequest(t, w.jane, "d4d4d4d4d4d4d4d4", "no"))
			wantLegalError(t, err, portal.ECONFLICT, "has been submitted")
		})
	})
}

// TestSetupDOTReleaseKeepsWorking: the setup wizard's own dot_release is the
// instance "" and does not stand for any employer's release.
func TestSetupDOTReleaseKeepsWorking(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		w := newLegalWorld(t, db)
		release := w.docs[portal.DocDOTRelease]
		saveEmployment(t, db, w.jane.ID, dotHistory)
		if err := w.sign(t, w.jane.ID, release, fullRequest(t, w.jane)); err != nil {
			t.Fatal(err)
		}
		f := w.file(t, w.jane.ID)
		if !f.Signed(release) || len(f.Instances) != 0 {
			t.Fatalf("signed %v, instances %v", f.Signed(release), f.Instances)
		}
		if sig := f.Signatures[release]; strings.Contains(sig.Content, "Previous employer") || sig.Fields.TestedPositiveOrRefused != "" {
			t.Errorf("the setup release names an employer: %+v", sig)
		}
		for _, r := range f.DOTReleases() {
			if r.Signed {
				t.Errorf("release %s counts as signed by the setup signature", r.EntryID)
			}
		}
		if _, err := w.signRelease(t, w.jane.ID, release, releaseRequest(t, w.jane, "a1a1a1a1a1a1a1a1", "no")); err != nil {
			t.Fatalf("a per-employer release next to the setup one: %v", err)
		}
	})
}

func fieldNamed(err error, field string) bool {
	pe, ok := err.(*portal.Error)
	if !ok {
		return false
	}
	for _, f := range pe.Fields {
		if f.Field == field {
			return true
		}
	}
	return false
}

// TestSignAfterSetup: a document that becomes applicable after setup (here
// one the employer adds) is signed after it, with the same audit trail;
// what setup signed cannot be signed again, and nothing is signed once the
// profile is submitted.
func TestSignAfterSetup(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		w.signAllButAuthorization(t, w.jane)
		if err := w.sign(t, w.jane.ID, w.docs[portal.DocAuthorization], fullRequest(t, w.jane)); err != nil {
			t.Fatal(err)
		}
		if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
			t.Fatal(err)
		}
		t.Run("ErrSignedInSetup", func(t *testing.T) {
			wantLegalError(t, w.sign(t, w.jane.ID, w.docs[portal.DocDisclosure], fullRequest(t, w.jane)), portal.ECONFLICT, "already signed")
		})
		added := &portal.LegalDocument{CompanyID: w.company.ID, Title: "Fleet safety policy", Content: "<p>{{clientName}} safety policy.</p>",
			Type: portal.LegalDocumentType{DocumentType: "fleet_policy", Visibility: portal.VisibilityAll, Editable: true}}
		if _, err := db.SaveLegalDocument(ctx, added); err != nil {
			t.Fatal(err)
		}
		t.Run("AddedDocumentSignedAfterSetup", func(t *testing.T) {
			if got := w.file(t, w.jane.ID).UnsignedTitles(); len(got) != 1 || got[0] != "Fleet safety policy" {
				t.Fatalf("unsigned = %v", got)
			}
			if err := w.sign(t, w.jane.ID, added.ID, fullRequest(t, w.jane)); err != nil {
				t.Fatal(err)
			}
			sig := w.file(t, w.jane.ID).Signatures[added.ID]
			if sig == nil || sig.Content != "<p>Acme safety policy.</p>" || sig.ContentSHA256 != signedpdf.ContentHash(sig.Content) ||
				sig.SignatureUserIP != "203.0.113.9" || len(sig.SignatureData) == 0 || !sig.CreatedAt.Equal(legalClock) {
				t.Errorf("signature = %+v", sig)
			}
		})
		t.Run("ErrAfterSubmission", func(t *testing.T) {
			later := &portal.LegalDocument{CompanyID: w.company.ID, Title: "Later policy", Content: "<p>Later.</p>",
				Type: portal.LegalDocumentType{DocumentType: "later_policy", Visibility: portal.VisibilityAll, Editable: true}}
			if _, err := db.SaveLegalDocument(ctx, later); err != nil {
				t.Fatal(err)
			}
			if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
				t.Fatal(err)
			}
			wantLegalError(t, w.sign(t, w.jane.ID, later.ID, fullRequest(t, w.jane)), portal.ECONFLICT, "has been submitted")
		})
	})
}

// TestSignedReleaseKeepsItsEmployer: once the release of an employment
// entry is signed, a save (in-flight or validated) that puts another
// employer on that entry id is refused and changes nothing, so the
// signature never stands for an employer the applicant did not authorize.
// Removing the entry, or the same name respelled, is fine.
func TestSignedReleaseKeepsItsEmployer(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		pkg := &portal.Package{CompanyID: w.company.ID, Name: "Drivers"}
		for _, code := range []string{"emps", "dots"} {
			pkg.Services = append(pkg.Services, portal.PackageService{Code: code, Fields: servicedefs.Standard(code)})
		}
		if err := db.CreatePackage(ctx, pkg); err != nil {
			t.Fatal(err)
		}
		const id = "a1a1a1a1a1a1a1a1"
		entry := func(id, name string) map[string]any {
			e := validEmployer()
			e["employer_name"] = name
			if id != "" {
				e["id"] = id
			}
			return e
		}
		save := func(validated bool, entries ...map[string]any) error {
			_, err := saveServices(ctx, db, w.jane.ID, validated, nil, map[string][]map[string]any{"employment": entries})
			return err
		}
		if err := save(true, entry(id, "Road & Rail Freight")); err != nil {
			t.Fatal(err)
		}
		if _, err := w.signRelease(t, w.jane.ID, w.docs[portal.DocDOTRelease], releaseRequest(t, w.jane, id, "no")); err != nil {
			t.Fatal(err)
		}
		const msg = "You signed the DOT release for Road & Rail Freight. To list another employer, add a new entry."
		for _, tc := range []struct {
			name      string
			validated bool
			entries   []map[string]any
			field     string // "" when the save is allowed
		}{
			{"RenamedInFlight", false, []map[string]any{entry(id, "Other Freight")}, "employment.0.employer_name"},
			{"RenamedValidated", true, []map[string]any{entry("", "New Co"), entry(id, "Other Freight")}, "employment.1.employer_name"},
			{"Blanked", false, []map[string]any{entry(id, "")}, "employment.0.employer_name"},
			{"Respelled", true, []map[string]any{entry(id, " road &  rail freight")}, ""},
			{"Removed", true, []map[string]any{entry("", "Other Freight")}, ""},
			{"ComesBackUnderItsOldIdRenamed", false, []map[string]any{entry(id, "Other Freight")}, "employment.0.employer_name"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				err := save(tc.validated, tc.entries...)
				if tc.field == "" {
					if err != nil {
						t.Fatalf("save = %v", err)
					}
					return
				}
				wantFields(t, err, map[string]string{tc.field: msg})
				for _, r := range must(db.DOTReleases(ctx, w.jane.ID)) {
					if r.EntryID == id && r.EmployerName != "Road & Rail Freight" && r.EmployerName != "road & rail freight" {
						t.Errorf("after a refused save the release reads %#v", r)
					}
				}
			})
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
