package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// The readers of untrusted bytes fuzzed here: every table (FuzzReadNodes,
// FuzzReadEdges, FuzzReadFiles, FuzzReadSources, FuzzReadRefs) and the
// manifest (FuzzReadManifest); HEAD.json and store keys are fuzzed in
// fuzz_ext_test.go. Seeds live in testdata/fuzz/FuzzXxx: the small ones
// below, and real tables written from an indexed repository and from
// querytest's fixture (fuzz_ext_test.go). TestFuzzSeeds keeps them in step.

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite the seed corpora under testdata/fuzz")

// fuzzMaxRows is the row limit fuzzed reads pass: well above any seed.
const fuzzMaxRows = 1 << 16

// fuzzNodes is a small nodes table exercising every column kind.
var fuzzNodes = []schemas.Node{
	{ID: 1, Kind: "file", Name: "a", File: "a.go", Decorators: []string{"x"}, Exported: true, Visibility: "public"},
	{ID: 5, Kind: "function", Name: "b", QualifiedName: "p.b", File: "a.go", Decorators: []string{}, IsAsync: true, BodyHash: 9, ParentID: 1},
	{ID: 9, Kind: "method", Name: "c", File: "b.go", Decorators: []string{"y", "z"}, StartLine: 4, EndByte: 77, Doc: "doc"},
}

// decodeNodes is a nodes table from arbitrary bytes, with a row limit well
// above any seed.
func decodeNodes(data []byte) ([]schemas.Node, error) {
	return decodeRows(nodesSpec, data, fuzzMaxRows, 2)
}

// heapAllocs returns the bytes allocated on the heap so far by the whole
// process. A fuzz worker runs one input at a time, so the difference over
// one call is what that call allocated (decoding goroutines included).
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// allocBudget is the most a read of n bytes may allocate: what checkParquet
// lets one page declare (pageLimits), a few times over for the buffers of
// the checker, the decoder and the rows, plus room proportional to the
// input. A reader that allocates by what a header claims exceeds it.
func allocBudget(n int) uint64 {
	maxPage, _ := pageLimits(n)
	return 4*uint64(maxPage) + 256*uint64(n) + 16<<20
}

// checkReadError holds a refused table to a clear error: one line, of a
// bounded length (it may quote the input, not echo it), and never a panic
// of the decoder that checkParquet should have kept it from.
func checkReadError(t *testing.T, err error, n int) {
	t.Helper()
	msg := err.Error()
	switch {
	case strings.Contains(msg, "parquet reader failed"):
		// A panic inside parquet-go, turned into an error: the reader is
		// safe, but checkParquet should have refused the input first.
		t.Fatalf("checkParquet let through: %v", err)
	case msg == "":
		t.Fatal("empty error")
	case strings.ContainsAny(msg, "\n\r"):
		t.Fatalf("error spans lines: %q", msg)
	case len(msg) > 512:
		t.Fatalf("error of %d bytes for %d bytes of input: %.300q...", len(msg), n, msg)
	}
}

// fuzzTable fuzzes spec's reader. Beyond not panicking, it checks that the
// reader stays within allocBudget, refuses with a clear error (see
// checkReadError), and that what it accepts is a table: it re-encodes,
// reads back the same (a round trip), and agrees with parquet-go's row
// reader.
//
// also, when given, checks each input further.
func fuzzTable[T any](f *testing.F, spec *tableSpec[T], seed []T, also ...func(t *testing.T, data []byte)) {
	for _, rows := range [][]T{seed, nil} {
		valid, err := encodeRows(spec, rows)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(valid)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, check := range also {
			check(t, data)
		}
		before := heapAllocs()
		rows, err := decodeRows(spec, data, fuzzMaxRows, 2)
		if used, budget := heapAllocs()-before, allocBudget(len(data)); used > budget {
			t.Fatalf("reading %d bytes allocated %d bytes, more than %d", len(data), used, budget)
		}
		if err != nil {
			checkReadError(t, err, len(data))
			return
		}
		enc, err := encodeRows(spec, rows)
		if err != nil {
			t.Fatalf("decoded rows do not encode: %v", err)
		}
		again, err := decodeRows(spec, enc, fuzzMaxRows, 2)
		if err != nil {
			t.Fatalf("re-encoded rows do not decode: %v", err)
		}
		if !reflect.DeepEqual(rows, again) {
			t.Fatalf("rows change in a round trip:\nread    %+v\nre-read %+v", rows, again)
		}
		// The column readers agree with parquet-go's row reader when both
		// accept the file.
		if ref, err := decodeRowsGeneric(spec, data, fuzzMaxRows); err == nil && !reflect.DeepEqual(rows, ref) {
			t.Fatalf("column readers and row reader disagree:\ncolumns %+v\ngeneric %+v", rows, ref)
		}
	})
}

