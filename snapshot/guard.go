package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// checkParquet validates a whole Parquet file in memory before parquet-go
// decodes it: the footer, the schema (it must equal want, the schema the
// row type writes), every column chunk's byte range and every page: its
// header, its declared sizes and value counts, its zstd data (inflated into
// a buffer capped at the declared size) and the run-length and delta
// headers inside it. Corrupt or hostile bytes then
// fail here with an error instead of panicking or making the decoder
// allocate what a header claims: what a page may declare is capped by
// pageLimits, in proportion to the file's actual length.
//
// It accepts what snap writes and what other writers produce with the same
// schema: data pages v1 or v2, UNCOMPRESSED or ZSTD, PLAIN, RLE,
// RLE_DICTIONARY, DELTA_BINARY_PACKED and DELTA_LENGTH_BYTE_ARRAY
// encodings, no encryption.
func checkParquet(data []byte, want []format.SchemaElement, maxRows int64) (*format.FileMetaData, error) {
	f, err := checkFile(data, want, maxRows)
	if err != nil {
		return nil, err
	}
	c := f.checker()
	defer c.close()
	for g := range f.md.RowGroups {
		if err := f.checkGroup(c, g, nil); err != nil {
			return nil, err
		}
	}
	return f.md, nil
}

// checkedFile is a Parquet file whose footer, schema and row counts
// checkFile accepted; its row groups are checked one by one (checkGroup).
type checkedFile struct {
	data        []byte
	md          *format.FileMetaData
	leaves      []leaf
	footerStart int64
}

// checkFile checks what checkParquet does short of the column chunks.
func checkFile(data []byte, want []format.SchemaElement, maxRows int64) (*checkedFile, error) {
	md, err := readFooter(data)
	if err != nil {
		return nil, err
	}
	leaves, err := checkSchema(md.Schema, want)
	if err != nil {
		return nil, err
	}
	if md.NumRows < 0 || md.NumRows > maxRows {
		return nil, fmt.Errorf("footer declares %d rows, want at most %d", md.NumRows, maxRows)
	}
	var rows int64
	for g, rg := range md.RowGroups {
		if rg.NumRows < 0 || rg.NumRows > md.NumRows-rows {
			return nil, fmt.Errorf("row group %d: %d rows do not add up to the footer's %d", g, rg.NumRows, md.NumRows)
		}
		rows += rg.NumRows
		if len(rg.Columns) != len(leaves) {
			return nil, fmt.Errorf("row group %d: %d column chunks for %d columns", g, len(rg.Columns), len(leaves))
		}
	}
	if rows != md.NumRows {
		return nil, fmt.Errorf("row groups hold %d rows, footer says %d", rows, md.NumRows)
	}
	return &checkedFile{
		data: data, md: md, leaves: leaves,
		footerStart: int64(len(data)) - 8 - int64(binary.LittleEndian.Uint32(data[len(data)-8:])),
	}, nil
}

// checker returns a page checker for f; close it after use. One checker
// serves one goroutine.
func (f *checkedFile) checker() *pageChecker {
	c := &pageChecker{data: f.data, footerStart: f.footerStart}
	c.maxBytes, c.maxValues = pageLimits(len(f.data))
	return c
}

// checkGroup checks the column chunks of row group g and their pages.
// With out, it also writes the pages, as checked and inflated, to out.
func (f *checkedFile) checkGroup(c *pageChecker, g int, out *groupFile) error {
	rg := &f.md.RowGroups[g]
	for i := range rg.Columns {
		if err := c.checkChunk(&rg.Columns[i], f.leaves[i], rg.NumRows, out); err != nil {
			return fmt.Errorf("row group %d, column %s: %w", g, f.leaves[i].path, err)
		}
	}
	return nil
}

// groupFile is one row group of a checked file rewritten as a Parquet file
// of its own, uncompressed: the checker inflates every page to check it,
// and the decoder then reads the inflated pages rather than inflating
// them again. Files of other writers are read the same way; only the page
// bytes and their offsets change.
type groupFile struct {
	buf   []byte
	limit int // the most bytes buf may take: past it, the group is read from the original file
	cols  []format.ColumnChunk
	// The chunk being written: where it starts, and its first dictionary
	// and data pages, 0 until seen.
	start, dict, data int64
}

// errGroupTooLarge says a row group inflates to more than a groupFile
// holds.
var errGroupTooLarge = errors.New("row group too large to inflate whole")

