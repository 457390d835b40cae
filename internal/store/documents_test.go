package store_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// documentsWorld is a company whose package asks for a licence and a
// diploma, with jane and bob set up and amy still new.
type documentsWorld struct {
	db             *store.DB
	svc            *store.DocumentService
	jane, bob, amy int64
}

func newDocumentsWorld(t *testing.T, db *store.DB) *documentsWorld {
	t.Helper()
	ctx := context.Background()
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	pkg := &portal.Package{CompanyID: c.ID, Name: "Drivers", DocumentTypes: []portal.DocumentType{
		{Type: "drivers_license", Title: "Driver's license", Description: "The front.", Required: true},
		{Type: "diploma", Title: "Diploma"},
	}}
	if err := db.CreatePackage(ctx, pkg); err != nil {
		t.Fatal(err)
	}
	w := &documentsWorld{db: db, svc: db.Documents()}
	for _, p := range []struct {
		id  *int64
		who string
	}{{&w.jane, "jane"}, {&w.bob, "bob"}, {&w.amy, "amy"}} {
		s, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: p.who + "@example.com", FirstName: p.who, LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		*p.id = s.ID
		if p.who != "amy" {
			if err := db.SetSubjectStatus(ctx, s.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
		}
	}
	return w
}

func pngBytes(n int) []byte {
	b := append([]byte("\x89PNG\r\n\x1a\n"), randomBytes(n)...)
	return b
}

func (w *documentsWorld) add(t *testing.T, who int64, docType, name, declared string, content []byte) (*portal.Document, error) {
	t.Helper()
	return w.svc.AddDocument(context.Background(), who, docType, portal.Upload{Name: name, ContentType: declared, Body: bytes.NewReader(content)})
}

func TestDocumentsRoundTrip(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newDocumentsWorld(t, db)
		ctx := context.Background()
		content := pngBytes(3*store.FileChunkSize + 5)
		doc, err := w.add(t, w.jane, "drivers_license", `C:\photos\li`+"\u202e"+`cense.png`, "application/octet-stream", content)
		if err != nil {
			t.Fatal(err)
		}
		if doc.File.Name != "license.png" || doc.File.ContentType != "image/png" || doc.File.Size != int64(len(content)) ||
			doc.File.SHA256 != sha256Hex(content) || doc.Type != "drivers_license" || doc.File.SubjectID != w.jane {
			t.Errorf("AddDocument = %+v", doc)
		}
		f, rc, err := w.svc.OpenDocument(ctx, w.jane, doc.ID)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || !bytes.Equal(body, content) || sha256Hex(body) != f.SHA256 {
			t.Errorf("read back %d bytes (%v), want the %d uploaded", len(body), err, len(content))
		}

		t.Run("PackageDocumentTypesLoaded", func(t *testing.T) {
			view, err := db.Subjects().FindUserView(ctx, w.jane)
			if err != nil {
				t.Fatal(err)
			}
			want := []portal.DocumentType{
				{Type: "drivers_license", Title: "Driver's license", Description: "The front.", Required: true},
				{Type: "diploma", Title: "Diploma"},
			}
			if got := view.Package.DocumentTypes; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
				t.Errorf("package document types = %+v, want %+v", got, want)
			}
		})
		t.Run("AnotherSubjectsDocumentNotFound", func(t *testing.T) {
			if _, _, err := w.svc.OpenDocument(ctx, w.bob, doc.ID); portal.ErrorCode(err) != portal.ENOTFOUND || portal.ErrorMessage(err) != "Document not found." {
				t.Errorf("bob opens jane's document: %v", err)
			}
			if err := w.svc.DeleteDocument(ctx, w.bob, doc.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("bob deletes jane's document: %v", err)
			}
			list, err := w.svc.FindDocuments(ctx, w.bob)
			if err != nil || len(list.Documents) != 0 {
				t.Errorf("bob's list = %+v, %v", list, err)
			}
		})
		t.Run("NewestFirstWithTypes", func(t *testing.T) {
			pdf := append([]byte("%PDF-1.4\n"), randomBytes(100)...)
			second, err := w.add(t, w.jane, "diploma", "diploma.pdf", "application/pdf", pdf)
			if err != nil {
				t.Fatal(err)
			}
			list, err := w.svc.FindDocuments(ctx, w.jane)
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Documents) != 2 || list.Documents[0].ID != second.ID || list.Documents[1].ID != doc.ID {
				t.Errorf("documents = %+v; want the diploma, then the licence", list.Documents)
			}
			if len(list.Types) != 2 || list.Types[0].Type != "drivers_license" || !list.Types[0].Required || list.Types[1].Type != "diploma" {
				t.Errorf("types = %+v", list.Types)
			}
			if !list.Writable || len(list.Reports) != 0 {
				t.Errorf("writable %v, reports %+v", list.Writable, list.Reports)
			}
			if err := w.svc.DeleteDocument(ctx, w.jane, second.ID); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("DeleteRemovesTheFile", func(t *testing.T) {
			if err := w.svc.DeleteDocument(ctx, w.jane, doc.ID); err != nil {
				t.Fatal(err)
			}
			if _, _, err := w.svc.OpenDocument(ctx, w.jane, doc.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("open after delete: %v", err)
			}
			if files, chunks := countRows(t, db); files != 0 || chunks != 0 {
				t.Errorf("%d files and %d chunks left", files, chunks)
			}
		})
	})
}

