package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Each script is produced and is accepted by its shell's syntax check.
func TestCompletionScripts(t *testing.T) {
	check := map[string][]string{
		"bash": {"bash", "-n"},
		"zsh":  {"zsh", "-n"},
		"fish": {"fish", "--no-execute"},
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, script, stderr := run(t, "", "completion", shell)
		if code != 0 || !strings.Contains(script, "snap") {
			t.Errorf("snap completion %s: exit %d: %s", shell, code, stderr)
			continue
		}
		requireTool(t, check[shell][0])
		file := filepath.Join(t.TempDir(), "snap."+shell)
		os.WriteFile(file, []byte(script), 0o644)
		if out, err := exec.Command(check[shell][0], append(check[shell][1:], file)...).CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v\n%s", strings.Join(check[shell], " "), file, err, out)
		}
	}
}

// What the scripts ask snap for: the words it offers after a command
// line, one a line, a description after a colon.
func TestCompletionWords(t *testing.T) {
	for _, c := range []struct {
		line []string
		want []string
	}{
		{nil, []string{"serve", "setup", "completion"}},
		{[]string{"setup"}, []string{"claude", "cursor", "vscode", "codex", "claude-desktop"}},
		{[]string{"setup", "--force", "--name", "x"}, []string{"claude-desktop"}},
		{[]string{"setup", "--fo"}, []string{"--force"}},
		{[]string{"index", "--st"}, []string{"--store"}},
		{[]string{"completion"}, []string{"bash", "zsh", "fish"}},
		{[]string{"query"}, []string{"calls", "call_details"}},
		{[]string{"query", "--store", "/x", "calls", "--na"}, []string{"--name"}},
	} {
		args := append(append([]string{}, c.line...), "--generate-shell-completion")
		// At the root, urfave/cli completes from os.Args.
		saved := os.Args
		os.Args = append([]string{"snap"}, args...)
		code, stdout, stderr := run(t, "", args...)
		os.Args = saved
		var words []string
		for _, line := range strings.Split(stdout, "\n") {
			word, _, _ := strings.Cut(line, ":")
			words = append(words, word)
		}
		for _, w := range c.want {
			if code != 0 || !contains(words, w) {
				t.Errorf("snap %s: exit %d, offered %q (%s); want %s among them", strings.Join(args, " "), code, words, stderr, w)
			}
		}
	}
}

func contains(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

func TestCompletionUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"completion"}, "name a shell: bash, zsh, fish, pwsh"},
		{[]string{"completion", "powershell"}, `unknown shell "powershell" (have bash, zsh, fish, pwsh)`},
	} {
		code, _, stderr := run(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
