package indexer

import (
	"path"
	"slices"
	"strings"
)

// InFolder reports whether a folder on the slash-separated path file is
// named one of names: InFolder("a/tests/b/c.rb", "test", "tests") is
// true. Extractors tell test files by it.
func InFolder(file string, names ...string) bool {
	for _, dir := range strings.Split(path.Dir(file), "/") {
		if slices.Contains(names, dir) {
			return true
		}
	}
	return false
}
