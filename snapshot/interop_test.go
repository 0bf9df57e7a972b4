package snapshot_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/graphsnap/snap/snapshot/memstore"
)

// formatColumns reads the column tables of schemas/FORMAT.md, the
// normative format: table name → [(column, Arrow type)], in file order.
// FORMAT.md's types map to the Arrow types an independent reader must see:
// integers as themselves, string as utf8, float as float32, binary as
// binary, list<string> as list<utf8>.
func formatColumns(t *testing.T) map[string][][2]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "schemas", "FORMAT.md"))
	if err != nil {
		t.Fatal(err)
	}
	arrowOf := map[string]string{
		"uint64": "uint64", "uint32": "uint32", "int64": "int64", "int32": "int32",
		"float": "float32", "bool": "bool", "string": "utf8", "binary": "binary",
		`list\<string\>`: "list<utf8>",
	}
	out := make(map[string][][2]string)
	section := ""
	for line := range strings.SplitSeq(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = strings.TrimSuffix(strings.TrimSpace(h), ".parquet")
			if section == strings.TrimSpace(h) {
				section = "" // not a table's section
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if section == "" || !strings.HasPrefix(line, "| ") || len(cells) < 3 {
			continue
		}
		name, typ := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		if name == "column" || strings.HasPrefix(name, "---") {
			continue
		}
		at, ok := arrowOf[typ]
		if !ok {
			t.Fatalf("FORMAT.md: %s.%s has type %q, unknown to this test", section, name, typ)
		}
		out[section] = append(out[section], [2]string{name, at})
	}
	if len(out) != 5 {
		t.Fatalf("FORMAT.md declares %d tables, want 5", len(out))
	}
	return out
}

// arrowType names an Arrow type the way formatColumns does.
func arrowType(t arrow.DataType) string {
	if l, ok := t.(*arrow.ListType); ok {
		return "list<" + arrowType(l.Elem()) + ">"
	}
	return t.String()
}

// TestArrowInterop reads every table Write produces with Apache Arrow's
// Parquet reader: the schema must be the declared one and every value
// must match the rows written.
func TestArrowInterop(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	s := sample()
	m := write(t, st, s)
	rows := map[string]any{
		"nodes": s.Nodes, "edges": s.Edges, "files": s.Files, "sources": s.Sources, "refs": s.Refs,
	}
	declaredTables := formatColumns(t)
	if len(m.Tables) != len(declaredTables) {
		t.Fatalf("%d tables written, %d declared", len(m.Tables), len(declaredTables))
	}
	for _, tb := range m.Tables {
		t.Run(tb.Name, func(t *testing.T) {
			data := getRaw(t, st, prefix+"/"+tb.File)
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("arrow cannot open %s: %v", tb.File, err)
			}
			defer pf.Close()
			fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			schema, err := fr.Schema()
			if err != nil {
				t.Fatal(err)
			}
			declared := declaredTables[tb.Name]
			if len(schema.Fields()) != len(declared) {
				t.Fatalf("arrow sees %d columns, FORMAT declares %d:\n%s", len(schema.Fields()), len(declared), schema)
			}
			for i, f := range schema.Fields() {
				if got := [2]string{f.Name, arrowType(f.Type)}; got != declared[i] {
					t.Errorf("column %d is %s %s, FORMAT declares %s %s", i, got[0], got[1], declared[i][0], declared[i][1])
				}
				if f.Nullable {
					t.Errorf("column %s is nullable", f.Name)
				}
			}
			table, err := fr.ReadTable(ctx)
			if err != nil {
				t.Fatalf("arrow cannot read %s: %v", tb.File, err)
			}
			defer table.Release()
			compareRows(t, table, reflect.ValueOf(rows[tb.Name]))
		})
	}
}

// compareRows checks every cell of table against the field of the row
// struct whose parquet tag names its column.
func compareRows(t *testing.T, table arrow.Table, rows reflect.Value) {
	t.Helper()
	if int(table.NumRows()) != rows.Len() {
		t.Fatalf("arrow reads %d rows, %d written", table.NumRows(), rows.Len())
	}
	typ := rows.Type().Elem()
	for fi := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(fi).Tag.Get("parquet"), ",")
		idx := table.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Errorf("arrow has no column %s", name)
			continue
		}
		col := table.Column(idx[0])
		row := 0
		for _, chunk := range col.Data().Chunks() {
			for i := range chunk.Len() {
				want := rows.Index(row).Field(fi).Interface()
				got := cell(chunk, i)
				if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", normalizeCell(want)) {
					t.Errorf("row %d, column %s: arrow reads %#v, wrote %#v", row, name, got, want)
				}
				row++
			}
		}
	}
}

func normalizeCell(v any) any {
	if s, ok := v.([]string); ok && s == nil {
		return []string{}
	}
	return v
}

func cell(a arrow.Array, i int) any {
	switch a := a.(type) {
	case *array.Uint64:
		return a.Value(i)
	case *array.Uint32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return bytes.Clone(a.Value(i))
	case *array.List:
		start, end := a.ValueOffsets(i)
		elems := a.ListValues().(*array.String)
		out := []string{}
		for j := start; j < end; j++ {
			out = append(out, elems.Value(int(j)))
		}
		return out
	default:
		return fmt.Sprintf("unexpected arrow array %T", a)
	}
}
