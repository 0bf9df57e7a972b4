package indexer

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Declarations from tree-sitter's api.h (v0.25), whose library
// go-tree-sitter links in. Only the stable C API is used.
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSQuery TSQuery;
typedef struct TSQueryCursor TSQueryCursor;
typedef uint16_t TSFieldId;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
typedef struct { TSNode node; uint32_t index; } TSQueryCapture;
typedef struct { uint32_t id; uint16_t pattern_index; uint16_t capture_count; const TSQueryCapture *captures; } TSQueryMatch;

extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *);
extern bool ts_parser_set_language(TSParser *, const TSLanguage *);
extern TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
extern void ts_tree_delete(TSTree *);
extern TSNode ts_tree_root_node(const TSTree *);
extern uint32_t ts_node_start_byte(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern bool ts_node_has_error(TSNode);
extern bool ts_node_is_error(TSNode);
extern bool ts_node_is_missing(TSNode);
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
extern TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *);
extern TSQuery *ts_query_new(const TSLanguage *, const char *, uint32_t, uint32_t *, int *);
extern void ts_query_delete(TSQuery *);
extern uint32_t ts_query_capture_count(const TSQuery *);
extern const char *ts_query_capture_name_for_id(const TSQuery *, uint32_t, uint32_t *);
extern TSQueryCursor *ts_query_cursor_new(void);
extern void ts_query_cursor_delete(TSQueryCursor *);
extern void ts_query_cursor_exec(TSQueryCursor *, const TSQuery *, TSNode);
extern bool ts_query_cursor_next_match(TSQueryCursor *, TSQueryMatch *);
extern TSFieldId ts_language_field_id_for_name(const TSLanguage *, const char *, uint32_t);

typedef struct { uint32_t match, capture, start, end; } snap_capture;

typedef struct {
	snap_capture *caps;
	size_t len, cap;
	int has_error;
	uint32_t error_at;
} snap_scan;

#define SNAP_NAME_CHILD 0xffffffffu

static int snap_push(snap_scan *r, uint32_t match, uint32_t capture, uint32_t start, uint32_t end) {
	if (r->len == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 4096;
		snap_capture *caps = realloc(r->caps, cap * sizeof *caps);
		if (!caps) return -1;
		r->caps = caps;
		r->cap = cap;
	}
	r->caps[r->len++] = (snap_capture){match, capture, start, end};
	return 0;
}

