package c_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	lt "github.com/graphsnap/snap/indexer/languagetest"
)

// TestTypeUses holds C to every use of a type it records: one snippet per
// form, its edges to the struct or typedef named, none to builtin types.
func TestTypeUses(t *testing.T) {
	types := `#pragma once
struct item { int price; };
typedef struct item item_t;
typedef unsigned long ulong;
`
	setting := lt.Setting{Files: map[string]string{"types.h": types}, File: "use.c", Before: "#include \"types.h\"\n", After: "\n"}
	lt.TypeUses(t, setting, []string{lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion}, []lt.TypeUse{
		{Form: lt.FormField, Src: `struct order { struct item *items; item_t *last; size_t n; };`,
			Want: []string{
				"order.items -references-> item (import) use.c:2",
				// a typedef of a struct resolves to the struct.
				"order.last -references-> item (import) use.c:2",
			},
			Wrong: []string{"order.n -references->"}},
		{Form: lt.FormParam, Src: `int m(const item_t *i, int k) { return 0; }`,
			Want: []string{"m -references-> item (import) use.c:2"}},
		{Form: lt.FormResult, Src: `struct item *m(void) { return 0; }`,
			Want: []string{"m -references-> item (import) use.c:2"}},
		{Form: lt.FormVar, Src: `void m(void) {
  struct item i;
  ulong n = 0;
}`,
			Want: []string{
				"m -references-> item (import) use.c:3",
				"m -references-> ulong (import) use.c:4",
			}},
		{Form: lt.FormConversion, Src: `void m(void *o) { item_t *i = (item_t *)o; }`,
			Want: []string{"m -references-> item (import) use.c:2"}},
	}, c.New())
}
