package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/graphsnap/snap/snapshot/s3store/s3test"
)

// The documentation's shell examples are run by TestDocs, so that none
// of them drifts from what snap does. A fenced block whose language is
// sh, bash or shell is an example; words after the language say how it
// runs:
//
//	```sh              runs, and must exit 0
//	```sh exit=1       runs, and must exit 1 (a gate that trips)
//	```sh s3           runs against a real S3 server (versitygw): the
//	                   placeholders AWS_ACCESS_KEY_ID=…, AWS_SECRET_ACCESS_KEY=…
//	                   and s3://code-graphs/snap?endpoint=http://127.0.0.1:9000
//	                   become the server's, and $SNAP_STORE names it
//	```sh serve        a server over HTTP: it must still be running after
//	                   a few seconds
//
// A snap serve over stdio, in any block, is asked tools/list and
// snap_status and must answer them, then ends at EOF (serveCheck).
//	```sh dry-run      make targets too long to run here (make test, make
//	                   bench): each line must be a make command, run as
//	                   make -n in the repository, which checks the target
//
// Blocks run in bash, the shell a reader pastes them into, rather than
// in testscript's language, which has no pipes, command substitution or
// &&, all of which the examples use. Each page runs in a sandbox of its
// own, its blocks in order: HOME, the XDG folders and snap's cache in a
// temporary folder, the snap binary this test built first on PATH, git
// set up to clone https://github.com/graphsnap/snap from this checkout
// (offline). A block starts in the folder, and with the exported
// variables, the block before it ended with. The README starts in an
// empty folder (its first block clones snap); every other page starts in
// a checkout of testdata/go/shop (origin github.com/example/shop) with
// two branches, each indexed into .snap/: main, and feature/x, checked
// out, where NewMemStore takes an argument its callers do not pass.

// docPages are the pages whose examples run, relative to the repository.
func docPages(t *testing.T) []string {
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages under docs/: %v", err)
	}
	pages = append([]string{"../README.md", "../action/README.md"}, pages...)
	for i, p := range pages {
		pages[i] = strings.TrimPrefix(p, "../")
	}
	return pages
}

// docBlock is one fenced block of a page.
type docBlock struct {
	page  string
	line  int    // of the opening fence, 1-based
	lang  string // sh, sql, json, …
	attrs map[string]string
	text  string
}

func (b docBlock) String() string { return fmt.Sprintf("%s:%d", b.page, b.line) }

// shellLangs are the fence languages TestDocs runs.
var shellLangs = []string{"sh", "bash", "shell", "console"}

// docBlocks reads the fenced blocks of a page.
func docBlocks(t *testing.T, page string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", page))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []docBlock
	var cur *docBlock
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			words := strings.Fields(strings.TrimPrefix(trimmed, "```"))
			b := docBlock{page: page, line: n, attrs: map[string]string{}}
			if len(words) > 0 {
				b.lang = words[0]
				for _, w := range words[1:] {
					k, v, _ := strings.Cut(w, "=")
					b.attrs[k] = v
				}
			}
			cur = &b
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: a fence that does not close", page, cur.line)
	}
	return blocks
}

// sandbox is where one page's examples run.
type sandbox struct {
	root  string
	env   []string
	state string // the folder and exported variables a block ends with
	repo  string // this checkout, absolute
	s3    *s3test.Server
}

