// Package memstore is a snapshot.Store held in memory: a map behind a
// mutex. It is for tests and for short-lived processes; nothing survives
// the process.
package memstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/graphsnap/snap/snapshot"
)

// Store is an in-memory snapshot.Store. The zero value is not usable; call New.
type Store struct {
	mu      sync.Mutex
	objects map[string]object
}

type object struct {
	data    []byte // never modified once stored
	etag    string
	modTime time.Time
}

var _ snapshot.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store {
	return &Store{objects: make(map[string]object)}
}

func (o object) info(key string) snapshot.Info {
	return snapshot.Info{Key: key, Size: int64(len(o.data)), ETag: o.etag, ModTime: o.modTime}
}

// Get implements snapshot.Store.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, snapshot.Info, error) {
	if err := snapshot.ValidateKey(key); err != nil {
		return nil, snapshot.Info{}, fmt.Errorf("get: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, snapshot.Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	s.mu.Lock()
	o, ok := s.objects[key]
	s.mu.Unlock()
	if !ok {
		return nil, snapshot.Info{}, fmt.Errorf("get %s: %w", key, fs.ErrNotExist)
	}
	return io.NopCloser(bytes.NewReader(o.data)), o.info(key), nil
}

// Put implements snapshot.Store.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, opts snapshot.PutOptions) (snapshot.Info, error) {
	if err := snapshot.ValidateKey(key); err != nil {
		return snapshot.Info{}, fmt.Errorf("put: %w", err)
	}
	if err := opts.Check(); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: read: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	sum := sha256.Sum256(data)
	o := object{data: data, etag: hex.EncodeToString(sum[:]), modTime: time.Now()}

	s.mu.Lock()
	defer s.mu.Unlock()
	cur, exists := s.objects[key]
	switch {
	case opts.IfNoneMatch && exists:
		return snapshot.Info{}, fmt.Errorf("put %s: object exists: %w", key, snapshot.ErrPrecondition)
	case opts.IfMatch != "" && !exists:
		return snapshot.Info{}, fmt.Errorf("put %s: no object to match: %w", key, snapshot.ErrPrecondition)
	case opts.IfMatch != "" && cur.etag != opts.IfMatch:
		return snapshot.Info{}, fmt.Errorf("put %s: etag is %s, not %s: %w", key, cur.etag, opts.IfMatch, snapshot.ErrPrecondition)
	}
	s.objects[key] = o
	return o.info(key), nil
}

// List implements snapshot.Store.
func (s *Store) List(ctx context.Context, prefix string) ([]snapshot.Info, error) {
	p, err := snapshot.ListPrefix(prefix)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	s.mu.Lock()
	var infos []snapshot.Info
	for k, o := range s.objects {
		if strings.HasPrefix(k, p) {
			infos = append(infos, o.info(k))
		}
	}
	s.mu.Unlock()
	sort.Slice(infos, func(i, j int) bool { return infos[i].Key < infos[j].Key })
	return infos, nil
}

// Delete implements snapshot.Store.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := snapshot.ValidateKey(key); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	s.mu.Lock()
	delete(s.objects, key)
	s.mu.Unlock()
	return nil
}
