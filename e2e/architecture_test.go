package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestArchitecture holds snap's packages to the dependency rules of
// docs/architecture.md, reading what each imports, directly or not, from
// go list (test files aside).
func TestArchitecture(t *testing.T) {
	const mod = "github.com/graphsnap/snap"
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	under := func(path, pkg string) bool { return path == mod+"/"+pkg || strings.HasPrefix(path, mod+"/"+pkg+"/") }
	// A package of from (or under it) must not depend on to.
	rules := []struct {
		from, to, why string
	}{
		{"schemas", mod + "/*", "schemas imports nothing of snap"},
		{"indexer", "query", "the indexer never imports the engine"},
		{"indexer", "mcp", "the indexer never imports the engine"},
		{"query", "indexer", "the engine never parses"},
		{"query", "github.com/tree-sitter*", "the engine never parses"},
		{"mcp", "indexer", "the engine never parses"},
		{"mcp", "github.com/tree-sitter*", "the engine never parses"},
	}
	packages := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		packages++
		for _, dep := range strings.Fields(deps) {
			if under(dep, "cmd") {
				t.Errorf("%s imports %s: libraries never import main", pkg, dep)
			}
			if under(dep, "serve") && !under(pkg, "cmd") && !under(pkg, "serve") {
				t.Errorf("%s imports %s: nothing below serve/ imports it", pkg, dep)
			}
			for _, r := range rules {
				if !under(pkg, r.from) {
					continue
				}
				// A rule's target is a package of snap and those under it,
				// or, ending in *, every import path it begins.
				hit := under(dep, r.to)
				if prefix, ok := strings.CutSuffix(r.to, "*"); ok {
					hit = strings.HasPrefix(dep, prefix)
				}
				if hit {
					t.Errorf("%s imports %s: %s", pkg, dep, r.why)
				}
			}
		}
	}
	if packages < 10 {
		t.Fatalf("go list found %d packages; expected snap's", packages)
	}
}
