package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/parquet-go/parquet-go"
)

// corpus is one source tree and what indexing it measured.
type corpus struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Source  string   `json:"source"` // where it came from
	Flags   []string `json:"flags"`  // index flags beyond --workers, --repo, --branch, --store
	Changed string   `json:"changed_file"`

	Files                  int            `json:"files"`
	Nodes                  int            `json:"nodes"`
	Edges                  int            `json:"edges"`
	Languages              map[string]int `json:"languages"`    // files parsed by language
	SourceBytes            int64          `json:"source_bytes"` // manifest build.source_bytes
	SnapshotBytes          int64          `json:"snapshot_bytes"`
	SnapshotBytesNoSources int64          `json:"snapshot_bytes_without_sources"`
	// Columns are the last full snapshot's bytes, column by column.
	Columns []columnBytes `json:"columns,omitempty"`

	// Process runs, alternated: floor, full, incremental, then (GOROOT)
	// full with 1 and with 2 workers.
	Floor series `json:"floor"`
	// FloorLibc is the floor with tree-sitter on the C library's malloc
	// (SNAP_ALLOCATOR=libc; GOROOT only): the floor is the fastest
	// allocator's, and this says how much faster it is.
	FloorLibc         series `json:"floor_libc,omitzero"`
	Full              series `json:"full"`
	Incremental       series `json:"incremental"`
	IncrementalParsed []int  `json:"incremental_files_parsed"`
	// IncrementalBody is a one-file incremental index too, of a
	// statement inserted at the top of a function's body instead of a
	// comment appended: the lines of the rest of the file shift (Go
	// corpora only).
	IncrementalBody series `json:"incremental_body,omitzero"`
	Workers1        series `json:"full_1_worker,omitzero"`
	// OneCPU is the full index with 1 worker held to one CPU (taskset):
	// what one core does, the base of scaling.
	OneCPU   series `json:"full_1_cpu,omitzero"`
	Workers2 series `json:"full_2_workers,omitzero"`

	dir      string // the working copy indexed
	ext      string // extension of the file changed for the incremental
	scaling  bool   // measure 1 against 2 workers
	snapshot string // folder of the last full snapshot
}

// procRun is one process as the OS saw it.
type procRun struct {
	Wall   float64 `json:"wall_s"`
	User   float64 `json:"user_s"`
	Sys    float64 `json:"sys_s"`
	MaxRSS int64   `json:"max_rss_bytes"`
	// Phases are the index's own timings, in seconds, from the line it
	// logs when done (phaseKeys).
	Phases map[string]float64 `json:"phases_s,omitempty"`
	// Unread is how many files the index did not read, found as the run
	// before saw them (its stat cache): the same line's "unread".
	Unread int `json:"files_unread"`
	// Allocator is the one tree-sitter allocated with, as the run logged
	// it (libc, mimalloc).
	Allocator string `json:"allocator,omitempty"`
}

// phaseKeys are the timings snap index logs when done ("indexed"), in
// the order they happen: reading the base snapshot, reading, hashing
// and parsing the files, gathering their rows, resolving (while the
// tables written so far encode), and writing the rest; duration is all
// but the base's read.
var phaseKeys = []string{"base_read", "parse", "gather", "resolve", "write", "duration"}

