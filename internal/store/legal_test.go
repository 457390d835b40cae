package store_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/legaltext"
	"applicantportal/internal/portal"
	"applicantportal/internal/signedpdf"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// legalClock is the fixed time of the legal tests.
var legalClock = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

// eachLegalDB runs a test against a fresh SQLite database and, when
// PORTAL_TEST_DATABASE_URL is set, against a fresh PostgreSQL schema.
func eachLegalDB(t *testing.T, run func(t *testing.T, db *store.DB)) {
	t.Helper()
	cfg := storetest.Config(t)
	cfg.Now = func() time.Time { return legalClock }
	storetest.Each(t, cfg, run)
}

// legalWorld is a company with the sample documents and two applicants
// working in San Francisco, and a second company with its own documents.
type legalWorld struct {
	db      *store.DB
	company *portal.Company
	other   *portal.Company
	jane    *portal.Subject
	john    *portal.Subject
	docs    map[string]int64 // document type -> id, of company
	otherID int64            // a document of the other company
}

func newLegalWorld(t *testing.T, db *store.DB) *legalWorld {
	t.Helper()
	ctx := context.Background()
	w := &legalWorld{db: db, docs: map[string]int64{}}
	w.company = &portal.Company{Name: "Acme", AccountingCode: "ACC-1"}
	w.other = &portal.Company{Name: "Other Corp"}
	for _, c := range []*portal.Company{w.company, w.other} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range legaltext.Samples() {
		html, err := legaltext.RenderMarkdown(s.Markdown)
		if err != nil {
			t.Fatal(err)
		}
		d := &portal.LegalDocument{CompanyID: w.company.ID, Title: s.Title, Content: html,
			Type: portal.LegalDocumentType{DocumentType: s.DocumentType, Visibility: s.Visibility, Regions: s.Regions, Editable: true}}
		if _, err := db.SaveLegalDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
		w.docs[s.DocumentType] = d.ID
	}
	od := &portal.LegalDocument{CompanyID: w.other.ID, Title: "Other disclosure", Content: "<p>Other</p>",
		Type: portal.LegalDocumentType{DocumentType: portal.DocDisclosure, Visibility: portal.VisibilityAll, Editable: true}}
	if _, err := db.SaveLegalDocument(ctx, od); err != nil {
		t.Fatal(err)
	}
	w.otherID = od.ID
	var err error
	if w.jane, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"}); err != nil {
		t.Fatal(err)
	}
	if w.john, err = db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "john@example.com", FirstName: "John", LastName: "Roe"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*portal.Subject{w.jane, w.john} {
		if err := db.SetEmploymentLocation(ctx, s.ID, portal.Place{State: "US-CA", County: 6075}); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func testSignaturePNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 200, 60))
	for x := 10; x < 190; x++ {
		img.Set(x, 30+(x%20)-10, color.NRGBA{A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fullRequest fills every field any step asks for.
func fullRequest(t testing.TB, s *portal.Subject) portal.SignRequest {
	return portal.SignRequest{
		Signature: "data:image/png;base64," + base64.StdEncoding.EncodeToString(testSignaturePNG(t)),
		SignatureFields: portal.SignatureFields{
			FirstName: s.FirstName, LastName: s.LastName, AckConsent: true, AckNotices: true, AckReceipt: true,
			AuthConsent: true, AckReceiptYourRights: true, AckFed: true, AckSf: true, AckCaCredit: true,
			LastFourSSN: "1234", FreeReportCopy: true,
		},
	}
}

// prepare checks a signing as the HTTP layer does, with the hashes of the
// content as shown.
func (w *legalWorld) prepare(t *testing.T, subjectID, documentID int64, req portal.SignRequest, ip string) ([]portal.Signature, error) {
	t.Helper()
	f, err := w.db.Legal().FindLegalDocuments(context.Background(), subjectID)
	if err != nil {
		t.Fatal(err)
	}
	shown := func(d portal.LegalDocument) (string, string) {
		c := legaltext.Render(d.Content, f.Subject, f.Company)
		return c, signedpdf.ContentHash(c)
	}
	hashes := map[string]string{}
	for _, d := range f.Documents {
		_, hashes[strconv.FormatInt(d.ID, 10)] = shown(d)
	}
	return f.Sign(portal.Signing{DocumentID: documentID, Request: req, ContentSHA256: hashes, IP: ip, Shown: shown})
}

func (w *legalWorld) sign(t *testing.T, subjectID, documentID int64, req portal.SignRequest) error {
	t.Helper()
	sigs, err := w.prepare(t, subjectID, documentID, req, "203.0.113.9")
	if err != nil {
		return err
	}
	return w.db.Legal().SignLegalStep(context.Background(), subjectID, sigs)
}

// signAllButAuthorization signs every pending step before the
// authorization, which the subject may sign only last.
func (w *legalWorld) signAllButAuthorization(t *testing.T, s *portal.Subject) {
	t.Helper()
	for _, step := range w.file(t, s.ID).PendingSteps() {
		if step.DocumentType != portal.DocAuthorization {
			if err := w.sign(t, s.ID, step.Documents[0].ID, fullRequest(t, s)); err != nil {
				t.Fatalf("sign %s: %v", step.DocumentType, err)
			}
		}
	}
}

func (w *legalWorld) file(t *testing.T, subjectID int64) *portal.LegalFile {
	t.Helper()
	f, err := w.db.Legal().FindLegalDocuments(context.Background(), subjectID)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func wantLegalError(t *testing.T, err error, code string, msgPart string) {
	t.Helper()
	if portal.ErrorCode(err) != code {
		t.Fatalf("error = %v, want code %s", err, code)
	}
	if msgPart != "" && !strings.Contains(portal.ErrorMessage(err), msgPart) {
		t.Fatalf("message %q lacks %q", portal.ErrorMessage(err), msgPart)
	}
}

func TestSaveLegalDocument(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := &portal.Company{Name: "Acme"}
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		doc := func(content string, regions ...portal.Region) *portal.LegalDocument {
			return &portal.LegalDocument{CompanyID: c.ID, Title: "Notice", Content: content,
				Type: portal.LegalDocumentType{DocumentType: "local_notice", Visibility: portal.VisibilityRegional, Regions: regions, Editable: true}}
		}
		first := doc("<p>One</p>", portal.Region{StateCode: "us-ca"})
		changed, err := db.SaveLegalDocument(ctx, first)
		if err != nil || !changed || first.Version != 1 || first.ID == 0 {
			t.Fatalf("create: changed=%v version=%d id=%d err=%v", changed, first.Version, first.ID, err)
		}
		t.Run("SameTextKeepsVersion", func(t *testing.T) {
			d := doc("<p>One</p>", portal.Region{CountyID: 6075})
			changed, err := db.SaveLegalDocument(ctx, d)
			if err != nil || changed || d.Version != 1 || d.ID != first.ID {
				t.Fatalf("changed=%v version=%d id=%d err=%v", changed, d.Version, d.ID, err)
			}
		})
		t.Run("ChangedTextAddsVersion", func(t *testing.T) {
			d := doc("<p>Two</p>", portal.Region{StateCode: "US-NY"}, portal.Region{CountyID: 36061})
			changed, err := db.SaveLegalDocument(ctx, d)
			if err != nil || !changed || d.Version != 2 || d.ID != first.ID {
				t.Fatalf("changed=%v version=%d id=%d err=%v", changed, d.Version, d.ID, err)
			}
			docs, err := db.FindCompanyLegalDocuments(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 1 || docs[0].Version != 2 || docs[0].Content != "<p>Two</p>" {
				t.Fatalf("current = %+v, want version 2 only", docs)
			}
			want := []portal.Region{{StateCode: "US-NY"}, {CountyID: 36061}}
			if !reflect.DeepEqual(docs[0].Type.Regions, want) {
				t.Errorf("regions = %v, want %v (replaced)", docs[0].Type.Regions, want)
			}
		})
		t.Run("ErrRegionalWithoutRegion", func(t *testing.T) {
			_, err := db.SaveLegalDocument(ctx, doc("<p>x</p>"))
			wantLegalError(t, err, portal.EINVALID, "")
		})
		t.Run("ErrBadDocumentType", func(t *testing.T) {
			d := doc("<p>x</p>", portal.Region{StateCode: "US-CA"})
			d.Type.DocumentType = "Bad Type"
			_, err := db.SaveLegalDocument(ctx, d)
			wantLegalError(t, err, portal.EINVALID, "")
		})
	})
}

func TestFindLegalDocuments(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		w := newLegalWorld(t, db)
		if err := w.sign(t, w.jane.ID, w.docs[portal.DocDisclosure], fullRequest(t, w.jane)); err != nil {
			t.Fatal(err)
		}
		f := w.file(t, w.jane.ID)
		t.Run("ListsTheCompanysCurrentDocumentsOnly", func(t *testing.T) {
			if len(f.Documents) != len(legaltext.Samples()) {
				t.Fatalf("%d documents, want %d", len(f.Documents), len(legaltext.Samples()))
			}
			if _, ok := f.Document(w.otherID); ok {
				t.Error("another company's document is listed")
			}
			sf, _ := f.Document(w.docs[portal.DocRightsSF])
			if !reflect.DeepEqual(sf.Type.Regions, []portal.Region{{CountyID: 6075}}) || sf.Type.ID != sf.ID || !sf.Type.Editable {
				t.Errorf("rights_sf type = %+v", sf.Type)
			}
		})
		t.Run("ListsOwnSignaturesOnly", func(t *testing.T) {
			if len(f.Signatures) != 1 || f.Signatures[w.docs[portal.DocDisclosure]] == nil {
				t.Errorf("signatures = %v, want the disclosure only", f.Signatures)
			}
			if other := w.file(t, w.john.ID); len(other.Signatures) != 0 {
				t.Errorf("John sees %d signatures of Jane", len(other.Signatures))
			}
		})
		t.Run("CarriesLocation", func(t *testing.T) {
			if f.Location.Employment != (portal.Place{State: "US-CA", County: 6075}) {
				t.Errorf("employment = %+v", f.Location.Employment)
			}
		})
		t.Run("ListIsTheFileWithoutTexts", func(t *testing.T) {
			list, err := db.Legal().FindLegalDocumentList(context.Background(), w.jane.ID)
			if err != nil {
				t.Fatal(err)
			}
			// The document list shows all of the file but the texts, the
			// subject, the company and the location.
			want := *f
			want.Subject, want.Company, want.Location = nil, nil, portal.Location{}
			want.Documents = slices.Clone(f.Documents)
			for i := range want.Documents {
				want.Documents[i].Content = ""
			}
			want.Signatures = map[int64]*portal.Signature{}
			for id, sig := range f.Signatures {
				bare := *sig
				bare.Content = ""
				want.Signatures[id] = &bare
			}
			if !reflect.DeepEqual(list, &want) {
				t.Errorf("list = %+v\nwant %+v", list, &want)
			}
			if _, err := db.Legal().FindLegalDocumentList(context.Background(), 999999); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("list of no subject: %v, want ENOTFOUND", err)
			}
		})
	})
}

