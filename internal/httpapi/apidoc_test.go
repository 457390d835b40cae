package httpapi_test

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"applicantportal/internal/httpapi"
	"applicantportal/internal/store/storetest"
)

// serverRoutes lists the patterns of a server wired as cmd/portal wires
// it (every service, the sandboxes), so that no route is left out for a
// missing service.
func serverRoutes(t *testing.T) []string {
	t.Helper()
	h := newHarness(t, storetest.OpenSQLite(t, storetest.Config(t)), "192.0.2.1:1234")
	return h.serve(httpapi.Config{Sandboxes: http.NotFoundHandler()}, nil, nil).Routes()
}

// apiDocRoute is a method and path docs/api.md names, with each {name}
// written {} (the names differ between the document and the code).
type apiDocRoute struct{ method, path string }

var (
	// "`GET /api/v2/user`", "`GET`" (under a base), "### PUT /api/v2/user (*user*)",
	// "### GET /api/v2/user/profile/report, /api/v2/user/profile/drug-report (*user*)".
	docSpan    = regexp.MustCompile("`(GET|HEAD|POST|PUT|PATCH|DELETE)((?: [^`]*)?)`")
	docHeading = regexp.MustCompile(`^#{2,4} (GET|HEAD|POST|PUT|PATCH|DELETE) (/[^ ]*(?:(?:, | \| )/[^ ]*)*)`)
	// "All under `/api/v2/.../chat-messages`": relative paths below it,
	// up to the next heading, are under that base.
	docBase      = regexp.MustCompile("[Uu]nder `(/[^`]+)`")
	docPathValue = regexp.MustCompile(`\{[^}]*\}`)
)

// isRoot reports whether path starts at the root of the server rather
// than under a section's base.
func isRoot(path string) bool {
	for _, root := range []string{"/api/", "/oauth/", "/healthz", "/sandbox/"} {
		if strings.HasPrefix(path, root) {
			return true
		}
	}
	return false
}

// documentedRoutes reads every method and path docs/api.md names, in
// headings and in code spans.
func documentedRoutes(t *testing.T) []apiDocRoute {
	t.Helper()
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []apiDocRoute
	add := func(method, path, base string) {
		path, _, _ = strings.Cut(strings.TrimSpace(path), "?")
		if strings.Contains(path, "…") {
			return // an abbreviation in prose ("POST …/read"); the full path is named nearby
		}
		if path == "" || !isRoot(path) {
			if base == "" || !strings.HasPrefix(path, "/") && path != "" {
				return
			}
			path = strings.TrimSuffix(base, "/") + path
		}
		out = append(out, apiDocRoute{method, docPathValue.ReplaceAllString(path, "{}")})
	}
	base := ""
	inCode := false
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		if strings.HasPrefix(line, "#") {
			base = ""
			if m := docHeading.FindStringSubmatch(line); m != nil {
				for _, p := range regexp.MustCompile(`, | \| `).Split(m[2], -1) {
					add(m[1], p, "")
				}
				continue
			}
		}
		if m := docBase.FindStringSubmatch(line); m != nil {
			base = m[1]
		}
		for _, m := range docSpan.FindAllStringSubmatch(line, -1) {
			add(m[1], m[2], base)
		}
	}
	return out
}

// registeredRoute is a pattern of the server: a method (none for a
// prefix pattern such as "/sandbox/") and a path with {} for path values.
func registeredRoute(pattern string) apiDocRoute {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		method, path = "", pattern
	}
	return apiDocRoute{method, docPathValue.ReplaceAllString(path, "{}")}
}

// serves reports whether pattern r takes the documented route d: the same
// method and path, segment by segment, or a prefix pattern's subtree.
func (r apiDocRoute) serves(d apiDocRoute) bool {
	if r.method != "" && r.method != d.method && !(r.method == "GET" && d.method == "HEAD") {
		return false
	}
	if strings.HasSuffix(r.path, "/") {
		return strings.HasPrefix(d.path, r.path)
	}
	return r.path == d.path
}

// TestAPIDocumentNamesEveryRoute holds docs/api.md against the server:
// every method and path the document names is registered, and every
// route the server registers is documented.
func TestAPIDocumentNamesEveryRoute(t *testing.T) {
	var routes []apiDocRoute
	for _, p := range serverRoutes(t) {
		// The catch-alls answer what nothing else does (a JSON 404 under
		// the API prefixes, the app elsewhere).
		if p == "/" || p == "/api/" || p == "/oauth/" {
			continue
		}
		routes = append(routes, registeredRoute(p))
	}
	documented := documentedRoutes(t)
	if len(documented) < len(routes) {
		t.Fatalf("docs/api.md names %d routes; the parser found too few", len(documented))
	}
	var undocumented, unregistered []string
	for _, d := range documented {
		if !slices.ContainsFunc(routes, func(r apiDocRoute) bool { return r.serves(d) }) {
			unregistered = append(unregistered, d.method+" "+d.path)
		}
	}
	for _, r := range routes {
		if !slices.ContainsFunc(documented, func(d apiDocRoute) bool { return r.serves(d) }) {
			undocumented = append(undocumented, strings.TrimSpace(r.method+" "+r.path))
		}
	}
	slices.Sort(unregistered)
	unregistered = slices.Compact(unregistered)
	if len(unregistered) > 0 {
		t.Errorf("docs/api.md names routes the server does not register:\n  %s", strings.Join(unregistered, "\n  "))
	}
	if len(undocumented) > 0 {
		t.Errorf("the server registers routes docs/api.md does not document:\n  %s", strings.Join(undocumented, "\n  "))
	}
}
