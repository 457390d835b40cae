package internal_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// securityDoc is the threat model; every test it cites must exist.
const securityDoc = "../docs/security.md"

var (
	// A Go test, fuzz target or benchmark cited in the doc, with an optional
	// subtest path (TestX/Sub/*/Case); only the top-level name is checked.
	citedGoTest = regexp.MustCompile(`\b((?:Test|Fuzz|Benchmark)[A-Z0-9_]\w*)`)
	// A Vitest or Playwright file cited in the doc: a path under web/ (with
	// or without the leading web/) or a bare file name.
	citedWebTest = regexp.MustCompile(`[\w./-]*\.(?:test|spec)\.tsx?\b`)
	// A top-level test, fuzz target or benchmark of a _test.go file.
	declaredGoTest = regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)\w*)\(`)
)

// TestSecurityDocCitesOnlyTestsThatExist keeps docs/security.md true: each
// control there names the tests that prove it, and a test renamed or removed
// without the doc following would leave a control unproven on paper.
func TestSecurityDocCitesOnlyTestsThatExist(t *testing.T) {
	doc, err := os.ReadFile(securityDoc)
	if err != nil {
		t.Fatal(err)
	}
	goTests, webFiles := testsOfTheModule(t, "..")

	var unknown []string
	for _, m := range citedGoTest.FindAllStringSubmatch(string(doc), -1) {
		name := m[1]
		if goTests[name] {
			continue
		}
		unknown = append(unknown, name+" (no such Go test)")
	}
	for _, path := range citedWebTest.FindAllString(string(doc), -1) {
		if !webFileExists(path, webFiles) {
			unknown = append(unknown, path+" (no such file under web/)")
		}
	}
	slices.Sort(unknown)
	unknown = slices.Compact(unknown)
	if len(unknown) > 0 {
		t.Errorf("docs/security.md cites %d tests that do not exist; rename them in the doc:\n  %s",
			len(unknown), strings.Join(unknown, "\n  "))
	}
}

// testsOfTheModule returns the top-level Go tests, fuzz targets and
// benchmarks declared under root, and the paths (relative to root/web) of
// the web app's test files.
func testsOfTheModule(t *testing.T, root string) (map[string]bool, []string) {
	t.Helper()
	goTests := map[string]bool{}
	var webFiles []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "dist", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasSuffix(rel, "_test.go"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range declaredGoTest.FindAllStringSubmatch(string(src), -1) {
				goTests[m[1]] = true
			}
		case strings.HasPrefix(rel, "web/") && citedWebTest.MatchString(d.Name()):
			webFiles = append(webFiles, strings.TrimPrefix(rel, "web/"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(goTests) == 0 || len(webFiles) == 0 {
		t.Fatalf("found %d Go tests and %d web test files under %s: the walk is broken", len(goTests), len(webFiles), root)
	}
	return goTests, webFiles
}

// webFileExists tells whether a cited web test file is one of files: a path
// names the file from web/ (src/..., e2e/...); a bare name matches any file
// of that name.
func webFileExists(cited string, files []string) bool {
	cited = strings.TrimPrefix(cited, "web/")
	for _, f := range files {
		if f == cited || (!strings.Contains(cited, "/") && filepath.Base(f) == cited) {
			return true
		}
	}
	return false
}

// TestLinksIntoTheSecurityDocResolve keeps the links to the doc's sections
// working: its own table of threats links each control's section, and the
// other docs link into it by section (docs/security.md#section).
func TestLinksIntoTheSecurityDocResolve(t *testing.T) {
	doc, err := os.ReadFile(securityDoc)
	if err != nil {
		t.Fatal(err)
	}
	anchors := headingAnchors(string(doc))
	var broken []string
	for _, m := range regexp.MustCompile(`\]\(#([^)\s]+)\)`).FindAllStringSubmatch(string(doc), -1) {
		if !anchors[m[1]] {
			broken = append(broken, "docs/security.md: #"+m[1])
		}
	}
	others, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range append(others, "../README.md") {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`security\.md#([^)\s"'\x60]+)`).FindAllStringSubmatch(string(text), -1) {
			if !anchors[m[1]] {
				broken = append(broken, strings.TrimPrefix(path, "../")+": security.md#"+m[1])
			}
		}
	}
	slices.Sort(broken)
	broken = slices.Compact(broken)
	if len(broken) > 0 {
		t.Errorf("%d links point to no section of docs/security.md:\n  %s", len(broken), strings.Join(broken, "\n  "))
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text: lower case, punctuation dropped, spaces as hyphens, and
// -1, -2 ... after a repeated one.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	inCode := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if inCode || !strings.HasPrefix(line, "#") || !ok {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(title)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchor := b.String()
		if n := seen[anchor]; n > 0 {
			seen[anchor]++
			anchor = anchor + "-" + strconv.Itoa(n)
		} else {
			seen[anchor] = 1
		}
		anchors[anchor] = true
	}
	return anchors
}
