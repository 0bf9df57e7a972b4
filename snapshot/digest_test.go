package snapshot

import (
	"reflect"
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
