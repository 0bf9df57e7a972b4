// Package grammar is the tree-sitter-swift grammar (alex-pinkus, version
// 0.7.1), built from the generated parser its npm package carries: the Go
// module of the grammar ships none. scripts/vendor-swift-grammar.sh
// re-fetches the sources and checks them; see README.md.
package grammar

// #cgo CFLAGS: -std=c11 -fPIC
// const void *tree_sitter_swift(void);
import "C"

import "unsafe"

// Version is the npm version of tree-sitter-swift vendored here.
const Version = "0.7.1"

// Language returns the tree-sitter Language of the Swift grammar.
func Language() unsafe.Pointer {
	return unsafe.Pointer(C.tree_sitter_swift())
}
