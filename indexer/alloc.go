package indexer

import (
	"errors"
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
// libmimalloc2.0; the library is loaded where it is installed (on Unix),
// and the binary needs nothing to build.
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
// the C library's. go-tree-sitter's default sends every allocation through
// a Go callback, which costs more than the parse itself. Call it before
// the first parse; the indexer does so when it makes its first extractor.
// (go-tree-sitter's own init, which installs the callbacks, has run by
// then.) It returns the allocator's name; and why, when AllocatorEnv asked
// for one that could not be loaded (the C library's is used).
func UseCAllocator() (string, error) {
	allocOnce.Do(func() {
		allocName, allocErr = chooseAllocator(os.Getenv(AllocatorEnv))
		// What go-tree-sitter frees of tree-sitter's (a node's
		// S-expression, a tree's ranges) goes back to the same allocator.
		sitter.SetAllocator(
			func(n uint) unsafe.Pointer { return allocMalloc(n) },
			func(n, size uint) unsafe.Pointer { return allocCalloc(n, size) },
			func(p unsafe.Pointer, n uint) unsafe.Pointer { return allocRealloc(p, n) },
			func(p unsafe.Pointer) { allocFree(p) },
		)
		// Then tree-sitter itself calls the allocator, not those callbacks.
		useAllocator()
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
	hint := ""
	for _, a := range cAllocators {
		if want != "" && want != a.name {
			continue
		}
		err := loadAllocator(a)
		if err == nil {
			return a.name, nil
		}
		why = append(why, fmt.Sprintf("%s: %v", a.name, err))
		if !errors.Is(err, errNoLoader) {
			hint = " (on Debian and Ubuntu: apt install libmimalloc2.0)"
		}
	}
	switch {
	case want == "":
		return "libc", nil
	case len(why) == 0:
		return "libc", fmt.Errorf("%s=%s: not an allocator snap knows (libc, mimalloc)", AllocatorEnv, want)
	}
	return "libc", fmt.Errorf("%s=%s: %s%s", AllocatorEnv, want, strings.Join(why, "; "), hint)
}

var errNoLoader = errors.New("shared libraries are not loaded on this system")
