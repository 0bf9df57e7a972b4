// Package filestore is a snapshot.Store on a local folder: each key is a
// file under the root, written to a temporary file beside it, synced and
// renamed into place, so readers see whole objects only. Conditional puts
// hold an in-process mutex and an flock on a lock file in the root, so two
// processes sharing a folder cannot both win a compare-and-swap.
//
// Every file is reached through an os.Root on the folder: no key, lock or
// temporary file leads out of it, whatever symbolic links the folder holds
// (a checkout's .snap/ is whatever was committed there), and the lock file
// is never a link. A root that is itself a symbolic link is refused when
// Options.NoLinkedRoot says so.
//
// ETags name the file's identity, not its content: device, inode, size and
// modification time. Every Put renames a new file into place, so the ETag
// changes with every Put, and Get never reads a file twice to make one.
// A plain path (the embedded
// default is ".snap/" at a repository's root) or a file:// URL resolves to
// this store.
package filestore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/graphsnap/snap/snapshot"
)

// Names under the root that belong to the store itself. Keys with a segment
// starting with reservedPrefix are refused, and List never shows them.
const (
	reservedPrefix = ".snapstore"
	lockName       = ".snapstore.lock"
	tempPattern    = ".snapstore-tmp-*"
)

// Store is a snapshot.Store rooted at a local folder. It is safe for
// concurrent use by goroutines and by processes sharing the folder.
type Store struct {
	root string   // absolute
	dir  *os.Root // the folder: every file is reached through it
	mu   sync.Mutex
}

var _ snapshot.Store = (*Store)(nil)

// ErrLinkedRoot is wrapped by Open when the root is a symbolic link and
// Options.NoLinkedRoot is set.
var ErrLinkedRoot = errors.New("the store folder is a symbolic link")

// Options tune Open.
type Options struct {
	// NoLinkedRoot refuses a root that is a symbolic link (ErrLinkedRoot):
	// for a folder whose path comes from content someone else controls,
	// such as a checkout's .snap/, where a committed link would send the
	// store's writes elsewhere.
	NoLinkedRoot bool
}

// New returns a store rooted at root, creating the folder (and its
// parents) if needed. A root folder that New creates and that is named
// ".snap" gets a .gitignore of "*", so the embedded default store never
// shows up in git status.
func New(root string) (*Store, error) { return Open(root, Options{}) }

// Open is New with options.
func Open(root string, opts Options) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open file store %s: %w", root, err)
	}
	if opts.NoLinkedRoot {
		if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(abs)
			return nil, fmt.Errorf("open file store %s: %w (to %s)", root, ErrLinkedRoot, target)
		}
	}
	fi, err := os.Stat(abs)
	created := false
	switch {
	case err == nil && !fi.IsDir():
		return nil, fmt.Errorf("open file store %s: not a directory", root)
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("create file store %s: %w", root, err)
		}
		created = true
	case err != nil:
		return nil, fmt.Errorf("open file store %s: %w", root, err)
	}
	dir, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open file store %s: %w", root, err)
	}
	if created && filepath.Base(abs) == ".snap" {
		if err := dir.WriteFile(".gitignore", []byte("*\n"), 0o644); err != nil {
			dir.Close()
			return nil, fmt.Errorf("create file store %s: %w", root, err)
		}
	}
	return &Store{root: abs, dir: dir}, nil
}

// Root returns the store's absolute root folder.
func (s *Store) Root() string { return s.root }

// path validates key and returns its file path, relative to the root.
func (s *Store) path(key string) (string, error) {
	if err := snapshot.ValidateKey(key); err != nil {
		return "", err
	}
	for seg := range strings.SplitSeq(key, "/") {
		if strings.HasPrefix(seg, reservedPrefix) {
			return "", fmt.Errorf("%w %q: segments starting with %q are reserved by the file store", snapshot.ErrInvalidKey, key, reservedPrefix)
		}
	}
	return filepath.FromSlash(key), nil
}

