package indexer

import "strings"

// CommonDirs counts the leading folders two slash-separated paths share.
func CommonDirs(a, b string) int {
	n := 0
	for {
		i, j := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		if i < 0 || j < 0 || a[:i] != b[:j] {
			return n
		}
		n++
		a, b = a[i+1:], b[j+1:]
	}
}

// Nearest returns the one of paths that shares the most leading folders
// with file (see CommonDirs), and whether another shares as many: then
// which one is meant cannot be told. It returns "" for no paths.
func Nearest(paths []string, file string) (nearest string, tie bool) {
	most := -1
	for _, p := range paths {
		switch n := CommonDirs(p, file); {
		case n > most:
			nearest, most, tie = p, n, false
		case n == most:
			tie = true
		}
	}
	return nearest, tie
}
