package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestAdvisoryLockClassesAreDistinct checks every advisory-lock class of
// locks.go has a number of its own, and that the list the check reads names
// every constant declared there (so a new class cannot slip past it).
func TestAdvisoryLockClassesAreDistinct(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "locks.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, spec := range g.Specs {
				for _, n := range spec.(*ast.ValueSpec).Names {
					declared[n.Name] = true
				}
			}
		}
	}
	if len(declared) != len(advisoryLockClasses) {
		t.Errorf("locks.go declares %d classes, advisoryLockClasses lists %d", len(declared), len(advisoryLockClasses))
	}
	seen := map[int32]string{}
	for name, class := range advisoryLockClasses {
		if !declared[name] {
			t.Errorf("advisoryLockClasses lists %s, which locks.go does not declare", name)
		}
		if other, dup := seen[class]; dup {
			t.Errorf("%s and %s share advisory lock class %d", name, other, class)
		}
		seen[class] = name
	}
	// resetThrottle locks its IP under the class after the username's.
	if resetThrottle.lockClass+1 != lockResetIP {
		t.Errorf("the reset throttle's IP class is %d, want lockResetIP (%d)", resetThrottle.lockClass+1, lockResetIP)
	}
}