func TestSignLegalStep(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)

		t.Run("RightsStepSignsEveryNotice", func(t *testing.T) {
			req := fullRequest(t, w.jane)
			req.Signature = ""
			if err := w.sign(t, w.jane.ID, w.docs[portal.DocRightsSF], req); err != nil {
				t.Fatal(err)
			}
			f := w.file(t, w.jane.ID)
			for _, typ := range []string{portal.DocRightsFed, portal.DocRightsSF, portal.DocRightsCACredit} {
				sig := f.Signatures[w.docs[typ]]
				if sig == nil {
					t.Errorf("%s not signed", typ)
				} else if len(sig.SignatureData) != 0 {
					t.Errorf("%s stored an image for an acknowledgement", typ)
				}
			}
			if f.Signatures[w.docs[portal.DocRightsNJ]] != nil {
				t.Error("the New Jersey notice, which does not apply, was signed")
			}
		})
		t.Run("AuditFieldsStored", func(t *testing.T) {
			id := w.docs[portal.DocAuthorization]
			req := fullRequest(t, w.jane)
			req.FirstName = "  jane "
			w.signAllButAuthorization(t, w.jane)
			if err := w.sign(t, w.jane.ID, id, req); err != nil {
				t.Fatal(err)
			}
			f := w.file(t, w.jane.ID)
			sig := f.Signatures[id]
			doc, _ := f.Document(id)
			content := legaltext.Render(doc.Content, w.jane, w.company)
			if sig == nil {
				t.Fatal("no signature stored")
			}
			// The image is stored as signing compacts it (8-bit grey, cropped).
			wantPNG, err := portal.CompactSignatureImage(testSignaturePNG(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name      string
				got, want any
			}{
				{"ip", sig.SignatureUserIP, "203.0.113.9"},
				{"version", sig.DocumentVersion, 1},
				{"hash", sig.ContentSHA256, signedpdf.ContentHash(content)},
				{"content", sig.Content, content},
				{"time", sig.CreatedAt, legalClock},
				{"signer", sig.SignerName, "jane Doe"},
				{"outcome", sig.Outcome, portal.SignOutcomeSigned},
				{"png", sig.SignatureData, wantPNG},
				{"fields", sig.Fields, portal.SignatureFields{FirstName: "jane", LastName: "Doe", AuthConsent: true, FreeReportCopy: true}},
			} {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
			if !strings.Contains(content, "Acme") || strings.Contains(content, "{{") {
				t.Errorf("content signed keeps tokens: %.200s", content)
			}
		})
		t.Run("ErrAlreadySigned", func(t *testing.T) {
			sigs, err := w.prepare(t, w.john.ID, w.docs[portal.DocDisclosure], fullRequest(t, w.john), "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Legal().SignLegalStep(ctx, w.john.ID, sigs); err != nil {
				t.Fatal(err)
			}
			// The same call again, as a second tab would send it.
			wantLegalError(t, db.Legal().SignLegalStep(ctx, w.john.ID, sigs), portal.ECONFLICT, "already signed")
			wantLegalError(t, w.sign(t, w.john.ID, w.docs[portal.DocDisclosure], fullRequest(t, w.john)), portal.ECONFLICT, "already signed")
		})
		t.Run("ErrDoesNotApply", func(t *testing.T) {
			wantLegalError(t, w.sign(t, w.jane.ID, w.docs[portal.DocRightsNJ], fullRequest(t, w.jane)), portal.ECONFLICT, "does not apply")
		})
		t.Run("ErrAnotherCompanysDocument", func(t *testing.T) {
			wantLegalError(t, w.sign(t, w.jane.ID, w.otherID, fullRequest(t, w.jane)), portal.ENOTFOUND, "")
		})
		t.Run("ErrVersionChangedMeanwhile", func(t *testing.T) {
			id := w.docs[portal.DocInvestigative]
			sigs, err := w.prepare(t, w.john.ID, id, fullRequest(t, w.john), "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			d := &portal.LegalDocument{CompanyID: w.company.ID, Title: "Investigative", Content: "<p>New text</p>",
				Type: portal.LegalDocumentType{DocumentType: portal.DocInvestigative, Visibility: portal.VisibilityAll, Editable: true}}
			if _, err := db.SaveLegalDocument(ctx, d); err != nil {
				t.Fatal(err)
			}
			wantLegalError(t, db.Legal().SignLegalStep(ctx, w.john.ID, sigs), portal.ECONFLICT, "changed since you opened it")
		})
		t.Run("OneTransactionForTheStep", func(t *testing.T) {
			sigs, err := w.prepare(t, w.john.ID, w.docs[portal.DocRightsFed], portal.SignRequest{SignatureFields: portal.SignatureFields{
				AckReceiptYourRights: true, AckFed: true, AckSf: true, AckCaCredit: true}}, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			sigs[len(sigs)-1].DocumentVersion = 99 // the last one fails after the first were written
			wantLegalError(t, db.Legal().SignLegalStep(ctx, w.john.ID, sigs), portal.ECONFLICT, "")
			if f := w.file(t, w.john.ID); f.Signed(w.docs[portal.DocRightsFed]) {
				t.Error("the federal notice stayed signed although its step failed")
			}
		})
		t.Run("ErrSubmitted", func(t *testing.T) {
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "done@example.com", FirstName: "Dana", LastName: "Done"})
			if err != nil {
				t.Fatal(err)
			}
			sigs, err := w.prepare(t, s.ID, w.docs[portal.DocESign], fullRequest(t, s), "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
			if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
				t.Fatal(err)
			}
			wantLegalError(t, db.Legal().SignLegalStep(ctx, s.ID, sigs), portal.ECONFLICT, "has been submitted")
			wantLegalError(t, w.sign(t, s.ID, w.docs[portal.DocESign], fullRequest(t, s)), portal.ECONFLICT, "has been submitted")
		})
		t.Run("SSNSavedWhileSigningIsCheckedInTheSigningTransaction", func(t *testing.T) {
			// The DOT release is checked against no SSN (none on file
			// yet); a personal-information save then stores an SSN not
			// ending in the typed digits (its own check passes: nothing is
			// signed yet); the signing's transaction must still refuse.
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "ssn.race@example.com", FirstName: "Sam", LastName: "Race"})
			if err != nil {
				t.Fatal(err)
			}
			sigs, err := w.prepare(t, s.ID, w.docs[portal.DocDOTRelease], fullRequest(t, s), "203.0.113.9") // typed 1234
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Personal().SavePersonalInfo(ctx, s.ID, &portal.PersonalInfo{FirstName: "Sam", LastName: "Race", SSN: "123-45-6789"}); err != nil {
				t.Fatal(err)
			}
			err = db.Legal().SignLegalStep(ctx, s.ID, sigs)
			if !portal.IsSSNMismatch(err) {
				t.Fatalf("SignLegalStep = %v, want the SSN mismatch", err)
			}
			if sig := w.file(t, s.ID).Signatures[w.docs[portal.DocDOTRelease]]; sig != nil {
				t.Error("the DOT release was signed with digits that do not match the SSN on file")
			}
			// The matching digits sign.
			req := fullRequest(t, s)
			req.LastFourSSN = "6789"
			if err := w.sign(t, s.ID, w.docs[portal.DocDOTRelease], req); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("PaperFormsHoldTheOrderAndMailTheApplicant", func(t *testing.T) {
			s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: w.company.ID, Email: "paper@example.com", FirstName: "Pat", LastName: "Paper"})
			if err != nil {
				t.Fatal(err)
			}
			req := portal.SignRequest{SignatureFields: portal.SignatureFields{DeclineESign: true}}
			if err := w.sign(t, s.ID, w.docs[portal.DocESign], req); err != nil {
				t.Fatal(err)
			}
			if sig := w.file(t, s.ID).Signatures[w.docs[portal.DocESign]]; sig == nil || sig.Outcome != portal.SignOutcomePaperForms {
				t.Fatalf("e-sign signature = %+v, want outcome paper_forms", sig)
			}
			if hold := applicantHold(t, db, s.ID); hold != portal.HoldPaperForms {
				t.Errorf("hold = %q, want %q", hold, portal.HoldPaperForms)
			}
			mails, err := db.Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(mails); n == 0 || mails[n-1].To != "paper@example.com" || !strings.Contains(mails[n-1].Body, "How to return them") {
				t.Errorf("no paper-forms mail to the applicant: %+v", mails)
			}
			wantLegalError(t, w.sign(t, s.ID, w.docs[portal.DocDisclosure], fullRequest(t, s)), portal.ECONFLICT, "paper forms")

			// Undoing the choice lifts the hold.
			if err := db.Legal().DeleteSignature(ctx, s.ID, w.docs[portal.DocESign]); err != nil {
				t.Fatal(err)
			}
			if hold := applicantHold(t, db, s.ID); hold != "" {
				t.Errorf("hold after undo = %q, want none", hold)
			}
		})
	})
}