// reset readies w for row group rg, which may inflate to limit bytes.
func (w *groupFile) reset(rg *format.RowGroup, limit int) {
	// The chunks' uncompressed sizes are only claims: trust them no
	// further than limit.
	size := int64(4 + 1024)
	for i := range rg.Columns {
		size += max(rg.Columns[i].MetaData.TotalUncompressedSize, 0) + 256
	}
	if size = min(size, int64(limit)); cap(w.buf) < int(size) {
		w.buf = make([]byte, 0, size)
	}
	w.buf = append(w.buf[:0], "PAR1"...)
	w.limit, w.cols = limit, w.cols[:0]
}

func (w *groupFile) beginChunk() {
	w.start, w.dict, w.data = int64(len(w.buf)), 0, 0
}

// page appends a page: its header, changed to say it is stored as is,
// then its levels and values.
func (w *groupFile) page(h *format.PageHeader, levels, values []byte) error {
	size := len(levels) + len(values)
	if len(w.buf)+size > w.limit {
		return errGroupTooLarge
	}
	hh := *h
	hh.CompressedPageSize, hh.UncompressedPageSize, hh.CRC = int32(size), int32(size), 0
	if hh.DataPageHeaderV2.Valid {
		hh.DataPageHeaderV2.V.IsCompressed = thrift.Null[bool]{V: false, Valid: true}
	}
	header, err := thrift.Marshal(new(thrift.CompactProtocol), &hh)
	if err != nil {
		return fmt.Errorf("page header: %w", err)
	}
	at := int64(len(w.buf))
	switch {
	case h.Type == format.DictionaryPage && w.dict == 0:
		w.dict = at
	case h.Type != format.DictionaryPage && w.data == 0:
		w.data = at
	}
	w.buf = append(w.buf, header...)
	w.buf = append(w.buf, levels...)
	w.buf = append(w.buf, values...)
	return nil
}

// endChunk records the chunk just written, described as cc is.
func (w *groupFile) endChunk(cc *format.ColumnChunk) {
	m := cc.MetaData
	m.Codec = format.Uncompressed
	m.TotalCompressedSize = int64(len(w.buf)) - w.start
	m.TotalUncompressedSize = m.TotalCompressedSize
	m.DataPageOffset, m.DictionaryPageOffset = w.data, w.dict
	m.IndexPageOffset, m.BloomFilterOffset, m.BloomFilterLength = 0, 0, 0
	w.cols = append(w.cols, format.ColumnChunk{FileOffset: w.start, MetaData: m})
}

// finish appends the footer of a file holding row group rg of md alone.
func (w *groupFile) finish(md *format.FileMetaData, rg *format.RowGroup) error {
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &format.FileMetaData{
		Version:   md.Version,
		Schema:    md.Schema,
		NumRows:   rg.NumRows,
		CreatedBy: md.CreatedBy,
		RowGroups: []format.RowGroup{{
			Columns:             w.cols,
			TotalByteSize:       rg.TotalByteSize,
			NumRows:             rg.NumRows,
			FileOffset:          4,
			TotalCompressedSize: int64(len(w.buf)) - 4,
		}},
		ColumnOrders: md.ColumnOrders,
	})
	if err != nil {
		return fmt.Errorf("footer: %w", err)
	}
	w.buf = append(w.buf, footer...)
	w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(len(footer)))
	w.buf = append(w.buf, "PAR1"...)
	return nil
}

// Errors name what a file gets wrong without echoing it: at most
// maxProblems schema problems, and names from the file clipped by clip.
const (
	maxProblems = 5
	maxQuoted   = 64
)

// firstFew cuts a list of problems to maxProblems, saying how many more
// there are. With a noun, it joins them into one phrase: "column a" or
// "columns a, b, c and 4 more".
func firstFew(items []string, sep, noun string) []string {
	n := len(items)
	if n > maxProblems {
		items = append(items[:maxProblems:maxProblems], fmt.Sprintf("%d more", n-maxProblems))
	}
	if noun == "" {
		return items
	}
	if n > 1 {
		noun += "s"
	}
	if n > maxProblems {
		return []string{noun + " " + strings.Join(items[:maxProblems], sep) + " and " + items[maxProblems]}
	}
	return []string{noun + " " + strings.Join(items, sep)}
}

