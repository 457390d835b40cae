package main_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"applicantportal/internal/portal"
	"applicantportal/internal/seal"
	"applicantportal/internal/store"
)

// openWithDataKey opens the data folder's database with its data key, as
// serve does.
func openWithDataKey(t *testing.T, data string) *store.DB {
	t.Helper()
	key, err := seal.LoadOrCreateKey("", data)
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := seal.New(key)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), store.Config{DataDir: data, Sealer: sealer})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newJane is an applicant of a new company Acme.
func newJane(t *testing.T, db *store.DB) *portal.Subject {
	t.Helper()
	ctx := context.Background()
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: c.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func TestReportUpload(t *testing.T) {
	t.Parallel()
	data, files := t.TempDir(), t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	sub := newJane(t, db)
	pdf := []byte("%PDF-1.7\nthe background report\n%%EOF\n")
	pdfPath := filepath.Join(files, "Background report.pdf")
	pngPath := filepath.Join(files, "scan.png")
	os.WriteFile(pdfPath, pdf, 0o600)
	os.WriteFile(pngPath, []byte("\x89PNG\r\n\x1a\nrest"), 0o600)
	txtPath := filepath.Join(files, "notes.txt")
	os.WriteFile(txtPath, []byte("not a report"), 0o600)
	fakePath := filepath.Join(files, "setup.pdf")
	os.WriteFile(fakePath, []byte("MZ\x90\x00"), 0o600)
	id := fmt.Sprint(sub.ID)

	out := runPortal(t, "report", "upload", "--data", data, "--subject", id, "--kind", "report", pdfPath)
	sum := sha256.Sum256(pdf)
	want := fmt.Sprintf("Attached Background report.pdf (%d bytes, SHA-256 %s) as report of applicant %d.\n", len(pdf), hex.EncodeToString(sum[:]), sub.ID)
	if out != want {
		t.Errorf("output = %q, want %q", out, want)
	}
	_, rc, err := db.Documents().OpenReport(ctx, sub.ID, portal.ReportBackground)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, pdf) {
		t.Errorf("the applicant's report reads %q", got)
	}

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"ErrNotAPDF", []string{"--subject", id, "--kind", "drug-report", pngPath}, "A report must be a PDF."},
		{"ErrTextFile", []string{"--subject", id, "--kind", "drug-report", txtPath}, "A report must be a PDF."},
		{"ErrExecutableNamedPDF", []string{"--subject", id, "--kind", "drug-report", fakePath}, "it is not a real PDF."},
		{"ErrUnknownKind", []string{"--subject", id, "--kind", "medical", pdfPath}, `Unknown report kind "medical"`},
		{"ErrUnknownApplicant", []string{"--subject", "98765", "--kind", "report", pdfPath}, "Applicant not found."},
		{"ErrNoFile", []string{"--subject", id, "--kind", "report"}, "give --subject, --kind and exactly one file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(portalBin, append([]string{"report", "upload", "--data", data}, tt.args...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); err == nil || code != 1 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d (%v), stderr %q; want exit 1 saying %q", code, err, stderr.String(), tt.want)
			}
		})
	}
}

// TestReportViews: the operator attaches the report through the binary,
// the applicant (who asked for the free copy? no) confirms and reads it,
// and `portal report views` lists the view with its address.
func TestReportViews(t *testing.T) {
	t.Parallel()
	data, files := t.TempDir(), t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	sub := newJane(t, db)
	if err := db.Personal().SavePersonalInfo(ctx, sub.ID, &portal.PersonalInfo{FirstName: "Jane", LastName: "Doe", DOB: "1990-04-12", SSN: "123456789"}); err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(sub.ID)
	if out := runPortal(t, "report", "views", "--data", data, "--subject", id); out != "No free copy asked for.\nNo views or downloads recorded.\n" {
		t.Errorf("before = %q", out)
	}
	pdfPath := filepath.Join(files, "report.pdf")
	os.WriteFile(pdfPath, []byte("%PDF-1.7\nthe background report\n%%EOF\n"), 0o600)
	runPortal(t, "report", "upload", "--data", data, "--subject", id, "--kind", "report", pdfPath)

	if err := db.UpsertClient(ctx, "spa", "spa-secret", "test"); err != nil {
		t.Fatal(err)
	}
	if err := db.Auth().SetInitialPassword(ctx, sub.ID, "a long enough passphrase"); err != nil {
		t.Fatal(err)
	}
	pair, err := db.Auth().Login(ctx, portal.Credentials{ClientID: "spa", ClientSecret: "spa-secret", Username: sub.Username, Password: "a long enough passphrase"})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := db.Auth().Authenticate(ctx, pair.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Reports().ConfirmReportIdentity(ctx, sub.ID, sess.FamilyID, portal.ReportIdentity{DOB: "1990-04-12", SSNLast4: "6789"}); err != nil {
		t.Fatal(err)
	}
	byJane := portal.WithActor(ctx, portal.Actor{Kind: portal.ActorApplicant, ID: sub.ID, Address: "198.51.100.7"})
	_, rc, err := db.Reports().OpenReport(byJane, portal.ReportRead{SubjectID: sub.ID, FamilyID: sess.FamilyID, Kind: portal.ReportBackground, Disposition: portal.ReportAttachment})
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	out := runPortal(t, "report", "views", "--data", data, "--subject", id)
	if !strings.Contains(out, "No free copy asked for.\n") || !regexp.MustCompile(`\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+report\s+downloaded\s+198\.51\.100\.7\n`).MatchString(out) {
		t.Errorf("views = %q", out)
	}
	if out := runPortal(t, "audit", "list", "--data", data, "--subject", id); !strings.Contains(out, "report.attached") || !strings.Contains(out, "command line") {
		t.Errorf("audit = %q", out)
	}
	if msg := runPortalFails(t, "report", "views", "--data", data, "--subject", "98765"); !strings.Contains(msg, "Applicant not found.") {
		t.Errorf("unknown applicant: %q", msg)
	}
}