// goEnv reads a go env variable as this process sees it, before HOME
// moves into the sandbox: the examples build with the same caches.
func goEnv(t *testing.T, name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

func newSandbox(t *testing.T, blocks []docBlock) *sandbox {
	t.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	s := &sandbox{root: t.TempDir(), repo: repo}
	home := filepath.Join(s.root, "home")
	s.state = filepath.Join(s.root, "state")
	for _, d := range []string{home, s.state, filepath.Join(s.root, "work")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := "[user]\n\tname = snap\n\temail = snap@example.com\n" +
		"[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n" +
		"[url \"" + repo + "\"]\n\tinsteadOf = https://github.com/graphsnap/snap\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	goflags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -trimpath") // the build cache of TestMain's -trimpath build serves make build
	keep := func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return !strings.HasPrefix(k, "XDG_") && !strings.HasPrefix(k, "AWS_") && !strings.HasPrefix(k, "GIT_") &&
			!slices.Contains([]string{"HOME", "PATH", "SNAP_STORE", "SNAP_CACHE_DIR", "SNAP_TOKEN", "CODEX_HOME", "GOFLAGS", "GOCACHE", "GOMODCACHE", "GOPATH", "CDPATH"}, k)
	}
	for _, kv := range os.Environ() {
		if keep(kv) {
			s.env = append(s.env, kv)
		}
	}
	s.env = append(s.env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"SNAP_CACHE_DIR="+filepath.Join(s.root, "snap-cache"),
		"PATH="+filepath.Dir(snapBin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOCACHE="+goEnv(t, "GOCACHE"),
		"GOMODCACHE="+goEnv(t, "GOMODCACHE"),
		"GOPATH="+goEnv(t, "GOPATH"),
		"GOFLAGS="+goflags,
		"GIT_CONFIG_NOSYSTEM=1",
	)
	start := filepath.Join(s.root, "work")
	if !strings.HasSuffix(blocks[0].page, "README.md") || strings.HasPrefix(blocks[0].page, "action/") {
		start = s.shop(t)
	}
	if err := os.WriteFile(filepath.Join(s.state, "cwd"), []byte(start), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.state, "mcp.jsonl"), []byte(mcpSession), 0o644); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(blocks, func(b docBlock) bool { _, ok := b.attrs["s3"]; return ok }) {
		s.startS3(t)
	}
	return s
}

// run runs a command of the sandbox's setup in dir.
func (s *sandbox) run(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sandbox: %s %v: %v\n%s", name, args, err, out)
	}
}