// phases reads phaseKeys from the "indexed" line of snap index's log.
func phases(log string) map[string]float64 {
	var line string
	for l := range strings.Lines(log) {
		if strings.Contains(l, "msg=indexed ") {
			line = l
		}
	}
	out := map[string]float64{}
	for f := range strings.FieldsSeq(line) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || !slices.Contains(phaseKeys, k) {
			continue
		}
		if d, err := time.ParseDuration(v); err == nil {
			out[k] = d.Seconds()
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// unread reads the files not read from the "indexed" line of snap
// index's log; -1 when the line does not say.
// allocator returns the allocator an index or a parse-only run logged.
func allocator(log string) string {
	for l := range strings.Lines(log) {
		if !strings.Contains(l, "msg=indexed ") && !strings.Contains(l, "msg=parsed ") {
			continue
		}
		for f := range strings.FieldsSeq(l) {
			if v, ok := strings.CutPrefix(f, "allocator="); ok {
				return v
			}
		}
	}
	return ""
}

func unread(log string) int {
	for l := range strings.Lines(log) {
		if !strings.Contains(l, "msg=indexed ") {
			continue
		}
		for f := range strings.FieldsSeq(l) {
			if v, ok := strings.CutPrefix(f, "unread="); ok {
				if n, err := strconv.Atoi(v); err == nil {
					return n
				}
			}
		}
	}
	return -1
}

// columnBytes is one column of a snapshot's table: its bytes as stored,
// over every row group.
type columnBytes struct {
	Table  string `json:"table"`
	Column string `json:"column"`
	Bytes  int64  `json:"bytes"`
}

// snapshotColumns reads the footer of each table of the snapshot in dir.
func snapshotColumns(dir string) ([]columnBytes, error) {
	var out []columnBytes
	for _, t := range []string{schemas.TableNodes, schemas.TableEdges, schemas.TableRefs, schemas.TableFiles, schemas.TableSources} {
		f, err := os.Open(filepath.Join(dir, t+".parquet"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a snapshot without sources
		}
		if err != nil {
			return nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		at := map[string]int{}
		for _, rg := range pf.Metadata().RowGroups {
			for _, c := range rg.Columns {
				name := strings.TrimSuffix(strings.Join(c.MetaData.PathInSchema, "."), ".list.element") // decorators
				i, ok := at[name]
				if !ok {
					i = len(out)
					at[name] = i
					out = append(out, columnBytes{Table: t, Column: name})
				}
				out[i].Bytes += c.MetaData.TotalCompressedSize
			}
		}
		f.Close()
	}
	return out, nil
}

type series struct {
	Runs []procRun `json:"runs,omitempty"`
}

func (s *series) walls() []float64 {
	var v []float64
	for _, r := range s.Runs {
		v = append(v, r.Wall)
	}
	return v
}

// cpu is user plus system time: what a run cost, whatever else the
// machine was doing.
func (s *series) cpu() []float64 {
	var v []float64
	for _, r := range s.Runs {
		v = append(v, r.User+r.Sys)
	}
	return v
}

func (s *series) rss() []float64 {
	var v []float64
	for _, r := range s.Runs {
		v = append(v, float64(r.MaxRSS))
	}
	return v
}

// goroot copies $(go env GOROOT)/src, indexed with vendored and generated
// files as in scripts/bench-goroot.sh and the README's figures.
func (b *bench) goroot(ctx context.Context) (*corpus, error) {
	goroot := b.cfg.GOROOT
	if goroot == "" {
		var err error
		if goroot, err = goOutput(ctx, b.tmp, nil, "env", "GOROOT"); err != nil {
			return nil, err
		}
	}
	version, err := goOutput(ctx, b.tmp, nil, "env", "GOVERSION")
	if err != nil {
		return nil, err
	}
	c := &corpus{Name: "goroot", Version: version, Source: filepath.Join(goroot, "src"),
		Flags: []string{"--vendored", "--generated"}, ext: ".go", scaling: true}
	c.dir = filepath.Join(b.tmp, "goroot")
	return c, copyTree(c.dir, c.Source)
}

// module is what `go mod download -json` prints for a module.
type module struct {
	Path, Version, Dir, Error string
}

// goModDownload downloads modules through the Go module proxy into the
// cache's own module cache.
func (b *bench) goModDownload(ctx context.Context, mods ...string) ([]module, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"mod", "download", "-json"}, mods...)...)
	cmd.Dir = b.tmp // outside any module
	cmd.Env = append(os.Environ(), "GOMODCACHE="+filepath.Join(b.cfg.Cache, "gomod"), "GO111MODULE=on", "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var list []module
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m module
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go mod download: %w: %s", errors.Join(runErr, err), stderr.String())
		}
		list = append(list, m)
	}
	if len(list) == 0 && runErr != nil {
		return nil, fmt.Errorf("go mod download: %w: %s", runErr, stderr.String())
	}
	return list, nil
}

// stagingRe matches a replace directive of kubernetes' go.mod that points
// into staging/.
var stagingRe = regexp.MustCompile(`(?m)^\s*(?:replace\s+)?(\S+)(?:\s+v\S+)?\s+=>\s+\./(staging/\S+)\s*$`)

