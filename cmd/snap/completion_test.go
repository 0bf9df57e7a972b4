package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Each script is produced, names every command, and is accepted by its
// shell's syntax check when the shell is here.
func TestCompletionScripts(t *testing.T) {
	app := snapApp(t)
	check := map[string][]string{
		"bash": {"bash", "-n"},
		"zsh":  {"zsh", "-n"},
		"fish": {"fish", "--no-execute"},
	}
	for _, shell := range completionShells {
		code, script, stderr := run(t, "", "completion", shell)
		if code != 0 || script == "" {
			t.Errorf("snap completion %s: exit %d: %s", shell, code, stderr)
			continue
		}
		for _, c := range app.VisibleCommands() {
			if !strings.Contains(script, c.Name) {
				t.Errorf("%s: the script does not name %s", shell, c.Name)
			}
		}
		for _, word := range []string{"claude-desktop", "force", "calls", "depth"} {
			if !strings.Contains(script, word) {
				t.Errorf("%s: the script does not complete %s", shell, word)
			}
		}
		requireTool(t, check[shell][0])
		file := filepath.Join(t.TempDir(), "snap."+shell)
		os.WriteFile(file, []byte(script), 0o644)
		if out, err := exec.Command(check[shell][0], append(check[shell][1:], file)...).CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v\n%s", strings.Join(check[shell], " "), file, err, out)
		}
	}
}

// The bash script completes what it should, run by bash.
func TestCompletionBash(t *testing.T) {
	requireTool(t, "bash")
	_, script, _ := run(t, "", "completion", "bash")
	file := filepath.Join(t.TempDir(), "snap.bash")
	os.WriteFile(file, []byte(script), 0o644)
	for _, c := range []struct{ line, want string }{
		{"snap se", "serve setup"},
		{"snap setup ", "claude cursor vscode codex claude-desktop"},
		{"snap setup --force --name x c", "claude cursor codex claude-desktop"},
		{"snap setup claude ", ""},
		{"snap index --st", "--store"},
		{"snap index --store ", ""}, // a value: file names
		{"snap completion ", "bash zsh fish"},
		{"snap help verif", "verify"},
		{"snap query call", "calls call_details"},
		{"snap query --store /x calls --na", "--name"},
		{"snap -", "--help -h --version -v"},
	} {
		words := strings.Split(c.line, " ")
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+w+"'")
		}
		test := "source " + file + "\n" +
			"COMP_WORDS=(" + strings.Join(quoted, " ") + ")\n" +
			"COMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n" +
			"_snap\n" +
			`echo "${COMPREPLY[*]}"`
		out, err := exec.Command("bash", "-c", test).CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != c.want {
			t.Errorf("%q: completed %q (%v), want %q", c.line, got, err, c.want)
		}
	}
}

func TestCompletionUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"completion"}, "name a shell: bash, zsh, fish"},
		{[]string{"completion", "powershell"}, `unknown shell "powershell" (have bash, zsh, fish)`},
		{[]string{"completion", "bash", "zsh"}, "takes 1 argument"},
	} {
		code, _, stderr := run(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
