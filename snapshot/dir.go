package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/graphsnap/snap/schemas"
)

// OpenDir returns a read-only Store over a plain folder, such as one
// snapshot copied out of a store: Read(ctx, st, "", opts) and
// Verify(ctx, st, "") then work on it. Files are opened through os.Root,
// so no key reaches outside dir, symbolic links included. Put and Delete
// fail; ETags are empty; List leaves out hidden files (names starting
// with '.').
func OpenDir(dir string) (Store, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("open snapshot folder: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("open snapshot folder %s: not a directory", dir)
	}
	return dirStore{dir: dir}, nil
}

// VerifyDir verifies the snapshot held in a plain folder (see OpenDir and
// Verify): what `snap verify PATH` runs.
func VerifyDir(ctx context.Context, dir string) (schemas.Manifest, error) {
	st, err := OpenDir(dir)
	if err != nil {
		return schemas.Manifest{}, err
	}
	return Verify(ctx, st, "")
}

// ReadDir reads the snapshot held in a plain folder (see OpenDir and
// Read), verifying every table it reads.
func ReadDir(ctx context.Context, dir string, opts ReadOptions) (*Snapshot, error) {
	st, err := OpenDir(dir)
	if err != nil {
		return nil, err
	}
	return Read(ctx, st, "", opts)
}

type dirStore struct{ dir string }

var errReadOnly = errors.New("read-only folder")

func (d dirStore) Get(ctx context.Context, key string) (io.ReadCloser, Info, error) {
	if err := ValidateKey(key); err != nil {
		return nil, Info{}, fmt.Errorf("get: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	f, err := os.OpenInRoot(d.dir, filepath.FromSlash(key))
	if err != nil {
		return nil, Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fs.ErrNotExist
	}
	if err != nil {
		f.Close()
		return nil, Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	return f, Info{Key: key, Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

func (d dirStore) Put(ctx context.Context, key string, r io.Reader, opts PutOptions) (Info, error) {
	return Info{}, fmt.Errorf("put %s: %w %s", key, errReadOnly, d.dir)
}

func (d dirStore) Delete(ctx context.Context, key string) error {
	return fmt.Errorf("delete %s: %w %s", key, errReadOnly, d.dir)
}

func (d dirStore) List(ctx context.Context, prefix string) ([]Info, error) {
	p, err := ListPrefix(prefix)
	if err != nil {
		return nil, err
	}
	start := filepath.Join(d.dir, filepath.FromSlash(p))
	var infos []Info
	err = filepath.WalkDir(start, func(path string, e fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if path == start {
			return nil
		}
		if strings.HasPrefix(e.Name(), ".") { // .gitignore, a store's lock file
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(d.dir, path)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if strings.HasPrefix(key, p) {
			infos = append(infos, Info{Key: key, Size: fi.Size(), ModTime: fi.ModTime()})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Key < infos[j].Key })
	return infos, nil
}