// clip returns s, a name read from a file, for an error message: as it
// is when it is short and plain, else quoted and cut to maxQuoted bytes.
func clip(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(clipped(s))
	}
	if q := strconv.Quote(s); s == "" || q[1:len(q)-1] != s || strings.ContainsAny(s, " ;,()'") {
		return q
	}
	return s
}

// clipped cuts s to maxQuoted bytes, saying how long it was.
func clipped(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	return s[:maxQuoted] + fmt.Sprintf("... (%d bytes)", len(s))
}

// pageLimits returns the most bytes and values one page of a file of size
// n may declare. Generous for real files (snap cuts pages at 256 KiB),
// bounded for hostile ones.
func pageLimits(n int) (maxBytes, maxValues int64) {
	return 64<<20 + 64*int64(n), 1<<22 + 8*int64(n)
}

// readFooter checks the magic bytes and the footer's framing and decodes it.
func readFooter(data []byte) (*format.FileMetaData, error) {
	n := len(data)
	if n < 12 {
		return nil, fmt.Errorf("not a parquet file: %d bytes", n)
	}
	if string(data[:4]) != "PAR1" {
		return nil, errors.New("not a parquet file: no PAR1 magic at the start")
	}
	switch string(data[n-4:]) {
	case "PAR1":
	case "PARE":
		return nil, errors.New("encrypted parquet files are not supported")
	default:
		return nil, errors.New("not a parquet file: no PAR1 magic at the end")
	}
	size := int64(binary.LittleEndian.Uint32(data[n-8:]))
	if size > int64(n-12) {
		return nil, fmt.Errorf("footer length %d does not fit in a file of %d bytes", size, n)
	}
	footer := data[int64(n-8)-size : n-8]
	used, err := thriftStructSize(footer)
	if err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	if used != len(footer) {
		return nil, fmt.Errorf("footer: %d bytes after the metadata", len(footer)-used)
	}
	md := new(format.FileMetaData)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), footer, md); err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	return md, nil
}

// leaf is a column of the schema: its dotted path and what its pages hold.
type leaf struct {
	path     string
	typ      format.Type
	maxDef   int // definition and repetition levels
	maxRep   int
	typeSize int // FIXED_LEN_BYTE_ARRAY length
}

// checkSchema compares a file's schema to the row type's and returns its
// leaves. Column names and physical types must match exactly; so must the
// nesting, repetition and type annotations, which the decoder relies on.
func checkSchema(got, want []format.SchemaElement) ([]leaf, error) {
	gotLeaves, gerr := schemaLeaves(got)
	wantLeaves, err := schemaLeaves(want)
	if err != nil {
		return nil, fmt.Errorf("row type schema: %w", err)
	}
	if gerr != nil {
		return nil, fmt.Errorf("schema: %w", gerr)
	}
	// Name what differs, by column, a few columns of each kind.
	var missing, unexpected, problems []string
	gotBy := make(map[string]leaf, len(gotLeaves))
	for _, l := range gotLeaves {
		gotBy[l.path] = l
	}
	wantBy := make(map[string]bool, len(wantLeaves))
	for _, w := range wantLeaves {
		wantBy[w.path] = true
		g, ok := gotBy[w.path]
		switch {
		case !ok:
			missing = append(missing, w.path)
		case g.typ != w.typ:
			problems = append(problems, fmt.Sprintf("column %s is %s, want %s", w.path, g.typ, w.typ))
		case g.maxDef != w.maxDef || g.maxRep != w.maxRep:
			problems = append(problems, fmt.Sprintf("column %s has repetition levels %d/%d, want %d/%d", w.path, g.maxDef, g.maxRep, w.maxDef, w.maxRep))
		}
	}
	for _, g := range gotLeaves {
		if !wantBy[g.path] {
			unexpected = append(unexpected, clip(g.path))
		}
	}
	problems = firstFew(problems, "; ", "")
	if len(missing) > 0 {
		problems = append([]string{"missing " + firstFew(missing, ", ", "column")[0]}, problems...)
	}
	if len(unexpected) > 0 {
		problems = append(problems, "unexpected "+firstFew(unexpected, ", ", "column")[0])
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("schema mismatch: %s", strings.Join(problems, "; "))
	}
	if len(got) != len(want) {
		return nil, fmt.Errorf("schema mismatch: %d schema elements, want %d", len(got), len(want))
	}
	for i := 1; i < len(got); i++ { // the root's name is the writer's choice
		g, w := &got[i], &want[i]
		if g.Name != w.Name || g.Type != w.Type || g.RepetitionType != w.RepetitionType ||
			g.NumChildren != w.NumChildren || g.TypeLength != w.TypeLength {
			return nil, fmt.Errorf("schema mismatch at element %d (%s): columns in another order or nesting", i, clip(g.Name))
		}
		// Annotations decide how values convert: they must match too.
		if g.LogicalType.String() != w.LogicalType.String() || g.ConvertedType != w.ConvertedType ||
			g.Scale != w.Scale || g.Precision != w.Precision {
			return nil, fmt.Errorf("schema mismatch: %s is annotated %s (converted type %v), want %q (%v)",
				clip(g.Name), clip(g.LogicalType.String()), g.ConvertedType.V, w.LogicalType.String(), w.ConvertedType.V)
		}
	}
	return gotLeaves, nil
}

