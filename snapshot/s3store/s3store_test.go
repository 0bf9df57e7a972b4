package s3store_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/s3store"
	"github.com/graphsnap/snap/snapshot/s3store/s3test"
	"github.com/graphsnap/snap/snapshot/storetest"
)

// TestStore runs everything that can share one server, since starting
// one takes a while. Each subtest works under its own prefix.
func TestStore(t *testing.T) {
	srv := s3test.Start(t)
	prefix := func(t *testing.T) string { return strings.ReplaceAll(t.Name(), "/", "-") }

	t.Run("Conformance", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) snapshot.Store { return srv.Store(t, prefix(t)) })
	})
	t.Run("Layout", func(t *testing.T) { testLayout(t, srv, prefix(t)) })
	t.Run("PrefixIsolation", func(t *testing.T) { testPrefixIsolation(t, srv, prefix(t)) })
	t.Run("Multipart", func(t *testing.T) { testMultipart(t, srv.Store(t, prefix(t))) })
	t.Run("ConditionalLarge", func(t *testing.T) { testConditionalLarge(t, srv.Store(t, prefix(t))) })
	t.Run("ReaderOffset", func(t *testing.T) { testReaderOffset(t, srv.Store(t, prefix(t))) })
	t.Run("WrongCredentials", func(t *testing.T) { testWrongCredentials(t, srv, prefix(t)) })
	t.Run("NoBucket", func(t *testing.T) { testNoBucket(t, srv) })
	t.Run("Ping", func(t *testing.T) {
		if err := srv.Store(t, prefix(t)).Ping(context.Background()); err != nil {
			t.Errorf("Ping: %v", err)
		}
	})
}

func put(t *testing.T, st snapshot.Store, key string, data []byte) snapshot.Info {
	t.Helper()
	info, err := st.Put(context.Background(), key, bytes.NewReader(data), snapshot.PutOptions{})
	if err != nil {
		t.Fatalf("Put(%s): %v", key, err)
	}
	return info
}

