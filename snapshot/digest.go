package snapshot

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"reflect"
	"unsafe"
)

// A row group's digest is the SHA-256 of its rows, each field in the
// row type's order: fixed-size numbers and booleans as their bytes in
// memory (little-endian), strings and byte slices as their length (a
// uvarint) and bytes, lists of strings as their length and each string.
// Equal rows have equal digests; a writer that finds a row group's digest
// in its base copies the base's row group instead of encoding the rows
// again (see Base). Every field counts, so no change to a row can go
// unseen.
type rowDigest struct {
	fields []digestField
}

type digestField struct {
	off  uintptr
	kind reflect.Kind
	size uintptr
}

// newRowDigest lays out the fields of T, a flat struct of numbers,
// booleans, strings, byte slices and lists of strings; it panics on any
// other field, which a test of every table would meet.
func newRowDigest[T any]() rowDigest {
	t := reflect.TypeFor[T]()
	var d rowDigest
	for i := range t.NumField() {
		f := t.Field(i)
		switch k := f.Type.Kind(); k {
		case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			// Fixed-size fields that follow one another in memory are
			// one run of bytes: one copy rather than one per field.
			if n := len(d.fields); n > 0 && d.fields[n-1].kind != reflect.String && d.fields[n-1].kind != reflect.Slice &&
				d.fields[n-1].off+d.fields[n-1].size == f.Offset {
				d.fields[n-1].size += f.Type.Size()
				continue
			}
			d.fields = append(d.fields, digestField{f.Offset, k, f.Type.Size()})
		case reflect.String:
			d.fields = append(d.fields, digestField{f.Offset, k, f.Type.Size()})
		case reflect.Slice:
			switch f.Type.Elem().Kind() {
			case reflect.Uint8, reflect.String:
				d.fields = append(d.fields, digestField{f.Offset, k, f.Type.Elem().Size()})
			default:
				panic(fmt.Sprintf("row digest: %s.%s is a slice of %s", t.Name(), f.Name, f.Type.Elem()))
			}
		default:
			panic(fmt.Sprintf("row digest: %s.%s is a %s", t.Name(), f.Name, k))
		}
	}
	return d
}

// sum returns the digest of rows; buf is scratch it reuses and returns.
func (d rowDigest) sum(h hash.Hash, rows unsafe.Pointer, n int, rowSize uintptr, buf []byte) ([32]byte, []byte) {
	h.Reset()
	buf = buf[:0]
	for i := range n {
		row := unsafe.Add(rows, uintptr(i)*rowSize)
		for _, f := range d.fields {
			p := unsafe.Add(row, f.off)
			switch f.kind {
			case reflect.String:
				s := *(*string)(p)
				buf = binary.AppendUvarint(buf, uint64(len(s)))
				if len(s) > 1<<12 {
					h.Write(buf)
					h.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
					buf = buf[:0]
				} else {
					buf = append(buf, s...)
				}
			case reflect.Slice:
				if f.size == 1 { // []byte
					b := *(*[]byte)(p)
					buf = binary.AppendUvarint(buf, uint64(len(b)))
					h.Write(buf)
					h.Write(b)
					buf = buf[:0]
					continue
				}
				list := *(*[]string)(p)
				buf = binary.AppendUvarint(buf, uint64(len(list)))
				for _, s := range list {
					buf = binary.AppendUvarint(buf, uint64(len(s)))
					buf = append(buf, s...)
				}
			default:
				buf = append(buf, unsafe.Slice((*byte)(p), f.size)...)
			}
		}
		if len(buf) >= 1<<15 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	var out [32]byte
	h.Sum(out[:0])
	return out, buf
}

func newDigestHash() hash.Hash { return sha256.New() }

// valueBytes returns the bytes of the strings, byte slices and lists of
// strings of one row.
func (d rowDigest) valueBytes(row unsafe.Pointer) int {
	n := 0
	for _, f := range d.fields {
		p := unsafe.Add(row, f.off)
		switch {
		case f.kind == reflect.String:
			n += len(*(*string)(p))
		case f.kind == reflect.Slice && f.size == 1:
			n += len(*(*[]byte)(p))
		case f.kind == reflect.Slice:
			for _, s := range *(*[]string)(p) {
				n += len(s)
			}
		}
	}
	return n
}
