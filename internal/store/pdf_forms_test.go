package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
	"applicantportal/internal/store/storetest"
)

// The demo forms and the pdf-lib-filled fixtures (web/scripts/gen-demo-forms.mjs).
func formPDF(t *testing.T, name string) []byte {
	t.Helper()
	paths := map[string]string{
		"idaho":        "../demo/forms/idaho-release.pdf",
		"mvr":          "../demo/forms/mvr-request.pdf",
		"idaho-filled": "../pdfform/testdata/idaho-release-filled.pdf",
		"no-form":      "../pdfform/testdata/no-form.pdf",
	}
	b, err := os.ReadFile(paths[name])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// formsWorld is a company whose package has the Idaho release (Idaho only)
// and the MVR request (everyone), two applicants past setup (Casey, Pat),
// one still new, and another company's package with a form of its own.
type formsWorld struct {
	db                 *store.DB
	docs               *store.DocumentService
	idaho, mvr, others *portal.PdfForm
	casey, pat, fresh  *portal.Subject
}

func newFormsWorld(t *testing.T, db *store.DB) *formsWorld {
	t.Helper()
	ctx := context.Background()
	w := &formsWorld{db: db, docs: db.Documents()}
	pkgOf := func(name string) (companyID, packageID int64) {
		c := &portal.Company{Name: name}
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
		p := &portal.Package{CompanyID: c.ID, Name: "Standard"}
		if err := db.CreatePackage(ctx, p); err != nil {
			t.Fatal(err)
		}
		return c.ID, p.ID
	}
	acmeID, acme := pkgOf("Acme")
	_, other := pkgOf("Other")
	add := func(f portal.NewPdfForm) *portal.PdfForm {
		form, err := w.docs.AddPdfForm(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		return form
	}
	w.idaho = add(portal.NewPdfForm{PackageID: acme, Code: "idaho-release", Title: "Idaho background check release (sample)",
		States: []string{"US-ID"}, Required: true, PDF: formPDF(t, "idaho")})
	w.mvr = add(portal.NewPdfForm{PackageID: acme, Code: "mvr-request", Title: "Motor vehicle record request (sample)",
		PDF: formPDF(t, "mvr")})
	w.others = add(portal.NewPdfForm{PackageID: other, Code: "mvr-request", Title: "Other MVR", PDF: formPDF(t, "mvr")})
	subject := func(email string, setUp bool) *portal.Subject {
		sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acmeID, Email: email, FirstName: "Casey", LastName: "Morgan"})
		if err != nil {
			t.Fatal(err)
		}
		if setUp {
			if err := db.SetSubjectStatus(ctx, sub.ID, portal.StatusNew, portal.StatusSetupComplete); err != nil {
				t.Fatal(err)
			}
		}
		return sub
	}
	w.casey, w.pat, w.fresh = subject("casey@example.com", true), subject("pat@example.com", true), subject("fresh@example.com", false)
	return w
}

// idahoSince2010 is a whole address history, in Boise.
var idahoSince2010 = func() portal.Address { a := currentAddress; a.From = "2010-01"; return a }()

func (w *formsWorld) codes(t *testing.T, subjectID int64) []string {
	t.Helper()
	forms, err := w.docs.FindPdfForms(context.Background(), subjectID)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range forms {
		codes = append(codes, f.Code)
	}
	return codes
}

func upload(name, contentType string, b []byte) portal.Upload {
	return portal.Upload{Name: name, ContentType: contentType, Body: bytes.NewReader(b)}
}

func wantError(t *testing.T, err error, code, message string) {
	t.Helper()
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Code != code {
		t.Fatalf("err = %v; want code %s", err, code)
	}
	got := pe.Message
	if len(pe.Fields) > 0 {
		got = pe.Fields[0].Field + ": " + pe.Fields[0].Message
	}
	if got != message {
		t.Errorf("message = %q; want %q", got, message)
	}
}

