package snapshot

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/graphsnap/snap/schemas"
)

// Checkup runs the checks `snap doctor` reports on a store: that it
// answers, takes writes, reads them back, deletes them, and honours the
// conditional writes HEAD's compare-and-swap depends on. It works under
// a scratch prefix ("_snap-doctor/<random>/") and removes what it wrote.
// A check that cannot run because an earlier one failed is reported as
// failed, with the reason.
func Checkup(ctx context.Context, st Store) schemas.Checkup {
	var buf [8]byte
	rand.Read(buf[:])
	dir := "_snap-doctor/" + hex.EncodeToString(buf[:])
	probe, head := dir+"/probe", dir+"/HEAD.json"
	defer func() {
		// Best effort: a store that refuses deletes was reported already.
		st.Delete(context.WithoutCancel(ctx), probe)
		st.Delete(context.WithoutCancel(ctx), head)
	}()

	res := schemas.Checkup{OK: true, Checks: []schemas.Check{}}
	failed := ""
	run := func(name string, fn func() (string, error)) {
		c := schemas.Check{Name: name}
		start := time.Now()
		if failed != "" {
			c.Detail = "not checked: " + failed + " failed"
		} else if detail, err := fn(); err != nil {
			c.Detail = err.Error()
			failed = name
		} else {
			c.OK, c.Detail = true, detail
		}
		c.DurationMS = time.Since(start).Milliseconds()
		res.OK = res.OK && c.OK
		res.Checks = append(res.Checks, c)
	}
	put := func(key, data string, opts PutOptions) (Info, error) {
		return st.Put(ctx, key, strings.NewReader(data), opts)
	}

	run("list", func() (string, error) {
		if _, err := st.List(ctx, dir); err != nil {
			return "", err
		}
		return "the store answers and lets us list", nil
	})
	run("write", func() (string, error) {
		want := "snap doctor " + time.Now().UTC().Format(time.RFC3339Nano)
		if _, err := put(probe, want, PutOptions{}); err != nil {
			return "", err
		}
		rc, _, err := st.Get(ctx, probe)
		if err != nil {
			return "", fmt.Errorf("read back: %w", err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return "", fmt.Errorf("read back: %w", err)
		}
		if !bytes.Equal(got, []byte(want)) {
			return "", fmt.Errorf("read back %q, wrote %q", got, want)
		}
		return "writes and reads back " + probe, nil
	})
	var etag string
	run("create-if-absent", func() (string, error) {
		info, err := put(head, "1", PutOptions{IfNoneMatch: true})
		if err != nil {
			return "", fmt.Errorf("first create: %w", err)
		}
		etag = info.ETag
		_, err = put(head, "2", PutOptions{IfNoneMatch: true})
		if err == nil {
			return "", errors.New("a second create-if-absent (If-None-Match: *) overwrote the object: " +
				"this store ignores conditional writes, so concurrent pushes could lose HEAD moves; use a store that honours them")
		}
		if !errors.Is(err, ErrPrecondition) {
			return "", fmt.Errorf("second create: %w", err)
		}
		return "If-None-Match: * refuses to overwrite", nil
	})
	run("compare-and-swap", func() (string, error) {
		info, err := put(head, "3", PutOptions{IfMatch: etag})
		if err != nil {
			return "", fmt.Errorf("swap with the current ETag: %w", err)
		}
		if info.ETag == etag {
			return "", errors.New("the ETag did not change with the content")
		}
		_, err = put(head, "4", PutOptions{IfMatch: etag})
		if err == nil {
			return "", errors.New("a swap with a stale ETag (If-Match) overwrote the object: " +
				"this store ignores conditional writes, so concurrent pushes could lose HEAD moves; use a store that honours them")
		}
		if !errors.Is(err, ErrPrecondition) {
			return "", fmt.Errorf("swap with a stale ETag: %w", err)
		}
		return "If-Match refuses a stale ETag", nil
	})
	run("delete", func() (string, error) {
		for _, k := range []string{probe, head} {
			if err := st.Delete(ctx, k); err != nil {
				return "", err
			}
			rc, _, err := st.Get(ctx, k)
			if err == nil {
				rc.Close()
				return "", fmt.Errorf("%s is still there after delete", k)
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
		return "deletes, so gc can free space", nil
	})
	return res
}