// kubernetes rebuilds the kubernetes repository from the module proxy:
// k8s.io/kubernetes, whose zip leaves out the nested modules of
// staging/, and each staging module at its matching v0 version put back
// in its place.
func (b *bench) kubernetes(ctx context.Context) (*corpus, error) {
	v := b.cfg.Kubernetes
	mods, err := b.goModDownload(ctx, "k8s.io/kubernetes@"+v)
	if err != nil {
		return nil, err
	}
	if mods[0].Error != "" {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: %s", v, mods[0].Error)
	}
	main := mods[0]
	gomod, err := os.ReadFile(filepath.Join(main.Dir, "go.mod"))
	if err != nil {
		return nil, err
	}
	stagingVersion := "v0" + strings.TrimPrefix(v, "v1") // v1.36.3 → v0.36.3
	where := map[string]string{}
	var want []string
	for _, m := range stagingRe.FindAllStringSubmatch(string(gomod), -1) {
		where[m[1]] = m[2]
		want = append(want, m[1]+"@"+stagingVersion)
	}
	c := &corpus{Name: "kubernetes", Version: v, Source: "k8s.io/kubernetes@" + v + " and its staging modules @" + stagingVersion,
		ext: ".go", dir: filepath.Join(b.tmp, "kubernetes")}
	if err := copyTree(c.dir, main.Dir); err != nil {
		return nil, err
	}
	staging, err := b.goModDownload(ctx, want...)
	if err != nil {
		return nil, err
	}
	placed := 0
	for _, m := range staging {
		if m.Error != "" {
			slog.Warn("staging module left out", "module", m.Path, "err", m.Error)
			continue
		}
		if err := copyTree(filepath.Join(c.dir, where[m.Path]), m.Dir); err != nil {
			return nil, err
		}
		placed++
	}
	c.Source = fmt.Sprintf("%s (%d of %d staging modules)", c.Source, placed, len(want))
	return c, nil
}

// npm fetches a package's tarball with `npm pack` into the cache and
// copies what it holds.
func (b *bench) npm(ctx context.Context) (*corpus, error) {
	spec := b.cfg.NPM
	at := strings.LastIndex(spec, "@")
	if at <= 0 {
		return nil, fmt.Errorf("-npm %s: want package@version", spec)
	}
	name, version := spec[:at], spec[at+1:]
	cache := filepath.Join(b.cfg.Cache, "npm", strings.NewReplacer("/", "_", "@", "_").Replace(spec))
	pkg := filepath.Join(cache, "package")
	if _, err := os.Stat(pkg); err != nil {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
		pack := exec.CommandContext(ctx, "npm", "pack", "--silent", "--pack-destination", cache, spec)
		var stderr bytes.Buffer
		pack.Stderr = &stderr
		out, err := pack.Output()
		if err != nil {
			return nil, fmt.Errorf("npm pack %s: %w: %s", spec, err, stderr.String())
		}
		lines := strings.Fields(string(out))
		if len(lines) == 0 {
			return nil, fmt.Errorf("npm pack %s: no tarball named", spec)
		}
		tgz := filepath.Join(cache, lines[len(lines)-1])
		part := filepath.Join(cache, "extracting")
		os.RemoveAll(part)
		if err := os.MkdirAll(part, 0o755); err != nil {
			return nil, err
		}
		if out, err := exec.CommandContext(ctx, "tar", "-xzf", tgz, "-C", part).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("extract %s: %w: %s", tgz, err, out)
		}
		if err := os.Rename(filepath.Join(part, "package"), pkg); err != nil {
			return nil, err
		}
		os.RemoveAll(part)
	}
	base := name[strings.LastIndex(name, "/")+1:]
	c := &corpus{Name: base, Version: version, Source: "npm " + spec, ext: ".js", dir: filepath.Join(b.tmp, base)}
	return c, copyTree(c.dir, pkg)
}