// schemaLeaves walks a flattened schema (depth first, children counted by
// NumChildren) and returns its leaves.
func schemaLeaves(elems []format.SchemaElement) ([]leaf, error) {
	if len(elems) == 0 {
		return nil, errors.New("no schema elements")
	}
	type frame struct {
		left           int
		path           string
		maxDef, maxRep int
	}
	root := elems[0]
	if !root.NumChildren.Valid || root.NumChildren.V < 0 {
		return nil, errors.New("root element has no children count")
	}
	stack := []frame{{left: int(root.NumChildren.V)}}
	var leaves []leaf
	for i := 1; i < len(elems); i++ {
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return nil, fmt.Errorf("element %d (%s) is outside the root", i, clip(elems[i].Name))
		}
		if len(stack) > 16 {
			return nil, errors.New("schema nested too deeply")
		}
		parent := &stack[len(stack)-1]
		parent.left--
		e := &elems[i]
		f := frame{path: e.Name, maxDef: parent.maxDef, maxRep: parent.maxRep}
		if parent.path != "" {
			f.path = parent.path + "." + e.Name
		}
		switch e.RepetitionType.V {
		case format.Optional:
			f.maxDef++
		case format.Repeated:
			f.maxDef++
			f.maxRep++
		}
		if e.NumChildren.Valid && e.NumChildren.V > 0 {
			if int(e.NumChildren.V) > len(elems)-i-1 {
				return nil, fmt.Errorf("element %d (%s) claims %d children", i, clip(e.Name), e.NumChildren.V)
			}
			f.left = int(e.NumChildren.V)
			stack = append(stack, f)
			continue
		}
		if !e.Type.Valid {
			return nil, fmt.Errorf("leaf %s has no physical type", clip(f.path))
		}
		leaves = append(leaves, leaf{path: f.path, typ: e.Type.V, maxDef: f.maxDef, maxRep: f.maxRep, typeSize: int(e.TypeLength.V)})
	}
	for _, f := range stack {
		if f.left != 0 {
			return nil, errors.New("schema ends before all children are listed")
		}
	}
	return leaves, nil
}

// pageChecker validates column chunks of one file.
type pageChecker struct {
	data                []byte
	footerStart         int64
	maxBytes, maxValues int64
	zdec                *zstd.Decoder
	buf                 []byte // decompressed page
}

func (c *pageChecker) close() {
	if c.zdec != nil {
		zstdDecoders.Put(c.zdec)
	}
}

// zstdSlack is how far past a frame's declared size the zstd decoder's
// fast path may write (the package's compressedBlockOverAlloc).
const zstdSlack = 16

// zstdDecoders hold decoders that decode into the caller's buffer and no
// further (WithDecodeAllCapLimit).
var zstdDecoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1),
		zstd.WithDecodeAllCapLimit(true), zstd.WithDecoderMaxWindow(1<<29))
	if err != nil {
		panic(err) // only for invalid options
	}
	return d
}}

func (c *pageChecker) checkChunk(cc *format.ColumnChunk, l leaf, rows int64, out *groupFile) error {
	if out != nil {
		out.beginChunk()
	}
	dict := false
	err := c.walkChunk(cc, l, rows, func(h *format.PageHeader, body []byte) (int64, error) {
		n, levels, page, err := c.checkPage(h, body, cc.MetaData.Codec, l, &dict)
		if err == nil && out != nil {
			err = out.page(h, levels, page)
		}
		return n, err
	})
	if err == nil && out != nil {
		out.endChunk(cc)
	}
	return err
}

