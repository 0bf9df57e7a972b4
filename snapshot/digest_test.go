package snapshot

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/graphsnap/snap/schemas"
)

// TestDigestSeesEveryField changes each field of a row of every table in
// turn: each change changes the row's digest, so no changed row group
// can pass for its base's.
func TestDigestSeesEveryField(t *testing.T) {
	checkDigest(t, nodesSpec)
	checkDigest(t, edgesSpec)
	checkDigest(t, filesSpec)
	checkDigest(t, sourcesSpec)
	checkDigest(t, refsSpec)
}

func checkDigest[T any](t *testing.T, spec *tableSpec[T]) {
	var row T
	v := reflect.ValueOf(&row).Elem()
	for i := range v.NumField() {
		setField(v.Field(i), 1)
	}
	h := newDigestHash()
	var size T
	sum := func(r *T) [32]byte {
		s, _ := spec.digest.sum(h, unsafe.Pointer(r), 1, unsafe.Sizeof(size), nil)
		return s
	}
	was := sum(&row)
	for i := range v.NumField() {
		changed := row
		setField(reflect.ValueOf(&changed).Elem().Field(i), 2)
		if sum(&changed) == was {
			t.Errorf("%s: a change of %s leaves the digest as it was", spec.name, v.Type().Field(i).Name)
		}
	}
	// Strings are length-prefixed: moving a byte from one to the next
	// changes the digest.
	if spec.name == schemas.TableRefs {
		a, b := *any(&row).(*schemas.Ref), *any(&row).(*schemas.Ref)
		a.Target, a.Expr = "ab", "c"
		b.Target, b.Expr = "a", "bc"
		if sum(any(&a).(*T)) == sum(any(&b).(*T)) {
			t.Error("refs: (ab, c) and (a, bc) have one digest")
		}
	}
}

// setField gives f a value made of n.
func setField(f reflect.Value, n int) {
	switch f.Kind() {
	case reflect.String:
		f.SetString(string(rune('a' + n)))
	case reflect.Bool:
		f.SetBool(n%2 == 1)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.SetInt(int64(n))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(uint64(n))
	case reflect.Float32, reflect.Float64:
		f.SetFloat(float64(n))
	case reflect.Slice:
		if f.Type().Elem().Kind() == reflect.Uint8 {
			f.SetBytes([]byte{byte(n)})
		} else {
			f.Set(reflect.ValueOf([]string{string(rune('a' + n))}))
		}
	}
}

// TestDigestFollowsFormat holds the digests to the definition in
// schemas/FORMAT.md, written out plainly here: every field in schema
// order, numbers and booleans as their little-endian bytes, strings and
// byte arrays as a uvarint length and the bytes, a list as its length and
// each element so. Rows of every table, long strings among them, in row
// groups of several sizes.
func TestDigestFollowsFormat(t *testing.T) {
	s := Realistic(3000, 8000, 100)
	long := strings.Repeat("x", 5000)
	s.Nodes[7].Doc, s.Nodes[8].Signature = long, long+"y"
	s.Nodes[9].Decorators = []string{"a", long, ""}
	s.Edges[3].Args = long
	s.Refs[5].Expr = long
	checkFormat(t, nodesSpec, s.Nodes)
	checkFormat(t, edgesSpec, s.Edges)
	checkFormat(t, filesSpec, s.Files)
	checkFormat(t, sourcesSpec, s.Sources)
	checkFormat(t, refsSpec, s.Refs)
}

func checkFormat[T any](t *testing.T, spec *tableSpec[T], rows []T) {
	t.Helper()
	h := newDigestHash()
	var buf []byte
	var size T
	for _, n := range []int{1, 2, 3, 17, 1000, len(rows)} {
		for lo := 0; lo < len(rows); lo += n {
			hi := min(lo+n, len(rows))
			var got [32]byte
			got, buf = spec.digest.sum(h, unsafe.Pointer(&rows[lo]), hi-lo, unsafe.Sizeof(size), buf)
			if want := formatDigest(rows[lo:hi]); got != want {
				t.Fatalf("%s rows [%d, %d): digest %x, the format's %x", spec.name, lo, hi, got, want)
			}
		}
	}
}

// formatDigest is the digest of rows as schemas/FORMAT.md defines it.
func formatDigest[T any](rows []T) [32]byte {
	var b []byte
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		for f := range v.NumField() {
			switch x := v.Field(f); x.Kind() {
			case reflect.Bool:
				if x.Bool() {
					b = append(b, 1)
				} else {
					b = append(b, 0)
				}
			case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				b = binary.LittleEndian.AppendUint64(b, uint64(x.Int()))[:len(b)+int(x.Type().Size())]
			case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				b = binary.LittleEndian.AppendUint64(b, x.Uint())[:len(b)+int(x.Type().Size())]
			case reflect.Float32:
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x.Float())))
			case reflect.Float64:
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x.Float()))
			case reflect.String:
				str(x.String())
			case reflect.Slice:
				if x.Type().Elem().Kind() == reflect.Uint8 {
					str(string(x.Bytes()))
					continue
				}
				b = binary.AppendUvarint(b, uint64(x.Len()))
				for k := range x.Len() {
					str(x.Index(k).String())
				}
			default:
				panic("unexpected field kind " + x.Kind().String())
			}
		}
	}
	return sha256.Sum256(b)
}