func applicantHold(t *testing.T, db *store.DB, subjectID int64) string {
	t.Helper()
	list, err := db.FindApplicants(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list {
		if a.ID == subjectID {
			return a.HoldReason
		}
	}
	t.Fatalf("subject %d not listed", subjectID)
	return ""
}

func TestDeleteSignature(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		id := w.docs[portal.DocDisclosure]
		if err := w.sign(t, w.jane.ID, id, fullRequest(t, w.jane)); err != nil {
			t.Fatal(err)
		}
		t.Run("ErrAnotherSubjectsSignature", func(t *testing.T) {
			wantLegalError(t, db.Legal().DeleteSignature(ctx, w.john.ID, id), portal.ENOTFOUND, "")
		})
		t.Run("DeletedSignatureIsGone", func(t *testing.T) {
			if err := db.Legal().DeleteSignature(ctx, w.jane.ID, id); err != nil {
				t.Fatal(err)
			}
			if w.file(t, w.jane.ID).Signed(id) {
				t.Error("still signed")
			}
		})
		t.Run("ErrNoSignature", func(t *testing.T) {
			wantLegalError(t, db.Legal().DeleteSignature(ctx, w.jane.ID, id), portal.ENOTFOUND, "")
		})
		t.Run("ErrSetupComplete", func(t *testing.T) {
			if err := w.sign(t, w.jane.ID, id, fullRequest(t, w.jane)); err != nil {
				t.Fatal(err)
			}
			if err := db.SetSubjectStatus(ctx, w.jane.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
			wantLegalError(t, db.Legal().DeleteSignature(ctx, w.jane.ID, id), portal.ECONFLICT, "setup is complete")
			if !w.file(t, w.jane.ID).Signed(id) {
				t.Error("the signature was deleted although setup is complete")
			}
		})
	})
}

