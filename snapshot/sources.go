package snapshot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"sync"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// SourceFiles is a sources table kept as stored, its contents inflated a
// page at a time when asked for: in memory, the table costs its
// compressed size (a fifth of the files' on GOROOT/src) instead of the
// files'; when the store hands back the table's file (a folder or the
// local cache), not even that: the pages are read back from the file,
// each checked against the hash of the bytes Read checked. Read checks
// the table's structure, every page header and every path before
// returning it; the contents of a row group are inflated and checked when
// a file of it is first asked for (inflating them all was 8% of the CPU
// of snap serve's start on GOROOT/src), and a row group any of whose pages
// fails the check gives an error for each of its files, never another
// file's content. A SourceFiles is safe for concurrent use.
type SourceFiles struct {
	size    int64 // of the table's file
	content leaf
	paths   []string // sorted, one per row
	pages   []sourcePage
	groups  []sourceGroup
	file    io.ReaderAt // the table's file, when pages are read back from it

	mu         sync.Mutex
	clock      int
	cache      []inflated // the pages inflated last
	cached     int        // their bytes
	cacheLimit int        // the most bytes cache may hold: sourceCacheBytes
}

// sourceCacheBytes bounds the inflated pages a SourceFiles keeps. A page
// takes about a millisecond to inflate (GOROOT/src's average 800 KiB);
// 32 MiB keeps some forty, enough for the files a session keeps reading.
const sourceCacheBytes = 32 << 20

// sourceGroup is a row group's content pages, pages[lo:hi], and their
// check: each page inflated, holding the values its header declares. The
// rows of a page are found by the counts of the pages before it, so a
// page is only read once all of its row group's have passed.
type sourceGroup struct {
	lo, hi int
	once   sync.Once
	err    error
}

// sourcePage is one data page of the content column.
type sourcePage struct {
	first  int // the row of its first value
	n      int // the values its header declares, checked with its group
	group  int
	header format.PageHeader
	body   []byte // as stored; nil when read back from the file
	off    int64  // the body's offset in the file
	sum    uint64 // xxhash of the body as checked, when read back from the file
	codec  format.CompressionCodec
}

// inflated is a page's values: value i is bytes[at[i]:at[i+1]].
type inflated struct {
	page  int // index in pages
	used  int
	bytes []byte
	at    []uint32
}

// errNotLazy says a sources table is laid out in a way SourceFiles does
// not read (a dictionary, or an encoding other than PLAIN and
// DELTA_LENGTH_BYTE_ARRAY): Read then decodes it whole.
var errNotLazy = errors.New("sources table not readable page by page")

// openSourceFiles checks data, a sources table of at most maxRows rows,
// as decodeRows would, and indexes its content pages. Every page is
// inflated and checked here once; Content inflates a page again when
// asked for it.
func openSourceFiles(data []byte, maxRows int64) (*SourceFiles, error) {
	want, err := sourcesSpec.schemaOnce()
	if err != nil {
		return nil, err
	}
	cf, err := checkFile(data, want, maxRows)
	if err != nil {
		return nil, err
	}
	pathCol, contentCol := -1, -1
	for i, l := range cf.leaves {
		switch l.path {
		case "path":
			pathCol = i
		case "content":
			contentCol = i
		}
	}
	if pathCol < 0 || contentCol < 0 {
		return nil, errNotLazy // checkSchema accepted it: the schema has them
	}
	s := &SourceFiles{size: int64(len(data)), content: cf.leaves[contentCol],
		paths: make([]string, 0, cf.md.NumRows), cacheLimit: sourceCacheBytes}
	c := cf.checker()
	defer c.close()
	row := 0
	var scratch []byte // a page's values, decoded to check them
	var at []uint32
	for g := range cf.md.RowGroups {
		rg := &cf.md.RowGroups[g]
		cc := &rg.Columns[pathCol]
		err := c.walkChunk(cc, cf.leaves[pathCol], rg.NumRows, func(h *format.PageHeader, body []byte) (int64, error) {
			n, values, err := pageValues(c, h, body, cc.MetaData.Codec, cf.leaves[pathCol])
			if err != nil {
				return 0, err
			}
			if scratch, at, err = pageByteArrays(h, values, scratch, at); err != nil {
				return 0, err
			}
			if int64(len(at)-1) != n {
				return 0, fmt.Errorf("page holds %d values, its header says %d", len(at)-1, n)
			}
			text := string(scratch)
			for i := range len(at) - 1 {
				s.paths = append(s.paths, text[at[i]:at[i+1]])
			}
			return n, nil
		})
		if err != nil {
			return nil, fmt.Errorf("row group %d, column path: %w", g, err)
		}
		cc = &rg.Columns[contentCol]
		s.groups = append(s.groups, sourceGroup{lo: len(s.pages)})
		err = c.walkChunk(cc, s.content, rg.NumRows, func(h *format.PageHeader, body []byte) (int64, error) {
			n, err := contentValues(c, h, s.content)
			if err != nil {
				return 0, err
			}
			off := int64(uintptr(unsafe.Pointer(unsafe.SliceData(body))) - uintptr(unsafe.Pointer(unsafe.SliceData(data))))
			s.pages = append(s.pages, sourcePage{first: row, n: int(n), group: g, header: *h, body: body, off: off, codec: cc.MetaData.Codec})
			row += int(n)
			return n, nil
		})
		s.groups[g].hi = len(s.pages)
		if err != nil {
			return nil, fmt.Errorf("row group %d, column content: %w", g, err)
		}
		if len(s.paths) != row {
			return nil, fmt.Errorf("row group %d: %d paths for %d contents", g, len(s.paths), row)
		}
	}
	for i := 1; i < len(s.paths); i++ {
		if s.paths[i-1] >= s.paths[i] {
			return nil, fmt.Errorf("rows %d and %d out of order or repeated: path %q, then %q (want sorted by path, unique)",
				i-1, i, clipped(s.paths[i-1]), clipped(s.paths[i]))
		}
	}
	return s, nil
}

