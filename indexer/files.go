package indexer

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// folderFiles opens the files of a tree through its root, a folder at a
// time. os.Root resolves every folder of a path again for each call, two
// system calls a folder, and indexFile used to call it twice a file (stat,
// then read); a worker takes paths in order, so it keeps the folder of
// the last one open as a root of its own, and opening the next file of
// that folder resolves its name alone. The folders above it stay open
// too, each opened from the one above it: the next folder, sharing most
// of its path (the paths are sorted), opens its own names alone. Whatever
// that way cannot open (a link out of its folder, a missing file) is
// opened by the tree's root, which decides, and says why not, as it does
// alone. Not safe for concurrent use: one per worker.
type folderFiles struct {
	root  *os.Root // the tree's
	dir   string   // the folder of the last path, slash-separated, with a trailing slash
	ready bool     // dir is set
	sub   *os.Root // root's folder dir; nil for the root itself, or when it cannot be opened
	// The folders of dir, outermost first: folders[i] is names[i], opened
	// from folders[i-1] (the root for the first); they stop where a name
	// could not be opened so.
	folders []*os.Root
	names   []string
}

// open opens the file at p, slash-separated within the root, and stats
// it (following a link, as the root does).
func (d *folderFiles) open(p string) (*os.File, fs.FileInfo, error) {
	base := d.enter(p)
	var fh *os.File
	var err error
	if d.sub != nil {
		fh, err = d.sub.Open(base)
	}
	if d.sub == nil || err != nil {
		fh, err = d.root.Open(filepath.FromSlash(p)) // the root decides
	}
	if err != nil {
		return nil, nil, err
	}
	fi, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, nil, err
	}
	return fh, fi, nil
}

// stat stats the file at p, following a link, as open would open it.
func (d *folderFiles) stat(p string) (fs.FileInfo, error) {
	base := d.enter(p)
	if d.sub != nil {
		if fi, err := d.sub.Stat(base); err == nil {
			return fi, nil
		}
	}
	return d.root.Stat(filepath.FromSlash(p)) // the root decides
}

// enter keeps the folder of p open, and returns p's name in it.
func (d *folderFiles) enter(p string) string {
	dir, base := path.Split(p)
	if d.ready && dir == d.dir {
		return base
	}
	d.dir, d.ready = dir, true
	var names []string
	if dir != "" {
		names = strings.Split(dir[:len(dir)-1], "/")
	}
	keep := 0 // the folders open already
	for keep < len(d.folders) && keep < len(names) && d.names[keep] == names[keep] {
		keep++
	}
	d.closeFrom(keep)
	for len(d.folders) < len(names) {
		parent := d.root
		if n := len(d.folders); n > 0 {
			parent = d.folders[n-1]
		}
		sub, err := parent.OpenRoot(names[len(d.folders)])
		if err != nil {
			break
		}
		d.folders = append(d.folders, sub)
		d.names = append(d.names, names[len(d.names)])
	}
	d.sub = nil
	if len(names) > 0 && len(d.folders) == len(names) {
		d.sub = d.folders[len(d.folders)-1]
	}
	return base
}

// closeFrom closes the folders open below the first n.
func (d *folderFiles) closeFrom(n int) {
	for i := len(d.folders) - 1; i >= n; i-- {
		d.folders[i].Close()
	}
	d.folders, d.names = d.folders[:n], d.names[:n]
}

// close closes the folders kept open.
func (d *folderFiles) close() {
	d.closeFrom(0)
	d.sub, d.ready = nil, false
}

// readAll reads what is left of f, whose size was size when it was
// opened (it may have changed since).
func readAll(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, 0, size+1) // one more: EOF needs no second buffer
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grown since it was opened
		}
	}
}
