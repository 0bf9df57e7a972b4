package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/graphsnap/snap"

// rules are the imports the layout forbids, one a line. from and to are
// lists of patterns: "query" is that package, "indexer/..." it and every
// package below it, "..." every package of the module; a pattern of a
// path outside the module (a dependency) is written in full; one with a
// leading "-" takes packages out of the list. A package of from must not
// depend on one of to, directly or through others.
var rules = []rule{
	{from: "... -cmd/...", to: "cmd/...", why: "a command is no library"},
	{from: "schemas", to: "... -schemas", why: "the format imports nothing of snap"},
	{from: "indexer/...", to: "query/... mcp/...", why: "the indexer writes what the query engine reads; it never reads through it"},
	{from: "mcp/...", to: "indexer/... github.com/tree-sitter/...", why: "the MCP server answers from snapshots, and parses nothing"},
	{from: "query/...", to: "indexer/...", why: "the query engine reads snapshots, and parses nothing"},
	{from: "query/...", to: "github.com/tree-sitter/...", why: "the query engine reads snapshots, and parses nothing"},
	{from: "query/... mcp/... snapshot/... indexer/... schemas", to: "ci", why: "the pipeline is over these packages, not below them"},
	{from: "... -cmd/...", to: "github.com/urfave/...", why: "flags are the command's; libraries take configs"},
	{from: "... -serve/... -cmd/...", to: "serve/...", why: "nothing below serve imports it"},
}

type rule struct {
	from, to string
	why      string
}

// TestImports holds every package of the module to rules.
func TestImports(t *testing.T) {
	pkgs := list(t)
	for _, r := range rules {
		t.Run(r.to+" from "+r.from, func(t *testing.T) {
			bad, targets := check(pkgs, r)
			if targets == 0 {
				t.Fatalf("no package matches %s: the rule checks nothing", r.to)
			}
			for _, b := range bad {
				t.Error(b)
			}
		})
	}
}

// TestCheck: a rule catches a dependency through another package, and
// lets pass what it does not name.
func TestCheck(t *testing.T) {
	pkgs := []pkg{
		{ImportPath: module + "/mcp", Deps: []string{module + "/query", module + "/schemas"}},
		{ImportPath: module + "/query", Deps: []string{module + "/schemas"}},
		{ImportPath: module + "/schemas"},
	}
	bad, targets := check(pkgs, rule{from: "mcp", to: "schemas", why: "a test"})
	if targets != 3 || len(bad) != 1 || bad[0] != module+"/mcp depends on "+module+"/schemas: a test" {
		t.Errorf("check = %q, %d targets", bad, targets)
	}
	if bad, _ := check(pkgs, rule{from: "... -mcp", to: "query"}); len(bad) != 0 {
		t.Errorf("check of a rule nothing breaks = %q", bad)
	}
}

// check returns the dependencies of pkgs that break r, and how many
// packages and dependencies r's to matches.
func check(pkgs []pkg, r rule) (bad []string, targets int) {
	for _, p := range pkgs {
		for _, path := range append(p.Deps, p.ImportPath) {
			if matches(r.to, path) {
				targets++
			}
		}
		if !matches(r.from, p.ImportPath) {
			continue
		}
		for _, d := range p.Deps {
			if matches(r.to, d) {
				bad = append(bad, p.ImportPath+" depends on "+d+": "+r.why)
			}
		}
	}
	return bad, targets
}

// TestMatches holds the pattern language of rules.
func TestMatches(t *testing.T) {
	for _, tc := range []struct {
		patterns, path string
		want           bool
	}{
		{"query", module + "/query", true},
		{"query", module + "/query/querytest", false},
		{"query/...", module + "/query/querytest", true},
		{"query/...", module + "/queryx", false},
		{"...", module + "/cmd/snap", true},
		{"... -cmd/...", module + "/cmd/snap", false},
		{"... -cmd/...", module + "/ci", true},
		{"...", "github.com/tree-sitter/go-tree-sitter", false},
		{"github.com/tree-sitter/...", "github.com/tree-sitter/go-tree-sitter", true},
		{"ci", "github.com/other/ci", false},
	} {
		if got := matches(tc.patterns, tc.path); got != tc.want {
			t.Errorf("matches(%q, %q) = %v, want %v", tc.patterns, tc.path, got, tc.want)
		}
	}
}

// matches says whether the import path is one patterns name.
func matches(patterns, path string) bool {
	in := false
	for _, p := range strings.Fields(patterns) {
		p, out := strings.CutPrefix(p, "-")
		if match(p, path) {
			if out {
				return false
			}
			in = true
		}
	}
	return in
}

func match(pattern, path string) bool {
	if first, _, _ := strings.Cut(pattern, "/"); first == "..." || !strings.Contains(first, ".") {
		// A pattern of the module's own.
		rel, ok := strings.CutPrefix(path, module+"/")
		if !ok {
			return false
		}
		path = rel
		if pattern == "..." {
			return true
		}
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

type pkg struct {
	ImportPath string
	Deps       []string
}

// list lists every package of the module with what it depends on.
func list(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Deps", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pkg
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages of %s", len(pkgs), module)
	}
	return pkgs
}
