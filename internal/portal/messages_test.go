package portal_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"applicantportal/internal/portal"
)

func readCatalogue(t *testing.T, l portal.Locale) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("messages", string(l)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]string
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", l, err)
	}
	return c
}

// verbRE finds a format's verbs, an explicit argument index aside, so that
// a translation may reorder them.
var verbRE = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0]*\d*(?:\.\d+)?[a-zA-Z%]`)

// verbs returns a format's verbs in argument order: "%[2]s %[1]d" and
// "%d %s" both give [%d %s].
func verbs(format string) []string {
	var out []string
	next := 1
	byIndex := map[int]string{}
	for _, v := range verbRE.FindAllString(format, -1) {
		if v == "%%" {
			continue
		}
		i := next
		if strings.HasPrefix(v, "%[") {
			end := strings.Index(v, "]")
			i, _ = strconv.Atoi(v[2:end])
			v = "%" + v[end+1:]
		}
		byIndex[i] = v
		next = i + 1
	}
	for i := 1; i <= len(byIndex); i++ {
		out = append(out, byIndex[i])
	}
	return out
}

var codeRE = regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)+$`)

func TestMessageCataloguesHaveTheSameCodesAndVerbs(t *testing.T) {
	en := readCatalogue(t, portal.LocaleEnUS)
	for _, l := range portal.Locales[1:] {
		other := readCatalogue(t, l)
		for code, format := range en {
			translated, ok := other[code]
			switch {
			case !ok:
				t.Errorf("%s lacks %q", l, code)
			case strings.TrimSpace(translated) == "":
				t.Errorf("%s: %q is empty", l, code)
			case !slices.Equal(verbs(format), verbs(translated)):
				t.Errorf("%s: %q has verbs %v, en-US %v", l, code, verbs(translated), verbs(format))
			}
		}
		for code := range other {
			if _, ok := en[code]; !ok {
				t.Errorf("%s has %q, which en-US lacks", l, code)
			}
		}
	}
}

func TestMessageCodesAreStableNamesAndFormatsUnique(t *testing.T) {
	seen := map[string]string{}
	for code, format := range readCatalogue(t, portal.LocaleEnUS) {
		// ssn-mismatch is the app's event name, older than the catalogue.
		if !codeRE.MatchString(code) && code != portal.EventSSNMismatch {
			t.Errorf("code %q is not lowercase and dotted by area", code)
		}
		if other, ok := seen[format]; ok {
			t.Errorf("%q and %q have the same English text, which must name one code", code, other)
		}
		seen[format] = code
	}
}

func TestValidationErrorStaysEnglishInEveryLanguage(t *testing.T) {
	for _, l := range portal.Locales {
		if got := portal.Translate(l, portal.ValidationMessage); got != portal.ValidationMessage {
			t.Errorf("%s: %q, the app expects %q", l, got, portal.ValidationMessage)
		}
	}
	if got := portal.MessageCode(portal.ValidationMessage); got != "validation.error" {
		t.Errorf("code %q", got)
	}
}

func TestSSNMismatchKeepsTheAppsEventAsItsCode(t *testing.T) {
	err := portal.CheckLastFourSSN("123-45-6789", "0000")
	_, _, fields := err.(*portal.Error).Localize(portal.LocaleEsUS)
	if len(fields) != 1 || fields[0].Code != portal.EventSSNMismatch || fields[0].Message == portal.SSNMismatchMessage {
		t.Errorf("fields %+v", fields)
	}
}

func TestLocalizeRendersTheFormatWithItsValues(t *testing.T) {
	var fe portal.FieldErrors
	fe.Addf("files", "Attach %d files or fewer", 5)
	fe.Add("cardNumber", "Enter a valid card number.")
	tests := []struct {
		locale portal.Locale
		want   []portal.FieldError
	}{
		{portal.LocaleEnUS, []portal.FieldError{
			{Field: "files", Message: "Attach 5 files or fewer", Code: "dispute.files_too_many"},
			{Field: "cardNumber", Message: "Enter a valid card number.", Code: "payment.card_number"},
		}},
		{portal.LocaleEsUS, []portal.FieldError{
			{Field: "files", Message: "Adjunte 5 archivos o menos", Code: "dispute.files_too_many"},
			{Field: "cardNumber", Message: "Escriba un número de tarjeta válido.", Code: "payment.card_number"},
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.locale), func(t *testing.T) {
			code, msg, fields := fe.Err().(*portal.Error).Localize(tt.locale)
			if code != "validation.error" || msg != portal.ValidationMessage || !reflect.DeepEqual(fields, tt.want) {
				t.Errorf("%q %q %+v", code, msg, fields)
			}
		})
	}
}

