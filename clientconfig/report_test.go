package clientconfig

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReport says what Setup did, on out or, for a dry run, on info
// with the file on out; and refuses an entry that differs, naming how.
func TestReport(t *testing.T) {
	cl, _ := Lookup("cursor")
	root := t.TempDir()
	path := filepath.Join(root, ".cursor", "mcp.json")
	report := func(res Result, opts Options) (string, string, error) {
		var out, info bytes.Buffer
		err := res.Report(&out, &info, cl, opts, root)
		return out.String(), info.String(), err
	}
	opts := Options{Name: "snap"}
	added := Result{Path: path, State: Added, Serve: "/opt/snap serve", Content: []byte("{}\n")}
	out, info, err := report(added, opts)
	if want := path + ": added MCP server \"snap\": /opt/snap serve\n" + cl.Note + "\nThere is no snapshot in " + filepath.Join(root, ".snap"); err != nil || info != "" || !strings.HasPrefix(out, want) {
		t.Errorf("added: out %q, info %q, %v; want out %q…", out, info, err, want)
	}
	os.Mkdir(filepath.Join(root, ".snap"), 0o755)
	if out, _, _ := report(added, opts); strings.Contains(out, "no snapshot") {
		t.Errorf("added with a snapshot folder: %q", out)
	}
	out, info, err = report(added, Options{Name: "snap", DryRun: true})
	if err != nil || out != "{}\n" || !strings.HasSuffix(info, "(printed; "+path+" was not written)\n") {
		t.Errorf("dry run: out %q, info %q, %v", out, info, err)
	}
	updated := Result{Path: path, State: Updated, Serve: "/new/snap serve", Diffs: []Diff{{key: "command", got: `"/old/snap"`, want: `"/new/snap"`}}}
	if out, _, _ := report(updated, opts); !strings.Contains(out, `updated MCP server "snap": /new/snap serve (command was "/old/snap")`) {
		t.Errorf("updated: %q", out)
	}
	if out, _, _ := report(Result{Path: path, State: Same, Serve: "/opt/snap serve"}, opts); out != path+": MCP server \"snap\" is already set up: /opt/snap serve\n" {
		t.Errorf("same: %q", out)
	}
	differs := updated
	differs.State = Differs
	out, _, err = report(differs, opts)
	if out != "" || err == nil || !strings.Contains(err.Error(), `command is "/old/snap"; snap's is "/new/snap"`+"\nrun setup again with --force") {
		t.Errorf("differs: out %q, %v", out, err)
	}
}