func get(t *testing.T, st snapshot.Store, key string) ([]byte, snapshot.Info) {
	t.Helper()
	rc, info, err := st.Get(context.Background(), key)
	if err != nil {
		t.Fatalf("Get(%s): %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("Get(%s): read: %v", key, err)
	}
	return b, info
}

// testLayout checks that key k of a store on prefix p is the object p/k,
// a file under the server's folder.
func testLayout(t *testing.T, srv *s3test.Server, p string) {
	st := srv.Store(t, p)
	key := "repo=a%2Fb/branch=main/HEAD.json"
	put(t, st, key, []byte("{}\n"))
	b, err := os.ReadFile(srv.Path(p + "/" + key))
	if err != nil || string(b) != "{}\n" {
		t.Fatalf("object file = %q, %v", b, err)
	}
	// A store on the whole bucket sees it under its full name.
	infos, err := srv.Store(t, "").List(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].Key != p+"/"+key {
		t.Errorf("List of the bucket = %+v, want only %s/%s", infos, p, key)
	}
}

// testPrefixIsolation checks that stores on "p" and "pq" and "p/q" do not
// see each other's objects, though their names share a beginning.
func testPrefixIsolation(t *testing.T, srv *s3test.Server, p string) {
	ctx := context.Background()
	a, ab, nested := srv.Store(t, p), srv.Store(t, p+"q"), srv.Store(t, p+"/q")
	put(t, a, "k", []byte("a"))
	put(t, ab, "k", []byte("ab"))
	put(t, nested, "k", []byte("nested"))
	infos, err := a.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, in := range infos {
		keys = append(keys, in.Key)
	}
	if want := []string{"k", "q/k"}; !slices.Equal(keys, want) {
		t.Errorf("List of %s = %q, want %q", p, keys, want)
	}
	if infos, err := ab.List(ctx, ""); err != nil || len(infos) != 1 {
		t.Errorf("List of %sq = %+v, %v; want one object", p, infos, err)
	}
	if b, _ := get(t, ab, "k"); string(b) != "ab" {
		t.Errorf("Get from %sq = %q, want ab", p, b)
	}
}

// testMultipart round-trips objects bigger than a part, from a reader of
// known size and from one of unknown size.
func testMultipart(t *testing.T, st *s3store.Store) {
	ctx := context.Background()
	data := make([]byte, s3store.PartSize+12345)
	for i := range data {
		data[i] = byte(rand.Uint32())
	}
	for _, tt := range []struct {
		name string
		r    io.Reader
	}{
		{"known", bytes.NewReader(data)},
		{"unknown", io.MultiReader(bytes.NewReader(data))}, // hides Seek and ReadAt
	} {
		info, err := st.Put(ctx, tt.name, tt.r, snapshot.PutOptions{})
		if err != nil {
			t.Fatalf("Put(%s): %v", tt.name, err)
		}
		if info.Size != int64(len(data)) || !strings.HasSuffix(info.ETag, "-2") {
			t.Errorf("Put(%s) = %+v, want %d bytes in 2 parts (etag ending in -2)", tt.name, info, len(data))
		}
		got, gi := get(t, st, tt.name)
		if !bytes.Equal(got, data) {
			t.Errorf("Get(%s) returned %d different bytes", tt.name, len(got))
		}
		if gi.ETag != info.ETag || gi.Size != info.Size {
			t.Errorf("Get(%s) info = %+v, want etag %s, size %d", tt.name, gi, info.ETag, info.Size)
		}
		// The multipart ETag works for a compare-and-swap like any other.
		if _, err := st.Put(ctx, tt.name, strings.NewReader("small"), snapshot.PutOptions{IfMatch: gi.ETag}); err != nil {
			t.Errorf("IfMatch with a multipart etag: %v", err)
		}
	}
}

// testConditionalLarge checks that a conditional Put of more than a part
// goes as one request, so that the server checks the condition, and that
// one of unknown size is refused rather than sent unconditionally.
func testConditionalLarge(t *testing.T, st *s3store.Store) {
	ctx := context.Background()
	data := bytes.Repeat([]byte("x"), s3store.PartSize+1)
	first, err := st.Put(ctx, "big", bytes.NewReader(data), snapshot.PutOptions{IfNoneMatch: true})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	// versitygw answers 412 before reading the body and resets the
	// connection, so the client may see the reset instead of the answer.
	other := bytes.Repeat([]byte("y"), s3store.PartSize+1)
	_, err = st.Put(ctx, "big", bytes.NewReader(other), snapshot.PutOptions{IfNoneMatch: true})
	if !errors.Is(err, snapshot.ErrPrecondition) && !errors.Is(err, snapshot.ErrUnavailable) {
		t.Errorf("second create = %v, want ErrPrecondition (or ErrUnavailable)", err)
	}
	if _, info := get(t, st, "big"); info.ETag != first.ETag {
		t.Errorf("failed create changed the object")
	}
	_, err = st.Put(ctx, "other", io.MultiReader(bytes.NewReader(data)), snapshot.PutOptions{IfNoneMatch: true})
	if err == nil || errors.Is(err, snapshot.ErrPrecondition) {
		t.Errorf("conditional Put of unknown size = %v, want a refusal", err)
	}
	if _, _, err := st.Get(ctx, "other"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("refused Put left an object: %v", err)
	}
}

// testReaderOffset checks that a reader part-way through is sent from
// where it stands, as io.Copy would.
func testReaderOffset(t *testing.T, st *s3store.Store) {
	r := strings.NewReader("skip:keep")
	r.Seek(5, io.SeekStart)
	info, err := st.Put(context.Background(), "k", r, snapshot.PutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := get(t, st, "k"); string(got) != "keep" || info.Size != 4 {
		t.Errorf("stored %q (size %d), want keep", got, info.Size)
	}
}

func testWrongCredentials(t *testing.T, srv *s3test.Server, p string) {
	ctx := context.Background()
	put(t, srv.Store(t, p), "k", []byte("x"))
	for name, change := range map[string]func(*s3store.Config){
		"secret": func(c *s3store.Config) { c.SecretKey = "WRONGSECRETWRONGSECRET" },
		"key":    func(c *s3store.Config) { c.AccessKey = "AKWRONGKEYWRONGKEY" },
	} {
		cfg := srv.Config(p)
		change(&cfg)
		st, err := s3store.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, _, getErr := st.Get(ctx, "k")
		_, putErr := st.Put(ctx, "k", strings.NewReader("y"), snapshot.PutOptions{})
		_, casErr := st.Put(ctx, "k", strings.NewReader("y"), snapshot.PutOptions{IfNoneMatch: true})
		_, listErr := st.List(ctx, "")
		delErr := st.Delete(ctx, "k")
		pingErr := st.Ping(ctx)
		for op, err := range map[string]error{"Get": getErr, "Put": putErr, "conditional Put": casErr, "List": listErr, "Delete": delErr, "Ping": pingErr} {
			if !errors.Is(err, s3store.ErrAccessDenied) {
				t.Errorf("wrong %s: %s = %v, want ErrAccessDenied", name, op, err)
				continue
			}
			msg := err.Error()
			t.Logf("wrong %s: %s: %v", name, op, msg)
			for _, cred := range []string{cfg.SecretKey, cfg.AccessKey, srv.SecretKey} {
				if strings.Contains(msg, cred) {
					t.Errorf("wrong %s: %s error shows a credential: %q", name, op, msg)
				}
			}
			if !strings.Contains(msg, "AWS_SECRET_ACCESS_KEY") || strings.Contains(msg, "\n") {
				t.Errorf("wrong %s: %s error = %q, want one line that says what to check", name, op, msg)
			}
		}
	}
	if got, _ := get(t, srv.Store(t, p), "k"); string(got) != "x" {
		t.Errorf("refused requests changed the object to %q", got)
	}
}

func testNoBucket(t *testing.T, srv *s3test.Server) {
	ctx := context.Background()
	cfg := srv.Config("p")
	cfg.Bucket = "no-such-bucket"
	st, err := s3store.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, _, getErr := st.Get(ctx, "k")
	_, putErr := st.Put(ctx, "k", strings.NewReader("y"), snapshot.PutOptions{})
	_, casErr := st.Put(ctx, "k", strings.NewReader("y"), snapshot.PutOptions{IfMatch: "abc"})
	_, listErr := st.List(ctx, "")
	pingErr := st.Ping(ctx)
	for op, err := range map[string]error{"Get": getErr, "Put": putErr, "conditional Put": casErr, "List": listErr, "Ping": pingErr} {
		t.Logf("%s: %v", op, err)
		if !errors.Is(err, s3store.ErrNoBucket) {
			t.Errorf("%s = %v, want ErrNoBucket", op, err)
		} else if !strings.Contains(err.Error(), `"no-such-bucket"`) {
			t.Errorf("%s error %q does not name the bucket", op, err)
		}
	}
	// Deleting from a missing bucket is an error, not a no-op.
	if err := st.Delete(ctx, "k"); !errors.Is(err, s3store.ErrNoBucket) {
		t.Errorf("Delete = %v, want ErrNoBucket", err)
	}
}

// TestUnavailable checks that a stopped server gives ErrUnavailable, after
// a bounded number of retries. The bounds are far above what the retries
// take (about 2 s) so that a loaded machine does not fail the test; they
// catch retries that go on for minutes, or a hang.
func TestUnavailable(t *testing.T) {
	srv := s3test.Start(t)
	st := srv.Store(t, "")
	put(t, st, "k", []byte("x"))
	srv.Stop()
	ctx := context.Background()
	var wg sync.WaitGroup
	for op, fn := range map[string]func() error{
		"Get": func() error { _, _, err := st.Get(ctx, "k"); return err },
		"Put": func() error {
			_, err := st.Put(ctx, "k", strings.NewReader("y"), snapshot.PutOptions{})
			return err
		},
		"conditional Put": func() error {
			_, err := st.Put(ctx, "k", strings.NewReader("y"), snapshot.PutOptions{IfNoneMatch: true})
			return err
		},
		"List":   func() error { _, err := st.List(ctx, ""); return err },
		"Delete": func() error { return st.Delete(ctx, "k") },
		"Ping":   func() error { return st.Ping(ctx) },
	} {
		wg.Go(func() {
			start := time.Now()
			err := fn()
			took := time.Since(start)
			if !errors.Is(err, snapshot.ErrUnavailable) {
				t.Errorf("%s = %v, want ErrUnavailable", op, err)
			}
			if took > 30*time.Second {
				t.Errorf("%s took %v to fail", op, took)
			}
			t.Logf("%s failed in %v: %v", op, took.Round(time.Millisecond), err)
		})
	}
	wg.Wait()

	// A canceled context stops the retries at once.
	ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, _, err := st.Get(ctx, "k"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Get with a deadline = %v, want DeadlineExceeded", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Get with a 100ms deadline took %v", took)
	}
}

// TestRestart checks that objects outlive the server process, and that a
// store made before the restart works after it.
func TestRestart(t *testing.T) {
	srv := s3test.Start(t)
	st := srv.Store(t, "")
	before := put(t, st, "a/b", []byte("kept"))
	srv.Restart()
	got, info := get(t, st, "a/b")
	if string(got) != "kept" || info.ETag != before.ETag {
		t.Errorf("after restart: %q (etag %s), want kept (etag %s)", got, info.ETag, before.ETag)
	}
	if _, err := st.Put(context.Background(), "a/b", strings.NewReader("new"), snapshot.PutOptions{IfMatch: before.ETag}); err != nil {
		t.Errorf("compare-and-swap after restart: %v", err)
	}
}
