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
// functions as the allocator: 0 when it did, else -1 (see dlerror).
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
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// cAllocator is a C allocator found as a shared library.
type cAllocator struct {
	name, lib                     string
	malloc, calloc, realloc, free string
}

// cAllocators are the allocators UseCAllocator looks for, before the C
// library's: tree-sitter allocates a node at a time and frees a tree at
// once, which mimalloc does faster than glibc's malloc (GOROOT/src parsed
// on 2 workers, three alternations: 12.49 s of CPU with glibc 2.36's
// malloc, 11.71 s with mimalloc 2.0, the same peak memory; jemalloc, as
// fast, cannot be loaded after the process starts: its thread-local
// storage must be there from the start). Debian and Ubuntu ship it as
// libmimalloc2.0; the library is loaded where it is installed, and the
// binary needs nothing to build.
var cAllocators = []cAllocator{
	{"mimalloc", "libmimalloc.so.2", "mi_malloc", "mi_calloc", "mi_realloc", "mi_free"},
}

// AllocatorEnv names the allocator tree-sitter is to use: "libc" (the C
// library's) or "mimalloc"; by default, mimalloc where the machine has
// it, else libc.
const AllocatorEnv = "SNAP_ALLOCATOR"

var (
	allocOnce sync.Once
	allocName string
	allocErr  error
)

// UseCAllocator makes tree-sitter allocate with a C allocator directly:
// mimalloc where this machine has it (see cAllocators, AllocatorEnv), else
// the C library's. go-tree-sitter's default sends every allocation through a Go
// callback, which costs more than the parse itself. Call it before the
// first parse; the indexer does so when it makes its first extractor.
// (go-tree-sitter's own init, which installs the callbacks, has run by
// then.) It returns the allocator's name; and why, when AllocatorEnv
// asked for one that could not be loaded (the C library's is used).
func UseCAllocator() (string, error) {
	allocOnce.Do(func() {
		allocName, allocErr = chooseAllocator(os.Getenv(AllocatorEnv))
		// What go-tree-sitter frees of tree-sitter's (a node's
		// S-expression, a tree's ranges) goes back to the same allocator.
		sitter.SetAllocator(
			func(n uint) unsafe.Pointer { return C.snap_alloc_malloc(C.size_t(n)) },
			func(n, size uint) unsafe.Pointer { return C.snap_alloc_calloc(C.size_t(n), C.size_t(size)) },
			func(p unsafe.Pointer, n uint) unsafe.Pointer { return C.snap_alloc_realloc(p, C.size_t(n)) },
			func(p unsafe.Pointer) { C.snap_alloc_free(p) },
		)
		// Then tree-sitter itself calls the allocator, not those callbacks.
		C.snap_use_allocator()
	})
	return allocName, allocErr
}

// chooseAllocator loads the allocator want names, or the first of
// cAllocators this machine has for "", and returns its name.
func chooseAllocator(want string) (string, error) {
	if want == "libc" {
		return "libc", nil
	}
	var why []string
	for _, a := range cAllocators {
		if want != "" && want != a.name {
			continue
		}
		lib, m, c, r, f := C.CString(a.lib), C.CString(a.malloc), C.CString(a.calloc), C.CString(a.realloc), C.CString(a.free)
		ok := C.snap_load_allocator(lib, m, c, r, f) == 0
		if !ok {
			why = append(why, fmt.Sprintf("%s: %s", a.name, C.GoString(C.snap_dlerror())))
		}
		for _, p := range []*C.char{lib, m, c, r, f} {
			C.free(unsafe.Pointer(p))
		}
		if ok {
			return a.name, nil
		}
	}
	switch {
	case want == "":
		return "libc", nil
	case len(why) == 0:
		return "libc", fmt.Errorf("%s=%s: not an allocator snap knows (libc, mimalloc)", AllocatorEnv, want)
	}
	return "libc", fmt.Errorf("%s=%s: %s (on Debian and Ubuntu: apt install libmimalloc2.0)", AllocatorEnv, want, strings.Join(why, "; "))
}
