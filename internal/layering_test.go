// Package internal_test guards the layering of the Go packages: the domain
// imports only the standard library, the adapters never import each other,
// and only the composition root wires them together (docs/architecture.md).
package internal_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is the module's path; the table names packages relative to it.
const module = "applicantportal"

// What a package may import besides the module's own layers.
const (
	std        = "standard library"
	thirdParty = "third-party modules"
)

// layer is a group of the module's packages and what they may import.
type layer struct {
	name      string
	packages  []string // relative to the module; "x/..." is x and every package under it
	mayImport []string // std, thirdParty and names of layers (its own only when listed)
}

// adapterImports is what an adapter may import: never another adapter.
var adapterImports = []string{std, thirdParty, "domain", "library"}

// layers is the rule. Every package of the module is in exactly one layer;
// a new package fails the test until it is added here. Only the packages'
// own files are checked, not their tests: a test may wire what it tests to
// anything.
var layers = []layer{
	// Types, rules and the service interfaces.
	{"domain", []string{"internal/portal"}, []string{std}},
	// Small purpose-named libraries over the domain's types. The sandbox
	// package is the sandboxes' records interface, which the store implements.
	{"library", []string{
		"internal/address/...", "internal/filetype", "internal/gate", "internal/legaltext",
		"internal/lookup", "internal/password", "internal/pdfform", "internal/phone",
		"internal/sandbox", "internal/seal", "internal/servicedefs", "internal/signedpdf", "web",
	}, []string{std, thirdParty, "domain", "library"}},
	// Adapters: one technology each, behind the domain's interfaces.
	{"store", []string{"internal/store"}, adapterImports},
	{"httpapi", []string{"internal/httpapi"}, adapterImports},
	{"mail", []string{"internal/mail"}, adapterImports},
	{"webhook", []string{"internal/webhook"}, adapterImports},
	{"sandboxes", []string{"internal/sandbox/idv", "internal/sandbox/payment", "internal/sandbox/sites", "internal/sandbox/sms"}, adapterImports},
	// The demo employer, seeded through the store.
	{"demo", []string{"internal/demo"}, []string{std, thirdParty, "domain", "library", "store"}},
	// The composition root wires the adapters into the domain's interfaces.
	{"composition root", []string{"cmd/portal"}, []string{
		std, thirdParty, "domain", "library", "store", "httpapi", "mail", "webhook", "sandboxes", "demo",
	}},
	// The load generator of `make bench`: it drives the portal binary from
	// outside, over HTTP, and imports no adapter (only the password
	// library, for raw argon2id with the portal's parameters).
	{"benchmark", []string{"internal/bench", "cmd/bench"}, []string{std, thirdParty, "domain", "library", "benchmark"}},
	// The crash and scale-out tests drive the portal binary from outside;
	// the package holds nothing but its tests.
	{"crash tests", []string{"internal/crashtest"}, []string{std}},
	// For tests only: no layer lists it, so only test files import it.
	{"test support", []string{"internal/store/storetest", "internal/mail/mailtest"}, []string{
		std, thirdParty, "domain", "library", "store", "mail",
	}},
}

// goPackage is what `go list -json` tells of a package.
type goPackage struct {
	ImportPath string
	GoFiles    []string
	Imports    []string
	Error      *struct{ Err string }
}

func TestPackageLayering(t *testing.T) {
	pkgs := modulePackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages of %s; expected the whole module", len(pkgs), module)
	}
	for _, problem := range layeringProblems(layers, pkgs) {
		t.Error(problem)
	}
}

