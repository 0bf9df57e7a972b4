// Package storetest is the conformance suite every snapshot.Store passes:
// filestore and memstore run it in their tests, and so must every later
// backend (s3store against a real server). It checks behaviour callers
// rely on, not implementation details.
package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Run runs the suite. newStore returns a fresh, empty store for each subtest.
func Run(t *testing.T, newStore func(t *testing.T) snapshot.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, st snapshot.Store)
	}{
		{"PutGet", testPutGet},
		{"Empty", testEmpty},
		{"Overwrite", testOverwrite},
		{"NotFound", testNotFound},
		{"Delete", testDelete},
		{"InvalidKeys", testInvalidKeys},
		{"List", testList},
		{"ListPrefixIsolation", testListPrefixIsolation},
		{"IfNoneMatch", testIfNoneMatch},
		{"IfMatch", testIfMatch},
		{"BothConditions", testBothConditions},
		{"ConcurrentCreate", testConcurrentCreate},
		{"ConcurrentSwap", testConcurrentSwap},
		{"AtomicOverwrite", testAtomicOverwrite},
		{"FailedPut", testFailedPut},
		{"CanceledContext", testCanceledContext},
		{"PublishRace", testPublishRace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fn(t, newStore(t))
		})
	}
}

func put(t *testing.T, st snapshot.Store, key, data string) snapshot.Info {
	t.Helper()
	info, err := st.Put(context.Background(), key, strings.NewReader(data), snapshot.PutOptions{})
	if err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
	return info
}

func get(t *testing.T, st snapshot.Store, key string) (string, snapshot.Info) {
	t.Helper()
	rc, info, err := st.Get(context.Background(), key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("Get(%q): read: %v", key, err)
	}
	return string(b), info
}

func keys(infos []snapshot.Info) []string {
	ks := make([]string, len(infos))
	for i, in := range infos {
		ks[i] = in.Key
	}
	return ks
}

func testPutGet(t *testing.T, st snapshot.Store) {
	const key = "repo=a%2Fb/branch=feature%2Fx y/commit=abc123/nodes.parquet"
	data := "hello, \x00 world\xff"
	pi := put(t, st, key, data)
	if pi.Key != key || pi.Size != int64(len(data)) || pi.ETag == "" {
		t.Errorf("Put info = %+v, want key %q, size %d and an etag", pi, key, len(data))
	}
	got, gi := get(t, st, key)
	if got != data {
		t.Errorf("Get = %q, want %q", got, data)
	}
	if gi.Key != key || gi.Size != int64(len(data)) || gi.ETag != pi.ETag {
		t.Errorf("Get info = %+v, want key %q, size %d, etag %q", gi, key, len(data), pi.ETag)
	}
	if gi.ModTime.IsZero() {
		t.Errorf("Get info has no ModTime")
	}
}

func testEmpty(t *testing.T, st snapshot.Store) {
	put(t, st, "empty", "")
	got, info := get(t, st, "empty")
	if got != "" || info.Size != 0 {
		t.Errorf("Get(empty) = %q, size %d; want empty", got, info.Size)
	}
}

func testOverwrite(t *testing.T, st snapshot.Store) {
	a := put(t, st, "k", "first")
	b := put(t, st, "k", "second, longer")
	if a.ETag == b.ETag {
		t.Errorf("ETag did not change with the content: %q", a.ETag)
	}
	if got, info := get(t, st, "k"); got != "second, longer" || info.ETag != b.ETag {
		t.Errorf("Get after overwrite = %q (etag %q), want %q (etag %q)", got, info.ETag, "second, longer", b.ETag)
	}
	put(t, st, "k", "x")
	if got, _ := get(t, st, "k"); got != "x" {
		t.Errorf("Get after shorter overwrite = %q, want %q", got, "x")
	}
}

func testNotFound(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	put(t, st, "dir/file", "x")
	for _, key := range []string{"missing", "dir", "dir/missing", "dir/file/below", "di"} {
		rc, _, err := st.Get(ctx, key)
		if err == nil {
			rc.Close()
			t.Errorf("Get(%q) succeeded, want not found", key)
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Get(%q) = %v, want an error wrapping fs.ErrNotExist", key, err)
		}
	}
}