func TestAddDocumentRefused(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newDocumentsWorld(t, db)
		png := pngBytes(1000)
		tests := []struct {
			name          string
			who           func() int64
			docType, file string
			declared      string
			body          io.Reader
			wantCode      string
			wantMsg       string
		}{
			{"ErrNewSubject", func() int64 { return w.amy }, "diploma", "a.png", "image/png", bytes.NewReader(png), portal.ECONFLICT, "Finish setting up your account first."},
			{"ErrUnknownType", func() int64 { return w.jane }, "passport", "a.png", "image/png", bytes.NewReader(png), portal.EINVALID, portal.ValidationMessage},
			{"ErrNoType", func() int64 { return w.jane }, "", "a.png", "image/png", bytes.NewReader(png), portal.EINVALID, portal.ValidationMessage},
			{"ErrEmpty", func() int64 { return w.jane }, "diploma", "a.png", "image/png", bytes.NewReader(nil), portal.EINVALID, portal.ValidationMessage},
			{"ErrExecutable", func() int64 { return w.jane }, "diploma", "a.pdf", "application/pdf", strings.NewReader("MZ\x90\x00"), portal.EUNSUPPORTED,
				"The file's content does not match its type: it is not a real PDF."},
			{"ErrTooLarge", func() int64 { return w.jane }, "diploma", "a.png", "image/png", io.MultiReader(bytes.NewReader(png), &endlessReader{}), portal.ETOOLARGE,
				"The file is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution."},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := w.svc.AddDocument(context.Background(), tt.who(), tt.docType, portal.Upload{Name: tt.file, ContentType: tt.declared, Body: tt.body})
				if portal.ErrorCode(err) != tt.wantCode || portal.ErrorMessage(err) != tt.wantMsg {
					t.Fatalf("AddDocument = %v; want %s %q", err, tt.wantCode, tt.wantMsg)
				}
				if files, chunks := countRows(t, db); files != 0 || chunks != 0 {
					t.Errorf("%d files and %d chunks left behind", files, chunks)
				}
			})
		}
		t.Run("ErrTypeCheckedBeforeTheBodyIsRead", func(t *testing.T) {
			r := &endlessReader{}
			if _, err := w.svc.AddDocument(context.Background(), w.amy, "diploma", portal.Upload{Name: "a.png", Body: r}); portal.ErrorCode(err) != portal.ECONFLICT {
				t.Fatal(err)
			}
			if r.n != 0 {
				t.Errorf("read %d bytes of a refused upload", r.n)
			}
		})
		t.Run("ErrDeleteAfterSubmission", func(t *testing.T) {
			doc, err := w.add(t, w.jane, "diploma", "sent.png", "image/png", png)
			if err != nil {
				t.Fatal(err)
			}
			if list, err := w.svc.FindDocuments(context.Background(), w.jane); err != nil || !list.Deletable {
				t.Fatalf("before submission: list = %+v, %v; want deletable", list, err)
			}
			if err := db.SetSubjectStatus(context.Background(), w.jane, portal.StatusSetupComplete, portal.StatusIDVStarted); err != nil {
				t.Fatal(err)
			}
			const submitted = "This file was sent with your screening and can no longer be deleted. If it is wrong, upload the right one and tell your employer's hiring team."
			if err := w.svc.DeleteDocument(context.Background(), w.jane, doc.ID); portal.ErrorCode(err) != portal.ECONFLICT || portal.ErrorMessage(err) != submitted {
				t.Errorf("delete after submission: %v; want ECONFLICT %q", err, submitted)
			}
			if err := w.svc.DeleteDocument(context.Background(), w.jane, doc.ID+1000); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("delete of no document after submission: %v; want ENOTFOUND", err)
			}
			// Sending more stays open while the screening runs.
			later, err := w.add(t, w.jane, "diploma", "later.png", "image/png", png)
			if err != nil {
				t.Fatalf("upload after submission: %v", err)
			}
			if err := w.svc.DeleteDocument(context.Background(), w.jane, later.ID); portal.ErrorCode(err) != portal.ECONFLICT {
				t.Errorf("delete of a later upload: %v; want ECONFLICT", err)
			}
			list, err := w.svc.FindDocuments(context.Background(), w.jane)
			if err != nil || !list.Writable || list.Deletable {
				t.Errorf("list after submission = %+v, %v; want writable, not deletable", list, err)
			}
		})
		t.Run("ErrProfileComplete", func(t *testing.T) {
			doc, err := w.add(t, w.bob, "diploma", "a.png", "image/png", png)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.SQL().Exec(`UPDATE profiles SET status_id = $1 WHERE subject_id = $2`, portal.ProfileStatusCompleted, w.bob); err != nil {
				t.Fatal(err)
			}
			const closed = "Your screening is complete: documents can no longer be changed."
			if _, err := w.add(t, w.bob, "diploma", "b.png", "image/png", png); portal.ErrorCode(err) != portal.ECONFLICT || portal.ErrorMessage(err) != closed {
				t.Errorf("upload after completion: %v", err)
			}
			if err := w.svc.DeleteDocument(context.Background(), w.bob, doc.ID); portal.ErrorCode(err) != portal.ECONFLICT {
				t.Errorf("delete after completion: %v", err)
			}
			list, err := w.svc.FindDocuments(context.Background(), w.bob)
			if err != nil || list.Writable || len(list.Documents) != 1 {
				t.Errorf("list after completion = %+v, %v; want the one document, not writable", list, err)
			}
		})
	})
}