// Get implements snapshot.Store. It hands back the open file, whose ETag
// comes from a stat; a concurrent Put replaces the file by rename, so the
// open file stays whole.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, snapshot.Info, error) {
	p, err := s.path(key)
	if err != nil {
		return nil, snapshot.Info{}, fmt.Errorf("get: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, snapshot.Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	f, err := s.dir.Open(p)
	if err != nil {
		return nil, snapshot.Info{}, fmt.Errorf("get %s: %w", key, notExist(err))
	}
	info, err := fileInfo(f, key)
	if err != nil {
		f.Close()
		return nil, snapshot.Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	return f, info, nil
}

// fileInfo stats an open file.
func fileInfo(f *os.File, key string) (snapshot.Info, error) {
	fi, err := f.Stat()
	if err != nil {
		return snapshot.Info{}, err
	}
	if !fi.Mode().IsRegular() {
		return snapshot.Info{}, fs.ErrNotExist
	}
	return snapshot.Info{Key: key, Size: fi.Size(), ETag: etag(fi), ModTime: fi.ModTime()}, nil
}

// etag identifies one version of a file: a Put always renames a new
// inode into place.
func etag(fi fs.FileInfo) string {
	var dev, ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		dev, ino = uint64(st.Dev), uint64(st.Ino)
	}
	return fmt.Sprintf("%x-%x-%x-%x", dev, ino, fi.Size(), fi.ModTime().UnixNano())
}

// notExist maps "a parent is a file" to not-found, as object stores see it.
func notExist(err error) error {
	if errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("%w (%v)", fs.ErrNotExist, err)
	}
	return err
}

// Put implements snapshot.Store: temp file in the target's folder, fsync,
// then, holding the lock, check the condition, rename and fsync the folder.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, opts snapshot.PutOptions) (snapshot.Info, error) {
	p, err := s.path(key)
	if err != nil {
		return snapshot.Info{}, fmt.Errorf("put: %w", err)
	}
	if err := opts.Check(); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	dir := filepath.Dir(p)
	tmp, tmpName, err := s.createTemp(dir)
	if err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	committed := false
	defer func() {
		if !committed {
			tmp.Close()
			s.dir.Remove(tmpName)
		}
	}()

	if _, err := io.Copy(tmp, r); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: write: %w", key, err)
	}
	if err := finish(tmp); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}

	unlock, err := s.lock()
	if err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	defer unlock()
	if err := s.checkCondition(p, opts); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	if err := s.dir.Rename(tmpName, p); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	committed = true
	if err := s.syncDir(dir); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	fi, err := s.dir.Lstat(p)
	if err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	return snapshot.Info{Key: key, Size: fi.Size(), ETag: etag(fi), ModTime: fi.ModTime()}, nil
}

// createTemp makes dir (relative to the root) and a temp file in it,
// returning the file and its path relative to the root. It retries when a
// concurrent Delete prunes the freshly made folder before the file lands
// in it.
func (s *Store) createTemp(dir string) (*os.File, string, error) {
	var err error
	for range 5 {
		if err = s.dir.MkdirAll(dir, 0o755); err != nil {
			return nil, "", err
		}
		name := filepath.Join(dir, strings.Replace(tempPattern, "*", strconv.FormatUint(rand.Uint64(), 36), 1))
		var f *os.File
		if f, err = s.dir.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			return f, name, nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrExist) {
			return nil, "", err
		}
	}
	return nil, "", err
}

// finish makes a written temp file durable and readable like any object.
func finish(f *os.File) error {
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

// checkCondition evaluates opts against the file at p. The caller holds the lock.
func (s *Store) checkCondition(p string, opts snapshot.PutOptions) error {
	switch {
	case opts.IfNoneMatch:
		if _, err := s.dir.Lstat(p); err == nil {
			return fmt.Errorf("object exists: %w", snapshot.ErrPrecondition)
		} else if !errors.Is(notExist(err), fs.ErrNotExist) {
			return err
		}
	case opts.IfMatch != "":
		f, err := s.dir.Open(p)
		if errors.Is(notExist(err), fs.ErrNotExist) {
			return fmt.Errorf("no object to match: %w", snapshot.ErrPrecondition)
		} else if err != nil {
			return err
		}
		info, err := fileInfo(f, "")
		f.Close()
		if err != nil {
			return err
		}
		if info.ETag != opts.IfMatch {
			return fmt.Errorf("etag is %s, not %s: %w", info.ETag, opts.IfMatch, snapshot.ErrPrecondition)
		}
	}
	return nil
}

// syncDir makes the entries of dir, relative to the root, durable.
func (s *Store) syncDir(dir string) error {
	d, err := s.dir.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", filepath.Join(s.root, dir), err)
	}
	return nil
}