// shop makes the Go checkout the pages other than the README start in.
func (s *sandbox) shop(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(s.root, "shop")
	if out, err := exec.Command("cp", "-R", filepath.Join("..", "testdata", "go", "shop")+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	s.run(t, dir, "git", "init", "-q", "-b", "main")
	s.run(t, dir, "git", "remote", "add", "origin", "https://github.com/example/shop.git")
	s.run(t, dir, "git", "add", "-A")
	s.run(t, dir, "git", "commit", "-q", "-m", "shop")
	s.run(t, dir, snapBin, "index", "-q")
	s.run(t, dir, "git", "checkout", "-q", "-b", "feature/x")
	src := filepath.Join(dir, "store", "store.go")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(data), "func NewMemStore() *MemStore {", "func NewMemStore(size int) *MemStore {", 1)
	if changed == string(data) {
		t.Fatal("sandbox: testdata/go/shop/store/store.go no longer declares NewMemStore()")
	}
	if err := os.WriteFile(src, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	s.run(t, dir, "git", "commit", "-q", "-a", "-m", "NewMemStore takes a size")
	s.run(t, dir, snapBin, "index", "-q")
	return dir
}

// startS3 starts versitygw and files a second repository, example/app
// (testdata/python/app), on its branch main under the prefix snap.
func (s *sandbox) startS3(t *testing.T) {
	t.Helper()
	s.s3 = s3test.Start(t)
	s.env = append(s.env, s.s3.Env()...)
	s.env = append(s.env, "SNAP_STORE="+s.s3.URL("snap"))
	app := filepath.Join(s.root, "app")
	if out, err := exec.Command("cp", "-R", filepath.Join("..", "testdata", "python", "app")+"/.", app).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	s.run(t, app, snapBin, "index", "-q", "--store", s.s3.URL("snap"), "--repo", "example/app", "--branch", "main", ".")
}

// script is what bash runs for a block: the block between the state the
// block before it left and the state it leaves.
func (s *sandbox) script(b docBlock) (string, error) {
	text := b.text
	if b.lang == "console" { // commands are the lines after "$ "
		var cmds []string
		for line := range strings.SplitSeq(text, "\n") {
			if c, ok := strings.CutPrefix(line, "$ "); ok {
				cmds = append(cmds, c)
			}
		}
		text = strings.Join(cmds, "\n") + "\n"
	}
	if _, ok := b.attrs["s3"]; ok {
		text = strings.NewReplacer(
			"AWS_ACCESS_KEY_ID=…", "AWS_ACCESS_KEY_ID="+s.s3.AccessKey,
			"AWS_SECRET_ACCESS_KEY=…", "AWS_SECRET_ACCESS_KEY="+s.s3.SecretKey,
			"s3://code-graphs/snap?endpoint=http://127.0.0.1:9000", s.s3.URL("snap"),
		).Replace(text)
	}
	prelude := `set -eo pipefail
cd "$(cat "$SNAP_DOCS_STATE/cwd")"
if [ -f "$SNAP_DOCS_STATE/env" ]; then . "$SNAP_DOCS_STATE/env"; fi
trap 'pwd > "$SNAP_DOCS_STATE/cwd"; export -p | grep -v -e " PWD=" -e " OLDPWD=" -e " SHLVL=" -e " SNAP_DOCS_STATE=" > "$SNAP_DOCS_STATE/env"' EXIT
` + serveCheck
	if _, ok := b.attrs["dry-run"]; ok {
		// Only make, and only as make -n in this checkout.
		makeLine := regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*=\S*\s+)*make(\s|$)`)
		for line := range strings.SplitSeq(text, "\n") {
			cmd := strings.TrimSpace(line)
			if cmd == "" || strings.HasPrefix(cmd, "#") {
				continue
			}
			if !makeLine.MatchString(cmd) {
				return "", fmt.Errorf("a dry-run block runs make alone, not %q", cmd)
			}
		}
		prelude = "set -eo pipefail\ncd " + strconv.Quote(s.repo) + "\nmake() { command make -n \"$@\" > /dev/null; }\n"
	}
	return prelude + text, nil
}

// mcpSession is what a stdio `snap serve` of an example reads: the
// handshake, tools/list (id 2) and snap_status (id 3), then EOF, which
// ends the server.
const mcpSession = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"snap-docs","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"snap_status","arguments":{}}}
`

// serveCheck wraps snap in the examples' shell, so that a `snap serve`
// over stdio is asked mcpSession and must answer it: tools/list, and
// snap_status without an error unless --toolsets may leave it out. Every
// other command runs as written.
const serveCheck = `snap() {
	if [ "$1" != serve ] || printf '%s\n' "$@" | grep -q -e '^--http'; then
		command snap "$@"
		return
	fi
	local out
	out=$(command snap "$@" < "$SNAP_DOCS_STATE/mcp.jsonl") || return
	printf '%s\n' "$out"
	case "$out" in *'"id":2,"result":{"tools":'*) ;; *) echo "snap serve: no answer to tools/list" >&2; return 1;; esac
	if printf '%s\n' "$@" | grep -q -e '^--toolsets'; then return 0; fi
	case "$out" in *'"id":3,"result"'*) ;; *) echo "snap serve: no answer to snap_status" >&2; return 1;; esac
	case "$out" in *'"isError":true'*) echo "snap serve: snap_status failed" >&2; return 1;; esac
}
`

// runBlock runs one block and checks how it ended.
func (s *sandbox) runBlock(t *testing.T, b docBlock) {
	t.Helper()
	script, err := s.script(b)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	want := 0
	if v, ok := b.attrs["exit"]; ok {
		if want, err = strconv.Atoi(v); err != nil {
			t.Fatalf("%s: exit=%q is not a number", b, v)
		}
	}
	_, server := b.attrs["serve"]
	limit := 10 * time.Minute // make build, on a cold cache, compiles every grammar
	if server {
		limit = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Env = append(slices.Clone(s.env), "SNAP_DOCS_STATE="+s.state)
	cmd.Stdin = nil // /dev/null; snap serve over stdio reads mcpSession (serveCheck)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err = cmd.Run()
	if cmd.ProcessState == nil {
		t.Fatalf("%s: bash: %v", b, err)
	}
	code := cmd.ProcessState.ExitCode()
	switch {
	case server && ctx.Err() != nil:
		t.Logf("%s: still serving after %v, stopped", b, limit)
		return
	case ctx.Err() != nil:
		t.Fatalf("%s: did not finish within %v\n%s\n--- output:\n%s", b, limit, b.text, out.String())
	case code == -1:
		t.Fatalf("%s: %v\n%s", b, err, out.String())
	case code != want:
		t.Fatalf("%s: exit %d, the page says %d\n%s\n--- output:\n%s", b, code, want, b.text, out.String())
	}
	t.Logf("%s: exit %d in %v", b, code, time.Since(start).Round(time.Millisecond))
}

// TestDocs runs every shell example of the README, docs/*.md and
// action/README.md, in order, page by page (see the top of this file).
func TestDocs(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash runs the examples: ", err)
	}
	total := 0
	for _, page := range docPages(t) {
		var blocks []docBlock
		for _, b := range docBlocks(t, page) {
			if slices.Contains(shellLangs, b.lang) {
				blocks = append(blocks, b)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		total += len(blocks)
		t.Run(strings.ReplaceAll(page, "/", "_"), func(t *testing.T) {
			s := newSandbox(t, blocks)
			for _, b := range blocks {
				s.runBlock(t, b)
			}
		})
	}
	t.Logf("%d shell blocks", total)
	if total < 20 {
		t.Errorf("only %d shell blocks found: is the fence parser right?", total)
	}
}

// TestDocsSQL holds the DuckDB queries of docs/dataset.md to
// testdata/duckdb/queries.sql, which TestDuckDB runs through a real
// DuckDB: the same statements, in the same order, with the local store
// .snap for {store}.
func TestDocsSQL(t *testing.T) {
	statements := func(text string) []string {
		var lines []string
		for line := range strings.SplitSeq(text, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "--") {
				lines = append(lines, line)
			}
		}
		var out []string
		for st := range strings.SplitSeq(strings.Join(lines, "\n"), ";") {
			if st = strings.Join(strings.Fields(st), " "); st != "" {
				out = append(out, st)
			}
		}
		return out
	}
	var page []string
	for _, b := range docBlocks(t, "docs/dataset.md") {
		if _, s3 := b.attrs["s3"]; b.lang == "sql" && !s3 {
			page = append(page, statements(b.text)...)
		}
	}
	data, err := os.ReadFile("testdata/duckdb/queries.sql")
	if err != nil {
		t.Fatal(err)
	}
	file := statements(strings.ReplaceAll(string(data), "{store}", ".snap"))
	if len(file) == 0 || !slices.Equal(page, file) {
		t.Errorf("docs/dataset.md's queries differ from testdata/duckdb/queries.sql:\npage:\n%s\nfile:\n%s",
			strings.Join(page, ";\n"), strings.Join(file, ";\n"))
	}
}

// TestDocsLinks checks that every relative link of the README, docs/,
// schemas/ and action/ pages names a file of the repository and, with a
// #fragment into a Markdown page, one of its headings.
func TestDocsLinks(t *testing.T) {
	pages := docPages(t)
	more, _ := filepath.Glob("../schemas/*.md")
	for _, p := range more {
		pages = append(pages, strings.TrimPrefix(p, "../"))
	}
	// Pages other work is writing now, linked ahead of their arrival.
	pending := map[string]bool{"docs/sql.md": true}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(filepath.Join("..", page))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
			}
			checked++
			if pending[path] {
				continue
			}
			data, err := os.ReadFile(filepath.Join("..", path))
			if err != nil {
				t.Errorf("%s: link %s: %v", page, target, err)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !slices.Contains(headingIDs(string(data)), frag) {
				t.Errorf("%s: link %s: %s has no heading #%s", page, target, path, frag)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d links checked: is the pattern right?", checked)
	}
}

// stripCode leaves out a page's fenced blocks and code spans, whose text
// is not links.
func stripCode(page string) string {
	var out []string
	in := false
	for line := range strings.SplitSeq(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			out = append(out, codeSpan.ReplaceAllString(line, ""))
		}
	}
	return strings.Join(out, "\n")
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// headingIDs are the anchors GitHub gives a page's headings: lower case,
// punctuation dropped, spaces made hyphens.
func headingIDs(page string) []string {
	var ids []string
	in := false
	for line := range strings.SplitSeq(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
		}
		if in || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range title {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		ids = append(ids, b.String())
	}
	return ids
}