func TestReports(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newDocumentsWorld(t, db)
		ctx := context.Background()
		ops := db.Operator()
		pdf := func(text string) []byte { return []byte("%PDF-1.7\n" + text + "\n%%EOF\n") }
		attach := func(who int64, kind portal.ReportKind, name string, content []byte) (*portal.File, error) {
			return ops.Documents.AttachReport(ctx, portal.AttachReportRequest{SubjectID: who, Kind: kind, Name: name, Body: bytes.NewReader(content)})
		}

		t.Run("NotFoundBeforeAttached", func(t *testing.T) {
			for kind, msg := range map[portal.ReportKind]string{
				portal.ReportBackground: "Your background report is not available yet.",
				portal.ReportDrug:       "Your drug test report is not available yet.",
				portal.ReportECOC:       "Your custody and control form is not available yet.",
			} {
				if _, _, err := w.svc.OpenReport(ctx, w.jane, kind); portal.ErrorCode(err) != portal.ENOTFOUND || portal.ErrorMessage(err) != msg {
					t.Errorf("%s: %v", kind, err)
				}
			}
		})
		t.Run("AttachedReportsListedInOrder", func(t *testing.T) {
			if _, err := attach(w.jane, portal.ReportECOC, "ccf.pdf", pdf("ccf")); err != nil {
				t.Fatal(err)
			}
			first, err := attach(w.jane, portal.ReportBackground, "bg.pdf", pdf("first"))
			if err != nil {
				t.Fatal(err)
			}
			second, err := attach(w.jane, portal.ReportBackground, "bg2.pdf", pdf("second"))
			if err != nil {
				t.Fatal(err)
			}
			list, err := w.svc.FindDocuments(ctx, w.jane)
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Reports) != 2 || list.Reports[0].Kind != portal.ReportBackground || list.Reports[1].Kind != portal.ReportECOC ||
				list.Reports[0].File.ID != second.ID {
				t.Errorf("reports = %+v", list.Reports)
			}
			if _, _, err := db.Documents().OpenReport(ctx, w.jane, portal.ReportDrug); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("drug report: %v", err)
			}
			f, rc, err := w.svc.OpenReport(ctx, w.jane, portal.ReportBackground)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(rc)
			rc.Close()
			if !bytes.Equal(body, pdf("second")) || f.ContentType != "application/pdf" {
				t.Errorf("report = %+v %q", f, body)
			}
			// The replaced report's file is gone.
			if _, _, err := store.NewFileStore(db).Get(ctx, first.ID); portal.ErrorCode(err) != portal.ENOTFOUND {
				t.Errorf("the replaced report's file: %v", err)
			}
			if list, _ := w.svc.FindDocuments(ctx, w.bob); len(list.Reports) != 0 {
				t.Errorf("bob sees reports %+v", list.Reports)
			}
		})
		t.Run("Refused", func(t *testing.T) {
			files, _ := countRows(t, db)
			for _, tt := range []struct {
				name     string
				who      int64
				kind     portal.ReportKind
				content  []byte
				wantCode string
			}{
				{"ErrNotAPDF", w.jane, portal.ReportDrug, pngBytes(10), portal.EUNSUPPORTED},
				{"ErrExecutable", w.jane, portal.ReportDrug, []byte("MZ\x90\x00"), portal.EUNSUPPORTED},
				{"ErrUnknownSubject", 987654, portal.ReportDrug, pdf("x"), portal.ENOTFOUND},
				{"ErrUnknownKind", w.jane, "medical", pdf("x"), portal.EINVALID},
			} {
				t.Run(tt.name, func(t *testing.T) {
					if _, err := attach(tt.who, tt.kind, "r.pdf", tt.content); portal.ErrorCode(err) != tt.wantCode {
						t.Errorf("AttachReport = %v, want %s", err, tt.wantCode)
					}
				})
			}
			if after, _ := countRows(t, db); after != files {
				t.Errorf("%d files before, %d after refused reports", files, after)
			}
		})
	})
}