// TestEveryMessageIsInTheCatalogue reads the module's Go files and checks
// that every text given to Errorf, Add, Addf, FieldErrorf, Phrasef, or written as an
// Error's or a FieldError's Message, is a format of the en-US catalogue,
// and that none is made with Sprintf or +, which would hide its format.
func TestEveryMessageIsInTheCatalogue(t *testing.T) {
	en := readCatalogue(t, portal.LocaleEnUS)
	formats := map[string]bool{}
	for _, f := range en {
		formats[f] = true
	}
	for _, m := range scanMessages(t, filepath.Join("..", "..")) {
		switch {
		case m.problem != "":
			t.Errorf("%s: %s", m.pos, m.problem)
		case m.text == "":
			// No message: a gate's caller that is never turned away.
		case !formats[m.text]:
			t.Errorf("%s: %q is not in messages/en-US.json", m.pos, m.text)
		}
	}
}

type foundMessage struct {
	pos, text, problem string
}

// scanMessages finds the module's message texts (see
// TestEveryMessageIsInTheCatalogue). A message held in a variable or a
// parameter is followed to nothing: its constant is found where it is
// declared, as every constant named Message… or Msg… (or …Message) is.
func scanMessages(t *testing.T, root string) []foundMessage {
	t.Helper()
	fset := token.NewFileSet()
	type file struct {
		pkg string
		f   *ast.File
	}
	var files []file
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, file{f.Name.Name, f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// Every string constant (and package-level var with a constant value),
	// by package and name.
	decls := map[string]ast.Expr{}
	for _, fl := range files {
		for _, d := range fl.f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || (gd.Tok != token.CONST && gd.Tok != token.VAR) {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						decls[fl.pkg+"."+n.Name] = vs.Values[i]
					}
				}
			}
		}
	}
	var eval func(pkg string, e ast.Expr, depth int) (string, bool)
	eval = func(pkg string, e ast.Expr, depth int) (string, bool) {
		if depth > 10 {
			return "", false
		}
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind == token.STRING {
				s, err := strconv.Unquote(e.Value)
				return s, err == nil
			}
		case *ast.ParenExpr:
			return eval(pkg, e.X, depth+1)
		case *ast.Ident:
			if d, ok := decls[pkg+"."+e.Name]; ok {
				return eval(pkg, d, depth+1)
			}
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				if d, ok := decls[x.Name+"."+e.Sel.Name]; ok {
					return eval(x.Name, d, depth+1)
				}
			}
		case *ast.BinaryExpr:
			if e.Op == token.ADD {
				a, ok1 := eval(pkg, e.X, depth+1)
				b, ok2 := eval(pkg, e.Y, depth+1)
				return a + b, ok1 && ok2
			}
		}
		return "", false
	}

	var out []foundMessage
	for _, fl := range files {
		pkg := fl.pkg
		check := func(e ast.Expr) {
			pos := fset.Position(e.Pos()).String()
			if s, ok := eval(pkg, e, 0); ok {
				out = append(out, foundMessage{pos: pos, text: s})
				return
			}
			switch e := e.(type) {
			case *ast.CallExpr:
				// The format passed through (Errorf, FieldErrorf) is checked where it is written.
				if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && !isName(e.Args[0], "format") {
					out = append(out, foundMessage{pos: pos, problem: "a Sprintf'd message: give its format to Errorf, Addf or FieldErrorf"})
				}
			case *ast.BinaryExpr:
				out = append(out, foundMessage{pos: pos, problem: "a message made with +: make it a format for Errorf, Addf or FieldErrorf"})
			}
		}
		ast.Inspect(fl.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok == token.CONST || n.Tok == token.VAR {
					for _, s := range n.Specs {
						vs := s.(*ast.ValueSpec)
						for i, name := range vs.Names {
							if i < len(vs.Values) && isMessageName(name.Name) {
								check(vs.Values[i])
							}
						}
					}
				}
			case *ast.CallExpr:
				switch {
				case isName(n.Fun, "Errorf") && !isPkg(n.Fun, "fmt") && len(n.Args) >= 2,
					isName(n.Fun, "Addf") && len(n.Args) >= 2,
					isName(n.Fun, "FieldErrorf") && len(n.Args) >= 2:
					check(n.Args[1])
				case isName(n.Fun, "Phrasef") && len(n.Args) >= 1:
					check(n.Args[0])
				case messageParam(n) >= 0:
					check(n.Args[messageParam(n)])
				case isName(n.Fun, "Add") && len(n.Args) == 2:
					// FieldErrors' Add, not http.Header's or url.Values'.
					if x, ok := n.Fun.(*ast.SelectorExpr).X.(*ast.Ident); ok && !slices.Contains([]string{"h", "q", "header", "values"}, x.Name) {
						check(n.Args[1])
					}
				}
			case *ast.KeyValueExpr:
				// An Error's, a FieldError's or any answer's Message (a
				// success body's "message"), and a decline's Detail.
				if isName(n.Key, "Message") || isName(n.Key, "Detail") || isLiteral(n.Key, "message") {
					check(n.Value)
				}
			}
			return true
		})
	}
	return out
}