// TestLayeringProblems checks that the check refuses what the rule forbids,
// on made-up imports over the table's packages.
func TestLayeringProblems(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pkg     string // module-relative
		imports []string
		want    string // "" for no problem
	}{
		{"DomainImportsTheStandardLibrary", "internal/portal", []string{"net/http"}, ""},
		{"ErrDomainImportsAModule", "internal/portal", []string{"golang.org/x/text/unicode/norm"},
			"internal/portal (domain) imports golang.org/x/text/unicode/norm (third-party modules): the domain layer may import only standard library"},
		{"ErrDomainImportsALibrary", "internal/portal", []string{module + "/internal/legaltext"},
			"internal/portal (domain) imports internal/legaltext (library)"},
		{"LibraryImportsTheDomainAndALibrary", "internal/legaltext", []string{module + "/internal/portal", module + "/internal/signedpdf"}, ""},
		{"ErrLibraryImportsAnAdapter", "internal/legaltext", []string{module + "/internal/store"},
			"internal/legaltext (library) imports internal/store (store)"},
		{"StoreImportsTheSandboxRecords", "internal/store", []string{module + "/internal/sandbox"}, ""},
		{"ErrAdapterImportsAnotherAdapter", "internal/httpapi", []string{module + "/internal/store"},
			"internal/httpapi (httpapi) imports internal/store (store)"},
		{"ErrHTTPImportsMail", "internal/httpapi", []string{module + "/internal/mail"},
			"internal/httpapi (httpapi) imports internal/mail (mail)"},
		{"ErrSandboxImportsAnotherSandbox", "internal/sandbox/idv", []string{module + "/internal/sandbox/payment"},
			"internal/sandbox/idv (sandboxes) imports internal/sandbox/payment (sandboxes)"},
		{"ErrStoreImportsTheDemo", "internal/store", []string{module + "/internal/demo"},
			"internal/store (store) imports internal/demo (demo)"},
		{"ErrTestSupportOutsideTests", "internal/demo", []string{module + "/internal/store/storetest"},
			"internal/demo (demo) imports internal/store/storetest (test support)"},
		{"CompositionRootWiresEveryAdapter", "cmd/portal", []string{module + "/internal/store", module + "/internal/httpapi",
			module + "/internal/mail", module + "/internal/sandbox/idv", module + "/internal/demo"}, ""},
		{"ErrPackageInNoLayer", "internal/newthing", nil,
			"internal/newthing is in no layer: add it to the table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One package per table entry, importing nothing, then the case's.
			var pkgs []goPackage
			for _, l := range layers {
				for _, pattern := range l.packages {
					pkgs = append(pkgs, goPackage{ImportPath: module + "/" + strings.TrimSuffix(pattern, "/..."), GoFiles: []string{"a.go"}})
				}
			}
			pkgs = append(pkgs, goPackage{ImportPath: module + "/" + tc.pkg, GoFiles: []string{"b.go"}, Imports: tc.imports})
			problems := layeringProblems(layers, pkgs)
			switch {
			case tc.want == "" && len(problems) > 0:
				t.Errorf("problems: %q, want none", problems)
			case tc.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.want)):
				t.Errorf("problems: %q, want one containing %q", problems, tc.want)
			}
		})
	}
}

// modulePackages lists the module's packages with `go list` (from the
// module's root, the parent of this folder), leaving out the Go packages
// that npm modules ship in web/node_modules.
func modulePackages(t *testing.T) []goPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,GoFiles,Imports,Error", module+"/...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list: reading its output: %v", err)
		}
		if strings.Contains(p.ImportPath, "/node_modules/") {
			continue
		}
		if p.Error != nil {
			t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// layeringProblems checks packages against the table: each one sentence
// naming the package and what is wrong.
func layeringProblems(layers []layer, pkgs []goPackage) []string {
	var problems []string
	names := map[string]bool{}
	for _, l := range layers {
		names[l.name] = true
	}
	for _, l := range layers {
		for _, allowed := range l.mayImport {
			if allowed != std && allowed != thirdParty && !names[allowed] {
				problems = append(problems, fmt.Sprintf("layer %q may import %q, which is no layer of the table", l.name, allowed))
			}
		}
	}
	var listed []string
	for _, p := range pkgs {
		listed = append(listed, strings.TrimPrefix(p.ImportPath, module+"/"))
	}
	for _, l := range layers {
		for _, pattern := range l.packages {
			if !slices.ContainsFunc(listed, func(rel string) bool { return matches(pattern, rel) }) {
				problems = append(problems, fmt.Sprintf("layer %q names %s, which is no package of the module: update the table", l.name, pattern))
			}
		}
	}

	for _, p := range pkgs {
		if len(p.GoFiles) == 0 {
			continue // tests only (like this folder's): nothing imports it
		}
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		in, err := layerOf(layers, rel)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, imp := range p.Imports {
			kind, err := importKind(layers, imp)
			if err != nil {
				continue // the imported package's own entry reports it
			}
			if !slices.Contains(in.mayImport, kind) {
				problems = append(problems, fmt.Sprintf("%s (%s) imports %s (%s): the %s layer may import only %s",
					rel, in.name, strings.TrimPrefix(imp, module+"/"), kind, in.name, strings.Join(in.mayImport, ", ")))
			}
		}
	}
	return problems
}

// layerOf finds the one layer holding a module-relative package path.
func layerOf(layers []layer, rel string) (layer, error) {
	var found []layer
	for _, l := range layers {
		if slices.ContainsFunc(l.packages, func(pattern string) bool { return matches(pattern, rel) }) {
			found = append(found, l)
		}
	}
	switch len(found) {
	case 0:
		return layer{}, fmt.Errorf("%s is in no layer: add it to the table in internal/layering_test.go", rel)
	case 1:
		return found[0], nil
	}
	return layer{}, fmt.Errorf("%s is in the layers %q and %q: it must be in one", rel, found[0].name, found[1].name)
}

// importKind is the layer of one of the module's packages, else std or
// thirdParty: the standard library's paths have no dot in their first
// element, every module's but this one's do.
func importKind(layers []layer, path string) (string, error) {
	if rel, ok := strings.CutPrefix(path, module+"/"); ok {
		l, err := layerOf(layers, rel)
		return l.name, err
	}
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return thirdParty, nil
	}
	return std, nil
}

// matches reports whether a table pattern names a package.
func matches(pattern, rel string) bool {
	if tree, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == tree || strings.HasPrefix(rel, tree+"/")
	}
	return rel == pattern
}