// lock serializes mutations: first among goroutines, then among processes.
// A lock file that is a symbolic link (a checkout's .snap/ holds what was
// committed) is refused, never followed: os.Root keeps a link from
// leading out of the folder, and the Lstat first keeps one inside it from
// creating its target.
func (s *Store) lock() (unlock func(), err error) {
	s.mu.Lock()
	f, err := s.openLock()
	if err != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("lock store: %s: %w", filepath.Join(s.root, lockName), err)
	}
	if err := flock(f); err != nil {
		f.Close()
		s.mu.Unlock()
		return nil, fmt.Errorf("lock store: %w", err)
	}
	return func() {
		f.Close() // releases the flock
		s.mu.Unlock()
	}, nil
}

// errLinkedLock says the lock file is not a plain file.
var errLinkedLock = errors.New("it is a symbolic link or not a regular file; remove it")

func (s *Store) openLock() (*os.File, error) {
	if fi, err := s.dir.Lstat(lockName); err == nil && !fi.Mode().IsRegular() {
		return nil, errLinkedLock
	}
	f, err := s.dir.OpenFile(lockName, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		if fi, lerr := s.dir.Lstat(lockName); lerr == nil && !fi.Mode().IsRegular() {
			return nil, errLinkedLock
		}
		return nil, err
	}
	// The file opened must be the one Lstat sees, a plain file.
	fi, err := f.Stat()
	li, lerr := s.dir.Lstat(lockName)
	if err != nil || lerr != nil || !fi.Mode().IsRegular() || !os.SameFile(fi, li) {
		f.Close()
		return nil, errLinkedLock
	}
	return f, nil
}

// List implements snapshot.Store. Listed objects carry no ETag (computing
// one means reading the file); Get has it.
func (s *Store) List(ctx context.Context, prefix string) ([]snapshot.Info, error) {
	p, err := snapshot.ListPrefix(prefix)
	if err != nil {
		return nil, err
	}
	if p != "" {
		// Validate the prefix like a key (reserved names included).
		if _, err := s.path(strings.TrimSuffix(p, "/")); err != nil {
			return nil, fmt.Errorf("list: %w", err)
		}
	}
	start := "."
	if p != "" {
		start = strings.TrimSuffix(p, "/")
	}
	var infos []snapshot.Info
	err = fs.WalkDir(s.dir.FS(), start, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(notExist(err), fs.ErrNotExist) {
				return nil // vanished under us, or the prefix names nothing
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if path == start && !d.IsDir() {
			return nil // the prefix names an object: nothing is under it
		}
		if path != start && strings.HasPrefix(d.Name(), reservedPrefix) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		infos = append(infos, snapshot.Info{Key: path, Size: fi.Size(), ModTime: fi.ModTime()})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	// WalkDir's lexical order is per folder; keys sort as whole strings
	// ("a/b-c" < "a/b/c").
	sort.Slice(infos, func(i, j int) bool { return infos[i].Key < infos[j].Key })
	return infos, nil
}

// Delete implements snapshot.Store. It also removes folders the deletion
// left empty, up to the root.
func (s *Store) Delete(ctx context.Context, key string) error {
	p, err := s.path(key)
	if err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	unlock, err := s.lock()
	if err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	defer unlock()
	fi, err := s.dir.Lstat(p)
	if errors.Is(notExist(err), fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	if fi.IsDir() {
		return nil // a prefix of other keys, not an object
	}
	if err := s.dir.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	dir := filepath.Dir(p)
	for dir != "." && s.dir.Remove(dir) == nil {
		dir = filepath.Dir(dir) // dir was empty: prune its parent too
	}
	if err := s.syncDir(dir); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}
