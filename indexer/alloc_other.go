//go:build !unix

package indexer

/*
#include <stdlib.h>

// From tree-sitter's api.h; the library is linked in by go-tree-sitter.
extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));

static void snap_use_allocator(void) {
	ts_set_allocator(malloc, calloc, realloc, free);
}
*/
import "C"

import "unsafe"

// loadAllocator: without dlopen, the C library's allocator it is.
func loadAllocator(cAllocator) error { return errNoLoader }

func useAllocator() { C.snap_use_allocator() }

func allocMalloc(n uint) unsafe.Pointer                    { return C.malloc(C.size_t(n)) }
func allocCalloc(n, size uint) unsafe.Pointer              { return C.calloc(C.size_t(n), C.size_t(size)) }
func allocRealloc(p unsafe.Pointer, n uint) unsafe.Pointer { return C.realloc(p, C.size_t(n)) }
func allocFree(p unsafe.Pointer)                           { C.free(p) }
