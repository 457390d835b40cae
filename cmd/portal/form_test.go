package main_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

func TestFormAdd(t *testing.T) {
	t.Parallel()
	data, files := t.TempDir(), t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	pkg := &portal.Package{CompanyID: c.ID, Name: "Screening"}
	if err := db.CreatePackage(ctx, pkg); err != nil {
		t.Fatal(err)
	}
	template := filepath.Join("..", "..", "internal", "demo", "forms", "mvr-request.pdf")
	plain := filepath.Join("..", "..", "internal", "pdfform", "testdata", "no-form.pdf")
	png := filepath.Join(files, "scan.png")
	os.WriteFile(png, []byte("\x89PNG\r\n\x1a\nrest"), 0o600)

	out := runPortal(t, "form", "add", "--data", data, "--code", "mvr", "--title", "MVR request", "--states", "US-ID, US-WA", template)
	if !strings.HasPrefix(out, "Added form mvr (id ") || !strings.Contains(out, "fields: ") {
		t.Errorf("output = %q", out)
	}
	// Limited to Idaho and Washington: asked of an applicant working in
	// Washington, not of one in California.
	for state, want := range map[string]int{"US-WA": 1, "US-CA": 0} {
		sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: state + "@example.com", FirstName: "Jo", LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetEmploymentLocation(ctx, sub.ID, portal.Place{State: state}); err != nil {
			t.Fatal(err)
		}
		forms, err := db.Documents().FindPdfForms(ctx, sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(forms) != want || (want == 1 && (forms[0].Title != "MVR request" || !forms[0].Required)) {
			t.Errorf("forms of an applicant in %s = %+v, want %d required MVR request", state, forms, want)
		}
	}

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"ErrSameCode", []string{"--code", "mvr", "--title", "Again", template}, "already has a form with the code mvr"},
		{"ErrNoFields", []string{"--code", "letter", "--title", "Letter", plain}, "no form fields"},
		{"ErrNotAPDF", []string{"--code", "scan", "--title", "Scan", png}, "The template is not a PDF."},
		{"ErrNoTitle", []string{"--code", "x", template}, "give --code, --title and exactly one file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(portalBin, append([]string{"form", "add", "--data", data}, tt.args...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); err == nil || code != 1 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d (%v), stderr %q; want exit 1 saying %q", code, err, stderr.String(), tt.want)
			}
		})
	}
}