func FuzzReadNodes(f *testing.F) { fuzzTable(f, nodesSpec, fuzzNodes) }

func FuzzReadEdges(f *testing.F) {
	_, edges, _, _, _ := testTables(12)
	fuzzTable(f, edgesSpec, edges)
}

func FuzzReadFiles(f *testing.F) {
	_, _, files, _, _ := testTables(12)
	fuzzTable(f, filesSpec, files)
}

// FuzzReadSources fuzzes both readers of the sources table: decodeRows,
// as fuzzTable does every table's, and SourceFiles, which must refuse
// with a clear error, at its opening or at the files of a row group it
// finds wrong when first read, or read what decodeRows reads: no file's
// content is ever another's.
func FuzzReadSources(f *testing.F) {
	_, _, _, sources, _ := testTables(12)
	fuzzTable(f, sourcesSpec, sources, func(t *testing.T, data []byte) {
		before := heapAllocs()
		sf, err := openSourceFiles(data, fuzzMaxRows)
		var readErr error // the first file's that could not be read
		if err == nil {
			for _, p := range sf.Paths() {
				if _, err := sf.ReadContent(p); err != nil && readErr == nil {
					readErr = err
				}
			}
		}
		if used, budget := heapAllocs()-before, allocBudget(len(data)); used > budget {
			t.Fatalf("reading %d bytes allocated %d bytes, more than %d", len(data), used, budget)
		}
		if err != nil {
			if !errors.Is(err, errNotLazy) {
				checkReadError(t, err, len(data))
			}
			return
		}
		rows, err := decodeRows(sourcesSpec, data, fuzzMaxRows, 2)
		if readErr != nil {
			checkReadError(t, readErr, len(data))
		}
		switch {
		case err != nil && readErr == nil:
			t.Fatalf("SourceFiles reads every file of what decodeRows refuses (%v)", err)
		case err == nil && readErr != nil:
			t.Fatalf("SourceFiles refuses a file (%v) of what decodeRows reads", readErr)
		case err != nil:
			return
		}
		if sf.Len() != len(rows) {
			t.Fatalf("SourceFiles holds %d files, decodeRows %d", sf.Len(), len(rows))
		}
		for _, r := range rows {
			if b, ok := sf.Content(r.Path); !ok || !bytes.Equal(b, r.Content) {
				t.Fatalf("SourceFiles.Content(%q) = %q, %v; decodeRows %q", r.Path, b, ok, r.Content)
			}
		}
	})
}

func FuzzReadRefs(f *testing.F) {
	_, _, _, _, refs := testTables(12)
	fuzzTable(f, refsSpec, refs)
}

// manifestErrors are how ParseManifest's errors start: each says what it
// refuses.
var manifestErrors = []string{"parse manifest: ", "unsupported snapshot format_version ", "manifest ", "manifest: ", "missing table "}

