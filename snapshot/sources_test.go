package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/graphsnap/snap/schemas"
)

// bigSources are files enough to fill a few pages,
// some empty, one larger than a page.
func bigSources() []schemas.Source {
	rng := rand.New(rand.NewPCG(3, 4))
	var out []schemas.Source
	for i := range 1500 { // two row groups
		size := rng.IntN(16 << 10)
		switch i % 50 {
		case 7:
			size = 0
		case 8:
			size = 300 << 10 // over a page
		}
		b := make([]byte, size)
		const alphabet = "func main() {}\n\t\x00\xff"
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		out = append(out, schemas.Source{Path: fmt.Sprintf("dir%02d/file%04d.go", i%13, i), Content: b})
	}
	sortRows(sourcesSpec, out)
	return out
}

func sumBytes(c []inflated) int {
	n := 0
	for _, v := range c {
		n += len(v.bytes)
	}
	return n
}

func sortRows[T any](spec *tableSpec[T], rows []T) {
	for i := 1; i < len(rows); i++ { // insertion: the tests' tables are small
		for j := i; j > 0 && spec.compare(&rows[j-1], &rows[j]) > 0; j-- {
			rows[j-1], rows[j] = rows[j], rows[j-1]
		}
	}
}

// checkSourceFiles holds every file of sf to want, read from goroutines
// at once in an order that misses the cache, and a path not in the table
// to false.
func checkSourceFiles(t *testing.T, sf *SourceFiles, want []schemas.Source) {
	t.Helper()
	if sf.Len() != len(want) {
		t.Fatalf("%d files, want %d", sf.Len(), len(want))
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(want))
	for w := range 4 {
		wg.Go(func() {
			for i := range want {
				src := want[(i*7+w*len(want)/4)%len(want)]
				b, ok := sf.Content(src.Path)
				if !ok || !bytes.Equal(b, src.Content) || cap(b) != len(b) {
					errs <- fmt.Sprintf("Content(%q): %d bytes (cap %d), %v; want %d bytes", src.Path, len(b), cap(b), ok, len(src.Content))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if b, ok := sf.Content("dir00/missing.go"); ok || b != nil {
		t.Errorf("Content of a missing path = %q, %v", b, ok)
	}
}

// TestSourceFiles reads sources tables page by page: snap's own, and
// another writer's with PLAIN pages (v1 and v2, compressed or not); a
// dictionary-encoded one is left to decodeRows.
func TestSourceFiles(t *testing.T) {
	src := bigSources()
	own, err := encodeRows(sourcesSpec, src)
	if err != nil {
		t.Fatal(err)
	}
	sf, err := openSourceFiles(own, int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	checkSourceFiles(t, sf, src) // every page stays in the cache
	if sf.cached != sumBytes(sf.cache) || len(sf.cache) != len(sf.pages) {
		t.Fatalf("%d pages cached, %d bytes counted, of %d pages", len(sf.cache), sf.cached, len(sf.pages))
	}
	// A cache smaller than the pages: reading evicts.
	sf, err = openSourceFiles(own, int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	sf.cacheLimit = len(own)
	if len(sf.pages) < 8 {
		t.Fatalf("%d pages: the test needs more", len(sf.pages))
	}
	checkSourceFiles(t, sf, src)
	if sf.cached > sf.cacheLimit || sf.cached != sumBytes(sf.cache) || len(sf.cache) >= len(sf.pages) {
		t.Fatalf("%d pages of %d cached, %d bytes counted, over a limit of %d", len(sf.cache), len(sf.pages), sf.cached, sf.cacheLimit)
	}

	other := func(t *testing.T, opts ...parquet.WriterOption) []byte {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[schemas.Source](&buf, append([]parquet.WriterOption{
			parquet.PageBufferSize(8 << 10), parquet.MaxRowsPerRowGroup(100)}, opts...)...)
		if _, err := w.Write(src); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, v := range []int{1, 2} {
		for name, codec := range map[string]parquet.WriterOption{"uncompressed": parquet.Compression(&parquet.Uncompressed), "zstd": parquet.Compression(&parquet.Zstd)} {
			t.Run(fmt.Sprintf("v%d/%s", v, name), func(t *testing.T) {
				data := other(t, parquet.DataPageVersion(v), codec)
				sf, err := openSourceFiles(data, int64(len(src)))
				if err != nil {
					t.Fatal(err)
				}
				checkSourceFiles(t, sf, src)
				if strings.Contains(name, "uncompressed") {
					before := bytes.Clone(data)
					for _, s := range src {
						sf.Content(s.Path)
					}
					if !bytes.Equal(data, before) {
						t.Fatal("reading changed the table's bytes")
					}
				}
			})
		}
	}
	t.Run("dict", func(t *testing.T) {
		data := other(t, parquet.StructTag(`parquet:"content,dict"`, "Content"))
		if _, err := openSourceFiles(data, int64(len(src))); !errors.Is(err, errNotLazy) {
			t.Fatalf("dictionary-encoded content: %v, want errNotLazy", err)
		}
		rows, err := decodeRows(sourcesSpec, data, int64(len(src)), 2)
		if err != nil || !reflect.DeepEqual(rows, src) {
			t.Fatalf("decodeRows: %v", err)
		}
	})
	t.Run("out of order", func(t *testing.T) {
		src[3], src[4] = src[4], src[3]
		defer func() { src[3], src[4] = src[4], src[3] }()
		_, err := openSourceFiles(other(t), int64(len(src)))
		if err == nil || !strings.Contains(err.Error(), "rows 3 and 4 out of order") {
			t.Fatalf("rows out of order: %v", err)
		}
	})
}

// TestSourceFilesReadBack reads the pages back from the table's file:
// none is held after opening, every file reads as written, and a page
// whose bytes changed on disk since is refused, not inflated.
func TestSourceFilesReadBack(t *testing.T) {
	src := bigSources()
	data, err := encodeRows(sourcesSpec, src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), schemas.SourcesFile)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() *SourceFiles {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		sf, err := openSourceFiles(data, int64(len(src)))
		if err != nil {
			t.Fatal(err)
		}
		sf.readBack(f, f)
		for i, pg := range sf.pages {
			if pg.body != nil {
				t.Fatalf("page %d still held after readBack", i)
			}
		}
		return sf
	}
	sf := open()
	sf.cacheLimit = len(data) / 4 // evict, to read pages back again
	checkSourceFiles(t, sf, src)

	sf = open()
	pg := sf.pages[len(sf.pages)/2]
	f := sf.file.(*os.File)
	at := pg.off + int64(pg.header.CompressedPageSize/2)
	if _, err := f.WriteAt([]byte{^data[at]}, at); err != nil {
		t.Fatal(err)
	}
	p := sf.paths[pg.first]
	if b, err := sf.ReadContent(p); err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("ReadContent(%q) of a page changed on disk = %d bytes, %v; want an error", p, len(b), err)
	}
	if b, ok := sf.Content(p); ok || b != nil {
		t.Fatalf("Content(%q) of a page changed on disk = %d bytes, %v", p, len(b), ok)
	}
	if _, err := sf.ReadContent("dir00/missing.go"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadContent of a missing path: %v, want fs.ErrNotExist", err)
	}
	// Pages the change did not touch still read.
	if q := sf.paths[sf.pages[0].first]; !bytes.Equal(must(sf.ReadContent(q)), contentOf(src, q)) {
		t.Fatalf("ReadContent(%q) of an untouched page differs", q)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func contentOf(src []schemas.Source, path string) []byte {
	for _, s := range src {
		if s.Path == path {
			return s.Content
		}
	}
	return nil
}

// TestSourceFilesLyingCounts: page headers that lie about their counts,
// in a way that keeps their row group's total (which the opening checks),
// would place the rows of a page between them wrong, though that page
// holds what its header says. The row group is
// checked whole when first read: each of its files is then an error,
// never another file's content, and the other row groups read right.
func TestSourceFilesLyingCounts(t *testing.T) {
	src := bigSources()
	data, err := encodeRows(sourcesSpec, src)
	if err != nil {
		t.Fatal(err)
	}
	sf, err := openSourceFiles(data, int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	g := -1
	for i := range sf.groups {
		if sg := &sf.groups[i]; g < 0 && sg.hi-sg.lo >= 3 && sf.pages[sg.lo].n >= 2 {
			g = i
		}
	}
	if g < 0 || len(sf.groups) < 2 {
		t.Fatalf("%d row groups, none of three pages or more: the test needs them", len(sf.groups))
	}
	// The first page claims a value less, the third one more: the second
	// page's count is true, its rows one off.
	lo := sf.groups[g].lo
	sf.pages[lo].n--
	sf.pages[lo+1].first--
	sf.pages[lo+2].first--
	sf.pages[lo+2].n++
	for i, s := range src {
		p := sort.Search(len(sf.pages), func(p int) bool { return sf.pages[p].first+sf.pages[p].n > i })
		b, err := sf.ReadContent(s.Path)
		switch {
		case sf.pages[p].group == g && err == nil:
			t.Fatalf("%s, in the row group that lies: read %d bytes, want an error", s.Path, len(b))
		case sf.pages[p].group != g && (err != nil || !bytes.Equal(b, s.Content)):
			t.Fatalf("%s, in another row group: %v, or not its content", s.Path, err)
		}
	}
}
