package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestSealedColumnsNameEveryPlace: every place a value is sealed for (the
// functions named ...Place, and keyCheckPlace) is used by sealedColumns,
// so a new sealed column cannot be left out of key rotations and
// `portal keys status`.
func TestSealedColumnsNameEveryPlace(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	places := map[string]bool{"keyCheckPlace": true}
	used := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasSuffix(fn.Name.Name, "Place") {
				places[fn.Name.Name] = true
			}
		}
		if name != "keyrotation.go" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) == 1 && vs.Names[0].Name == "sealedColumns" {
				ast.Inspect(vs, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						used[id.Name] = true
					}
					return true
				})
			}
			return true
		})
	}
	if len(places) < 10 {
		t.Fatalf("found only %d places; is the test reading the package?", len(places))
	}
	for p := range places {
		if !used[p] {
			t.Errorf("%s names a place values are sealed for, and sealedColumns has no column using it: add the column to sealedColumns", p)
		}
	}
}