func TestAddPdfForm(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newFormsWorld(t, db)
		ctx := context.Background()
		if w.idaho.ID == 0 || w.idaho.FileID == 0 || len(w.idaho.FieldNames) != 10 || !slices.Equal(w.idaho.States, []string{"US-ID"}) {
			t.Errorf("AddPdfForm = %+v", w.idaho)
		}
		f, rc, err := w.docs.OpenPdfForm(ctx, w.casey.ID, w.mvr.ID)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		if !bytes.Equal(body, formPDF(t, "mvr")) || f.Name != "mvr-request.pdf" || f.ContentType != "application/pdf" || f.SubjectID != 0 {
			t.Errorf("template = %+v (%d bytes); want the MVR PDF, mvr-request.pdf, nobody's", f, len(body))
		}
		tests := []struct {
			name    string
			form    portal.NewPdfForm
			code    string
			message string
		}{
			{"SameCodeIsAConflict", portal.NewPdfForm{PackageID: w.mvr.PackageID, Code: "mvr-request", Title: "Again", PDF: formPDF(t, "mvr")},
				portal.ECONFLICT, "The package already has a form with the code mvr-request."},
			{"NoFields", portal.NewPdfForm{PackageID: w.mvr.PackageID, Code: "plain", Title: "Plain", PDF: formPDF(t, "no-form")},
				portal.EINVALID, "file: This PDF has no form fields."},
			{"NotAPDF", portal.NewPdfForm{PackageID: w.mvr.PackageID, Code: "png", Title: "PNG", PDF: []byte("\x89PNG\r\n\x1a\n")},
				portal.EINVALID, "file: The template is not a PDF."},
			{"NoCode", portal.NewPdfForm{PackageID: w.mvr.PackageID, Title: "No code", PDF: formPDF(t, "mvr")},
				portal.EINVALID, "code: A form needs a code."},
		}
		files, _ := countRows(t, db)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := w.docs.AddPdfForm(ctx, tt.form)
				wantError(t, err, tt.code, tt.message)
			})
		}
		if after, _ := countRows(t, db); after != files {
			t.Errorf("refused forms left files behind: %d files, had %d", after, files)
		}
	})
}

func TestFindPdfFormsAppliesStates(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newFormsWorld(t, db)
		ctx := context.Background()
		if got := w.codes(t, w.casey.ID); !slices.Equal(got, []string{"mvr-request"}) {
			t.Errorf("nowhere known: forms %q; want only mvr-request", got)
		}
		// An Idaho address in the history brings the Idaho release.
		if _, err := db.History().SaveAddresses(ctx, w.casey.ID, []portal.Address{idahoSince2010}, false); err != nil {
			t.Fatal(err)
		}
		if got := w.codes(t, w.casey.ID); !slices.Equal(got, []string{"idaho-release", "mvr-request"}) {
			t.Errorf("with an Idaho address: forms %q; want both in id order", got)
		}
		// So does working in Idaho.
		if err := db.SetEmploymentLocation(ctx, w.fresh.ID, portal.Place{State: "US-ID", County: 16001}); err != nil {
			t.Fatal(err)
		}
		if got := w.codes(t, w.fresh.ID); !slices.Equal(got, []string{"idaho-release", "mvr-request"}) {
			t.Errorf("working in Idaho: forms %q; want both", got)
		}
		if _, err := w.docs.FindPdfForms(ctx, 999999); portal.ErrorCode(err) != portal.ENOTFOUND {
			t.Errorf("unknown subject: err = %v; want ENOTFOUND", err)
		}
	})
}