// messageHelpers are the functions that take a message to pass on to Add or
// to an Error, and which of their arguments it is.
var messageHelpers = map[string]int{
	"fieldError":          1, // httpapi
	"formFieldError":      0, // store
	"ssnMismatch":         1, // portal
	"checkCode":           2, // portal
	"handleReminderToken": 3, // httpapi
	"messageBody":         1, // httpapi: a success answer's message
	"New":                 2, // gate: the message of a caller turned away
}

// messageParam is the index of the message among a call's arguments, -1
// when the call takes none.
func messageParam(c *ast.CallExpr) int {
	for name, i := range messageHelpers {
		if isName(c.Fun, name) && len(c.Args) > i && (name != "New" || isPkg(c.Fun, "gate")) {
			return i
		}
	}
	return -1
}

// isName reports whether e is the identifier name, or a selector of it.
func isName(e ast.Expr, name string) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == name
	case *ast.SelectorExpr:
		return e.Sel.Name == name
	case *ast.StarExpr:
		return isName(e.X, name)
	}
	return false
}

func isPkg(e ast.Expr, pkg string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == pkg
}

// isMessageName reports whether a constant's name says it is a message.
func isMessageName(name string) bool {
	return strings.Contains(name, "Message") || strings.HasPrefix(name, "Msg") || strings.HasPrefix(name, "msg")
}

// isLiteral reports whether e is the string literal s: a map's key.
func isLiteral(e ast.Expr, s string) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Value == strconv.Quote(s)
}

func TestATextMadeWithoutItsFormatIsMatchedBackToIt(t *testing.T) {
	tests := []struct {
		name, text, wantCode, wantSpanish string
	}{
		{"LabelTranslatedToo", "Street is required.", "field.required", "Calle es un dato obligatorio."},
		{"Values", "ZIP code 99999 is not in California.", "address.zip_not_in_state", "El código postal 99999 no está en California."},
		{"NumbersKeptAsWritten", "Password must be at least 12 characters long.", "password.too_short", "La contraseña debe tener al menos 12 caracteres."},
		{"UnknownStaysEnglish", "Something else entirely.", "", "Something else entirely."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := portal.FieldError{Field: "x", Message: tt.text}.Localize(portal.LocaleEsUS)
			if f.Code != tt.wantCode || f.Message != tt.wantSpanish {
				t.Errorf("= %q %q", f.Code, f.Message)
			}
		})
	}
}

func TestPhrasesAreTranslatedWithTheirMessage(t *testing.T) {
	e := portal.Errorf(portal.ETHROTTLED, "Too many failed login attempts from your network. Please wait %s and try again.", portal.Phrasef("%d minutes", 5))
	if e.Message != "Too many failed login attempts from your network. Please wait 5 minutes and try again." {
		t.Errorf("English %q", e.Message)
	}
	code, msg, _ := e.Localize(portal.LocaleEsUS)
	if code != "auth.throttled_network" || msg != "Demasiados intentos fallidos de inicio de sesión desde su red. Espere 5 minutos y vuelva a intentarlo." {
		t.Errorf("= %q %q", code, msg)
	}
}

func TestTheAPIDocumentListsEveryMessageWithItsCode(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "## Messages and their codes\n")
	section, _, _ = strings.Cut(section, "\n## ")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	en, es := readCatalogue(t, portal.LocaleEnUS), readCatalogue(t, portal.LocaleEsUS)
	rows := 0
	for line := range strings.SplitSeq(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows++
		}
	}
	for code, text := range en {
		row := fmt.Sprintf("| `%s` | %s | %s |", code, cell(text), cell(es[code]))
		if !strings.Contains(section, row+"\n") {
			t.Errorf("docs/api.md, Messages and their codes, lacks the row\n%s", row)
		}
	}
	if rows != len(en) {
		t.Errorf("docs/api.md lists %d messages, the catalogue has %d", rows, len(en))
	}
}
