// Command localize measures how well snap_context finds the code a commit
// changed. For each commit of the corpus (corpus.go) it indexes the
// commit's parent, asks Context with the commit's message as the task,
// and compares the answer with the truth: the functions at the parent
// whose lines the commit deleted, changed or inserted into, outside test
// files. A BM25 ranking of function bodies is the baseline. It prints a
// Markdown table of file Acc@1 and Acc@5 (a changed file among the first k
// distinct files of the ranking) and function Acc@5 and Acc@10, by
// language and overall.
//
// The repositories are read from bare clones under -mirrors, one per
// repository at OWNER+NAME/repo (fetch.sh makes them):
//
//	go run ./bench/localize -mirrors ~/.cache/snap-localize [-o report.md]
//
// Indexing the parents takes most of a run (about 15 minutes on two busy
// cores); -cache DIR keeps each parent's index as a snapshot and reads it
// back on the next run (about 1.5 minutes). A kept index is the indexer's
// of the day it was made: empty DIR when the indexer changes.
//
// -pick N picks N commits per repository afresh, from its pinned head, and
// prints the corpus to put in corpus.go.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "localize:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("localize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	home, _ := os.UserHomeDir()
	mirrors := fs.String("mirrors", filepath.Join(home, ".cache", "snap-localize"), "folder of the bare clones, one at OWNER+NAME/repo")
	n := fs.Int("n", 0, "commits per repository, the first n of the corpus (0: all)")
	only := fs.String("repo", "", "only the repositories whose name holds this")
	out := fs.String("o", "", "write the table to this file as well")
	pick := fs.Int("pick", 0, "pick this many commits per repository from its pinned head and print the corpus")
	verbose := fs.Bool("v", false, "a line per commit on stderr")
	cache := fs.String("cache", "", "keep each parent's index as a snapshot in this folder, and read it from there when there")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var repos []repo
	for _, r := range corpus {
		if strings.Contains(r.Name, *only) {
			repos = append(repos, r)
		}
	}
	if *pick > 0 {
		return pickAll(ctx, *mirrors, repos, *pick, stdout, stderr)
	}
	start := time.Now()
	var all []result
	for _, r := range repos {
		dir := mirrorDir(*mirrors, r.Name)
		commits := r.Commits
		if *n > 0 {
			commits = commits[:min(*n, len(commits))]
		}
		for _, c := range commits {
			res, err := measure(ctx, dir, *cache, r, c)
			if err != nil {
				return fmt.Errorf("%s %s: %w", r.Name, c, err)
			}
			if *verbose {
				fmt.Fprintf(stderr, "%s %.10s snap fn@10 %v file@1 %v | bm25 fn@10 %v file@1 %v | %d truth, %d files: %s\n",
					r.Name, c, res.snap.fn10, res.snap.file1, res.base.fn10, res.base.file1, res.truth, res.files, firstLine(res.task))
			}
			all = append(all, res)
		}
	}
	table := report(all)
	fmt.Fprint(stdout, table)
	fmt.Fprintf(stderr, "%d commits in %v\n", len(all), time.Since(start).Round(time.Second))
	if *out != "" {
		return os.WriteFile(*out, []byte(table), 0o644)
	}
	return nil
}

// repo is a repository of the corpus and the commits picked from it.
type repo struct {
	Name    string   // OWNER/NAME on GitHub
	Lang    string   // go, python, typescript, javascript, java
	Head    string   // the commit the picks were made from
	Commits []string // newest first
}

func mirrorDir(mirrors, name string) string {
	return filepath.Join(mirrors, strings.ReplaceAll(name, "/", "+"), "repo")
}

// extensions are the source files of each corpus language.
var extensions = map[string][]string{
	"go":         {".go"},
	"python":     {".py"},
	"typescript": {".ts", ".tsx", ".mts", ".cts"},
	"javascript": {".js", ".mjs", ".cjs", ".jsx"},
	"java":       {".java"},
}

// isSource reports whether p is a source file of lang outside the tests,
// by its name: what commits are picked by, before any index says which
// files are tests.
func isSource(lang, p string) bool {
	ext := path.Ext(p)
	ok := false
	for _, x := range extensions[lang] {
		ok = ok || ext == x
	}
	return ok && !strings.HasSuffix(p, ".d.ts") && !isTestPath(p)
}

// isTestPath reports whether p is, by its name, a test, a fixture, an
// example, a benchmark or documentation.
func isTestPath(p string) bool {
	for _, d := range strings.Split(path.Dir(p), "/") {
		switch d {
		case "test", "tests", "testing", "__tests__", "spec", "testdata", "fixtures", "examples", "example", "docs", "benchmarks", "bench":
			return true
		}
	}
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasPrefix(base, "test_"), strings.HasSuffix(base, "_test.py"),
		base == "conftest.py", strings.Contains(base, ".test."), strings.Contains(base, ".spec."),
		strings.HasSuffix(base, "Test.java"), strings.HasSuffix(base, "Tests.java"), strings.HasPrefix(base, "Test") && strings.HasSuffix(base, ".java"):
		return true
	}
	return false
}

// result is what one commit gave.
type result struct {
	repo, lang, task string
	truth, files     int
	snap, base       hits
	// Of snap's first ten symbols: how many are in test files, how many
	// are not callables; whether its first is a test's.
	tests, noncallable int
	testFirst, empty   bool
}

// hits says which Acc@k a ranking scored.
type hits struct{ file1, file5, fn5, fn10 bool }

