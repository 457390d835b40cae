package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"applicantportal/internal/demo"
	"applicantportal/internal/portal"
	"applicantportal/internal/store"
)

// companyInDataDir creates a company in the SQLite database of a data
// folder, as a provider's setup would.
func companyInDataDir(t *testing.T, data string) int64 {
	t.Helper()
	db, err := store.Open(context.Background(), store.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := &portal.Company{Name: "Acme"}
	if err := db.CreateCompany(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return c.ID
}

func legalDocuments(t *testing.T, data string, companyID int64) map[string]portal.LegalDocument {
	t.Helper()
	return legalDocumentsIn(t, data, companyID, portal.LocaleEnUS)
}

// legalDocumentsIn reads the company's documents as a request in lang
// sees them.
func legalDocumentsIn(t *testing.T, data string, companyID int64, lang portal.Locale) map[string]portal.LegalDocument {
	t.Helper()
	db, err := store.Open(context.Background(), store.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	docs, err := db.FindCompanyLegalDocuments(portal.WithLocale(context.Background(), lang), companyID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]portal.LegalDocument{}
	for _, d := range docs {
		out[d.Type.DocumentType] = d
	}
	return out
}

func writeLegalFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDocumentsLoad(t *testing.T) {
	t.Parallel()
	data, texts := t.TempDir(), t.TempDir()
	companyID := companyInDataDir(t, data)
	writeLegalFiles(t, texts, map[string]string{
		"disclosure.md": "# Disclosure\n\n<script>alert('md')</script>\n\nRead this, {{firstName}}. <a href=\"https://example.com\" onclick=\"steal()\">More</a>\n\n" +
			"[A link](https://example.com/info) and ![tracker](https://evil.example/pixel.png)\n",
		"handbook.html": `<h1 onclick="steal()">Handbook</h1><script>alert('html')</script>` +
			`<p style="color:red" onmouseover="steal()">Hello {{firstName}}</p><img src="https://evil.example/x.png"><iframe src="https://evil.example"></iframe>`,
		"notes.txt":      "not a legal text",
		"documents.json": `{"handbook": {"visibility": "regional", "regions": [{"state": "US-NY"}], "editable": false}}`,
	})

	out := runPortal(t, "documents", "load", "--data", data, texts)
	for _, want := range []string{"disclosure", "handbook", "version 1 (created)", "Loaded 2 legal documents"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	docs := legalDocuments(t, data, companyID)

	t.Run("StoredSanitized", func(t *testing.T) {
		for _, d := range docs {
			lower := strings.ToLower(d.Content)
			for _, bad := range []string{"<script", "alert(", "onclick", "onmouseover", "style=", "<img", "<iframe", "evil.example"} {
				if strings.Contains(lower, bad) {
					t.Errorf("%s keeps %q: %s", d.Type.DocumentType, bad, d.Content)
				}
			}
		}
		if !strings.Contains(docs["disclosure"].Content, `href="https://example.com/info"`) || !strings.Contains(docs["handbook"].Content, "Hello {{firstName}}") {
			t.Errorf("safe markup or tokens lost: %q / %q", docs["disclosure"].Content, docs["handbook"].Content)
		}
	})
	t.Run("VisibilityFromManifestOrSample", func(t *testing.T) {
		h, d := docs["handbook"], docs["disclosure"]
		if h.Type.Visibility != "regional" || len(h.Type.Regions) != 1 || h.Type.Regions[0].StateCode != "US-NY" || h.Type.Editable || h.Title != "Handbook" {
			t.Errorf("handbook = %+v", h)
		}
		if d.Type.Visibility != "all" || !d.Type.Editable || d.Title != "Disclosure" {
			t.Errorf("disclosure = %+v", d)
		}
	})
	t.Run("ChangedTextBecomesNewVersion", func(t *testing.T) {
		writeLegalFiles(t, texts, map[string]string{"disclosure.md": "# Disclosure\n\nThe reviewed text.\n"})
		out := runPortal(t, "documents", "load", texts, "--data", data, "--company", "1")
		if !strings.Contains(out, "version 2 (text changed, new version)") || !strings.Contains(out, "version 1 (unchanged)") {
			t.Errorf("output:\n%s", out)
		}
		if d := legalDocuments(t, data, companyID)["disclosure"]; d.Version != 2 || !strings.Contains(d.Content, "reviewed text") {
			t.Errorf("disclosure = version %d %q", d.Version, d.Content)
		}
	})
	t.Run("ErrManifestNamesMissingFile", func(t *testing.T) {
		writeLegalFiles(t, texts, map[string]string{"documents.json": `{"handbok": {"visibility": "all"}}`})
		cmd := exec.Command(portalBin, "documents", "load", "--data", data, texts)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "handbok") {
			t.Errorf("err=%v output:\n%s", err, out)
		}
	})
}

// TestDocumentsLoadInSpanish: --lang es-US loads the Spanish versions of
// documents loaded in English, read in Spanish where they exist.
func TestDocumentsLoadInSpanish(t *testing.T) {
	t.Parallel()
	data, english, spanish := t.TempDir(), t.TempDir(), t.TempDir()
	companyID := companyInDataDir(t, data)
	writeLegalFiles(t, english, map[string]string{
		"disclosure.md": "# Disclosure\n\nRead this, {{firstName}}.\n",
		"handbook.md":   "# Handbook\n\nHello.\n",
	})
	runPortal(t, "documents", "load", "--data", data, english)
	writeLegalFiles(t, spanish, map[string]string{"disclosure.md": "# Divulgación\n\nLea esto, {{firstName}}.\n"})

	out := runPortal(t, "documents", "load", "--data", data, "--lang", "es-US", spanish)
	for _, want := range []string{`version 1 (created): "Divulgación", the es-US version`, "Loaded 1 legal documents (es-US) into company"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	t.Run("ReadInSpanishWhereThereIsSpanish", func(t *testing.T) {
		docs := legalDocumentsIn(t, data, companyID, portal.LocaleEsUS)
		if d := docs["disclosure"]; d.Language != portal.LocaleEsUS || d.Title != "Divulgación" || !strings.Contains(d.Content, "Lea esto, {{firstName}}") {
			t.Errorf("disclosure in Spanish = %+v", d)
		}
		if d := docs["handbook"]; d.Language != portal.LocaleEnUS || d.Title != "Handbook" {
			t.Errorf("handbook in Spanish = %+v; want its English", d)
		}
	})
	t.Run("EnglishUnchanged", func(t *testing.T) {
		if d := legalDocuments(t, data, companyID)["disclosure"]; d.Language != portal.LocaleEnUS || d.Version != 1 || d.Title != "Disclosure" {
			t.Errorf("disclosure in English = %+v", d)
		}
	})
	t.Run("ChangedEnglishWarnsOfItsTranslation", func(t *testing.T) {
		writeLegalFiles(t, english, map[string]string{"disclosure.md": "# Disclosure\n\nThe reviewed text.\n"})
		out := runPortal(t, "documents", "load", "--data", data, english)
		if !strings.Contains(out, "warning: its es-US version (1) translates the earlier text; load the new translation with --lang es-US") {
			t.Errorf("output:\n%s", out)
		}
	})
	t.Run("ErrNoEnglishDocument", func(t *testing.T) {
		other := t.TempDir()
		writeLegalFiles(t, other, map[string]string{"policy.md": "# Política\n\nTexto.\n"})
		if out := runPortalFails(t, "documents", "load", "--data", data, "--lang", "es-US", other); !strings.Contains(out, "load the en-US text first") {
			t.Errorf("stderr:\n%s", out)
		}
	})
	t.Run("ErrUnknownLanguage", func(t *testing.T) {
		if out := runPortalFails(t, "documents", "load", "--data", data, "--lang", "fr-FR", spanish); !strings.Contains(out, "en-US or es-US") {
			t.Errorf("stderr:\n%s", out)
		}
	})
}

func TestInviteWorkLocationAndApplicants(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	companyInDataDir(t, data)
	runPortal(t, "invite", "--data", data, "--email", "jane@example.com", "--first-name", "Jane", "--last-name", "Doe",
		"--work-state", "us-ca", "--work-county", "6075")

	db, err := store.Open(context.Background(), store.Config{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := db.Subjects().FindSubjectByUsername(context.Background(), "jane@example.com")
	if err != nil {
		t.Fatal(err)
	}
	sd, err := db.SubjectData().FindSubjectData(context.Background(), sub.ID)
	db.Close()
	if err != nil || sd.Location.Employment != (portal.Place{State: "US-CA", County: 6075}) {
		t.Errorf("subject data = %+v, %v", sd, err)
	}

	out := runPortal(t, "applicants", "--data", data)
	if !strings.Contains(out, "jane@example.com") || !strings.Contains(out, "New") || strings.Contains(out, "HELD") {
		t.Errorf("applicants:\n%s", out)
	}

	cmd := exec.Command(portalBin, "invite", "--data", data, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--work-state", "US-XX")
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "state") {
		t.Errorf("unknown work state accepted: %v %s", err, b)
	}
}

// TestDemoApplicantSignedEveryApplicableDocument: the demo login is past
// setup, so every document that applies to them is signed and each signed
// PDF downloads.
func TestDemoApplicantSignedEveryApplicableDocument(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--demo")
	c := client{t: t, base: srv.base}
	status, tok := c.do("POST", "/oauth/access_token", "", map[string]any{"grant_type": "password",
		"username": demo.LoginEmail, "password": demo.LoginPass, "client_id": "portal-spa", "client_secret": "portal-spa-secret", "scope": "default"})
	if status != 200 {
		t.Fatalf("login = %d %v", status, tok)
	}
	get := func(path string) *http.Response {
		req, _ := http.NewRequest("GET", srv.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok["access_token"].(string))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	var list []struct {
		ID   int64 `json:"id"`
		Type struct {
			DocumentType string `json:"documentType"`
		} `json:"type"`
		Signature *struct {
			ContentSHA256 string `json:"contentSha256"`
		} `json:"signature"`
	}
	if err := json.NewDecoder(get("/api/v2/user/document").Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"e_sign": true, "disclosure": true, "investigative_consumer_report": true, "california_disclosure": true,
		"rights_fed": true, "rights_sf": true, "rights_ca_credit": true, "dot_release": true, "authorization_for_background": true}
	for _, d := range list {
		if want[d.Type.DocumentType] != (d.Signature != nil) {
			t.Errorf("%s: signed %v, want %v", d.Type.DocumentType, d.Signature != nil, want[d.Type.DocumentType])
		}
		if d.Signature == nil {
			continue
		}
		res := get(fmt.Sprintf("/api/v2/user/document/%d", d.ID))
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !bytes.HasPrefix(body, []byte("%PDF-")) {
			t.Errorf("%s PDF: %d %.20q", d.Type.DocumentType, res.StatusCode, body)
		}
	}
}

// TestInviteAppliesTheApplicantsFieldRules: portal invite refuses what the
// applicant could not save on PATCH /api/v2/user, and creates nobody then.
func TestInviteAppliesTheApplicantsFieldRules(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	companyInDataDir(t, data)
	tests := []struct {
		name, email, first, last, phone string
		wantField                       string
	}{
		{"WhitespaceFirstName", "a@example.com", "   ", "Doe", "", "firstName"},
		{"FirstNameOver50", "b@example.com", strings.Repeat("a", 51), "Doe", "", "firstName"},
		{"DigitsInLastName", "c@example.com", "Jane", "D0e", "", "lastName"},
		{"NewlineInName", "d@example.com", "Ja\nne", "Doe", "", "firstName"},
		{"LooseEmail", "e@localhost", "Jane", "Doe", "", "email"},
		{"EmailWithTwoAts", "f@x@example.com", "Jane", "Doe", "", "email"},
		{"FakePhone", "g@example.com", "Jane", "Doe", "123", "phone"},
		{"PhoneOver32", "h@example.com", "Jane", "Doe", strings.Repeat("2", 33), "phone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"invite", "--data", data, "--email", tt.email, "--first-name", tt.first, "--last-name", tt.last}
			if tt.phone != "" {
				args = append(args, "--phone", tt.phone)
			}
			b, err := exec.Command(portalBin, args...).CombinedOutput()
			if err == nil || !strings.Contains(string(b), tt.wantField+":") {
				t.Fatalf("portal invite = %v %s; want an error on %s", err, b, tt.wantField)
			}
		})
	}
	out := runPortal(t, "applicants", "--data", data)
	if strings.Contains(out, "@example.com") || strings.Contains(out, "@localhost") {
		t.Errorf("a refused invitation created an applicant:\n%s", out)
	}
	// What the rules allow goes through, with a phone in either form.
	runPortal(t, "invite", "--data", data, "--email", "jane.o'neil+x@example.co.uk", "--first-name", "  Jane-Marie ", "--last-name", "O’Neil", "--phone", "+44 20 7946 0958")
	runPortal(t, "invite", "--data", data, "--email", "pat@example.com", "--first-name", "Pat", "--last-name", "Lee", "--phone", "(202) 456-1111")
}
