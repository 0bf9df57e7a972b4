package main

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestIndexFigures runs the real binary as the bench does, on a fixture,
// full then incremental, and holds what the report reads from it: every
// phase of the line snap index logs, and the bytes of every column of
// every table, which add up to no more than the tables' files.
func TestIndexFigures(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("SNAP_CACHE_DIR", filepath.Join(tmp, "cache")) // the binary's stat caches
	bin := filepath.Join(tmp, "snap")
	build := exec.Command("go", "build", "-o", bin, "./cmd/snap")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build snap: %v\n%s", err, out)
	}
	src := filepath.Join(tmp, "go")
	if out, err := exec.Command("cp", "-R", filepath.Join("..", "..", "testdata", "go"), src).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	b := &bench{cfg: config{Snap: bin}, tmp: tmp}
	c := &corpus{Name: "fixture", dir: src}
	store := filepath.Join(tmp, "store")
	ctx := context.Background()
	full, dir, err := b.index(ctx, c, store, 2, "--full")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "added.go"), []byte("package main\n\nfunc added() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	incr, _, err := b.index(ctx, c, store, 2)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]procRun{"full": full, "incremental": incr} {
		if r.Unread < 0 {
			t.Errorf("%s: the log line does not say how many files were not read", name)
		}
		var keys []string
		for k, v := range r.Phases {
			if v < 0 {
				t.Errorf("%s: phase %s took %v s", name, k, v)
			}
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := slices.Sorted(slices.Values(phaseKeys))
		if !slices.Equal(keys, want) {
			t.Errorf("%s: phases %q, want %q", name, keys, want)
		}
	}

	cols, err := snapshotColumns(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	sum := map[string]int64{}
	for _, c := range cols {
		if c.Bytes <= 0 {
			t.Errorf("%s.%s: %d bytes", c.Table, c.Column, c.Bytes)
		}
		got[c.Table] = append(got[c.Table], c.Column)
		sum[c.Table] += c.Bytes
	}
	for table, row := range map[string]any{
		schemas.TableNodes: schemas.Node{}, schemas.TableEdges: schemas.Edge{}, schemas.TableRefs: schemas.Ref{},
		schemas.TableFiles: schemas.File{}, schemas.TableSources: schemas.Source{},
	} {
		var want []string
		rt := reflect.TypeOf(row)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("parquet"), ",")
			want = append(want, name)
		}
		if !slices.Equal(got[table], want) {
			t.Errorf("%s: columns %q, want %q", table, got[table], want)
		}
		st, err := os.Stat(filepath.Join(dir, table+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if sum[table] > st.Size() {
			t.Errorf("%s: columns add up to %d bytes, the file has %d", table, sum[table], st.Size())
		}
	}
}

// TestInsertInBody: the bench's second change is valid Go, one line
// longer, the statement inside the first function's body; other files
// are left alone.
func TestInsertInBody(t *testing.T) {
	src := []byte("package p\n\nimport \"fmt\"\n\n// F prints.\nfunc F(x int) {\n\tfmt.Println(x)\n}\n\nfunc G() {}\n")
	got, ok := insertInBody(src, ".go")
	if !ok {
		t.Fatal("no function found")
	}
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", got, 0)
	if err != nil {
		t.Fatalf("the edited file does not parse: %v\n%s", err, got)
	}
	if body := f.Decls[1].(*ast.FuncDecl).Body.List; len(body) != 2 {
		t.Errorf("F's body holds %d statements, want 2:\n%s", len(body), got)
	}
	if bytes.Count(got, []byte("\n")) != bytes.Count(src, []byte("\n"))+1 {
		t.Errorf("not one line more:\n%s", got)
	}
	if _, ok := insertInBody(src, ".js"); ok {
		t.Error("a .js file was edited")
	}
	if _, ok := insertInBody([]byte("package p\n\nvar x = 1\n"), ".go"); ok {
		t.Error("a file without functions was edited")
	}
}
