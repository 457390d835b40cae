package main

import (
	"context"
	"encoding/base64"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"applicantportal/internal/portal"
	sitesandbox "applicantportal/internal/sandbox/sites"
	"applicantportal/internal/seal"
	"applicantportal/internal/store"
)

// commandKind says what a portal command does to the audit trail.
type commandKind int

const (
	readOnly commandKind = iota // it changes nothing
	audited                     // each change it makes leaves its row
	exempt                      // it writes, but no act of the trail's: why says why
)

// auditedCommand is one command's entry in TestEveryWritingCommandIsAudited.
type auditedCommand struct {
	kind commandKind
	// args, for an audited command, are its arguments after the command
	// words (the test adds --data); nil when another test proves its row.
	args func(w *commandWorld) []string
	// why: for exempt, why it records nothing; for an audited command
	// without args, where its row is written (or the test that proves it).
	why string
}

// commandWorld is the data folder the audited commands run against.
type commandWorld struct {
	t                      *testing.T
	db                     *store.DB
	data, texts, form, key string
	submitted, collecting  string // applicants past submission, and with a collection site chosen
	company                int64
}

// commands is every portal command, by its words, in the order the
// audited ones run. A command added to main.go (or a word to a command's
// subcommand call) without an entry here fails the test.
var commands = []struct {
	words string
	auditedCommand
}{
	// keys rotate with the key in use: nothing to reseal, no second pass
	// to wait for; it still records its start and end.
	{"keys rotate", auditedCommand{audited, func(w *commandWorld) []string { return []string{"--data-key", w.key} }, ""}},
	{"keys status", auditedCommand{kind: readOnly}},
	// The endpoint is there before the invitation, which queues a delivery to it.
	{"webhook add", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--company", strconv.FormatInt(w.company, 10), "--url", "http://127.0.0.1:9/hook", "--webhook-allow-insecure"}
	}, ""}},
	{"invite", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--company", strconv.FormatInt(w.company, 10), "--email", "riley@example.com", "--first-name", "Riley", "--last-name", "Stone"}
	}, ""}},
	{"webhook retry", auditedCommand{audited, func(w *commandWorld) []string {
		var id int64
		if err := w.db.SQL().QueryRow(`SELECT MAX(id) FROM webhook_deliveries`).Scan(&id); err != nil {
			w.t.Fatal(err)
		}
		if _, err := w.db.SQL().Exec(`UPDATE webhook_deliveries SET state = $1 WHERE id = $2`, portal.WebhookFailed, id); err != nil {
			w.t.Fatal(err)
		}
		return []string{"--delivery", strconv.FormatInt(id, 10)}
	}, ""}},
	{"webhook remove", auditedCommand{audited, func(w *commandWorld) []string { return []string{"--id", "1"} }, ""}},
	{"report upload", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--subject", w.submitted, "--kind", "report", w.form}
	}, ""}},
	{"chat reply", auditedCommand{audited, func(w *commandWorld) []string { return []string{"--subject", w.submitted, "--message", "Hello"} }, ""}},
	{"collection collected", auditedCommand{audited, func(w *commandWorld) []string { return []string{"--subject", w.collecting} }, ""}},
	{"service set", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--subject", w.submitted, "--service", "crim", "--state", "in-progress"}
	}, ""}},
	{"order set", auditedCommand{audited, func(w *commandWorld) []string { return []string{"--subject", w.submitted, "--status", "4"} }, ""}},
	{"profile set", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--subject", w.submitted, "--status", "PRE_ADVERSE_ACTION"}
	}, ""}},
	{"adverse pre", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--subject", w.submitted, "--based-on", "CRIM"}
	}, ""}},
	{"company set-pref", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--company", strconv.FormatInt(w.company, 10), portal.PrefAdverseWaitingDays, "7"}
	}, ""}},
	{"company list", auditedCommand{kind: readOnly}},
	{"company show", auditedCommand{kind: readOnly}},
	{"banner set", auditedCommand{audited, func(w *commandWorld) []string { return []string{"--message", "Maintenance tonight"} }, ""}},
	{"banner clear", auditedCommand{audited, func(w *commandWorld) []string { return nil }, ""}},
	{"banner list", auditedCommand{kind: readOnly}},
	{"apikey create", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--company", strconv.FormatInt(w.company, 10), "--name", "hr system"}
	}, ""}},
	{"apikey revoke", auditedCommand{audited, func(w *commandWorld) []string { return []string{"--id", "1"} }, ""}},
	{"apikey list", auditedCommand{kind: readOnly}},
	{"documents load", auditedCommand{audited, func(w *commandWorld) []string { return []string{w.texts} }, ""}},
	{"form add", auditedCommand{audited, func(w *commandWorld) []string {
		return []string{"--code", "mvr-request", "--title", "MVR request", w.form}
	}, ""}},
	// A sweep that removes nothing leaves no row; the world holds an
	// expired sandbox record for it.
	{"sweep", auditedCommand{audited, func(w *commandWorld) []string { return nil }, ""}},
	{"webhook list", auditedCommand{kind: readOnly}},
	{"webhook deliveries", auditedCommand{kind: readOnly}},
	{"report views", auditedCommand{kind: readOnly}},
	{"chat list", auditedCommand{kind: readOnly}},
	{"chat show", auditedCommand{kind: readOnly}},
	// Not run here: each needs days to pass or an applicant's dispute first.
	{"adverse final", auditedCommand{audited, nil, "store: the notice's action in the adverse transaction (adverse.go)"}},
	{"adverse show", auditedCommand{kind: readOnly}},
	{"service list", auditedCommand{kind: readOnly}},
	{"service reasons", auditedCommand{kind: readOnly}},
	{"dispute answer", auditedCommand{audited, nil, "store: dispute.* in the dispute's transaction (disputes.go)"}},
	{"dispute resolve", auditedCommand{audited, nil, "store: dispute.* in the dispute's transaction (disputes.go)"}},
	// Saves an applicant's attachment to the operator's disk: it changes
	// nothing in the database (and its download is not recorded yet).
	{"dispute file", auditedCommand{kind: audited, why: "the download's row is written by OpenDisputeAttachment: internal/store TestDisputesAreTheirApplicantsAndCompanysOnly"}},
	{"dispute list", auditedCommand{kind: readOnly}},
	{"dispute show", auditedCommand{kind: readOnly}},
	{"reminders send", auditedCommand{audited, nil, "store: reminder.sent in each reminder's transaction (reminders.go)"}},
	{"audit list", auditedCommand{kind: readOnly}},
	{"audit verify", auditedCommand{kind: readOnly}},
	{"applicant list", auditedCommand{kind: readOnly}},
	{"applicant show", auditedCommand{kind: readOnly}},
	{"applicants", auditedCommand{kind: readOnly}},
	{"outbox", auditedCommand{kind: readOnly}},
	{"sms outbox", auditedCommand{kind: readOnly}},
	{"backup", auditedCommand{kind: readOnly}},
	{"serve", auditedCommand{kind: exempt, why: "its writes are the requests' acts and its own jobs', each audited by the store; its start registers the app's client (client.registered)"}},
	{"migrate", auditedCommand{kind: exempt, why: "changes the schema only, no data an act of the trail's"}},
	{"restore", auditedCommand{kind: exempt, why: "puts back a whole database, its trail with it: a row written now would be overwritten"}},
}