// indexRuns measures a corpus: floor, full and one-file incremental index
// alternated, and for GOROOT full index with 1 and 2 workers.
func (b *bench) indexRuns(ctx context.Context, c *corpus) error {
	rel, err := pickFile(c.dir, c.ext)
	if err != nil {
		return err
	}
	c.Changed = rel
	changed := filepath.Join(c.dir, rel)
	orig, err := os.ReadFile(changed)
	if err != nil {
		return err
	}
	defer os.WriteFile(changed, orig, 0o644)
	edited := append(slices.Clip(orig), "\n// snap-bench: a one-line change\n"...)
	body, hasBody := insertInBody(orig, c.ext)

	store := filepath.Join(b.tmp, "store-"+c.Name)
	scaling := filepath.Join(b.tmp, "store-"+c.Name+"-scaling")
	n := b.cfg.Workers
	// indexEdited indexes the corpus incrementally with the changed file
	// holding content, then restores the file.
	indexEdited := func(content []byte) (procRun, string, error) {
		if err := os.WriteFile(changed, content, 0o644); err != nil {
			return procRun{}, "", err
		}
		r, dir, err := b.index(ctx, c, store, n)
		if err != nil {
			return procRun{}, "", err
		}
		return r, dir, os.WriteFile(changed, orig, 0o644)
	}
	for i := range b.cfg.Runs {
		floor, _, err := b.index(ctx, c, "", n, "--full", "--parse-only")
		if err != nil {
			return err
		}
		c.Floor.Runs = append(c.Floor.Runs, floor)
		if c.scaling && floor.Allocator != "libc" {
			r, _, err := b.index(withEnv(ctx, "SNAP_ALLOCATOR=libc"), c, "", n, "--full", "--parse-only")
			if err != nil {
				return err
			}
			c.FloorLibc.Runs = append(c.FloorLibc.Runs, r)
		}
		if err := os.RemoveAll(store); err != nil {
			return err
		}
		full, dir, err := b.index(ctx, c, store, n, "--full")
		if err != nil {
			return err
		}
		c.Full.Runs = append(c.Full.Runs, full)
		c.snapshot = dir

		incr, idir, err := indexEdited(edited)
		if err != nil {
			return err
		}
		c.Incremental.Runs = append(c.Incremental.Runs, incr)
		m, err := readManifest(idir)
		if err != nil {
			return err
		}
		c.IncrementalParsed = append(c.IncrementalParsed, m.Build.FilesParsed)
		attrs := []any{"corpus", c.Name, "run", i + 1, "floor", floor.Wall, "full", full.Wall, "incremental", incr.Wall}
		if hasBody {
			// On the incremental snapshot: the same file changes again.
			r, _, err := indexEdited(body)
			if err != nil {
				return err
			}
			c.IncrementalBody.Runs = append(c.IncrementalBody.Runs, r)
			attrs = append(attrs, "incremental_body", r.Wall)
		}

		if c.scaling {
			for _, w := range []int{1, 2} {
				if w == n {
					continue
				}
				if err := os.RemoveAll(scaling); err != nil {
					return err
				}
				r, _, err := b.index(ctx, c, scaling, w, "--full")
				if err != nil {
					return err
				}
				if w == 1 {
					c.Workers1.Runs = append(c.Workers1.Runs, r)
				} else {
					c.Workers2.Runs = append(c.Workers2.Runs, r)
				}
				attrs = append(attrs, fmt.Sprintf("workers%d", w), r.Wall)
			}
			// One worker on one CPU: with two, the table writers and the
			// collector take the second core whatever --workers says.
			if err := os.RemoveAll(scaling); err != nil {
				return err
			}
			r, _, err := b.index(pinned(ctx, "0"), c, scaling, 1, "--full")
			if err != nil {
				return err
			}
			c.OneCPU.Runs = append(c.OneCPU.Runs, r)
			attrs = append(attrs, "one_cpu", r.Wall)
		}
		slog.Info("index", attrs...)
	}
	m, err := readManifest(c.snapshot)
	if err != nil {
		return err
	}
	c.Files, c.Nodes, c.Edges, c.SourceBytes = m.Counts.Files, m.Counts.Nodes, m.Counts.Edges, m.Build.SourceBytes
	c.Languages = m.Counts.Languages
	if c.Columns, err = snapshotColumns(c.snapshot); err != nil {
		return err
	}
	return filepath.WalkDir(c.snapshot, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		c.SnapshotBytes += info.Size()
		if d.Name() != "sources.parquet" {
			c.SnapshotBytesNoSources += info.Size()
		}
		return nil
	})
}

type cpusKey struct{}

type envKey struct{}

// withEnv adds vars (KEY=VALUE) to the environment of the processes proc
// runs.
func withEnv(ctx context.Context, vars ...string) context.Context {
	return context.WithValue(ctx, envKey{}, vars)
}

// pinned makes proc hold the processes it runs to the CPUs in list
// (taskset's --cpu-list).
func pinned(ctx context.Context, list string) context.Context {
	return context.WithValue(ctx, cpusKey{}, list)
}

