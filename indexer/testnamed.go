package indexer

import (
	"path"
	"strings"
)

// TestNamed reports whether the base name of the slash-separated path
// file begins with one of prefixes or ends with one of suffixes, or a
// folder on it is named one of folders (see InFolder): the conventions
// most languages tell test files by.
func TestNamed(file string, prefixes, suffixes, folders []string) bool {
	base := path.Base(file)
	for _, p := range prefixes {
		if strings.HasPrefix(base, p) {
			return true
		}
	}
	for _, s := range suffixes {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	return InFolder(file, folders...)
}