func TestSubmitPdfForm(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newFormsWorld(t, db)
		ctx := context.Background()
		if _, err := db.History().SaveAddresses(ctx, w.casey.ID, []portal.Address{idahoSince2010}, false); err != nil {
			t.Fatal(err)
		}
		filled := formPDF(t, "idaho-filled")
		form, err := w.docs.SubmitPdfForm(ctx, w.casey.ID, w.idaho.ID, upload("idaho-release.pdf", "application/pdf", filled))
		if err != nil {
			t.Fatal(err)
		}
		if s := form.Submitted; s == nil || s.Name != "idaho-release.pdf" || s.Size != int64(len(filled)) || s.SHA256 != sha256Hex(filled) || s.SubjectID != w.casey.ID {
			t.Fatalf("submitted = %+v", form.Submitted)
		}
		first := form.Submitted.ID
		f, rc, err := w.docs.OpenFilledPdfForm(ctx, w.casey.ID, w.idaho.ID)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		if !bytes.Equal(body, filled) || f.ID != first {
			t.Errorf("OpenFilledPdfForm = %+v, %d bytes; want the submitted copy", f, len(body))
		}
		if e := lastAudit(t, db, w.casey.ID); e == nil || e.Action != "pdf-form.downloaded" || e.Detail != fmt.Sprintf("form %d, the signed copy", w.idaho.ID) {
			t.Errorf("after the download the trail's last row is %+v", e)
		}
		forms, err := w.docs.FindPdfForms(ctx, w.casey.ID)
		if err != nil || forms[0].Submitted == nil || forms[0].Submitted.ID != first || forms[1].Submitted != nil {
			t.Fatalf("FindPdfForms = %+v, %v; want the Idaho release submitted, the MVR request not", forms, err)
		}

		// A second submission (the blank template is a copy too) replaces
		// the first, whose file goes.
		files, _ := countRows(t, db)
		again, err := w.docs.SubmitPdfForm(ctx, w.casey.ID, w.idaho.ID, upload("blob", "", formPDF(t, "idaho")))
		if err != nil {
			t.Fatal(err)
		}
		if after, _ := countRows(t, db); after != files {
			t.Errorf("files after replacing: %d; want %d", after, files)
		}
		if _, _, err := store.NewFileStore(db).Get(ctx, first); portal.ErrorCode(err) != portal.ENOTFOUND {
			t.Errorf("the replaced submission's file: err = %v; want it gone", err)
		}

		big := append(append([]byte{}, filled...), bytes.Repeat([]byte{' '}, portal.MaxUploadSize)...)
		tests := []struct {
			name      string
			subjectID int64
			formID    int64
			up        portal.Upload
			code      string
			message   string
		}{
			{"NoFields", w.casey.ID, w.idaho.ID, upload("x.pdf", "application/pdf", formPDF(t, "no-form")),
				portal.EINVALID, "file: This PDF has no form fields."},
			{"AnotherForm", w.casey.ID, w.idaho.ID, upload("x.pdf", "application/pdf", formPDF(t, "mvr")),
				portal.EINVALID, "file: This is not the Idaho background check release (sample) form: its fields differ."},
			{"NotAPDF", w.casey.ID, w.idaho.ID, upload("x.pdf", "application/pdf", []byte("\x89PNG\r\n\x1a\nrest")),
				portal.EUNSUPPORTED, "A filled form must be a PDF."},
			{"DeclaredPNG", w.casey.ID, w.idaho.ID, upload("x.png", "image/png", filled),
				portal.EUNSUPPORTED, "A filled form must be a PDF."},
			{"Damaged", w.casey.ID, w.idaho.ID, upload("x.pdf", "application/pdf", filled[:len(filled)/2]),
				portal.EINVALID, "file: This PDF could not be read: it may be damaged. Fill in the form again and submit it."},
			{"Empty", w.casey.ID, w.idaho.ID, upload("x.pdf", "application/pdf", nil), portal.EINVALID, "file: The file is empty."},
			{"TooLarge", w.casey.ID, w.idaho.ID, upload("x.pdf", "application/pdf", big),
				portal.ETOOLARGE, "The file is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution."},
			{"AnotherPackagesForm", w.casey.ID, w.others.ID, upload("x.pdf", "application/pdf", formPDF(t, "mvr")),
				portal.ENOTFOUND, "Form not found."},
			{"FormThatDoesNotApply", w.pat.ID, w.idaho.ID, upload("x.pdf", "application/pdf", filled),
				portal.ENOTFOUND, "Form not found."},
			{"NewSubject", w.fresh.ID, w.mvr.ID, upload("x.pdf", "application/pdf", formPDF(t, "mvr")),
				portal.ECONFLICT, "Finish setting up your account first."},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := w.docs.SubmitPdfForm(ctx, tt.subjectID, tt.formID, tt.up)
				wantError(t, err, tt.code, tt.message)
			})
		}
		if after, _ := countRows(t, db); after != files {
			t.Errorf("refused submissions left files behind: %d files; want %d", after, files)
		}
		if got, err := w.docs.FindPdfForms(ctx, w.casey.ID); err != nil || got[0].Submitted == nil || got[0].Submitted.ID != again.Submitted.ID {
			t.Errorf("after refusals: %+v, %v; want the last accepted submission intact", got, err)
		}

		// Once the screening is complete, nothing changes.
		if _, err := db.SQL().Exec(`UPDATE profiles SET status_id = $1 WHERE subject_id = $2`, portal.ProfileStatusCompleted, w.casey.ID); err != nil {
			t.Fatal(err)
		}
		_, err = w.docs.SubmitPdfForm(ctx, w.casey.ID, w.mvr.ID, upload("x.pdf", "application/pdf", formPDF(t, "mvr")))
		wantError(t, err, portal.ECONFLICT, "Your screening is complete: documents can no longer be changed.")
	})
}