// snap_scan_source parses src, runs the query over the tree and records
// every capture of every match, in match order. For captures whose bit is
// set in names, it also records each child in the field name_field, as
// capture SNAP_NAME_CHILD. It then finds the first syntax error, if any,
// and frees the tree. One call per file: no cgo call per node.
static int snap_scan_source(TSParser *p, const TSQuery *q, TSQueryCursor *qc, const char *src, uint32_t len,
		uint64_t names, TSFieldId name_field, snap_scan *r) {
	r->len = 0;
	r->has_error = 0;
	r->error_at = 0;
	TSTree *t = ts_parser_parse_string(p, NULL, src, len);
	if (!t) return -1;
	TSNode root = ts_tree_root_node(t);
	TSQueryMatch m;
	uint32_t n = 0;
	int rc = 0;
	if (q) ts_query_cursor_exec(qc, q, root);
	while (q && rc == 0 && ts_query_cursor_next_match(qc, &m)) {
		for (uint16_t i = 0; i < m.capture_count && rc == 0; i++) {
			const TSQueryCapture *c = &m.captures[i];
			rc = snap_push(r, n, c->index, ts_node_start_byte(c->node), ts_node_end_byte(c->node));
			if (rc == 0 && c->index < 64 && (names >> c->index & 1) && name_field) {
				TSTreeCursor tc = ts_tree_cursor_new(c->node);
				if (ts_tree_cursor_goto_first_child(&tc)) {
					do {
						if (ts_tree_cursor_current_field_id(&tc) == name_field) {
							TSNode child = ts_tree_cursor_current_node(&tc);
							rc = snap_push(r, n, SNAP_NAME_CHILD, ts_node_start_byte(child), ts_node_end_byte(child));
						}
					} while (rc == 0 && ts_tree_cursor_goto_next_sibling(&tc));
				}
				ts_tree_cursor_delete(&tc);
			}
		}
		n++;
	}
	if (rc == 0 && ts_node_has_error(root)) {
		r->has_error = 1;
		TSTreeCursor tc = ts_tree_cursor_new(root);
		for (;;) {
			TSNode node = ts_tree_cursor_current_node(&tc);
			if (ts_node_is_error(node) || ts_node_is_missing(node)) {
				r->error_at = ts_node_start_byte(node);
				break;
			}
			if (ts_node_has_error(node) && ts_tree_cursor_goto_first_child(&tc)) continue;
			int up = 0;
			while (!ts_tree_cursor_goto_next_sibling(&tc)) {
				if (!ts_tree_cursor_goto_parent(&tc)) { up = 1; break; }
			}
			if (up) break;
		}
		ts_tree_cursor_delete(&tc);
	}
	ts_tree_delete(t);
	return rc;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// NameChild is the capture index Scan gives to the extra "name" children
// it records (see NewQuery).
const NameChild = ^uint32(0)

// Capture is one captured node: the match it belongs to (matches are
// numbered in the order tree-sitter yields them), the capture's index in
// the query, and the node's byte range.
type Capture struct {
	Match, Index, Start, End uint32
}

// Query is a compiled tree-sitter query, shared by every Scanner of a
// language. It is immutable and safe for concurrent use.
type Query struct {
	lang      *C.TSLanguage
	q         *C.TSQuery
	names     []string
	nameMask  uint64
	nameField C.TSFieldId
}

// NewQuery compiles source for the grammar lang (the pointer a grammar
// module's Language() returns). Matches of the captures listed in
// allNames also yield every child in the grammar's "name" field, as
// captures with index NameChild: a quantified capture such as
// `name: (identifier)* @x.name` yields only the first of several names.
func NewQuery(lang unsafe.Pointer, source string, allNames ...string) (*Query, error) {
	src := C.CString(source)
	defer C.free(unsafe.Pointer(src))
	var off C.uint32_t
	var kind C.int
	q := C.ts_query_new((*C.TSLanguage)(lang), src, C.uint32_t(len(source)), &off, &kind)
	if q == nil {
		return nil, fmt.Errorf("compile query: error %d at byte %d", int(kind), int(off))
	}
	x := &Query{lang: (*C.TSLanguage)(lang), q: q}
	for i := range uint32(C.ts_query_capture_count(q)) {
		var n C.uint32_t
		p := C.ts_query_capture_name_for_id(q, C.uint32_t(i), &n)
		x.names = append(x.names, C.GoStringN(p, C.int(n)))
	}
	for _, want := range allNames {
		for i, n := range x.names {
			if n == want && i < 64 {
				x.nameMask |= 1 << i
			}
		}
	}
	field := C.CString("name")
	defer C.free(unsafe.Pointer(field))
	x.nameField = C.ts_language_field_id_for_name(x.lang, field, 4)
	return x, nil
}

// CaptureNames lists the query's capture names by index.
func (q *Query) CaptureNames() []string { return q.names }

// Scanner parses files and runs a Query over them, one cgo call per file.
// It is not safe for concurrent use: make one per worker.
type Scanner struct {
	q      *Query
	parser *C.TSParser
	cursor *C.TSQueryCursor
	res    C.snap_scan
}

// NewScanner returns a scanner for q.
func NewScanner(q *Query) (*Scanner, error) {
	UseCAllocator()
	s := &Scanner{q: q, parser: C.ts_parser_new(), cursor: C.ts_query_cursor_new()}
	if !C.ts_parser_set_language(s.parser, q.lang) {
		s.Close()
		return nil, errors.New("set language: incompatible grammar version")
	}
	return s, nil
}

// NewParser returns a scanner that only parses, with no query: the floor
// that extraction is measured against.
func NewParser(lang unsafe.Pointer) (*Scanner, error) {
	return NewScanner(&Query{lang: (*C.TSLanguage)(lang)})
}

// Scan parses src and returns the captures of every match, a slice valid
// until the next Scan, and the offset of the first syntax error if the
// tree has one.
func (s *Scanner) Scan(src []byte) (caps []Capture, errAt uint32, hasError bool, err error) {
	var p *C.char
	if len(src) > 0 {
		p = (*C.char)(unsafe.Pointer(&src[0]))
	}
	if rc := C.snap_scan_source(s.parser, s.q.q, s.cursor, p, C.uint32_t(len(src)), C.uint64_t(s.q.nameMask), s.q.nameField, &s.res); rc != 0 {
		return nil, 0, false, errors.New("parse: tree-sitter failed (out of memory or cancelled)")
	}
	if s.res.len > 0 {
		caps = unsafe.Slice((*Capture)(unsafe.Pointer(s.res.caps)), int(s.res.len))
	}
	return caps, uint32(s.res.error_at), s.res.has_error != 0, nil
}

// Close frees the scanner.
func (s *Scanner) Close() {
	if s.res.caps != nil {
		C.free(unsafe.Pointer(s.res.caps))
		s.res.caps = nil
	}
	if s.cursor != nil {
		C.ts_query_cursor_delete(s.cursor)
		s.cursor = nil
	}
	if s.parser != nil {
		C.ts_parser_delete(s.parser)
		s.parser = nil
	}
}