// walkChunk checks a column chunk's metadata against leaf l and a row
// group of rows, then calls page with each page's header and stored body
// in turn; page returns how many values the page holds, and the sum must
// be the chunk's.
func (c *pageChecker) walkChunk(cc *format.ColumnChunk, l leaf, rows int64, page func(h *format.PageHeader, body []byte) (int64, error)) error {
	m := &cc.MetaData
	switch {
	case cc.FilePath != "":
		return fmt.Errorf("column chunk in another file (%s)", clip(cc.FilePath))
	case len(cc.EncryptedColumnMetadata) > 0:
		return errors.New("encrypted column chunk")
	case m.Type != l.typ:
		return fmt.Errorf("chunk type %s, schema says %s", m.Type, l.typ)
	case strings.Join(m.PathInSchema, ".") != l.path:
		return fmt.Errorf("chunk path %s, schema says %q", clip(strings.Join(m.PathInSchema, ".")), l.path)
	case m.Codec != format.Uncompressed && m.Codec != format.Zstd:
		return fmt.Errorf("compression %s not supported (want UNCOMPRESSED or ZSTD)", m.Codec)
	case m.NumValues < rows || l.maxRep == 0 && m.NumValues != rows:
		return fmt.Errorf("chunk declares %d values for %d rows", m.NumValues, rows)
	}
	start := m.DataPageOffset
	if m.DictionaryPageOffset != 0 {
		start = m.DictionaryPageOffset
	}
	end := start + m.TotalCompressedSize
	if start < 4 || m.TotalCompressedSize <= 0 || end < start || end > c.footerStart ||
		m.DataPageOffset < start || m.DataPageOffset >= end {
		return fmt.Errorf("chunk bytes [%d, +%d) (data at %d) outside the file's data [4, %d)",
			start, m.TotalCompressedSize, m.DataPageOffset, c.footerStart)
	}
	var values int64
	for pos := start; pos < end; {
		hsize, err := thriftStructSize(c.data[pos:end])
		if err != nil {
			return fmt.Errorf("page header at %d: %w", pos, err)
		}
		var h format.PageHeader
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), c.data[pos:pos+int64(hsize)], &h); err != nil {
			return fmt.Errorf("page header at %d: %w", pos, err)
		}
		body := pos + int64(hsize)
		if h.CompressedPageSize < 0 || int64(h.CompressedPageSize) > end-body {
			return fmt.Errorf("page at %d: %d bytes do not fit in the chunk", pos, h.CompressedPageSize)
		}
		n, err := page(&h, c.data[body:body+int64(h.CompressedPageSize)])
		if errors.Is(err, errGroupTooLarge) {
			return err
		} else if err != nil {
			return fmt.Errorf("page at %d: %w", pos, err)
		}
		values += n
		if values > m.NumValues {
			return fmt.Errorf("pages hold more than the chunk's %d values", m.NumValues)
		}
		pos = body + int64(h.CompressedPageSize)
	}
	if values != m.NumValues {
		return fmt.Errorf("pages hold %d values, chunk says %d", values, m.NumValues)
	}
	return nil
}

