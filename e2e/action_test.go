package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// tool finds a test tool by $NAME_UPPER, $PATH or $(go env GOPATH)/bin,
// skipping the test when it is missing, unless $SNAP_REQUIRE_TOOLS is set
// (make test sets it and installs the tools).
func tool(t *testing.T, name, env, install string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(string(out[:len(out)-1]), "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	msg := name + " is not installed; install it with: " + install
	if os.Getenv("SNAP_REQUIRE_TOOLS") != "" {
		t.Fatal(msg + " (SNAP_REQUIRE_TOOLS is set, so this does not skip)")
	}
	t.Skip(msg)
	return ""
}

// TestActionLint holds action.yml, the repository's workflow (which uses
// the action as ./, so its inputs are checked) and the examples to
// actionlint.
func TestActionLint(t *testing.T) {
	bin := tool(t, "actionlint", "ACTIONLINT", "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	examples, _ := filepath.Glob("../action/examples/*.yml")
	for i, e := range examples {
		examples[i] = filepath.ToSlash(e[len("../"):]) // relative to the repository, where actionlint runs
	}
	cmd := exec.Command(bin, append([]string{"-no-color"}, examples...)...)
	cmd.Dir = ".."
	if len(examples) == 0 {
		t.Fatal("no examples under action/examples")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint on the examples: %v\n%s", err, out)
	}
	cmd = exec.Command(bin, "-no-color") // the repository's own workflows
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint: %v\n%s", err, out)
	}
}