// commitCase is one commit made ready: its parent indexed, the truth, and
// the task.
type commitCase struct {
	task  string
	s     *snapshot.Snapshot
	e     *query.Engine
	fns   map[uint64]bool
	files map[string]bool
}

// prepare indexes commit's parent and finds the truth. It returns nil for
// a commit that is not a case: not one parent, no source file of the
// language changed, more than five, added files only, or no function
// changed.
func prepare(ctx context.Context, dir, cache string, r repo, commit string) (*commitCase, error) {
	parents, err := git(ctx, dir, "rev-list", "--parents", "-n1", commit)
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(parents))
	if len(f) != 2 {
		return nil, nil
	}
	parent := f[1]
	ch, err := changes(ctx, dir, parent, commit)
	if err != nil {
		return nil, err
	}
	src, modified := 0, false
	for _, c := range ch {
		if isSource(r.Lang, c.Path) {
			src++
			modified = modified || c.Status != 'A' && len(c.Deleted)+len(c.Inserted) > 0
		}
	}
	if src < 1 || src > 5 || !modified {
		return nil, nil
	}
	task, err := message(ctx, dir, commit)
	if err != nil {
		return nil, err
	}
	if len(strings.Fields(task)) < 4 {
		return nil, nil
	}
	s, err := parentIndex(ctx, dir, cache, r, parent)
	if err != nil {
		return nil, err
	}
	testFile := map[string]bool{}
	for _, f := range s.Files {
		testFile[f.Path] = f.IsTest
	}
	fns, files := truth(s.Nodes, ch, func(p string) bool { return isSource(r.Lang, p) && !testFile[p] })
	if len(fns) == 0 {
		return nil, nil
	}
	e, err := query.Build(s)
	if err != nil {
		return nil, fmt.Errorf("build engine: %w", err)
	}
	return &commitCase{task: task, s: s, e: e, fns: fns, files: files}, nil
}

// parentIndex indexes the tree of commit parent, or reads the snapshot
// of it kept in cache.
func parentIndex(ctx context.Context, dir, cache string, r repo, parent string) (*snapshot.Snapshot, error) {
	kept := ""
	if cache != "" {
		kept = filepath.Join(cache, strings.ReplaceAll(r.Name, "/", "+"), parent)
		if s, err := snapshot.ReadDir(ctx, kept, snapshot.ReadOptions{}); err == nil {
			return s, nil
		}
	}
	tmp, err := os.MkdirTemp("", "localize-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := extract(ctx, dir, parent, tmp); err != nil {
		return nil, err
	}
	g, err := indexer.Index(ctx, tmp, indexer.Options{Languages: languages.All(), Workers: 1})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", parent, err)
	}
	s := &snapshot.Snapshot{Nodes: g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources, Refs: g.Refs}
	if kept != "" {
		st, err := filestore.New(kept)
		if err != nil {
			return nil, err
		}
		if _, err := snapshot.Write(ctx, st, "", s); err != nil {
			return nil, fmt.Errorf("keep the index of %s: %w", parent, err)
		}
	}
	return s, nil
}

// measure ranks one commit's case with Context and with the baseline.
func measure(ctx context.Context, dir, cache string, r repo, commit string) (result, error) {
	c, err := prepare(ctx, dir, cache, r, commit)
	if err != nil {
		return result{}, err
	}
	if c == nil {
		return result{}, fmt.Errorf("not a case: was the corpus picked with another version of the rules?")
	}
	res := result{repo: r.Name, lang: r.Lang, task: c.task, truth: len(c.fns), files: len(c.s.Files)}
	testFile := map[string]bool{}
	for _, f := range c.s.Files {
		testFile[f.Path] = f.IsTest || isTestPath(f.Path)
	}

	ans := c.e.Context(c.task, query.ContextOptions{Tokens: query.MaxContextTokens, Limit: 30})
	var ids []uint64
	var files []string
	for i, s := range ans.Symbols {
		n := c.e.Node(s.Node)
		ids = append(ids, n.ID)
		files = append(files, n.File)
		if i < 10 {
			if testFile[n.File] {
				res.tests++
				res.testFirst = res.testFirst || i == 0
			}
			if !isCallable(n.Kind) {
				res.noncallable++
			}
		}
	}
	res.empty = len(ans.Symbols) == 0
	res.snap = score(ids, files, c)

	ids, files = baseline(c.s, c.task)
	res.base = score(ids, files, c)
	return res, nil
}

// baseline ranks the callables of g by BM25 over their name and body
// text, and returns their ids and files in that order.
func baseline(g *snapshot.Snapshot, task string) ([]uint64, []string) {
	src := map[string][]byte{}
	for _, s := range g.Sources {
		src[s.Path] = s.Content
	}
	var docs [][]string
	var rows []int
	for i := range g.Nodes {
		n := &g.Nodes[i]
		b := src[n.File]
		if !isCallable(n.Kind) || int(n.EndByte) > len(b) || n.StartByte > n.EndByte {
			continue
		}
		docs = append(docs, append(terms(n.Name), terms(string(b[n.StartByte:n.EndByte]))...))
		rows = append(rows, i)
	}
	var ids []uint64
	var files []string
	for _, d := range newBM25(docs).rank(terms(task)) {
		n := &g.Nodes[rows[d]]
		ids = append(ids, n.ID)
		files = append(files, n.File)
	}
	return ids, files
}
