package snapshot

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite the seed corpora under testdata/fuzz")

// fuzzNodes is a small nodes table exercising every column kind.
var fuzzNodes = []schemas.Node{
	{ID: 1, Kind: "file", Name: "a", File: "a.go", Decorators: []string{"x"}, Exported: true, Visibility: "public"},
	{ID: 5, Kind: "function", Name: "b", QualifiedName: "p.b", File: "a.go", Decorators: []string{}, IsAsync: true, BodyHash: 9, ParentID: 1},
	{ID: 9, Kind: "method", Name: "c", File: "b.go", Decorators: []string{"y", "z"}, StartLine: 4, EndByte: 77, Doc: "doc"},
}

// decodeNodes is what FuzzReadNodes exercises: a nodes table from
// arbitrary bytes, with a row limit well above any seed.
func decodeNodes(data []byte) ([]schemas.Node, error) {
	return decodeRows(nodesSpec, data, 1<<16)
}

func FuzzReadNodes(f *testing.F) {
	valid, err := encodeRows(nodesSpec, fuzzNodes)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := decodeNodes(data)
		if err != nil {
			if strings.Contains(err.Error(), "parquet reader failed") {
				// A panic inside parquet-go, turned into an error: the
				// reader is safe, but checkParquet should have refused
				// the input before it reached the decoder.
				t.Fatalf("checkParquet let through: %v", err)
			}
			return
		}
		// Whatever decodes re-encodes.
		if _, err := encodeRows(nodesSpec, rows); err != nil {
			t.Fatalf("decoded rows do not encode: %v", err)
		}
		// The column readers agree with parquet-go's row reader when both
		// accept the file.
		if ref, err := decodeRowsGeneric(nodesSpec, data, 1<<16); err == nil && !reflect.DeepEqual(rows, ref) {
			t.Fatalf("column readers and row reader disagree:\ncolumns %+v\ngeneric %+v", rows, ref)
		}
	})
}

func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"format_version":1}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := ParseManifest(raw)
		if err != nil {
			return
		}
		if m.FormatVersion < schemas.MinFormatVersion || m.FormatVersion > schemas.FormatVersion {
			t.Fatalf("accepted format_version %d", m.FormatVersion)
		}
		// What parses encodes and parses again to the same tables.
		enc, err := EncodeManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseManifest(enc)
		if err != nil {
			t.Fatalf("re-encoded manifest does not parse: %v\n%s", err, enc)
		}
		if fmt.Sprint(m2.Tables) != fmt.Sprint(m.Tables) {
			t.Fatalf("tables changed in a round trip: %v -> %v", m.Tables, m2.Tables)
		}
	})
}

// TestCorruptTables flips every byte of small tables: the checks before
// decoding must refuse what the decoder cannot take, so it never panics
// (which decodeRows would turn into an error saying so).
func TestCorruptTables(t *testing.T) {
	tables := map[string]func() ([]byte, func([]byte) error){
		"nodes": func() ([]byte, func([]byte) error) {
			b, _ := encodeRows(nodesSpec, fuzzNodes)
			return b, func(d []byte) error { _, err := decodeRows(nodesSpec, d, 100); return err }
		},
		"edges": func() ([]byte, func([]byte) error) {
			b, _ := encodeRows(edgesSpec, []schemas.Edge{
				{Src: 1, Dst: 2, Kind: "calls", File: "a.go", Line: 1, Target: "x", Confidence: 0.5, InLoop: true, DstRow: 1},
				{Src: 1, Kind: "calls", File: "a.go", Line: 2, Target: "y", Resolution: "unresolved", Args: "z", DstRow: -1},
			})
			return b, func(d []byte) error { _, err := decodeRows(edgesSpec, d, 100); return err }
		},
		"sources": func() ([]byte, func([]byte) error) {
			b, _ := encodeRows(sourcesSpec, []schemas.Source{{Path: "a", Content: []byte{0xff, 0}}, {Path: "b", Content: []byte("package b\n")}})
			return b, func(d []byte) error { _, err := decodeRows(sourcesSpec, d, 100); return err }
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
		if _, err := decodeNodes(data); err == nil {
			t.Errorf("%s: decoded", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	// A manifest claiming a huge table is never allocated for: ParseManifest
	// takes it, reading compares it with the real object first.
	raw := []byte(`{"format_version":1,"tables":[` +
		`{"name":"nodes","file":"nodes.parquet","rows":9000000000000000,"bytes":9000000000000000000,"sha256":"` + strings.Repeat("0", 64) + `"}]}`)
	if _, err := ParseManifest(raw); err == nil || !strings.Contains(err.Error(), "missing table edges") {
		t.Errorf("ParseManifest = %v, want a missing table error", err)
	}
}

// TestFuzzSeeds keeps testdata/fuzz in step with the code that makes the
// seeds; -update-fuzz-seeds rewrites them.
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
		},
	}
	for target, files := range seeds {
		dir := filepath.Join("testdata", "fuzz", target)
		for name, data := range files {
			p := filepath.Join(dir, name)
			want := "go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n"
			if *updateSeeds {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(p)
			if err != nil || string(got) != want {
				t.Errorf("%s is missing or stale (%v): run go test -run TestFuzzSeeds -update-fuzz-seeds", p, err)
			}
		}
	}
}