func testDelete(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	put(t, st, "a/b/c", "1")
	put(t, st, "a/d", "2")
	if err := st.Delete(ctx, "a/b/c"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, _, err := st.Get(ctx, "a/b/c"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Get after Delete = %v, want not found", err)
	}
	if err := st.Delete(ctx, "a/b/c"); err != nil {
		t.Errorf("Delete of a deleted key = %v, want nil", err)
	}
	if err := st.Delete(ctx, "never/was"); err != nil {
		t.Errorf("Delete of a missing key = %v, want nil", err)
	}
	infos, err := st.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(infos); !slices.Equal(got, []string{"a/d"}) {
		t.Errorf("List after Delete = %q, want [a/d]", got)
	}
	// The key is usable again, also below where the deleted one lived.
	put(t, st, "a/b/c", "3")
	put(t, st, "a/b/e", "4")
	if got, _ := get(t, st, "a/b/c"); got != "3" {
		t.Errorf("Get after re-Put = %q, want 3", got)
	}
}

// InvalidKeys are refused by every method with ErrInvalidKey.
var InvalidKeys = []string{
	"", "/abs", "a/", "a//b", ".", "..", "./a", "a/.", "a/./b", "a/../b", "../a", "a/..",
	`a\b`, "a\x00b",
}

func testInvalidKeys(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	for _, key := range InvalidKeys {
		check := func(op string, err error) {
			t.Helper()
			if !errors.Is(err, snapshot.ErrInvalidKey) {
				t.Errorf("%s(%q) = %v, want ErrInvalidKey", op, key, err)
				return
			}
			if key != "" && !strings.Contains(err.Error(), fmt.Sprintf("%q", key)) {
				t.Errorf("%s(%q) error %q does not name the key", op, key, err)
			}
		}
		_, _, err := st.Get(ctx, key)
		check("Get", err)
		_, err = st.Put(ctx, key, strings.NewReader("x"), snapshot.PutOptions{})
		check("Put", err)
		check("Delete", st.Delete(ctx, key))
		if key != "" && key != "a/" { // "" lists everything; a trailing slash is allowed
			_, err = st.List(ctx, key)
			check("List", err)
		}
	}
	infos, err := st.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 0 {
		t.Errorf("invalid Puts left objects: %q", keys(infos))
	}
	// Odd but valid keys.
	for _, key := range []string{"a b/ü/%2F..x", "...", "a/..b/c..", "x=y/z=1"} {
		put(t, st, key, key)
		if got, _ := get(t, st, key); got != key {
			t.Errorf("Get(%q) = %q", key, got)
		}
	}
}

func testList(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	all := []string{"a/b-c", "a/b/c", "a/b/c/d", "a/b0", "b", "z/y/x/w", "a/b/c.d"}
	// "a/b/c" is both an object and a prefix in object stores, not in a
	// folder; keep the set realizable everywhere.
	all = slices.DeleteFunc(all, func(k string) bool { return k == "a/b/c" })
	for i, k := range all {
		put(t, st, k, strings.Repeat("x", i))
	}
	want := slices.Clone(all)
	slices.Sort(want)
	infos, err := st.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(infos); !slices.Equal(got, want) {
		t.Errorf("List(\"\") = %q, want %q", got, want)
	}
	for _, in := range infos {
		if n := int64(slices.Index(all, in.Key)); in.Size != n {
			t.Errorf("List: %s has size %d, want %d", in.Key, in.Size, n)
		}
	}
	for prefix, want := range map[string][]string{
		"a/b":     {"a/b/c.d", "a/b/c/d"},
		"a/b/":    {"a/b/c.d", "a/b/c/d"},
		"a":       {"a/b-c", "a/b/c.d", "a/b/c/d", "a/b0"},
		"z/y":     {"z/y/x/w"},
		"b":       nil, // "b" is an object, nothing is under it
		"missing": nil,
		"a/b/c.d": nil,
	} {
		infos, err := st.List(ctx, prefix)
		if err != nil {
			t.Errorf("List(%q): %v", prefix, err)
			continue
		}
		if got := keys(infos); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("List(%q) = %q, want %q", prefix, got, want)
		}
	}
}

