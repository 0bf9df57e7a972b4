package e2e

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// npmPackage fetches name@version from the npm registry (npm pack) and
// returns the folder it unpacks to.
func npmPackage(t *testing.T, npm, spec string) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command(npm, "pack", "--silent", "--pack-destination", dir, spec).Output()
	if err != nil {
		t.Fatalf("npm pack %s: %v", spec, err)
	}
	tgz := filepath.Join(dir, strings.TrimSpace(string(out)))
	if out, err := exec.Command("tar", "xzf", tgz, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("unpack %s: %v %s", tgz, err, out)
	}
	return filepath.Join(dir, "package")
}

// TestServeNPMRepositories serves three packages from the npm registry,
// each as its own repository: is-even requires is-odd, which requires
// is-number, each declared in package.json. The calls along the chain are
// found across the repositories. With a second version of is-odd loaded
// as well, the name is-odd means either: is-even's call stays unresolved.
func TestServeNPMRepositories(t *testing.T) {
	npm := tool(t, "npm", "NPM", "apt-get install npm")
	store := t.TempDir()
	indexAs(t, store, "is-even", npmPackage(t, npm, "is-even@1.0.0"))
	indexAs(t, store, "is-odd", npmPackage(t, npm, "is-odd@0.1.2"))
	indexAs(t, store, "is-number", npmPackage(t, npm, "is-number@3.0.0"))

	callers := func(sess *mcp.ClientSession, name, repo string) []string {
		t.Helper()
		ans, isErr := call(t, sess, "snap_calls", map[string]any{"name": name, "repo": repo})
		if isErr {
			t.Fatalf("snap_calls %s in %s: %s", name, repo, mustJSON(ans))
		}
		return sites(ans["callers"])
	}
	sess, _ := serveStore(t, t.TempDir(), nil, "--store", store, "--all-repos")
	if got, want := callers(sess, "isOdd", "is-odd"), []string{"index.isEven @is-even/index.js:13"}; !slices.Equal(got, want) {
		t.Errorf("callers of isOdd = %q, want %q", got, want)
	}
	if got := callers(sess, "isNumber", "is-number"); len(got) != 1 || !strings.HasPrefix(got[0], "index.isOdd @is-odd/index.js:") {
		t.Errorf("callers of isNumber = %q, want is-odd's isOdd", got)
	}

	indexAs(t, store, "is-odd-3", npmPackage(t, npm, "is-odd@3.0.1"))
	sess, _ = serveStore(t, t.TempDir(), nil, "--store", store, "--all-repos")
	for _, repo := range []string{"is-odd", "is-odd-3"} {
		if got := callers(sess, "isOdd", repo); len(got) != 0 {
			t.Errorf("with two is-odd packages, callers of %s's isOdd = %q, want none", repo, got)
		}
	}
}
