package main_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

func TestDisputeCommands(t *testing.T) {
	t.Parallel()
	data, files := t.TempDir(), t.TempDir()
	db := openWithDataKey(t, data)
	ctx := context.Background()
	acme, globex := &portal.Company{Name: "Acme"}, &portal.Company{Name: "Globex"}
	for _, c := range []*portal.Company{acme, globex} {
		if err := db.CreateCompany(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.CreatePackage(ctx, &portal.Package{CompanyID: acme.ID, Name: "Standard", Services: []portal.PackageService{{Code: "crim"}}}); err != nil {
		t.Fatal(err)
	}
	jane, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: "jane@example.com", FirstName: "Jane", LastName: "Doe"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetSubjectStatus(ctx, jane.ID, portal.StatusNew, portal.StatusComplete); err != nil {
		t.Fatal(err)
	}
	pdf := []byte("%PDF-1.4\nthe court's letter\n%%EOF\n")
	d, err := db.Disputes().OpenDispute(ctx, jane.ID, portal.NewDispute{Reason: portal.DisputeInaccurate, ServiceCode: "crim",
		Explanation: "The case was dismissed.\nIt is on the court's site."}, func() func() (*portal.Upload, error) {
		sent := false
		return func() (*portal.Upload, error) {
			if sent {
				return nil, nil
			}
			sent = true
			return &portal.Upload{Name: "letter.pdf", ContentType: "application/pdf", Body: strings.NewReader(string(pdf))}, nil
		}
	}())
	if err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(d.ID, 10)

	t.Run("List", func(t *testing.T) {
		out := runPortal(t, "dispute", "list", "--data", data, "--state", "received")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[1], "Jane Doe") ||
			!strings.Contains(lines[1], "inaccurate") || !strings.Contains(lines[1], "crim") || !strings.HasSuffix(lines[1], " 30") {
			t.Errorf("list = %q", out)
		}
		if out := runPortal(t, "dispute", "list", "--data", data, "--company", strconv.FormatInt(globex.ID, 10)); out != "No disputes.\n" {
			t.Errorf("Globex's list = %q", out)
		}
	})

	t.Run("ShowEverything", func(t *testing.T) {
		out := runPortal(t, "dispute", "show", "--data", data, "--id", id)
		for _, want := range []string{"Dispute " + id + " of applicant", "Reason:    inaccurate", "State:     received",
			"30 days left", "  The case was dismissed.\n  It is on the court's site.", "Evidence:\n  [file ", "letter.pdf, 34 bytes, application/pdf]"} {
			if !strings.Contains(out, want) {
				t.Errorf("show lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("SaveTheFile", func(t *testing.T) {
		dst := filepath.Join(files, "saved.pdf")
		runPortal(t, "dispute", "file", "--data", data, "--id", id, "--file", strconv.FormatInt(d.Files[0].ID, 10), "--out", dst)
		if b, _ := os.ReadFile(dst); string(b) != string(pdf) {
			t.Errorf("saved %q", b)
		}
	})

	t.Run("AnswerAndResolveReachTheApplicantsStream", func(t *testing.T) {
		events, err := store.OpenEvents(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer events.Close()
		ch, cancel := events.Subscribe(ctx, portal.ScreeningTopic(jane.ID))
		defer cancel()
		out := runPortal(t, "dispute", "answer", "--data", data, "--id", id, "--message", "We asked the court.")
		if !strings.Contains(out, "State:     reinvestigating") || !strings.Contains(out, "operator\n  We asked the court.") {
			t.Errorf("answer printed %q", out)
		}
		select {
		case e := <-ch:
			var got portal.ScreeningEvent
			if json.Unmarshal(e.Payload, &got) != nil || got.Kind != portal.ScreeningChangedDispute {
				t.Errorf("event %s", e.Payload)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no screening event within 5 s")
		}
		out = runPortal(t, "dispute", "resolve", "--data", data, "--id", id, "--outcome", "corrected", "--message", "The record now says dismissed.")
		if !strings.Contains(out, "State:     resolved: corrected") || !strings.Contains(out, "The record now says dismissed.") {
			t.Errorf("resolve printed %q", out)
		}
		audit := runPortal(t, "audit", "list", "--data", data, "--subject", strconv.FormatInt(jane.ID, 10))
		if !strings.Contains(audit, "dispute.resolved") || !strings.Contains(audit, "dispute.answered") {
			t.Errorf("audit = %s", audit)
		}
	})

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"ErrNoID", []string{"show"}, "give --id"},
		{"ErrUnknown", []string{"show", "--id", "98765"}, "Dispute not found."},
		{"ErrOutcome", []string{"resolve", "--id", id, "--outcome", "maybe", "--message", "x"}, "outcome: The outcome is one of corrected, verified or deleted."},
		{"ErrAlreadyResolved", []string{"answer", "--id", id, "--message", "More."}, "This dispute is resolved."},
		{"ErrFileFlags", []string{"file", "--id", id}, "give --id, --file and --out"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"dispute", tt.args[0], "--data", data}, tt.args[1:]...)
			if stderr := runPortalFails(t, args...); !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q, want %q", stderr, tt.want)
			}
		})
	}
	if stderr := runPortalFails(t, "dispute", "delete"); !strings.Contains(stderr, "say list or show or answer or resolve or file") {
		t.Errorf("unknown word: %q", stderr)
	}
}
