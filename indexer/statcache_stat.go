//go:build linux || darwin

package indexer

import (
	"io/fs"
	"syscall"
)

// statOf returns what a StatCache compares of fi.
func statOf(fi fs.FileInfo) (statEntry, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return statEntry{}, false
	}
	return statEntry{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: ctime(st), ino: uint64(st.Ino)}, true
}