func TestStatusFactsUnsignedDocuments(t *testing.T) {
	eachLegalDB(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newLegalWorld(t, db)
		facts, err := db.FindStatusFacts(ctx, w.jane.ID)
		if err != nil {
			t.Fatal(err)
		}
		f := w.file(t, w.jane.ID)
		want := []string{}
		for _, s := range f.Steps() {
			want = append(want, s.Title())
		}
		// e_sign, disclosure, investigative, california, rights (fed, sf, ca credit), dot, authorization
		if len(want) != 7 || !reflect.DeepEqual(facts.UnsignedDocuments, want) {
			t.Fatalf("unsigned = %q, want the 7 step titles %q", facts.UnsignedDocuments, want)
		}
		if !strings.Contains(want[4], "(and 2 more notices)") {
			t.Errorf("rights step title = %q", want[4])
		}
		for _, s := range f.Steps() {
			req := fullRequest(t, w.jane)
			if err := w.sign(t, w.jane.ID, s.Documents[0].ID, req); err != nil {
				t.Fatalf("sign %s: %v", s.DocumentType, err)
			}
		}
		facts, err = db.FindStatusFacts(ctx, w.jane.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(facts.UnsignedDocuments) != 0 {
			t.Errorf("unsigned after signing every step = %q", facts.UnsignedDocuments)
		}
	})
}