// checkPage validates one page and returns how many values (levels
// included) a data page holds, and the page as stored uncompressed: the
// levels of a data page v2, kept apart from its values, and the rest. The
// bytes are valid until the next call.
func (c *pageChecker) checkPage(h *format.PageHeader, body []byte, codec format.CompressionCodec, l leaf, dict *bool) (int64, []byte, []byte, error) {
	if _, err := c.checkHeader(h, int64(len(body))); err != nil {
		return 0, nil, nil, err
	}
	switch h.Type {
	case format.DictionaryPage:
		if *dict {
			return 0, nil, nil, errors.New("second dictionary page")
		}
		*dict = true
		page, err := c.decompress(body, codec, h.UncompressedPageSize)
		return 0, nil, page, err

	case format.DataPageV2:
		d := &h.DataPageHeaderV2.V
		nv := int64(d.NumValues)
		rl, dl := int64(d.RepetitionLevelsByteLength), int64(d.DefinitionLevelsByteLength)
		if err := checkLevels(body[:rl], l.maxRep, nv); err != nil {
			return 0, nil, nil, fmt.Errorf("repetition levels: %w", err)
		}
		if err := checkLevels(body[rl:rl+dl], l.maxDef, nv); err != nil {
			return 0, nil, nil, fmt.Errorf("definition levels: %w", err)
		}
		values := body[rl+dl:]
		if !d.IsCompressed.Valid || d.IsCompressed.V { // absent means compressed
			var err error
			if values, err = c.decompress(values, codec, h.UncompressedPageSize-int32(rl+dl)); err != nil {
				return 0, nil, nil, err
			}
		}
		return nv, body[:rl+dl], values, c.checkValues(values, d.Encoding, nv-int64(d.NumNulls), l, *dict)

	case format.DataPage:
		d := &h.DataPageHeader.V
		nv := int64(d.NumValues)
		whole, err := c.decompress(body, codec, h.UncompressedPageSize)
		if err != nil {
			return 0, nil, nil, err
		}
		page := whole
		for _, max := range []int{l.maxRep, l.maxDef} {
			if max == 0 {
				continue
			}
			if len(page) < 4 {
				return 0, nil, nil, errors.New("levels truncated")
			}
			n := int64(binary.LittleEndian.Uint32(page))
			if n > int64(len(page)-4) {
				return 0, nil, nil, errors.New("levels truncated")
			}
			if err := checkLevels(page[4:4+n], max, nv); err != nil {
				return 0, nil, nil, fmt.Errorf("levels: %w", err)
			}
			page = page[4+n:]
		}
		// Without a null count, nulls are known only after decoding the
		// definition levels: bound the values by nv.
		return nv, nil, whole, c.checkValues(page, d.Encoding, nv, l, *dict)

	default:
		return 0, nil, nil, fmt.Errorf("page type %s not supported", h.Type)
	}
}

// checkHeader checks what a page header alone says against the file's
// bounds (pageChecker's maxBytes and maxValues) and a stored body of size
// bytes, and returns how many values it declares (a dictionary's count
// for a dictionary page). It is all of checkPage that needs no inflating:
// what a writer checks of its own pages before storing them
// (checkBounds).
func (c *pageChecker) checkHeader(h *format.PageHeader, size int64) (int64, error) {
	if h.UncompressedPageSize < 0 || int64(h.UncompressedPageSize) > c.maxBytes {
		return 0, fmt.Errorf("uncompressed size %d out of range [0, %d]", h.UncompressedPageSize, c.maxBytes)
	}
	switch h.Type {
	case format.DictionaryPage:
		if !h.DictionaryPageHeader.Valid {
			return 0, errors.New("dictionary page without its header")
		}
		d := &h.DictionaryPageHeader.V
		if d.NumValues < 0 || int64(d.NumValues) > c.maxValues {
			return 0, fmt.Errorf("dictionary of %d values", d.NumValues)
		}
		//lint:ignore SA1019 files written by Parquet 1.0 writers still use it, and are read
		if d.Encoding != format.Plain && d.Encoding != format.PlainDictionary {
			return 0, fmt.Errorf("dictionary encoding %s not supported", d.Encoding)
		}
		return int64(d.NumValues), nil
	case format.DataPageV2:
		if !h.DataPageHeaderV2.Valid {
			return 0, errors.New("data page v2 without its header")
		}
		d := &h.DataPageHeaderV2.V
		nv := int64(d.NumValues)
		rl, dl := int64(d.RepetitionLevelsByteLength), int64(d.DefinitionLevelsByteLength)
		switch {
		case nv < 0 || nv > c.maxValues:
			return 0, fmt.Errorf("%d values", nv)
		case d.NumNulls < 0 || int64(d.NumNulls) > nv || d.NumRows < 0 || int64(d.NumRows) > nv:
			return 0, fmt.Errorf("%d nulls and %d rows for %d values", d.NumNulls, d.NumRows, nv)
		case rl < 0 || dl < 0 || rl+dl > size || rl+dl > int64(h.UncompressedPageSize):
			return 0, fmt.Errorf("level lengths %d+%d exceed the page", rl, dl)
		}
		return nv, nil
	case format.DataPage:
		if !h.DataPageHeader.Valid {
			return 0, errors.New("data page without its header")
		}
		nv := int64(h.DataPageHeader.V.NumValues)
		if nv < 0 || nv > c.maxValues {
			return 0, fmt.Errorf("%d values", nv)
		}
		return nv, nil
	}
	return 0, fmt.Errorf("page type %s not supported", h.Type)
}