func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"format_version":1}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := ParseManifest(raw)
		if err != nil {
			msg := err.Error()
			if !hasAnyPrefix(msg, manifestErrors) {
				t.Fatalf("unclear error: %q", msg)
			}
			if len(msg) > 512 || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error of %d bytes for %d bytes of input: %.300q", len(msg), len(raw), msg)
			}
			return
		}
		if m.FormatVersion < schemas.MinFormatVersion || m.FormatVersion > schemas.FormatVersion {
			t.Fatalf("accepted format_version %d", m.FormatVersion)
		}
		// Every table it accepts can be fetched safely: a file name of the
		// snapshot's folder, sizes that are not negative, a digest.
		for _, tb := range m.Tables {
			if err := ValidateKey(tb.File); err != nil || strings.Contains(tb.File, "/") {
				t.Fatalf("accepted table file %q", tb.File)
			}
			if tb.Rows < 0 || tb.Bytes < 0 || len(tb.SHA256) != 64 {
				t.Fatalf("accepted table %+v", tb)
			}
		}
		for _, name := range requiredTables {
			if _, ok := findTable(&m, name); !ok {
				t.Fatalf("accepted a manifest without table %s", name)
			}
		}
		// What parses encodes and parses again to the same manifest.
		enc, err := EncodeManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseManifest(enc)
		if err != nil {
			t.Fatalf("re-encoded manifest does not parse: %v\n%s", err, enc)
		}
		if enc2, err := EncodeManifest(m2); err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("manifest changed in a round trip (%v):\n%s\n%s", err, enc, enc2)
		}
	})
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// TestCorruptTables flips every byte of small tables: the checks before
// decoding must refuse what the decoder cannot take, so it never panics
// (which decodeRows would turn into an error saying so).
func TestCorruptTables(t *testing.T) {
	tables := map[string]func() ([]byte, func([]byte) error){
		"nodes": func() ([]byte, func([]byte) error) {
			b, _ := encodeRows(nodesSpec, fuzzNodes)
			return b, func(d []byte) error { _, err := decodeRows(nodesSpec, d, 100, 2); return err }
		},
		"edges": func() ([]byte, func([]byte) error) {
			b, _ := encodeRows(edgesSpec, []schemas.Edge{
				{Src: 1, Dst: 2, Kind: "calls", File: "a.go", Line: 1, Target: "x", Confidence: 0.5, InLoop: true, DstRow: 1},
				{Src: 1, Kind: "calls", File: "a.go", Line: 2, Target: "y", Resolution: "unresolved", Args: "z", DstRow: -1},
			})
			return b, func(d []byte) error { _, err := decodeRows(edgesSpec, d, 100, 2); return err }
		},
		"sources": func() ([]byte, func([]byte) error) {
			b, _ := encodeRows(sourcesSpec, []schemas.Source{{Path: "a", Content: []byte{0xff, 0}}, {Path: "b", Content: []byte("package b\n")}})
			return b, func(d []byte) error { _, err := decodeRows(sourcesSpec, d, 100, 2); return err }
		},
	}
	for name, mk := range tables {
		t.Run(name, func(t *testing.T) {
			orig, decode := mk()
			if err := decode(orig); err != nil {
				t.Fatalf("intact table: %v", err)
			}
			step := 1
			if testing.Short() {
				step = 7
			}
			for i := 0; i < len(orig); i += step {
				data := bytes.Clone(orig)
				data[i] ^= 0xff
				if err := decode(data); err != nil && strings.Contains(err.Error(), "parquet reader failed") {
					t.Errorf("byte %d flipped: %v", i, err)
				}
			}
		})
	}
}

// TestHugeDeclaredSizes feeds files whose headers declare enormous sizes:
// each must fail fast, without allocating what they claim.
func TestHugeDeclaredSizes(t *testing.T) {
	valid, err := encodeRows(nodesSpec, fuzzNodes)
	if err != nil {
		t.Fatal(err)
	}
	footerLen := func(n uint32) []byte {
		b := bytes.Clone(valid)
		binary.LittleEndian.PutUint32(b[len(b)-8:], n)
		return b
	}
	cases := map[string][]byte{
		"footer length 4GiB":     footerLen(0xffffffff),
		"tiny file, huge footer": append([]byte("PAR1"), append(binary.LittleEndian.AppendUint32(nil, 0xfffffff0), "PAR1"...)...),
		// A footer that is a list header claiming 2^31 elements.
		"huge thrift list": append(append([]byte("PAR1\x19\xfc\xff\xff\xff\x07"), binary.LittleEndian.AppendUint32(nil, 6)...), "PAR1"...),
	}
	for name, data := range cases {
		before := heapAllocs()
		_, err := decodeNodes(data)
		if err == nil {
			t.Errorf("%s: decoded", name)
			continue
		}
		if used := heapAllocs() - before; used > 1<<20 {
			t.Errorf("%s: allocated %d bytes to refuse %d", name, used, len(data))
		}
		t.Logf("%s: %v", name, err)
	}
	// A manifest claiming a huge table is never allocated for: ParseManifest
	// takes it, reading compares it with the real object first.
	raw := []byte(`{"format_version":1,"tables":[` +
		`{"name":"nodes","file":"nodes.parquet","rows":9000000000000000,"bytes":9000000000000000000,"sha256":"` + strings.Repeat("0", 64) + `"}]}`)
	if _, err := ParseManifest(raw); err == nil || !strings.Contains(err.Error(), "missing table edges") {
		t.Errorf("ParseManifest = %v, want a missing table error", err)
	}
}

// UpdatingFuzzSeeds reports whether -update-fuzz-seeds is set.
func UpdatingFuzzSeeds() bool { return *updateSeeds }