// index runs snap index on the corpus into store (none for --parse-only)
// and returns the snapshot folder it printed.
func (b *bench) index(ctx context.Context, c *corpus, store string, workers int, extra ...string) (procRun, string, error) {
	args := []string{"index", "-q", "--workers", itoa(workers), "--repo", c.Name, "--branch", "bench"}
	if store != "" {
		args = append(args, "--store", store)
	}
	args = append(append(append(args, c.Flags...), extra...), c.dir)
	r, out, log, err := b.proc(ctx, args...)
	r.Phases = phases(log)
	r.Unread = unread(log)
	r.Allocator = allocator(log)
	return r, strings.TrimSpace(out), err
}

// proc runs snap and times it: wall clock from Start to the end of Wait,
// user and system time and peak RSS from the process's rusage. It
// returns what snap wrote to stdout and to stderr.
func (b *bench) proc(ctx context.Context, args ...string) (procRun, string, string, error) {
	cmd := exec.CommandContext(ctx, b.cfg.Snap, args...)
	if cpus, ok := ctx.Value(cpusKey{}).(string); ok {
		// taskset execs snap in its own process: the rusage is snap's.
		cmd = exec.CommandContext(ctx, "taskset", append([]string{"--cpu-list", cpus, b.cfg.Snap}, args...)...)
	}
	if vars, ok := ctx.Value(envKey{}).([]string); ok {
		cmd.Env = append(os.Environ(), vars...)
	}
	cmd.Dir = b.tmp
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return procRun{}, "", "", err
	}
	err := cmd.Wait()
	wall := time.Since(start)
	if err != nil {
		return procRun{}, "", "", fmt.Errorf("snap %s: %w\n%s", strings.Join(args, " "), err, lastLines(stderr.String(), 20))
	}
	return usage(cmd.ProcessState, wall), stdout.String(), stderr.String(), nil
}

func readManifest(dir string) (*schemas.Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	var m schemas.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("decode manifest %s: %w", dir, err)
	}
	return &m, nil
}

// pickFile chooses the file the incremental run changes: of the files
// with ext outside vendored, test-data and dependency folders, the one
// of median size that is neither generated, nor minified, nor a test.
func pickFile(root, ext string) (string, error) {
	type file struct {
		path string
		size int64
	}
	var files []file
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			switch d.Name() {
			case "vendor", "testdata", "node_modules", "third_party", ".git":
				return filepath.SkipDir
			}
		case d.Type().IsRegular() && strings.HasSuffix(d.Name(), ext):
			info, err := d.Info()
			if err != nil {
				return err
			}
			if s := info.Size(); s >= 1<<10 && s <= 1<<20 {
				files = append(files, file{p, s})
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	slices.SortFunc(files, func(a, b file) int {
		if a.size != b.size {
			return cmp.Compare(a.size, b.size)
		}
		return strings.Compare(a.path, b.path)
	})
	mid := len(files) / 2
	for d := range len(files) { // outward from the median
		for _, i := range []int{mid + d, mid - d} {
			if i >= 0 && i < len(files) && plainSource(files[i].path) {
				return filepath.Rel(root, files[i].path)
			}
		}
	}
	return "", fmt.Errorf("no %s file to change in %s", ext, root)
}

var testName = regexp.MustCompile(`(_test\.go|\.(test|spec)\.[jt]sx?)$`)

// plainSource says whether a file is hand-written, unminified, non-test
// source.
func plainSource(path string) bool {
	if testName.MatchString(path) {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	head := data[:min(len(data), 2048)]
	for _, mark := range []string{"Code generated", "@generated", "DO NOT EDIT"} {
		if bytes.Contains(head, []byte(mark)) {
			return false
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(sc.Bytes()) > 1000 {
			return false
		}
	}
	return sc.Err() == nil
}

// copyTree copies the regular files, folders and symbolic links under
// src into dst, writable (the module cache's are not).
func copyTree(dst, src string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyFile(target, p)
		}
		return nil
	})
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// insertInBody returns src with a statement inserted as the first line of
// the body of its first function, for a Go file; false for other files,
// or a Go file without such a function.
func insertInBody(src []byte, ext string) ([]byte, bool) {
	if ext != ".go" {
		return nil, false
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("func ")) && bytes.HasSuffix(bytes.TrimRight(l, "\r\n"), []byte("{")) {
			out := slices.Concat(lines[:i+1]...)
			out = append(out, "\t_ = 0 // snap-bench: a statement inserted\n"...)
			return append(out, slices.Concat(lines[i+1:]...)...), true
		}
	}
	return nil, false
}