// checkBounds checks a table a writer made, before it is stored, against
// the bounds checkParquet holds every reader to: its footer, schema and
// row count, and every page's header (sizes and counts within
// pageLimits). It inflates nothing, so it costs a walk over the page
// headers; what it passes, a reader does not refuse for its size.
func checkBounds(data []byte, want []format.SchemaElement, rows int64) error {
	f, err := checkFile(data, want, rows)
	if err != nil {
		return err
	}
	c := f.checker()
	defer c.close()
	for g := range f.md.RowGroups {
		rg := &f.md.RowGroups[g]
		for i := range rg.Columns {
			err := c.walkChunk(&rg.Columns[i], f.leaves[i], rg.NumRows, func(h *format.PageHeader, body []byte) (int64, error) {
				n, err := c.checkHeader(h, int64(len(body)))
				if h.Type == format.DictionaryPage {
					n = 0 // walkChunk counts the values of data pages
				}
				return n, err
			})
			if err != nil {
				return fmt.Errorf("row group %d, column %s: %w", g, f.leaves[i].path, err)
			}
		}
	}
	return nil
}

// decompress returns a page body as stored, or inflated, checking it is
// exactly size bytes. It reuses one buffer: the result is valid until the
// next call.
func (c *pageChecker) decompress(body []byte, codec format.CompressionCodec, size int32) ([]byte, error) {
	if size < 0 {
		return nil, fmt.Errorf("uncompressed size %d", size)
	}
	if codec == format.Uncompressed {
		if int64(len(body)) != int64(size) {
			return nil, fmt.Errorf("uncompressed page of %d bytes says %d", len(body), size)
		}
		return body, nil
	}
	if c.zdec == nil {
		c.zdec = zstdDecoders.Get().(*zstd.Decoder)
	}
	// The decoder is capped to the buffer: it refuses frames that would
	// inflate past size (and zstdSlack), whatever they declare. The slack
	// lets it take its fast path, which may write a little past the
	// output's end.
	if capacity := int(size) + zstdSlack; cap(c.buf) < capacity {
		c.buf = make([]byte, 0, capacity)
	}
	out, err := c.zdec.DecodeAll(body, c.buf[:0:int(size)+zstdSlack])
	if err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	if len(out) != int(size) {
		return nil, fmt.Errorf("page inflates to %d bytes, header says %d", len(out), size)
	}
	return out, nil
}

// checkValues checks the headers of an encoded run of at most n values.
func (c *pageChecker) checkValues(b []byte, enc format.Encoding, n int64, l leaf, dict bool) error {
	switch enc {
	case format.Plain:
		return nil // lengths in the data itself, checked as parquet-go reads them
	//lint:ignore SA1019 files written by Parquet 1.0 writers still use it, and are read
	case format.RLEDictionary, format.PlainDictionary:
		if !dict {
			return errors.New("dictionary-encoded page without a dictionary page")
		}
		if len(b) == 0 {
			if n == 0 {
				return nil
			}
			return errors.New("dictionary indexes missing")
		}
		if b[0] > 32 {
			return fmt.Errorf("dictionary index bit width %d", b[0])
		}
		return checkRuns(b[1:], int(b[0]), n)
	case format.RLE:
		if l.typ != format.Boolean {
			return fmt.Errorf("RLE values in a %s column", l.typ)
		}
		if len(b) < 4 {
			return errors.New("RLE values truncated")
		}
		size := int64(binary.LittleEndian.Uint32(b))
		if size > int64(len(b)-4) {
			return errors.New("RLE values truncated")
		}
		return checkRuns(b[4:4+size], 1, n)
	case format.DeltaBinaryPacked, format.DeltaLengthByteArray:
		want := []format.Type{format.Int32, format.Int64}
		if enc == format.DeltaLengthByteArray { // lengths delta-packed, then the bytes
			want = []format.Type{format.ByteArray}
		}
		if !slices.Contains(want, l.typ) {
			return fmt.Errorf("%s encoding in a %s column", enc, l.typ)
		}
		// Header: block size, miniblocks per block, total values, first value.
		p := b
		for field := range 3 {
			v, k := binary.Uvarint(p)
			if k <= 0 {
				return errors.New("delta header truncated")
			}
			if field == 2 && v > uint64(n) {
				return fmt.Errorf("delta header declares %d values, page holds %d", v, n)
			}
			p = p[k:]
		}
		return nil
	default:
		return fmt.Errorf("encoding %s not supported", enc)
	}
}

// checkLevels checks run-length encoded levels of at most n values.
func checkLevels(b []byte, max int, n int64) error {
	if max == 0 {
		if len(b) != 0 {
			return errors.New("levels in a column without them")
		}
		return nil
	}
	return checkRuns(b, bits.Len(uint(max)), n)
}

