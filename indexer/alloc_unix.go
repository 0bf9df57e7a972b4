//go:build unix

package indexer

/*
#cgo linux LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>

// From tree-sitter's api.h; the library is linked in by go-tree-sitter.
extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));

// The allocator tree-sitter uses, once chosen: the C library's, or one
// loaded with dlopen.
static void *(*snap_malloc)(size_t) = malloc;
static void *(*snap_calloc)(size_t, size_t) = calloc;
static void *(*snap_realloc)(void *, size_t) = realloc;
static void (*snap_free)(void *) = free;

static void snap_use_allocator(void) {
	ts_set_allocator(snap_malloc, snap_calloc, snap_realloc, snap_free);
}

// snap_load_allocator loads the shared library lib and takes its four
// functions as the allocator: 0 when it did, else -1 (see snap_dlerror).
static int snap_load_allocator(const char *lib, const char *m, const char *c, const char *r, const char *f) {
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) return -1;
	void *pm = dlsym(h, m), *pc = dlsym(h, c), *pr = dlsym(h, r), *pf = dlsym(h, f);
	if (!pm || !pc || !pr || !pf) return -1; // the library stays loaded: harmless
	snap_malloc = (void *(*)(size_t))pm;
	snap_calloc = (void *(*)(size_t, size_t))pc;
	snap_realloc = (void *(*)(void *, size_t))pr;
	snap_free = (void (*)(void *))pf;
	return 0;
}

static const char *snap_dlerror(void) {
	const char *e = dlerror();
	return e ? e : "a function is missing";
}

static void *snap_alloc_malloc(size_t n) { return snap_malloc(n); }
static void *snap_alloc_calloc(size_t n, size_t size) { return snap_calloc(n, size); }
static void *snap_alloc_realloc(void *p, size_t n) { return snap_realloc(p, n); }
static void snap_alloc_free(void *p) { snap_free(p); }
*/
import "C"

import (
	"errors"
	"unsafe"
)

// loadAllocator loads a with dlopen and makes it the allocator
// useAllocator installs.
func loadAllocator(a cAllocator) error {
	lib, m, c, r, f := C.CString(a.lib), C.CString(a.malloc), C.CString(a.calloc), C.CString(a.realloc), C.CString(a.free)
	defer func() {
		for _, p := range []*C.char{lib, m, c, r, f} {
			C.free(unsafe.Pointer(p))
		}
	}()
	if C.snap_load_allocator(lib, m, c, r, f) != 0 {
		return errors.New(C.GoString(C.snap_dlerror()))
	}
	return nil
}

func useAllocator() { C.snap_use_allocator() }

func allocMalloc(n uint) unsafe.Pointer { return C.snap_alloc_malloc(C.size_t(n)) }
func allocCalloc(n, size uint) unsafe.Pointer {
	return C.snap_alloc_calloc(C.size_t(n), C.size_t(size))
}
func allocRealloc(p unsafe.Pointer, n uint) unsafe.Pointer {
	return C.snap_alloc_realloc(p, C.size_t(n))
}
func allocFree(p unsafe.Pointer) { C.snap_alloc_free(p) }