// CheckFuzzSeed checks that testdata/fuzz/<target>/<name> holds data in the
// corpus format of a fuzz target taking one []byte, or writes it there
// with -update-fuzz-seeds. The seeds of the other test files use it too.
func CheckFuzzSeed(t testing.TB, target, name string, values ...any) {
	t.Helper()
	var b strings.Builder
	b.WriteString("go test fuzz v1\n")
	for _, v := range values {
		switch v := v.(type) {
		case []byte:
			b.WriteString("[]byte(" + strconv.Quote(string(v)) + ")\n")
		case string:
			b.WriteString("string(" + strconv.Quote(v) + ")\n")
		default:
			t.Fatalf("seed %s/%s: value of type %T", target, name, v)
		}
	}
	dir := filepath.Join("testdata", "fuzz", target)
	p := filepath.Join(dir, name)
	if *updateSeeds {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(p); err != nil || string(got) != b.String() {
		t.Errorf("%s is missing or stale (%v): run go test -run TestFuzzSeeds -update-fuzz-seeds ./snapshot", p, err)
	}
}

// TestFuzzSeeds keeps testdata/fuzz in step with the code that makes the
// seeds; -update-fuzz-seeds rewrites them. Crashers the fuzzer found are
// kept there too, under the names it gave them.
func TestFuzzSeeds(t *testing.T) {
	valid, err := encodeRows(nodesSpec, fuzzNodes)
	if err != nil {
		t.Fatal(err)
	}
	empty, err := encodeRows(nodesSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := encodeRows(edgesSpec, []schemas.Edge{{Src: 1, Kind: "calls"}})
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := EncodeManifest(normalize(schemas.Manifest{
		FormatVersion: 1, Repo: "o/r", Branch: "main", Commit: "abc",
		Tables: []schemas.Table{
			{Name: "nodes", File: "nodes.parquet", Rows: 3, Bytes: int64(len(valid)), SHA256: strings.Repeat("a", 64)},
			{Name: "edges", File: "edges.parquet", SHA256: strings.Repeat("b", 64)},
			{Name: "files", File: "files.parquet", SHA256: strings.Repeat("c", 64)},
			{Name: "refs", File: "refs.parquet", SHA256: strings.Repeat("d", 64)},
			{Name: "future", File: "future.parquet", SHA256: strings.Repeat("e", 64)},
		},
	}))
	if err != nil {
		t.Fatal(err)
	}
	seeds := map[string]map[string][]byte{
		"FuzzReadNodes": {
			"valid":     valid,
			"empty":     empty,
			"edges":     edges,
			"truncated": valid[:len(valid)/2],
			"footer":    valid[len(valid)-200:],
			"magic":     []byte("PAR1\x00\x00\x00\x00PAR1"),
		},
		"FuzzReadManifest": {
			"valid":      manifest,
			"version99":  bytes.Replace(manifest, []byte(`"format_version": 1`), []byte(`"format_version": 99`), 1),
			"notjson":    []byte("PAR1 not json"),
			"nulls":      []byte(`{"format_version":1,"tables":null,"parents":null}`),
			"duplicates": []byte(`{"format_version":1,"tables":[{"name":"nodes","file":"nodes.parquet","sha256":"` + strings.Repeat("0", 64) + `"},{"name":"nodes","file":"nodes.parquet","sha256":"` + strings.Repeat("0", 64) + `"}]}`),
			"traversal":  bytes.Replace(manifest, []byte(`"file": "nodes.parquet"`), []byte(`"file": "../../nodes.parquet"`), 1),
			"long_time":  []byte(`{"format_version":1,"indexed_at":"2025-01-` + strings.Repeat("5", 4000) + `"}`),
			"long_name":  []byte(`{"format_version":1,"tables":[{"name":"` + strings.Repeat("\ufffd\n", 2000) + `","file":"x"}]}`),
		},
	}
	// Every table, as snap writes it, with every column non-zero somewhere.
	nodes, edgeRows, files, sources, refs := testTables(40)
	for target, enc := range map[string]func() ([]byte, error){
		"FuzzReadNodes":   func() ([]byte, error) { return encodeRows(nodesSpec, nodes) },
		"FuzzReadEdges":   func() ([]byte, error) { return encodeRows(edgesSpec, edgeRows) },
		"FuzzReadFiles":   func() ([]byte, error) { return encodeRows(filesSpec, files) },
		"FuzzReadSources": func() ([]byte, error) { return encodeRows(sourcesSpec, sources) },
		"FuzzReadRefs":    func() ([]byte, error) { return encodeRows(refsSpec, refs) },
	} {
		data, err := enc()
		if err != nil {
			t.Fatal(err)
		}
		if seeds[target] == nil {
			seeds[target] = map[string][]byte{}
		}
		seeds[target]["columns"] = data
	}
	for target, files := range seeds {
		for name, data := range files {
			CheckFuzzSeed(t, target, name, data)
		}
	}
}