func testListPrefixIsolation(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	for _, k := range []string{"a/b/1", "a/bc/1", "a/b-/1", "a/b/2/3", "ab/1"} {
		put(t, st, k, k)
	}
	infos, err := st.List(ctx, "a/b")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(infos), []string{"a/b/1", "a/b/2/3"}; !slices.Equal(got, want) {
		t.Errorf("List(a/b) = %q, want %q", got, want)
	}
	infos, err = st.List(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(infos), []string{"a/b-/1", "a/b/1", "a/b/2/3", "a/bc/1"}; !slices.Equal(got, want) {
		t.Errorf("List(a) = %q, want %q", got, want)
	}
}

func testIfNoneMatch(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	create := snapshot.PutOptions{IfNoneMatch: true}
	info, err := st.Put(ctx, "h/HEAD.json", strings.NewReader("one"), create)
	if err != nil {
		t.Fatalf("create on missing key: %v", err)
	}
	_, err = st.Put(ctx, "h/HEAD.json", strings.NewReader("two"), create)
	if !errors.Is(err, snapshot.ErrPrecondition) {
		t.Errorf("create on existing key = %v, want ErrPrecondition", err)
	}
	if got, gi := get(t, st, "h/HEAD.json"); got != "one" || gi.ETag != info.ETag {
		t.Errorf("failed create changed the object to %q", got)
	}
}

func testIfMatch(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	_, err := st.Put(ctx, "k", strings.NewReader("x"), snapshot.PutOptions{IfMatch: "nope"})
	if !errors.Is(err, snapshot.ErrPrecondition) {
		t.Errorf("IfMatch on missing key = %v, want ErrPrecondition", err)
	}
	if _, _, err := st.Get(ctx, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("failed IfMatch created the object: %v", err)
	}
	v1 := put(t, st, "k", "v1")
	v2, err := st.Put(ctx, "k", strings.NewReader("v2"), snapshot.PutOptions{IfMatch: v1.ETag})
	if err != nil {
		t.Fatalf("IfMatch with the current etag: %v", err)
	}
	_, err = st.Put(ctx, "k", strings.NewReader("v3"), snapshot.PutOptions{IfMatch: v1.ETag})
	if !errors.Is(err, snapshot.ErrPrecondition) {
		t.Errorf("IfMatch with a stale etag = %v, want ErrPrecondition", err)
	}
	if got, gi := get(t, st, "k"); got != "v2" || gi.ETag != v2.ETag {
		t.Errorf("Get = %q (etag %q), want v2 (etag %q)", got, gi.ETag, v2.ETag)
	}
	// An etag from Get works as well as one from Put.
	_, gi := get(t, st, "k")
	if _, err := st.Put(ctx, "k", strings.NewReader("v4"), snapshot.PutOptions{IfMatch: gi.ETag}); err != nil {
		t.Errorf("IfMatch with Get's etag: %v", err)
	}
}

func testBothConditions(t *testing.T, st snapshot.Store) {
	_, err := st.Put(context.Background(), "k", strings.NewReader("x"), snapshot.PutOptions{IfMatch: "e", IfNoneMatch: true})
	if err == nil {
		t.Errorf("Put with IfMatch and IfNoneMatch succeeded, want an error")
	}
}

const racers = 8

func testConcurrentCreate(t *testing.T, st snapshot.Store) {
	var wins, lost atomic.Int32
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			_, err := st.Put(context.Background(), "race/HEAD.json", strings.NewReader(fmt.Sprint(i)), snapshot.PutOptions{IfNoneMatch: true})
			switch {
			case err == nil:
				wins.Add(1)
			case errors.Is(err, snapshot.ErrPrecondition):
				lost.Add(1)
			default:
				t.Errorf("racer %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 || lost.Load() != racers-1 {
		t.Errorf("%d creates won and %d lost, want 1 and %d", wins.Load(), lost.Load(), racers-1)
	}
}

func testConcurrentSwap(t *testing.T, st snapshot.Store) {
	base := put(t, st, "race/HEAD.json", "base")
	var wins, lost atomic.Int32
	var winner atomic.Value
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			data := fmt.Sprint("racer ", i)
			_, err := st.Put(context.Background(), "race/HEAD.json", strings.NewReader(data), snapshot.PutOptions{IfMatch: base.ETag})
			switch {
			case err == nil:
				wins.Add(1)
				winner.Store(data)
			case errors.Is(err, snapshot.ErrPrecondition):
				lost.Add(1)
			default:
				t.Errorf("racer %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 || lost.Load() != racers-1 {
		t.Fatalf("%d swaps won and %d lost, want 1 and %d", wins.Load(), lost.Load(), racers-1)
	}
	if got, _ := get(t, st, "race/HEAD.json"); got != winner.Load() {
		t.Errorf("object is %q, want the winner's %q", got, winner.Load())
	}
}

// testAtomicOverwrite has readers racing a writer that alternates two
// large objects: every read must be exactly one of them.
func testAtomicOverwrite(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	a := bytes.Repeat([]byte("A"), 1<<20)
	b := bytes.Repeat([]byte("b"), 1<<20+123)
	if _, err := st.Put(ctx, "big", bytes.NewReader(a), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				rc, info, err := st.Get(ctx, "big")
				if err != nil {
					t.Errorf("Get during overwrite: %v", err)
					return
				}
				got, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Errorf("read during overwrite: %v", err)
					return
				}
				if !bytes.Equal(got, a) && !bytes.Equal(got, b) {
					t.Errorf("read a torn object of %d bytes", len(got))
					return
				}
				if info.Size != int64(len(got)) {
					t.Errorf("Get info says %d bytes, read %d", info.Size, len(got))
					return
				}
			}
		})
	}
	for i := range 20 {
		data := a
		if i%2 == 0 {
			data = b
		}
		if _, err := st.Put(ctx, "big", bytes.NewReader(data), snapshot.PutOptions{}); err != nil {
			t.Errorf("Put: %v", err)
			break
		}
	}
	close(done)
	wg.Wait()
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errors.New("reader broke")
	}
	n := min(len(p), r.n)
	for i := range n {
		p[i] = 'x'
	}
	r.n -= n
	return n, nil
}