// readBack makes s read its pages from f, the file whose bytes
// openSourceFiles checked, instead of holding them: it keeps each page's
// place in the file and the hash of its bytes, and closes f when s is
// no longer reachable.
func (s *SourceFiles) readBack(f io.ReaderAt, closer io.Closer) {
	for i := range s.pages {
		pg := &s.pages[i]
		pg.sum = xxhash.Sum64(pg.body)
		pg.body = nil
	}
	s.file = f
	runtime.AddCleanup(s, func(c io.Closer) { c.Close() }, closer)
}

// pageBody returns page p's bytes as stored: held, or read back from the
// file and checked against what Read checked.
func (s *SourceFiles) pageBody(pg *sourcePage) ([]byte, error) {
	if s.file == nil {
		return pg.body, nil
	}
	body := make([]byte, pg.header.CompressedPageSize)
	if _, err := s.file.ReadAt(body, pg.off); err != nil {
		return nil, fmt.Errorf("sources table: read page at %d: %w", pg.off, err)
	}
	if xxhash.Sum64(body) != pg.sum {
		return nil, fmt.Errorf("sources table: the page at byte %d changed on disk since the snapshot was read", pg.off)
	}
	return body, nil
}

// contentValues checks what a content page's header alone says (see
// checkPage) and returns the number of values it declares, refusing with
// errNotLazy what SourceFiles does not read. Its bytes are checked when
// its row group is first read (SourceFiles.checkGroup).
func contentValues(c *pageChecker, h *format.PageHeader, l leaf) (int64, error) {
	if pageEncoding(h) < 0 || l.maxDef != 0 || l.maxRep != 0 {
		return 0, errNotLazy
	}
	if h.UncompressedPageSize < 0 || int64(h.UncompressedPageSize) > c.maxBytes {
		return 0, fmt.Errorf("uncompressed size %d out of range [0, %d]", h.UncompressedPageSize, c.maxBytes)
	}
	var nv int64
	if h.Type == format.DataPageV2 {
		d := &h.DataPageHeaderV2.V
		nv = int64(d.NumValues)
		if d.NumNulls != 0 || int64(d.NumRows) != nv {
			return 0, fmt.Errorf("%d nulls and %d rows for %d values of a required column", d.NumNulls, d.NumRows, nv)
		}
	} else {
		nv = int64(h.DataPageHeader.V.NumValues)
	}
	if nv < 0 || nv > c.maxValues {
		return 0, fmt.Errorf("%d values", nv)
	}
	return nv, nil
}

// pageValues checks a page and returns how many values its header
// declares and its values as stored, refusing with errNotLazy what is not
// a data page of a required column's values encoded PLAIN or
// DELTA_LENGTH_BYTE_ARRAY. The values are the checker's until its next
// page.
func pageValues(c *pageChecker, h *format.PageHeader, body []byte, codec format.CompressionCodec, l leaf) (int64, []byte, error) {
	if pageEncoding(h) < 0 || l.maxDef != 0 || l.maxRep != 0 {
		return 0, nil, errNotLazy
	}
	dict := false
	n, _, values, err := c.checkPage(h, body, codec, l, &dict)
	return n, values, err
}

// pageEncoding returns the encoding of a data page whose byte arrays
// SourceFiles decodes, else -1.
func pageEncoding(h *format.PageHeader) format.Encoding {
	enc := format.Encoding(-1)
	switch {
	case h.Type == format.DataPage && h.DataPageHeader.Valid:
		enc = h.DataPageHeader.V.Encoding
	case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
		enc = h.DataPageHeaderV2.V.Encoding
	}
	if enc != format.Plain && enc != format.DeltaLengthByteArray {
		return -1
	}
	return enc
}

