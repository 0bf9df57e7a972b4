package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// inspector is MCP Inspector's CLI, a client nobody on this project wrote.
const inspector = "@modelcontextprotocol/inspector@2.12.0"

// TestInspectorCLI drives `snap serve` with MCP Inspector's CLI: the tool
// list passes its strict schema check (no portability warning), and a call
// answers.
func TestInspectorCLI(t *testing.T) {
	npx := tool(t, "npx", "NPX", "apt-get install nodejs npm")
	snap := fixture(t, "go/shop")
	// run returns the CLI's stdout and stderr, where it reports warnings.
	run := func(args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(npx, append(append([]string{"-y", inspector, "--cli"}, args...), "--", snapBin, "serve", "--snapshot", snap)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("inspector %v: %v\n%s\n%s", args, err, out, tail(stderr.String()))
		}
		return string(out), stderr.String()
	}
	out, warnings := run("--strict", "--method", "tools/list")
	if strings.Contains(warnings, "Warning: tool") {
		t.Errorf("strict tools/list warns:\n%s", tail(warnings))
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &list); err != nil || len(list.Tools) < 10 {
		t.Fatalf("tools/list: %v\n%s", err, tail(out))
	}
	out, _ = run("--method", "tools/call", "--tool-name", "snap_calls", "--tool-arg", "name=Lookup")
	if !strings.Contains(out, `"qname": "example.com/shop/cmd/shop.main"`) {
		t.Errorf("tools/call snap_callers:\n%s", tail(out))
	}
}
