package snapshot

import (
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// Tables are decoded column by column: for each row group and each leaf
// column, parquet-go reads the chunk's pages (inflating and decoding
// them), and a column reader copies the page's values into one field of
// the row group's rows. No reflection per value, and strings share one
// allocation per page (or per dictionary) instead of one each: this is
// several times faster than parquet-go's row reader, which reconstructs
// every row through reflection.
//
// The bytes reaching parquet-go passed checkParquet first; what parquet-go
// returns is checked again here (value counts, offsets, dictionary
// indexes, levels), so a file the guard lets through yields an error,
// never a panic or a write out of range.

// column reads one leaf column of a table whose rows are T.
type column[T any] struct {
	path string
	// read fills its field in rows, all the rows of one row group, from
	// the pages of the column's chunk in that group. maxDef is the leaf's
	// maximum definition level.
	read func(rows []T, pages parquet.Pages, maxDef int) error
	list bool // reads a list's element column (repetition level 1)
}

// columnPlan returns, for every leaf of the schema the row type writes and
// in its order, the column that reads it; the file's leaves are in that
// order too once checkSchema accepted them.
func columnPlan[T any](want []format.SchemaElement, cols []column[T]) ([]column[T], []leaf, error) {
	leaves, err := schemaLeaves(want)
	if err != nil {
		return nil, nil, err
	}
	byPath := make(map[string]column[T], len(cols))
	for _, c := range cols {
		if _, dup := byPath[c.path]; dup {
			return nil, nil, fmt.Errorf("column %s has two readers", c.path)
		}
		byPath[c.path] = c
	}
	plan := make([]column[T], len(leaves))
	for i, l := range leaves {
		c, ok := byPath[l.path]
		if !ok {
			return nil, nil, fmt.Errorf("no reader for column %s", l.path)
		}
		if c.list != (l.maxRep > 0) {
			return nil, nil, fmt.Errorf("column %s: reader for the wrong shape", l.path)
		}
		plan[i] = c
		delete(byPath, l.path)
	}
	for p := range byPath {
		return nil, nil, fmt.Errorf("reader for column %s, which the schema does not have", p)
	}
	return plan, leaves, nil
}

var errNoRows = errors.New("pages hold more values than the row group has rows")

// eachPage calls fill with every page of a chunk of a column without
// repetition (one value per row) and the rows still to fill; fill returns
// how many it filled. The pages must fill exactly the rows given.
func eachPage[T any](rows []T, pages parquet.Pages, fill func(rows []T, p parquet.Page) (int, error)) error {
	defer pages.Close()
	n := 0
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if len(p.RepetitionLevels()) != 0 || len(p.DefinitionLevels()) != 0 {
			parquet.Release(p)
			return errors.New("levels in a column without them")
		}
		k, err := fill(rows[n:], p)
		parquet.Release(p)
		if err != nil {
			return err
		}
		n += k
	}
	if n != len(rows) {
		return fmt.Errorf("pages hold %d values for %d rows", n, len(rows))
	}
	return nil
}

// dictCache remembers the values of the dictionary of the chunk being
// read, converted once.
type dictCache[V any] struct {
	dict   parquet.Dictionary
	values []V
}

func (c *dictCache[V]) get(d parquet.Dictionary, convert func(parquet.Dictionary) ([]V, error)) ([]V, error) {
	if c.dict != d || c.values == nil {
		v, err := convert(d)
		if err != nil {
			return nil, fmt.Errorf("dictionary: %w", err)
		}
		c.dict, c.values = d, v
	}
	return c.values, nil
}

// lookup fills rows from dictionary indexes.
func lookup[T, V any](rows []T, idx []int32, dict []V, field func(*T) *V) (int, error) {
	if len(idx) > len(rows) {
		return 0, errNoRows
	}
	if len(idx) == 0 {
		return 0, nil
	}
	base := unsafe.Pointer(&rows[0])
	off := uintptr(unsafe.Pointer(field(&rows[0]))) - uintptr(base)
	size := unsafe.Sizeof(rows[0])
	for i, x := range idx {
		if uint(x) >= uint(len(dict)) {
			return 0, fmt.Errorf("dictionary index %d out of range [0, %d)", x, len(dict))
		}
		*(*V)(unsafe.Add(base, uintptr(i)*size+off)) = dict[x] // as scatter does
	}
	return len(idx), nil
}

