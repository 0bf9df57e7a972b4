package export

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/graphsnap/snap/schemas"
)

// convertTable writes the rows of one table (a slice of a row type of
// schemas) as an Arrow IPC file, its schema carrying the snapshot's
// repo, branch, commit and table, or as JSON Lines.
func convertTable(ctx context.Context, root *os.Root, m schemas.Manifest, t schemas.Table, rows any, format string) error {
	v := reflect.ValueOf(rows)
	cols, err := arrowColumns(v.Type().Elem())
	if err != nil {
		return err
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.field
	}
	meta := arrow.NewMetadata(
		[]string{"snap.repo", "snap.branch", "snap.commit", "snap.table", "snap.format_version"},
		[]string{m.Repo, m.Branch, m.Commit, t.Name, strconv.Itoa(m.FormatVersion)})
	schema := arrow.NewSchema(fields, &meta)
	name := strings.TrimSuffix(t.File, ".parquet") + "." + format
	return writeFile(root, name, func(w io.Writer) error {
		var write func(arrow.Record) error
		var finish func() error
		switch format {
		case "arrow":
			fw, err := ipc.NewFileWriter(&positionWriter{w: w}, ipc.WithSchema(schema), ipc.WithAllocator(memory.DefaultAllocator))
			if err != nil {
				return err
			}
			write, finish = fw.Write, fw.Close
		case "jsonl":
			jw := newJSONLWriter(w, schema)
			write, finish = jw.write, func() error { return nil }
		default:
			return fmt.Errorf("unknown format %q", format)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer b.Release()
		// One batch at least, so that an empty table has its schema too.
		for start := 0; start == 0 || start < v.Len(); start += batchRows {
			if err := ctx.Err(); err != nil {
				return err
			}
			end := min(start+batchRows, v.Len())
			for i := start; i < end; i++ {
				row := v.Index(i)
				for c, col := range cols {
					col.append(b.Field(c), row.Field(col.index))
				}
			}
			rec := b.NewRecord()
			err := write(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return finish()
	})
}

// positionWriter tells the Arrow file writer its position, the only
// seek it makes, so that it can write through a buffer.
type positionWriter struct {
	w   io.Writer
	pos int64
}

func (p *positionWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.pos += int64(n)
	return n, err
}

func (p *positionWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return p.pos, errors.New("positionWriter: only tells the position")
	}
	return p.pos, nil
}

// arrowColumn is one column of a row type: its Arrow field, named by the
// parquet tag, and how a Go value is appended to its builder.
type arrowColumn struct {
	field  arrow.Field
	index  int // of the struct field
	append func(b array.Builder, v reflect.Value)
}

// arrowColumns maps the fields of a row type of schemas, in order, to
// Arrow columns of the types FORMAT.md declares, none nullable: unsigned
// and signed integers as themselves, float as float32, bool, string as
// utf8, []byte as binary, []string as list<element: utf8 not null>.
func arrowColumns(t reflect.Type) ([]arrowColumn, error) {
	var cols []arrowColumn
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if name == "" || name == "-" {
			continue
		}
		c := arrowColumn{index: i}
		switch f.Type.Kind() {
		case reflect.Uint64:
			c.field.Type = arrow.PrimitiveTypes.Uint64
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Uint64Builder).Append(v.Uint()) }
		case reflect.Uint32:
			c.field.Type = arrow.PrimitiveTypes.Uint32
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Uint32Builder).Append(uint32(v.Uint())) }
		case reflect.Int64:
			c.field.Type = arrow.PrimitiveTypes.Int64
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Int64Builder).Append(v.Int()) }
		case reflect.Int32:
			c.field.Type = arrow.PrimitiveTypes.Int32
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Int32Builder).Append(int32(v.Int())) }
		case reflect.Float32:
			c.field.Type = arrow.PrimitiveTypes.Float32
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Float32Builder).Append(float32(v.Float())) }
		case reflect.Bool:
			c.field.Type = arrow.FixedWidthTypes.Boolean
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.BooleanBuilder).Append(v.Bool()) }
		case reflect.String:
			c.field.Type = arrow.BinaryTypes.String
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.StringBuilder).Append(v.String()) }
		case reflect.Slice:
			switch f.Type.Elem().Kind() {
			case reflect.Uint8:
				c.field.Type = arrow.BinaryTypes.Binary
				c.append = func(b array.Builder, v reflect.Value) { b.(*array.BinaryBuilder).Append(v.Bytes()) }
			case reflect.String:
				// As the Parquet schema says: a LIST whose repeated group
				// holds a required "element".
				c.field.Type = arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String})
				c.append = func(b array.Builder, v reflect.Value) {
					lb := b.(*array.ListBuilder)
					lb.Append(true)
					sb := lb.ValueBuilder().(*array.StringBuilder)
					for j := range v.Len() {
						sb.Append(v.Index(j).String())
					}
				}
			}
		}
		if c.append == nil {
			return nil, fmt.Errorf("column %s: no Arrow type for Go type %s", name, f.Type)
		}
		c.field.Name = name
		cols = append(cols, c)
	}
	return cols, nil
}