// commandWords reads main.go's command list (the cases of run) and each
// command's second words (its subcommand call), as "command word".
func commandWords(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var top []string
	second := map[string][]string{}
	str := func(e ast.Expr) string {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, _ := strconv.Unquote(lit.Value)
			return s
		}
		return ""
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Name.Name != "run" || n.Recv != nil {
					return true
				}
				ast.Inspect(n.Body, func(n ast.Node) bool {
					if cc, ok := n.(*ast.CaseClause); ok {
						for _, e := range cc.List {
							if s := str(e); s != "" && s != "help" && !strings.HasPrefix(s, "-") {
								top = append(top, s)
							}
						}
					}
					return true
				})
				return false
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "subcommand" && len(n.Args) > 4 {
					cmd := str(n.Args[0])
					for _, a := range n.Args[4:] {
						second[cmd] = append(second[cmd], str(a))
					}
				}
			}
			return true
		})
	}
	if len(top) < 20 {
		t.Fatalf("read only %d commands from run: %v", len(top), top)
	}
	var words []string
	for _, c := range top {
		if len(second[c]) == 0 {
			words = append(words, c)
		}
		for _, w := range second[c] {
			words = append(words, c+" "+w)
		}
	}
	return words
}

// TestEveryWritingCommandIsAudited: every portal command is listed as
// audited, read-only or exempt (with why); a command added without an
// entry fails. The audited commands with arguments here run, in process
// on SQLite, and each must add a row to the trail, the chain intact.
func TestEveryWritingCommandIsAudited(t *testing.T) {
	words := commandWords(t)
	listed := map[string]bool{}
	for _, c := range commands {
		listed[c.words] = true
		if !slices.Contains(words, c.words) {
			t.Errorf("%q is listed but is no command of main.go: remove its entry", c.words)
		}
		if c.kind != readOnly && c.args == nil && c.why == "" {
			t.Errorf("%q: say why it records nothing, or which test proves its row", c.words)
		}
	}
	for _, w := range words {
		if !listed[w] {
			t.Errorf("portal %s has no entry in commands: say whether it is audited (and test its row) or read-only", w)
		}
	}
	if t.Failed() {
		return
	}

	ctx := context.Background()
	data := t.TempDir()
	key, err := seal.LoadOrCreateKey("", data)
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := seal.New(key)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, store.Config{DataDir: data, Sealer: sealer})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := &commandWorld{t: t, db: db, data: data, texts: t.TempDir(), form: filepath.Join("..", "..", "internal", "demo", "forms", "mvr-request.pdf")}
	acme := &portal.Company{Name: "Acme", Preferences: portal.CompanyPreferences{SubjectChat: true, ApplicantCollectionSiteSelection: true}}
	if err := db.CreateCompany(ctx, acme); err != nil {
		t.Fatal(err)
	}
	w.company, w.key = acme.ID, base64.StdEncoding.EncodeToString(key)
	if err := db.CreatePackage(ctx, &portal.Package{CompanyID: acme.ID, Name: "Standard",
		Services: []portal.PackageService{{Code: "crim"}, {Code: "drug"}}}); err != nil {
		t.Fatal(err)
	}
	applicant := func(email string, status portal.StatusID) int64 {
		sub, err := db.CreateSubject(ctx, portal.NewSubject{CompanyID: acme.ID, Email: email, FirstName: "Jane", LastName: "Doe"})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetSubjectStatus(ctx, sub.ID, portal.StatusNew, status); err != nil {
			t.Fatal(err)
		}
		return sub.ID
	}
	w.submitted = strconv.FormatInt(applicant("jane@example.com", portal.StatusFinalizationComplete), 10)
	collecting := applicant("sam@example.com", portal.StatusMROSiteSelection)
	w.collecting = strconv.FormatInt(collecting, 10)
	found, err := sitesandbox.New().Search(ctx, portal.SiteQuery{ZIP: "10001", RadiusMiles: 5})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CollectionSites(sitesandbox.New()).Choose(ctx, collecting, found.Sites[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.SandboxRecords().Insert(ctx, "payment", "expired", []byte(`{}`), time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.texts, "disclosure.md"), []byte("# Disclosure\n\nYou may be screened.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	count := func() int64 {
		var n int64
		if err := db.SQL().QueryRow(`SELECT count(*) FROM audit_log`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range commands {
		if c.kind != audited || c.args == nil {
			continue
		}
		before := count()
		args := append(strings.Fields(c.words), "--data", data)
		if err := run(ctx, append(args, c.args(w)...), io.Discard, io.Discard); err != nil {
			t.Fatalf("portal %s: %v", c.words, err)
		}
		if count() == before {
			t.Errorf("portal %s added no row to the audit trail", c.words)
		}
	}
	check, err := db.Operator().Audit.VerifyChain(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if check.Broken != nil {
		t.Fatalf("chain broken at row %d: %s", check.Broken.ID, check.Broken.Problem)
	}
}
