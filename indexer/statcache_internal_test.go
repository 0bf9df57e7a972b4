//go:build linux || darwin

package indexer

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStatCache: a file is known while its stat is the one recorded and
// was written well before the run that recorded it; a rewrite that keeps
// its size and puts its modification time back still shows, in its change
// time. A saved cache reads back the same; a damaged one is an error.
func TestStatCache(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	write := func(name, content string, mtime time.Time) (os.FileInfo, string) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(content))
		return fi, hex.EncodeToString(sum[:])
	}
	aInfo, aSHA := write("a.go", "package a\n", old)
	bInfo, bSHA := write("b.go", "package b\n", time.Now()) // written as the run starts: racy
	c := NewStatCache(time.Now())
	c.add("a.go", aInfo, aSHA)
	c.add("b.go", bInfo, bSHA)
	if sha, ok := c.lookup("a.go", aInfo); !ok || sha != aSHA {
		t.Fatalf("a.go unchanged: lookup = %q, %v", sha, ok)
	}
	if _, ok := c.lookup("b.go", bInfo); ok {
		t.Error("b.go, written within the racy window of the run, is trusted")
	}
	if _, ok := c.lookup("c.go", aInfo); ok {
		t.Error("a file the cache does not hold is known")
	}

	// Saved and loaded, it knows the same.
	file := filepath.Join(dir, "cache", "stat")
	if err := c.Save(file); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadStatCache(file)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Len() != 2 || loaded.at != c.at {
		t.Fatalf("loaded %d entries at %d, saved 2 at %d", loaded.Len(), loaded.at, c.at)
	}
	if sha, ok := loaded.lookup("a.go", aInfo); !ok || sha != aSHA {
		t.Errorf("loaded: a.go lookup = %q, %v", sha, ok)
	}

	// The same size, the modification time put back: the change time
	// moved (a tick of the coarsest kernel clock apart).
	time.Sleep(50 * time.Millisecond)
	a2Info, _ := write("a.go", "package z\n", old)
	if a2Info.Size() != aInfo.Size() || !a2Info.ModTime().Equal(aInfo.ModTime()) {
		t.Fatal("the rewrite did not keep the size and modification time")
	}
	if _, ok := loaded.lookup("a.go", a2Info); ok {
		t.Error("a.go rewritten with its size and modification time kept is known")
	}

	// A missing cache is empty; a damaged one, or another format's, is
	// an error that says so.
	if empty, err := LoadStatCache(filepath.Join(dir, "none")); err != nil || empty.Len() != 0 {
		t.Errorf("missing cache: %v, %v", empty, err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"a byte flipped": {flip(raw, len(statCacheMagic)+3), "damaged"},
		"truncated":      {raw[:len(raw)-1], "damaged"},
		"another format": {append([]byte("snap stat cache 0\n"), raw[len(statCacheMagic):]...), "not a stat cache"},
		"empty":          {nil, "not a stat cache"},
	} {
		bad := filepath.Join(dir, "bad")
		if err := os.WriteFile(bad, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadStatCache(bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
}

func flip(b []byte, i int) []byte {
	b = append([]byte(nil), b...)
	b[i] ^= 0xff
	return b
}

// FuzzStatCache: a stat cache file of any bytes loads or is refused,
// never panics; one that loads saves to bytes that load the same.
func FuzzStatCache(f *testing.F) {
	c := NewStatCache(time.Unix(1700000000, 0))
	c.entries["a.go"] = statEntry{size: 10, mtime: 1, ctime: 2, ino: 3}
	c.entries["dir/b.go"] = statEntry{size: 1 << 40, mtime: -1, ctime: 1 << 62, ino: 1 << 63}
	file := filepath.Join(f.TempDir(), "seed")
	if err := c.Save(file); err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(file)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(statCacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeStatCache(data)
		if err != nil {
			return
		}
		file := filepath.Join(t.TempDir(), "cache")
		if err := c.Save(file); err != nil {
			t.Fatal(err)
		}
		again, err := LoadStatCache(file)
		if err != nil {
			t.Fatalf("a cache that loaded, saved, does not load: %v", err)
		}
		if again.at != c.at || len(again.entries) != len(c.entries) {
			t.Fatalf("saved and loaded: %d entries at %d, was %d at %d", len(again.entries), again.at, len(c.entries), c.at)
		}
		for p, e := range c.entries {
			if again.entries[p] != e {
				t.Fatalf("%q: %+v, was %+v", p, again.entries[p], e)
			}
		}
	})
}
