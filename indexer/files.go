package indexer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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
// it (following a link, as the root does). What is neither a regular file
// nor a folder is not read: its error is a *SpecialError.
func (d *folderFiles) open(p string) (*os.File, fs.FileInfo, error) {
	base := d.enter(p)
	var fh *os.File
	var fi fs.FileInfo
	var err error
	if d.sub != nil {
		fh, fi, err = openRead(d.sub, base)
	}
	if d.sub == nil || err != nil {
		fh, fi, err = openRead(d.root, filepath.FromSlash(p)) // the root decides
	}
	return fh, fi, err
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

// SpecialError is the error of reading what is neither a regular file nor
// a folder: a named pipe, whose read waits for a writer that may never
// come; a socket; a device, such as one that never ends (/dev/zero). The
// indexer records such a file as skipped_special.
type SpecialError struct {
	Mode fs.FileMode // its type
}

func (e *SpecialError) Error() string {
	kind := "not a regular file"
	switch {
	case e.Mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case e.Mode&fs.ModeSocket != 0:
		kind = "a socket"
	case e.Mode&fs.ModeCharDevice != 0:
		kind = "a character device"
	case e.Mode&fs.ModeDevice != 0:
		kind = "a block device"
	}
	return kind + ", not read"
}

// special reports whether mode is neither a regular file's, a folder's
// nor a symbolic link's.
func special(mode fs.FileMode) bool {
	return mode&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice|fs.ModeIrregular) != 0
}

// opener opens and stats names: an *os.Root, or plainFS.
type opener interface {
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Stat(name string) (fs.FileInfo, error)
}

// plainFS opens names as the os package does, unconfined.
type plainFS struct{}

func (plainFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

func (plainFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// openRead opens name for reading, and stats it, without ever waiting:
// the file is opened non-blocking (openFlags) and its stat taken from
// the handle, so that what turns out not to be a regular file or a
// folder is closed unread, with a *SpecialError. So is what cannot be
// opened but stats as such (a socket).
func openRead(o opener, name string) (*os.File, fs.FileInfo, error) {
	fh, err := o.OpenFile(name, openFlags, 0)
	if err != nil {
		if fi, serr := o.Stat(name); serr == nil && special(fi.Mode()) {
			return nil, nil, &SpecialError{Mode: fi.Mode()}
		}
		return nil, nil, err
	}
	fi, err := fh.Stat()
	if err == nil && special(fi.Mode()) {
		err = &SpecialError{Mode: fi.Mode()}
	}
	if err != nil {
		fh.Close()
		return nil, nil, err
	}
	return fh, fi, nil
}

// readRegular reads the regular file name, as openRead opens it: a named
// pipe or a device is refused rather than waited on or read forever.
func readRegular(o opener, name string) ([]byte, error) {
	fh, fi, err := openRead(o, name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if fi.IsDir() {
		return nil, fmt.Errorf("read %s: is a directory", name)
	}
	return readAll(fh, fi.Size())
}

// hashReader returns the hex SHA-256 of what r yields, a MiB at a time,
// and gives up when ctx is done: a sparse file of a terabyte reads as
// fast as the disk allows, and forever for all that.
func hashReader(ctx context.Context, r io.Reader) (string, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		n, err := r.Read(buf)
		h.Write(buf[:n])
		if err == io.EOF {
			return hex.EncodeToString(h.Sum(nil)), nil
		}
		if err != nil {
			return "", err
		}
	}
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