func TestOpenPdfFormNotFound(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		w := newFormsWorld(t, db)
		ctx := context.Background()
		tests := []struct {
			name    string
			open    func(ctx context.Context, subjectID, formID int64) (*portal.File, io.ReadCloser, error)
			formID  int64
			message string
		}{
			{"TemplateOfAnotherPackage", w.docs.OpenPdfForm, w.others.ID, "Form not found."},
			{"TemplateThatDoesNotApply", w.docs.OpenPdfForm, w.idaho.ID, "Form not found."},
			{"TemplateUnknown", w.docs.OpenPdfForm, 999999, "Form not found."},
			{"NotSubmitted", w.docs.OpenFilledPdfForm, w.mvr.ID, "You have not submitted this form yet."},
			{"SubmittedOfAnotherPackage", w.docs.OpenFilledPdfForm, w.others.ID, "Form not found."},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, rc, err := tt.open(ctx, w.casey.ID, tt.formID)
				if rc != nil {
					rc.Close()
				}
				wantError(t, err, portal.ENOTFOUND, tt.message)
			})
		}
	})
}

// TestAddPdfFormInsideAtomically: the demo seed adds its forms in its one
// transaction, and a failed seed leaves no template behind.
func TestAddPdfFormInsideAtomically(t *testing.T) {
	storetest.Each(t, storetest.Config(t), func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		boom := errors.New("boom")
		err := db.Atomically(ctx, "test", func(tx *store.DB) error {
			c := &portal.Company{Name: "Acme"}
			if err := tx.CreateCompany(ctx, c); err != nil {
				return err
			}
			p := &portal.Package{CompanyID: c.ID, Name: "Standard"}
			if err := tx.CreatePackage(ctx, p); err != nil {
				return err
			}
			if _, err := tx.Documents().AddPdfForm(ctx, portal.NewPdfForm{PackageID: p.ID, Code: "mvr-request", Title: "MVR", PDF: formPDF(t, "mvr")}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Atomically = %v; want boom", err)
		}
		if files, chunks := countRows(t, db); files != 0 || chunks != 0 {
			t.Errorf("after the rollback: %d files, %d chunks; want none", files, chunks)
		}
	})
}
