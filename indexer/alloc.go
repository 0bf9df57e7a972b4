package indexer

/*
#include <stdlib.h>

// From tree-sitter's api.h; the library is linked in by go-tree-sitter.
extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));

static void snap_use_c_allocator(void) {
	ts_set_allocator(malloc, calloc, realloc, free);
}
*/
import "C"

import "sync"

var allocOnce sync.Once

// UseCAllocator makes tree-sitter allocate with the C library directly.
// go-tree-sitter's default sends every allocation through a Go callback,
// which costs more than the parse itself. Call it before the first parse;
// the indexer does so when it makes its first extractor. (go-tree-sitter's
// own init, which installs the callbacks, has run by then.)
func UseCAllocator() {
	allocOnce.Do(func() {
		C.snap_use_c_allocator()
	})
}