// jsonlWriter writes records as JSON Lines: one object per row, its keys
// the columns in schema order.
type jsonlWriter struct {
	w    io.Writer
	keys [][]byte // `"name":` per column
	buf  []byte
}

func newJSONLWriter(w io.Writer, schema *arrow.Schema) *jsonlWriter {
	jw := &jsonlWriter{w: w}
	for _, f := range schema.Fields() {
		jw.keys = append(jw.keys, append(appendJSONString(nil, f.Name), ':'))
	}
	return jw
}

func (jw *jsonlWriter) write(rec arrow.Record) error {
	cols := rec.Columns()
	for i := range int(rec.NumRows()) {
		b := append(jw.buf[:0], '{')
		for c, col := range cols {
			if c > 0 {
				b = append(b, ',')
			}
			b = append(b, jw.keys[c]...)
			var err error
			if b, err = appendJSONValue(b, col, i); err != nil {
				return fmt.Errorf("column %s: %w", rec.ColumnName(c), err)
			}
		}
		b = append(b, '}', '\n')
		if _, err := jw.w.Write(b); err != nil {
			return err
		}
		jw.buf = b
	}
	return nil
}

// appendJSONValue appends the JSON form of a[i]: integers exactly,
// floats in their shortest form, strings escaped, binary as base64,
// lists as arrays, null as null.
func appendJSONValue(b []byte, a arrow.Array, i int) ([]byte, error) {
	if a.IsNull(i) {
		return append(b, "null"...), nil
	}
	switch a := a.(type) {
	case *array.Uint64:
		return strconv.AppendUint(b, a.Value(i), 10), nil
	case *array.Uint32:
		return strconv.AppendUint(b, uint64(a.Value(i)), 10), nil
	case *array.Int64:
		return strconv.AppendInt(b, a.Value(i), 10), nil
	case *array.Int32:
		return strconv.AppendInt(b, int64(a.Value(i)), 10), nil
	case *array.Float32:
		return appendJSONFloat(b, float64(a.Value(i)), 32)
	case *array.Float64:
		return appendJSONFloat(b, a.Value(i), 64)
	case *array.Boolean:
		return strconv.AppendBool(b, a.Value(i)), nil
	case *array.String:
		return appendJSONString(b, a.Value(i)), nil
	case *array.Binary:
		v := a.Value(i)
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, v)
		return append(b, '"'), nil
	case *array.List:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		b = append(b, '[')
		for j := start; j < end; j++ {
			if j > start {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSONValue(b, vals, int(j)); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
	return b, fmt.Errorf("cannot write Arrow type %s as JSON", a.DataType())
}

func appendJSONFloat(b []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("%v has no JSON form", f)
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits), nil
}

// appendJSONString appends s as a JSON string, escaping what JSON and
// JavaScript need and nothing more (no HTML escapes); invalid UTF-8
// becomes U+FFFD, as with encoding/json.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
