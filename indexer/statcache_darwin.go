//go:build darwin

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
	return statEntry{
		size: fi.Size(), mtime: fi.ModTime().UnixNano(),
		ctime: int64(st.Ctimespec.Sec)*1e9 + int64(st.Ctimespec.Nsec), ino: uint64(st.Ino),
	}, true
}