// checkRuns walks an RLE/bit-packed hybrid run and checks it decodes to at
// most n values (bit-packed groups round up to 8) without reading past b.
func checkRuns(b []byte, width int, n int64) error {
	var count int64
	limit := n + 8
	for len(b) > 0 {
		h, k := binary.Uvarint(b)
		if k <= 0 {
			return errors.New("run header truncated")
		}
		b = b[k:]
		var size int64
		if h&1 == 1 { // bit-packed groups of 8 values
			groups := h >> 1
			if groups > uint64(limit) {
				return fmt.Errorf("runs declare more than %d values", n)
			}
			count += int64(groups) * 8
			size = int64(groups) * int64(width)
		} else {
			if h>>1 > uint64(limit) {
				return fmt.Errorf("runs declare more than %d values", n)
			}
			count += int64(h >> 1)
			size = int64(width+7) / 8
		}
		if count > limit {
			return fmt.Errorf("runs declare more than %d values", n)
		}
		if size > int64(len(b)) {
			return errors.New("run truncated")
		}
		b = b[size:]
	}
	return nil
}

// thriftStructSize returns the length of the Thrift compact-protocol
// struct at the start of b, checking on the way that every list, map and
// string fits in the bytes left, so a decoder never allocates more than
// the input can hold.
func thriftStructSize(b []byte) (int, error) {
	s := thriftScanner{b: b}
	if err := s.skip(tStruct, 0); err != nil {
		return 0, err
	}
	return s.i, nil
}

// Thrift compact-protocol type codes.
const (
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

type thriftScanner struct {
	b []byte
	i int
}

var errThriftTruncated = errors.New("thrift: truncated")

func (s *thriftScanner) left() uint64 { return uint64(len(s.b) - s.i) }

func (s *thriftScanner) byte() (byte, error) {
	if s.i >= len(s.b) {
		return 0, errThriftTruncated
	}
	s.i++
	return s.b[s.i-1], nil
}

func (s *thriftScanner) uvarint() (uint64, error) {
	v, n := binary.Uvarint(s.b[s.i:])
	if n <= 0 {
		return 0, errThriftTruncated
	}
	s.i += n
	return v, nil
}

func (s *thriftScanner) advance(n uint64) error {
	if n > s.left() {
		return errThriftTruncated
	}
	s.i += int(n)
	return nil
}

func (s *thriftScanner) skip(typ byte, depth int) error {
	if depth > 32 {
		return errors.New("thrift: nested too deeply")
	}
	switch typ {
	case tTrue, tFalse:
		return nil // a struct field's value is in its header
	case tByte:
		return s.advance(1)
	case tI16, tI32, tI64:
		_, err := s.uvarint()
		return err
	case tDouble:
		return s.advance(8)
	case tBinary:
		n, err := s.uvarint()
		if err != nil {
			return err
		}
		return s.advance(n)
	case tList, tSet:
		h, err := s.byte()
		if err != nil {
			return err
		}
		n, et := uint64(h>>4), h&0x0f
		if n == 15 {
			if n, err = s.uvarint(); err != nil {
				return err
			}
		}
		if n > s.left() { // every element takes at least one byte
			return fmt.Errorf("thrift: list of %d elements in %d bytes", n, s.left())
		}
		for range n {
			if err := s.skipElem(et, depth); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := s.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := s.byte()
		if err != nil {
			return err
		}
		if n > s.left()/2 {
			return fmt.Errorf("thrift: map of %d entries in %d bytes", n, s.left())
		}
		for range n {
			if err := s.skipElem(kv>>4, depth); err != nil {
				return err
			}
			if err := s.skipElem(kv&0x0f, depth); err != nil {
				return err
			}
		}
		return nil
	case tStruct:
		for {
			h, err := s.byte()
			if err != nil {
				return err
			}
			if h == 0 { // stop
				return nil
			}
			if h>>4 == 0 { // long form: the field id follows
				if _, err := s.uvarint(); err != nil {
					return err
				}
			}
			if err := s.skip(h&0x0f, depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("thrift: unknown type %d", typ)
	}
}

// skipElem skips a list, set or map element: booleans take a byte there.
func (s *thriftScanner) skipElem(typ byte, depth int) error {
	if typ == tTrue || typ == tFalse {
		return s.advance(1)
	}
	return s.skip(typ, depth+1)
}