func testFailedPut(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	if _, err := st.Put(ctx, "f/new", &failingReader{n: 1000}, snapshot.PutOptions{}); err == nil {
		t.Errorf("Put from a failing reader succeeded")
	}
	if _, _, err := st.Get(ctx, "f/new"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("failed Put left an object: %v", err)
	}
	put(t, st, "f/old", "old")
	if _, err := st.Put(ctx, "f/old", &failingReader{n: 1000}, snapshot.PutOptions{}); err == nil {
		t.Errorf("Put from a failing reader succeeded")
	}
	if got, _ := get(t, st, "f/old"); got != "old" {
		t.Errorf("failed Put changed the object to %d bytes", len(got))
	}
	infos, err := st.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(infos); !slices.Equal(got, []string{"f/old"}) {
		t.Errorf("List after failed Puts = %q, want [f/old]", got)
	}
}

func testCanceledContext(t *testing.T, st snapshot.Store) {
	put(t, st, "k", "v")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := st.Put(ctx, "k", strings.NewReader("new"), snapshot.PutOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with a canceled context = %v, want context.Canceled", err)
	}
	if got, _ := get(t, st, "k"); got != "v" {
		t.Errorf("canceled Put changed the object to %q", got)
	}
	if _, _, err := st.Get(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with a canceled context = %v, want context.Canceled", err)
	}
}

// testPublishRace has writers publish snapshots of one commit at once,
// half of them with a sources table and half without, as concurrent
// `snap index` runs with other options do. Snapshot files are created
// once (If-None-Match) and never replaced: each writer's snapshot must
// verify under the key it names, with the manifest digest it names, and
// the same tables must meet under one key.
func testPublishRace(t *testing.T, st snapshot.Store) {
	ctx := context.Background()
	prefix, err := snapshot.Prefix("race/repo", "main", strings.Repeat("c", 40))
	if err != nil {
		t.Fatal(err)
	}
	res := make([]snapshot.Published, racers)
	var wg sync.WaitGroup
	for i := range res {
		wg.Go(func() {
			w, err := snapshot.NewWriter(ctx, st, prefix)
			if err != nil {
				t.Errorf("writer %d: %v", i, err)
				return
			}
			w.Nodes([]schemas.Node{{ID: 1, Kind: schemas.KindFile, Name: "a.go", File: "a.go"}})
			w.Edges(nil)
			w.Files([]schemas.File{{Path: "a.go", Language: "go", Status: schemas.StatusOK}})
			if i%2 == 0 {
				w.Sources([]schemas.Source{{Path: "a.go", Content: []byte("package a\n")}})
			}
			w.Refs(nil)
			m := schemas.Manifest{Repo: "race/repo", Branch: "main", Commit: strings.Repeat("c", 40),
				Build: schemas.Build{DurationMS: int64(i)}} // every manifest differs
			if res[i], err = w.Publish(m); err != nil {
				t.Errorf("writer %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	keys := map[bool]string{}
	for i, p := range res {
		if p.Prefix == "" {
			continue // failed above
		}
		_, raw, err := snapshot.ReadManifest(ctx, st, p.Prefix)
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
			continue
		}
		if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != p.ManifestSHA256 {
			t.Errorf("writer %d: the manifest under %s is not the one it published", i, p.Prefix)
		}
		if _, err := snapshot.Verify(ctx, st, p.Prefix); err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
		if k, ok := keys[i%2 == 0]; ok && k != p.Prefix {
			t.Errorf("the same tables under %s and %s", k, p.Prefix)
		}
		keys[i%2 == 0] = p.Prefix
	}
	if keys[true] == keys[false] {
		t.Errorf("two sets of tables under one key %s", keys[true])
	}
}