// pageByteArrays decodes a page's values (see pageValues) into b, reusing
// the capacity of b and at: value i is b[at[i]:at[i+1]].
func pageByteArrays(h *format.PageHeader, values, b []byte, at []uint32) (_ []byte, _ []uint32, err error) {
	defer recoverDecode(&err) // parquet-go decodes bytes from anywhere
	b, at, err = parquet.LookupEncoding(pageEncoding(h)).DecodeByteArray(b[:0], values, at[:0])
	if err == nil && len(at) == 0 {
		at = append(at, 0) // no values
	}
	return b, at, err
}

// Len returns the number of files.
func (s *SourceFiles) Len() int { return len(s.paths) }

// Paths returns the files' paths, sorted. The slice is shared: do not
// modify it.
func (s *SourceFiles) Paths() []string { return s.paths }

// Content returns the content of the file at path, false if the table has
// no such file (or, see ReadContent, its page cannot be read back). The
// bytes are shared: do not modify them.
func (s *SourceFiles) Content(path string) ([]byte, bool) {
	b, err := s.ReadContent(path)
	return b, err == nil
}

// ReadContent returns the content of the file at path: an error wrapping
// fs.ErrNotExist if the table has no such file, another if its page, read
// back from the table's file, is not what Read checked. The bytes are
// shared: do not modify them.
func (s *SourceFiles) ReadContent(path string) ([]byte, error) {
	row, ok := slices.BinarySearch(s.paths, path)
	if !ok {
		return nil, fmt.Errorf("sources table: %s: %w", path, fs.ErrNotExist)
	}
	p := sort.Search(len(s.pages), func(i int) bool { return s.pages[i].first+s.pages[i].n > row })
	if p == len(s.pages) {
		return nil, fmt.Errorf("sources table: %s: no page holds row %d", path, row)
	}
	v, err := s.inflate(p)
	if err != nil {
		return nil, err
	}
	k := row - s.pages[p].first
	if k+1 >= len(v.at) {
		return nil, fmt.Errorf("sources table: %s: no value %d in its page", path, k)
	}
	return v.bytes[v.at[k]:v.at[k+1]:v.at[k+1]], nil
}

// inflate returns page p's values, from the cache or inflated into a
// buffer of their own.
func (s *SourceFiles) inflate(p int) (inflated, error) {
	s.mu.Lock()
	s.clock++
	for i := range s.cache {
		if s.cache[i].page == p {
			s.cache[i].used = s.clock
			v := s.cache[i]
			s.mu.Unlock()
			return v, nil
		}
	}
	s.mu.Unlock()

	v, ok, err := s.checkGroup(s.pages[p].group, p)
	if err != nil {
		return inflated{}, err
	}
	if !ok {
		if v, err = s.inflatePage(p); err != nil {
			return inflated{}, err
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	v.used = s.clock
	if slices.ContainsFunc(s.cache, func(c inflated) bool { return c.page == p }) {
		return v, nil // another caller inflated it meanwhile
	}
	s.cache = append(s.cache, v)
	s.cached += len(v.bytes)
	for s.cached > s.cacheLimit && len(s.cache) > 1 {
		oldest := 0
		for i := range s.cache {
			if s.cache[i].used < s.cache[oldest].used {
				oldest = i
			}
		}
		s.cached -= len(s.cache[oldest].bytes)
		s.cache = slices.Delete(s.cache, oldest, oldest+1)
	}
	return v, nil
}

// checkGroup inflates and checks every content page of row group g, once:
// each must hold the values its header declares, which placed the rows
// of the pages after it. The caller that checks gets page want as
// inflated (ok), the others inflate it again.
func (s *SourceFiles) checkGroup(g, want int) (v inflated, ok bool, err error) {
	sg := &s.groups[g]
	sg.once.Do(func() {
		for p := sg.lo; p < sg.hi; p++ {
			pv, err := s.inflatePage(p)
			if err != nil {
				sg.err = err
				return
			}
			if p == want {
				v, ok = pv, true
			}
		}
	})
	if sg.err != nil {
		return inflated{}, false, sg.err
	}
	return v, ok, nil
}

// inflatePage inflates page p into a buffer of its own and checks it.
func (s *SourceFiles) inflatePage(p int) (inflated, error) {
	// A checker of its own: its buffer is dropped, the values decoded
	// out of it are handed out.
	c := &pageChecker{}
	c.maxBytes, c.maxValues = pageLimits(int(s.size))
	defer c.close()
	pg := &s.pages[p]
	body, err := s.pageBody(pg)
	if err != nil {
		return inflated{}, err
	}
	h := pg.header
	_, values, err := pageValues(c, &h, body, pg.codec, s.content)
	if err != nil {
		return inflated{}, fmt.Errorf("sources table: page at byte %d: %w", pg.off, err)
	}
	b, at, err := pageByteArrays(&h, values, nil, nil)
	if err != nil {
		return inflated{}, fmt.Errorf("sources table: page at byte %d: %w", pg.off, err)
	}
	if len(at)-1 != pg.n {
		return inflated{}, fmt.Errorf("sources table: page at byte %d holds %d values, its header says %d", pg.off, len(at)-1, pg.n)
	}
	return inflated{page: p, bytes: b, at: at}, nil
}
