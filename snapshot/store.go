package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Store is the narrow interface every backend implements: a flat namespace
// of immutable-by-convention objects addressed by slash-separated keys.
// filestore, memstore and s3store implement it;
// storetest.Run checks that they all behave the same.
//
// Keys are relative paths such as "repo=x/branch=main/HEAD.json". Every
// method refuses an invalid key with an error wrapping ErrInvalidKey.
type Store interface {
	// Get opens the object at key. The caller closes the reader. A missing
	// key gives an error for which errors.Is(err, fs.ErrNotExist) is true.
	Get(ctx context.Context, key string) (io.ReadCloser, Info, error)

	// Put stores everything r yields at key, atomically: a concurrent Get
	// sees the whole old object or the whole new one, never a mix, and a
	// failed Put leaves the old object in place. opts make it a
	// compare-and-swap; when its condition does not hold, Put changes
	// nothing and returns an error wrapping ErrPrecondition.
	Put(ctx context.Context, key string, r io.Reader, opts PutOptions) (Info, error)

	// List returns every object under prefix (recursively), sorted by key.
	// prefix is "" for the whole store, or a key-like path: "a/b" lists
	// "a/b/c" and "a/b/c/d" but not "a/bc" (a trailing slash is allowed).
	// The ETag of listed objects may be empty.
	List(ctx context.Context, prefix string) ([]Info, error)

	// Delete removes the object at key. Deleting a missing key is not an
	// error.
	Delete(ctx context.Context, key string) error
}

// Info describes one stored object.
type Info struct {
	Key     string
	Size    int64
	ETag    string // changes whenever the content does; opaque to callers
	ModTime time.Time
}

// PutOptions make a Put conditional. The zero value puts unconditionally.
// Setting both fields is an error.
type PutOptions struct {
	// IfMatch is the ETag the current object must have.
	IfMatch string
	// IfNoneMatch requires that no object exists at the key.
	IfNoneMatch bool
}

// Check returns an error when o asks for both conditions at once.
func (o PutOptions) Check() error {
	if o.IfMatch != "" && o.IfNoneMatch {
		return errors.New("IfMatch and IfNoneMatch are mutually exclusive")
	}
	return nil
}

var (
	// ErrPrecondition is wrapped by Put when its IfMatch or IfNoneMatch
	// condition does not hold.
	ErrPrecondition = errors.New("precondition failed")

	// ErrInvalidKey is wrapped by every Store method given a key it refuses.
	ErrInvalidKey = errors.New("invalid key")
)

// ValidateKey reports whether key is a valid store key: a non-empty,
// relative, slash-separated path with no empty, "." or ".." segment, no
// backslash and no NUL byte. The error wraps ErrInvalidKey and names the key.
func ValidateKey(key string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w %q: %s", ErrInvalidKey, key, why)
	}
	switch {
	case key == "":
		return bad("empty")
	case strings.HasPrefix(key, "/"):
		return bad("absolute")
	case strings.ContainsRune(key, '\\'):
		return bad("contains a backslash")
	case strings.ContainsRune(key, 0):
		return bad("contains a NUL byte")
	}
	for seg := range strings.SplitSeq(key, "/") {
		switch seg {
		case "":
			return bad("empty segment")
		case ".", "..":
			return bad("contains a " + seg + " segment")
		}
	}
	return nil
}

// ListPrefix validates a List prefix and returns it in the form backends
// match on: "" for everything, or the prefix with one trailing slash, so
// that a key k is listed when strings.HasPrefix(k, result).
func ListPrefix(prefix string) (string, error) {
	if prefix == "" {
		return "", nil
	}
	p := strings.TrimSuffix(prefix, "/")
	if err := ValidateKey(p); err != nil {
		return "", fmt.Errorf("list prefix: %w", err)
	}
	return p + "/", nil
}

// joinKey joins a snapshot prefix ("" or a valid key) and a file name.
func joinKey(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return strings.TrimSuffix(prefix, "/") + "/" + name
}