// scatter stores vals[i] in the field of rows[i]. The field's offset in
// T is taken once, so the loop makes no call per value: this loop runs
// once per value of every numeric column of a snapshot.
func scatter[T, V any](rows []T, vals []V, field func(*T) *V) {
	if len(vals) == 0 {
		return
	}
	base := unsafe.Pointer(&rows[0])
	off := uintptr(unsafe.Pointer(field(&rows[0]))) - uintptr(base)
	size := unsafe.Sizeof(rows[0])
	if off+unsafe.Sizeof(vals[0]) > size {
		panic("snapshot: field outside its row") // field must return a field of its argument
	}
	for i, v := range vals {
		*(*V)(unsafe.Add(base, uintptr(i)*size+off)) = v
	}
}

// number is what fixed-size columns hold.
type number interface {
	~int32 | ~uint32 | ~int64 | ~uint64 | ~float32
}

// numberColumn reads a fixed-size column; values views a page's data as
// the column's Go type (such as (*encoding.Values).Uint64).
func numberColumn[T any, V number](path string, values func(*encoding.Values) []V, field func(*T) *V) column[T] {
	convert := func(d parquet.Dictionary) ([]V, error) {
		data := d.Page().Data()
		return values(&data), nil
	}
	return column[T]{path: path, read: func(rows []T, pages parquet.Pages, _ int) error {
		var dc dictCache[V]
		return eachPage(rows, pages, func(rows []T, p parquet.Page) (int, error) {
			data := p.Data()
			if d := p.Dictionary(); d != nil {
				dict, err := dc.get(d, convert)
				if err != nil {
					return 0, err
				}
				return lookup(rows, data.Int32(), dict, field)
			}
			vals := values(&data)
			if len(vals) > len(rows) {
				return 0, errNoRows
			}
			scatter(rows, vals, field)
			return len(vals), nil
		})
	}}
}

// boolColumn reads a boolean column (bit-packed in the page data).
func boolColumn[T any](path string, field func(*T) *bool) column[T] {
	convert := func(d parquet.Dictionary) ([]bool, error) {
		data := d.Page().Data()
		return unpackBools(data.Boolean(), d.Len())
	}
	return column[T]{path: path, read: func(rows []T, pages parquet.Pages, _ int) error {
		var dc dictCache[bool]
		return eachPage(rows, pages, func(rows []T, p parquet.Page) (int, error) {
			data := p.Data()
			if d := p.Dictionary(); d != nil {
				dict, err := dc.get(d, convert)
				if err != nil {
					return 0, err
				}
				return lookup(rows, data.Int32(), dict, field)
			}
			bits, n := data.Boolean(), p.NumValues()
			if n < 0 || n > int64(len(rows)) {
				return 0, errNoRows
			}
			if int64(len(bits))*8 < n {
				return 0, fmt.Errorf("%d bytes of booleans for %d values", len(bits), n)
			}
			for i := range int(n) {
				*field(&rows[i]) = bits[i>>3]>>(i&7)&1 != 0
			}
			return int(n), nil
		})
	}}
}

func unpackBools(bits []byte, n int) ([]bool, error) {
	if n < 0 || len(bits)*8 < n {
		return nil, fmt.Errorf("%d bytes of booleans for %d values", len(bits), n)
	}
	out := make([]bool, n)
	for i := range out {
		out[i] = bits[i>>3]>>(i&7)&1 != 0
	}
	return out, nil
}

// A cutter turns the bytes of a BYTE_ARRAY page into one copy its values
// share, and returns how to take the value at [start, end) out of it.
type cutter[V any] func(b []byte) func(start, end uint32) V

// cutStrings makes string values: slices of one string.
func cutStrings(b []byte) func(start, end uint32) string {
	s := string(b)
	return func(start, end uint32) string { return s[start:end] }
}

// cutBytes makes []byte values: slices of one copy, each capped at its
// length so an append to one never writes into the next; never nil, so an
// empty value reads as []byte{}.
func cutBytes(b []byte) func(start, end uint32) []byte {
	buf := append(make([]byte, 0, len(b)), b...)
	return func(start, end uint32) []byte { return buf[start:end:end] }
}

// byteArrays returns the values of a BYTE_ARRAY page (or dictionary),
// checking the offsets.
func byteArrays[V any](data *encoding.Values, cut cutter[V]) ([]V, error) {
	b, offsets := data.ByteArray()
	if len(offsets) == 0 {
		return []V{}, nil
	}
	at := cut(b)
	out := make([]V, len(offsets)-1)
	err := eachValue(offsets, len(b), func(i int, start, end uint32) { out[i] = at(start, end) })
	return out, err
}

func dictStrings(d parquet.Dictionary) ([]string, error) {
	data := d.Page().Data()
	return byteArrays(&data, cutStrings)
}

// stringColumn reads a string column. The strings of a page are slices
// of one string holding the page's bytes; those of a dictionary are
// converted once per column chunk and shared by the rows using them.
func stringColumn[T any](path string, field func(*T) *string) column[T] {
	return byteArrayColumn(path, field, cutStrings)
}

