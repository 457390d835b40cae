package portal

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

// appRoutesJSON is the app's route table (spec section 2) once, for the
// server and the app: web/src/config/paths.ts builds its paths from the same
// file, so a path the router knows is a path the server answers 200 for,
// and every other path is a 404 of the server too.
//
//go:embed contract/routes.json
var appRoutesJSON []byte

// appRoutes parses the embedded table once; it never changes after.
var appRoutes = sync.OnceValue(func() [][]string {
	var table map[string]string
	if err := json.Unmarshal(appRoutesJSON, &table); err != nil {
		panic(fmt.Sprintf("portal: contract/routes.json: %v", err))
	}
	patterns := make([]string, 0, len(table))
	for _, p := range table {
		patterns = append(patterns, p)
	}
	sort.Strings(patterns)
	out := make([][]string, 0, len(patterns))
	for _, p := range patterns {
		if !strings.HasPrefix(p, "/") {
			panic(fmt.Sprintf("portal: contract/routes.json: %q does not start with /", p))
		}
		out = append(out, segments(p))
	}
	return out
})

// IsAppPath says whether the app has a page at the URL path p, matched as
// the app's router matches it: segments compared without regard to case,
// ":name" for any one segment, ":name?" for one or none, a trailing slash
// ignored.
func IsAppPath(p string) bool {
	got := segments(path.Clean("/" + p))
	for _, pattern := range appRoutes() {
		if matchSegments(pattern, got) {
			return true
		}
	}
	return false
}

func segments(p string) []string {
	trimmed := strings.Trim(p, "/")
	if trimmed == "" {
		return nil
	}
	return strings.Split(trimmed, "/")
}

func matchSegments(pattern, got []string) bool {
	for i, seg := range pattern {
		optional := strings.HasPrefix(seg, ":") && strings.HasSuffix(seg, "?")
		if i >= len(got) {
			// Only optional segments may be left over.
			if !optional {
				return false
			}
			continue
		}
		if strings.HasPrefix(seg, ":") {
			continue
		}
		if !strings.EqualFold(seg, got[i]) {
			return false
		}
	}
	return len(got) <= len(pattern)
}
