package internal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The rule (docs/architecture.md, "Fuzzing"): a parser of outside input
// lands with its fuzz target.
//
//   - In a package of outside input (outsideInput), every exported function
//     or method that takes a string, []byte, io.Reader or io.ReaderAt, or
//     whose name says it parses (parserPrefixes), is called from a Fuzz
//     function of the package's tests: in its body, or in a function of the
//     tests that the body calls.
//   - Any other package that exports a function or method named like a
//     parser is either in outsideInput or in reachedOverHTTP, which says
//     why the HTTP fuzz targets (internal/httpapi/fuzz_test.go, which send
//     arbitrary input to every registered route) already reach it.
//
// A new parser in one of these packages, or a new package of parsers,
// fails this test until it is fuzzed or its reason is written here.

// parserPrefixes are the names of functions that read what they are given.
var parserPrefixes = []string{"Check", "Decode", "FieldNames", "Lookup", "Normalize", "Parse", "Read", "Render",
	"Sanitize", "Sniff", "Valid"}

// outsideInput are the packages that read what applicants, employers'
// files and outside parties send, with what their exported functions are
// exempt for (function name -> reason).
var outsideInput = map[string]map[string]string{
	"internal/address":  nil,
	"internal/filetype": nil,
	"internal/legaltext": {
		"Load":    "reads an operator's file from the server's disk; its content goes through RenderMarkdown or Sanitize, which are fuzzed",
		"LoadDir": "lists an operator's folder on the server's disk; each file goes through Load",
	},
	"internal/pdfform": nil,
	"internal/phone":   nil,
}

// reachedOverHTTP are packages whose parser-named functions only read
// what a handler already took from the request; why the HTTP fuzz targets
// cover them.
var reachedOverHTTP = map[string]string{
	"internal/portal": "the domain's rules check the values the handlers decoded: FuzzJSONBodies sends arbitrary " +
		"bodies to every route that takes one, FuzzDocumentFilterQuery arbitrary queries to every GET route",
	"internal/httpapi": "the handlers: every route is fuzzed from (*Server).Routes()",
	"internal/store":   "the services behind the handlers, reached by the HTTP fuzz targets",
}

// notOutside are packages that read no outside input: their parser-named
// functions read the portal's own configuration, data or processes.
var notOutside = map[string]string{
	"internal/bench":                "the load generator reads the portal's own answers and its own files",
	"cmd/bench":                     "the load generator's command line",
	"cmd/portal":                    "the operator's command line and environment",
	"internal/password":             "Normalize reads a password the handlers decoded (fuzzed over HTTP); the common-password list is embedded",
	"internal/lookup":               "the lookups are embedded data; the key of GET /api/v2/lookup/{key} is fuzzed over HTTP",
	"internal/sandbox/payment":      "Processor.Lookup finds a payment attempt by the key the store kept",
	"internal/address/internal/gen": "generates the shipped address data from downloaded sources, at build time",
	"internal/signedpdf": "renders the portal's own stored texts and signatures; the signature image is checked by " +
		"portal.CheckSignatureImage first (fuzzed over HTTP)",
}

type goFunc struct {
	name     string // Name, or Type.Name for a method
	called   string // the name a call uses
	readsRaw bool   // takes a string, []byte, io.Reader or io.ReaderAt
}

// exportedFuncs lists the exported functions and methods of a package's
// own files.
func exportedFuncs(t *testing.T, dir string) []goFunc {
	t.Helper()
	files := parseDir(t, dir, func(name string) bool { return !strings.HasSuffix(name, "_test.go") })
	var out []goFunc
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			fn := goFunc{name: fd.Name.Name, called: fd.Name.Name}
			if fd.Recv != nil {
				recv := fd.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				id, ok := recv.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue
				}
				fn.name = id.Name + "." + fd.Name.Name
			}
			for _, p := range fd.Type.Params.List {
				fn.readsRaw = fn.readsRaw || rawInput(p.Type)
			}
			out = append(out, fn)
		}
	}
	return out
}

// rawInput reports whether a parameter's type is string, []byte,
// io.Reader or io.ReaderAt (variadic included).
func rawInput(e ast.Expr) bool {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name == "string"
	case *ast.Ellipsis:
		return rawInput(t.Elt)
	case *ast.ArrayType:
		id, ok := t.Elt.(*ast.Ident)
		return t.Len == nil && ok && id.Name == "byte"
	case *ast.SelectorExpr:
		pkg, ok := t.X.(*ast.Ident)
		return ok && pkg.Name == "io" && (t.Sel.Name == "Reader" || t.Sel.Name == "ReaderAt")
	}
	return false
}

func parserNamed(name string) bool {
	_, method, _ := strings.Cut(name, ".")
	if method == "" {
		method = name
	}
	return slices.ContainsFunc(parserPrefixes, func(p string) bool { return strings.HasPrefix(method, p) })
}

func parseDir(t *testing.T, dir string, keep func(string) bool) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if !keep(filepath.Base(name)) {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// fuzzedCalls are the names called from the Fuzz functions of a package's
// tests, and from the test functions they call, transitively.
func fuzzedCalls(t *testing.T, dir string) map[string]bool {
	t.Helper()
	bodies := map[string]*ast.BlockStmt{}
	for _, f := range parseDir(t, dir, func(name string) bool { return strings.HasSuffix(name, "_test.go") }) {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				bodies[fd.Name.Name] = fd.Body
			}
		}
	}
	called := map[string]bool{}
	var visit func(body *ast.BlockStmt)
	seen := map[string]bool{}
	visit = func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			called[name] = true
			if b, ok := bodies[name]; ok && !seen[name] {
				seen[name] = true
				visit(b)
			}
			return true
		})
	}
	for name, body := range bodies {
		if strings.HasPrefix(name, "Fuzz") {
			seen[name] = true
			visit(body)
		}
	}
	return called
}

// TestEveryParserOfOutsideInputIsFuzzed holds the module to the rule at
// the top of this file.
func TestEveryParserOfOutsideInputIsFuzzed(t *testing.T) {
	for pkg, exempt := range outsideInput {
		t.Run(pkg, func(t *testing.T) {
			dir := filepath.Join("..", pkg)
			called := fuzzedCalls(t, dir)
			for _, fn := range exportedFuncs(t, dir) {
				if !fn.readsRaw && !parserNamed(fn.name) || exempt[fn.called] != "" || called[fn.called] {
					continue
				}
				t.Errorf("%s.%s reads outside input but no Fuzz function of %s calls it: add it to a fuzz target "+
					"(internal/fuzz_guard_test.go says the rule)", pkg, fn.name, pkg)
			}
		})
	}
	// Every other package that exports a parser is accounted for.
	var dirs []string
	for _, root := range []string{"../internal", "../cmd"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if d.IsDir() {
				dirs = append(dirs, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range dirs {
		pkg := filepath.ToSlash(strings.TrimPrefix(dir, "../"))
		if _, ok := outsideInput[pkg]; ok || reachedOverHTTP[pkg] != "" || notOutside[pkg] != "" {
			continue
		}
		var parsers []string
		for _, fn := range exportedFuncs(t, dir) {
			if parserNamed(fn.name) {
				parsers = append(parsers, fn.name)
			}
		}
		if len(parsers) > 0 {
			t.Errorf("%s exports parsers %v: add it to outsideInput with fuzz targets, or say in reachedOverHTTP "+
				"or notOutside why not (internal/fuzz_guard_test.go)", pkg, parsers)
		}
	}
}