// bytesColumn reads a binary column, its values cut as cutBytes says;
// dictionary values are shared by the rows using them.
func bytesColumn[T any](path string, field func(*T) *[]byte) column[T] {
	return byteArrayColumn(path, field, cutBytes)
}

// byteArrayColumn reads a BYTE_ARRAY column into the field of each row,
// with values made by cut.
func byteArrayColumn[T, V any](path string, field func(*T) *V, cut cutter[V]) column[T] {
	convert := func(d parquet.Dictionary) ([]V, error) {
		data := d.Page().Data()
		return byteArrays(&data, cut)
	}
	return column[T]{path: path, read: func(rows []T, pages parquet.Pages, _ int) error {
		var dc dictCache[V]
		return eachPage(rows, pages, func(rows []T, p parquet.Page) (int, error) {
			data := p.Data()
			if d := p.Dictionary(); d != nil {
				dict, err := dc.get(d, convert)
				if err != nil {
					return 0, err
				}
				return lookup(rows, data.Int32(), dict, field)
			}
			b, offsets := data.ByteArray()
			if len(offsets) == 0 {
				return 0, nil
			}
			n := len(offsets) - 1
			if n > len(rows) {
				return 0, errNoRows
			}
			at := cut(b)
			return n, eachValue(offsets, len(b), func(i int, start, end uint32) { *field(&rows[i]) = at(start, end) })
		})
	}}
}

// stringListColumn reads the element column of a required list of
// required strings: repetition level 0 starts a row, definition level
// maxDef carries an element, a lower one (with repetition level 0) is an
// empty list. A row's elements may span pages (data pages v1). Every
// row's list is a slice of one array of the chunk's elements, capped at
// its length; an empty list reads as []string{}, as parquet-go's row
// reader has it.
func stringListColumn[T any](path string, field func(*T) *[]string) column[T] {
	return column[T]{path: path, list: true, read: func(rows []T, pages parquet.Pages, maxDef int) error {
		defer pages.Close()
		var dc dictCache[string]
		elems := make([]string, 0)
		starts := make([]int, 0, len(rows)+1) // where each row's elements start in elems
		open := false                         // the last row has elements: the next value may continue it
		for {
			p, err := pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			err = func() error {
				defer parquet.Release(p)
				var vals []string
				data := p.Data()
				if d := p.Dictionary(); d != nil {
					dict, err := dc.get(d, dictStrings)
					if err != nil {
						return err
					}
					idx := data.Int32()
					vals = make([]string, len(idx))
					if _, err := lookup(vals, idx, dict, func(s *string) *string { return s }); err != nil {
						return err
					}
				} else if vals, err = byteArrays(&data, cutStrings); err != nil {
					return err
				}
				reps, defs := p.RepetitionLevels(), p.DefinitionLevels()
				if len(reps) != len(defs) {
					return fmt.Errorf("%d repetition levels, %d definition levels", len(reps), len(defs))
				}
				k := 0
				for i, def := range defs {
					switch rep := reps[i]; {
					case rep == 0:
						if len(starts) == len(rows) {
							return errNoRows
						}
						starts = append(starts, len(elems))
					case rep != 1 || !open:
						return fmt.Errorf("repetition level %d after %d rows", rep, len(starts))
					}
					switch {
					case int(def) == maxDef:
						if k == len(vals) {
							return fmt.Errorf("levels declare more than the page's %d values", len(vals))
						}
						elems = append(elems, vals[k])
						k++
						open = true
					case reps[i] == 0 && int(def) < maxDef: // an empty list
						open = false
					default:
						return fmt.Errorf("definition level %d, repetition level %d", def, reps[i])
					}
				}
				if k != len(vals) {
					return fmt.Errorf("levels declare %d of the page's %d values", k, len(vals))
				}
				return nil
			}()
			if err != nil {
				return err
			}
		}
		if len(starts) != len(rows) {
			return fmt.Errorf("pages hold %d rows for %d", len(starts), len(rows))
		}
		starts = append(starts, len(elems))
		for i := range rows {
			*field(&rows[i]) = elems[starts[i]:starts[i+1]:starts[i+1]]
		}
		return nil
	}}
}

// eachValue calls set for every value of a byte-array page, given by its
// offsets into size bytes, after checking that the value lies within them.
func eachValue(offsets []uint32, size int, set func(i int, start, end uint32)) error {
	start := offsets[0]
	for i, end := range offsets[1:] {
		if start > end || int64(end) > int64(size) {
			return fmt.Errorf("value %d at bytes [%d, %d) of %d", i, start, end, size)
		}
		set(i, start, end)
		start = end
	}
	return nil
}
