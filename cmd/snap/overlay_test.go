package main

import (
	"context"
	"encoding/json"
	"flag"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

// TestServeOverlay serves a checkout's snapshot from the local cache as
// serve does, edits a file, and asks snap_sync and snap_status: the edit
// is answered, the status says how the checkout differs, and the cache is
// not written.
func TestServeOverlay(t *testing.T) {
	dir, commits := history(t, 2)
	t.Chdir(dir)
	set := flag.NewFlagSet("serve", flag.ContinueOnError)
	for _, name := range []string{"store", "repo", "branch", "snapshot"} {
		set.String(name, "", "")
	}
	set.Duration("sync", 0, "")
	set.Bool("no-overlay", false, "")
	c := cli.NewContext(&cli.App{}, set, nil)
	c.Context = context.Background()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	h := &query.Holder{Warm: true}
	f, err := newFollower(ctx, c, log, h)
	if err != nil {
		t.Fatal(err)
	}
	ov := newServeOverlay(c, log, h, f, nil)
	if err := f.start(ctx); err != nil {
		t.Fatal(err)
	}
	ov.start(ctx)
	reg, err := mcp.NewRegistry(h)
	if err != nil {
		t.Fatal(err)
	}
	reg.WithSyncer(ov.syncer(nil))
	cache := listTree(t, filepath.Join(dir, ".snap"))

	call := func(tool, args string) map[string]any {
		t.Helper()
		out, isErr := reg.CallJSON(ctx, tool, json.RawMessage(args))
		if isErr {
			t.Fatalf("%s: %s", tool, out)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Move HEAD back one commit, the snapshot's being the second, and edit.
	gitRun(t, dir, "checkout", "-q", commits[0])
	data, err := os.ReadFile(filepath.Join(dir, "store/store.go"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "store/store.go"), append(data, "\nfunc Restock() int { return Total() }\n"...), 0o644)
	call("snap_sync", "{}")
	st := call("snap_status", "{}")
	if !strings.HasPrefix(st["commit"].(string), commits[1]+"+overlay-") {
		t.Errorf("commit %v", st["commit"])
	}
	ck, _ := st["checkout"].(map[string]any)
	if ck["head"] != commits[0] || ck["commits_ahead"] != 1.0 || ck["commits_behind"] != 0.0 || ck["files_differing"] != 2.0 {
		t.Errorf("checkout %v, want HEAD %s one commit behind the snapshot, 2 files differing", ck, commits[0])
	}
	o, _ := st["overlay"].(map[string]any)
	if o["base"] != commits[1] || !slices.Equal(o["modified"].([]any), []any{"store/store.go", "version.go"}) {
		t.Errorf("overlay %v", o)
	}
	if s := call("snap_search", `{"query":"Restock"}`); !strings.Contains(mustJSON(t, s), `store/store.go`) ||
		s["hint"] != "from the working tree, not the snapshot: store/store.go" {
		t.Errorf("snap_search Restock: %v, want it found in store/store.go, from the working tree", s)
	}
	if s := call("snap_symbol", `{"name":"server.New"}`); s["hint"] != nil {
		t.Errorf("snap_symbol server.New, a file the checkout did not change: hint %q, want none", s["hint"])
	}
	if got := listTree(t, filepath.Join(dir, ".snap")); !slices.Equal(got, cache) {
		t.Errorf("the overlay wrote into the cache:\n%v\nwas\n%v", got, cache)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// listTree lists the files under dir with their sizes.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, _ := d.Info()
			out = append(out, p+" "+fi.ModTime().String())
		}
		return nil
	})
	return out
}

func TestIndexOptions(t *testing.T) {
	opts, err := indexOptions([]string{"index", "-q", "--exclude", "testdata", "--exclude=**/*_gen.go", "--languages", "go,py", "--vendored", "--store", "/tmp/x", "--max-file-size=100", "."})
	if err != nil {
		t.Fatal(err)
	}
	var langs []string
	for _, l := range opts.Languages {
		langs = append(langs, l.Name())
	}
	if !slices.Equal(opts.Exclude, []string{"testdata", "**/*_gen.go"}) || !slices.Equal(langs, []string{"go", "python"}) ||
		!opts.Vendored || opts.SkipGenerated || opts.Derived || opts.MaxFileSize != 100 {
		t.Errorf("options %+v, languages %v", opts, langs)
	}
	if opts, _ := indexOptions([]string{"index", "--no-generated", "--derived", "."}); !opts.SkipGenerated || !opts.Derived {
		t.Errorf("--no-generated --derived: %+v", opts)
	}
	if opts, _ := indexOptions([]string{"ci"}); len(opts.Languages) == 0 {
		t.Error("ci: no languages")
	}
	for arg, want := range map[string]time.Duration{"--max-file-time=5s": 5 * time.Second, "--max-file-time=0": -1} {
		if opts, err := indexOptions([]string{"index", arg}); err != nil || opts.MaxFileTime != want {
			t.Errorf("%s: MaxFileTime %v (%v), want %v", arg, opts.MaxFileTime, err, want)
		}
	}
}
