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
typedef struct { uint32_t row, column; } TSPoint;
typedef struct {
	void *payload;
	const char *(*read)(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read);
	int encoding; // TSInputEncodingUTF8: 0
	void *decode;
} TSInput;
typedef struct { void *payload; uint32_t current_byte_offset; bool has_error; } TSParseState;
typedef struct { void *payload; bool (*progress_callback)(TSParseState *state); } TSParseOptions;
extern TSTree *ts_parser_parse_with_options(TSParser *, const TSTree *, TSInput, TSParseOptions);
extern void ts_parser_reset(TSParser *);
extern void ts_tree_delete(TSTree *);
extern TSNode ts_tree_root_node(const TSTree *);
extern uint32_t ts_node_start_byte(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern bool ts_node_has_error(TSNode);
extern bool ts_node_is_error(TSNode);
extern bool ts_node_is_missing(TSNode);
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern void ts_tree_cursor_reset(TSTreeCursor *, TSNode);
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
typedef struct { void *payload; uint32_t current_byte_offset; } TSQueryCursorState;
typedef struct { void *payload; bool (*progress_callback)(TSQueryCursorState *state); } TSQueryCursorOptions;
extern void ts_query_cursor_exec_with_options(TSQueryCursor *, const TSQuery *, TSNode, const TSQueryCursorOptions *);
extern bool ts_query_cursor_next_match(TSQueryCursor *, TSQueryMatch *);
extern void ts_query_cursor_set_match_limit(TSQueryCursor *, uint32_t);
extern bool ts_query_cursor_did_exceed_match_limit(const TSQueryCursor *);
extern TSFieldId ts_language_field_id_for_name(const TSLanguage *, const char *, uint32_t);
typedef uint16_t TSSymbol;
extern TSSymbol ts_node_symbol(TSNode);
extern bool ts_node_is_named(TSNode);
extern uint32_t ts_language_symbol_count(const TSLanguage *);
extern const char *ts_language_symbol_name(const TSLanguage *, TSSymbol);
extern int ts_language_symbol_type(const TSLanguage *, TSSymbol);

typedef struct { uint32_t match, capture, start, end; } snap_capture;

// A candidate is a child of a node being matched against a plan's
// pattern that fits one of the pattern's children.
typedef struct { uint32_t child; TSNode node; } snap_cand;

typedef struct {
	snap_capture *caps;
	size_t len, cap;
	snap_cand *cands;
	size_t ncands, capcands;
	int has_error;
	uint32_t error_at;
	int over_budget; // the last parse ran out of its budget (snap_parse)
	int stopped;     // the last scan was stopped by stop
	int over_limit;  // the last query had too many matches in progress at once
	int too_deep;    // the last tree was nested deeper than SNAP_MAX_DEPTH
	int stop;        // set (atomically, by Go) to stop the scan under way
	uint64_t budget; // the parse's budget in progress checks; 0: by the source's length
} snap_scan;

// snap_stopped reports whether the scan was asked to stop: the Go side
// sets the flag from another thread when the file's context is done.
static inline int snap_stopped(const int *stop) {
	return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

// A plan is a shallow query compiled for snap_walk (see plan.go): per
// symbol, the patterns whose node has it, in pattern order; per pattern,
// its capture and its children's constraints.
#define SNAP_NONE 0xffffffffu
#define SNAP_ERROR_SYMBOL ((TSSymbol)-1)
#define SNAP_MAX_CHILDREN 16
typedef struct {
	uint32_t capture;
	uint32_t first_sym, nsyms; // the symbols it may have, in syms
	uint16_t field;            // 0: any child
	uint8_t quant;             // 0, '?', '*' or '+'
	uint8_t any_named;         // (_): any named node will do too
} snap_child;

typedef struct {
	uint32_t capture;
	uint32_t first, count; // into children
} snap_pattern;

typedef struct {
	uint32_t nsymbols;
	uint32_t *by_symbol;   // nsymbols+1 offsets into patterns_of
	uint32_t *patterns_of;
	snap_pattern *patterns;
	snap_child *children;
	TSSymbol *syms;
} snap_plan;

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

static int snap_push_cand(snap_scan *r, uint32_t child, TSNode node) {
	if (r->ncands == r->capcands) {
		size_t cap = r->capcands ? r->capcands * 2 : 64;
		snap_cand *c = realloc(r->cands, cap * sizeof *c);
		if (!c) return -1;
		r->cands = c;
		r->capcands = cap;
	}
	r->cands[r->ncands++] = (snap_cand){child, node};
	return 0;
}

// snap_push_capture records a capture of node and, when the capture's bit
// is set in names, each of node's children in the field name_field.
static int snap_push_capture(snap_scan *r, uint32_t match, uint32_t capture, TSNode node, uint64_t names,
		TSFieldId name_field) {
	if (snap_push(r, match, capture, ts_node_start_byte(node), ts_node_end_byte(node))) return -1;
	if (!(capture < 64 && (names >> capture & 1) && name_field)) return 0;
	TSTreeCursor tc = ts_tree_cursor_new(node);
	int rc = 0;
	if (ts_tree_cursor_goto_first_child(&tc)) {
		do {
			if (ts_tree_cursor_current_field_id(&tc) == name_field) {
				TSNode child = ts_tree_cursor_current_node(&tc);
				rc = snap_push(r, match, SNAP_NAME_CHILD, ts_node_start_byte(child), ts_node_end_byte(child));
			}
		} while (rc == 0 && ts_tree_cursor_goto_next_sibling(&tc));
	}
	ts_tree_cursor_delete(&tc);
	return rc;
}

static int snap_fits(const snap_plan *pl, const snap_child *c, TSSymbol s, TSNode node) {
	for (uint32_t i = c->first_sym; i < c->first_sym + c->nsyms; i++) {
		if (pl->syms[i] == s) return 1;
	}
	// (_) is any named node but an ERROR, as for the query cursor.
	return c->any_named && s != SNAP_ERROR_SYMBOL && ts_node_is_named(node);
}

// snap_match records the matches of pattern p at the cursor's node: one
// for each choice of one candidate per unquantified child, each with the
// first candidate of its quantified children (as the query cursor does
// for a quantified field: the rest come as name children), in document
// order. The cursor is back on the node when it returns.
static int snap_match(const snap_plan *pl, const snap_pattern *p, TSTreeCursor *tc, TSNode node,
		uint64_t names, TSFieldId name_field, snap_scan *r, uint32_t *n) {
	const snap_child *cs = pl->children + p->first;
	uint32_t cnt[SNAP_MAX_CHILDREN] = {0}, pick[SNAP_MAX_CHILDREN] = {0}, seen[SNAP_MAX_CHILDREN];
	r->ncands = 0;
	if (p->count > 0 && ts_tree_cursor_goto_first_child(tc)) {
		int rc = 0;
		do {
			TSNode child = ts_tree_cursor_current_node(tc);
			TSSymbol s = ts_node_symbol(child);
			TSFieldId f = 0;
			int fetched = 0;
			for (uint32_t j = 0; j < p->count && rc == 0; j++) {
				const snap_child *c = &cs[j];
				if (c->field) {
					if (!fetched) {
						f = ts_tree_cursor_current_field_id(tc);
						fetched = 1;
					}
					if (c->field != f) continue;
				}
				if (!snap_fits(pl, c, s, child)) continue;
				rc = snap_push_cand(r, j, child);
				cnt[j]++;
			}
		} while (rc == 0 && ts_tree_cursor_goto_next_sibling(tc));
		ts_tree_cursor_goto_parent(tc);
		if (rc) return rc;
	}
	for (uint32_t j = 0; j < p->count; j++) {
		if ((cs[j].quant == 0 || cs[j].quant == '+') && cnt[j] == 0) return 0;
	}
	for (;;) {
		if (p->capture != SNAP_NONE && snap_push_capture(r, *n, p->capture, node, names, name_field)) return -1;
		memset(seen, 0, sizeof seen);
		for (size_t k = 0; k < r->ncands; k++) {
			const snap_cand *cd = &r->cands[k];
			const snap_child *c = &cs[cd->child];
			uint32_t i = seen[cd->child]++;
			int take = i == (c->quant == 0 ? pick[cd->child] : 0);
			if (take && c->capture != SNAP_NONE &&
					snap_push_capture(r, *n, c->capture, cd->node, names, name_field)) return -1;
		}
		(*n)++;
		uint32_t j = 0;
		for (; j < p->count; j++) {
			if (cs[j].quant != 0) continue;
			if (++pick[j] < cnt[j]) break;
			pick[j] = 0;
		}
		if (j == p->count) return 0;
	}
}

// Tree-sitter hands a grammar's external scanner the lookahead as a code
// point, and tree-sitter-bash's passes it to isdigit, whose glibc table
// covers -128..255 only: a code point past U+FFFF after "{" read far past
// it and crashed the index (FuzzWalk found it). Each parse first points
// the thread's table at a copy that covers every code point, those above
// 255 in no class. Other libcs' isdigit is no table of that size.
#ifdef __GLIBC__
#include <ctype.h>
#define SNAP_MAX_CODE_POINT 0x10ffff
static unsigned short *snap_ctype_b; // from -128, so index c + 128

static int snap_ctype_init(void) {
	snap_ctype_b = calloc(SNAP_MAX_CODE_POINT + 1 + 128, sizeof *snap_ctype_b);
	if (!snap_ctype_b) return -1;
	memcpy(snap_ctype_b, *__ctype_b_loc() - 128, 384 * sizeof *snap_ctype_b);
	return 0;
}

static void snap_ctype_wide(void) {
	if (snap_ctype_b) *__ctype_b_loc() = snap_ctype_b + 128;
}
#else
static int snap_ctype_init(void) { return 0; }
static void snap_ctype_wide(void) {}
#endif

// A parse has a budget of tree-sitter operations, SNAP_OPS_PER_BYTE a
// byte of its source and SNAP_OPS_BASE more: some grammars' error
// recovery runs without end on some broken input (Swift's, on a few bytes
// the fuzzer found), and one such file must not hold up the index. The
// parser checks the budget every 100 operations (progress_callback). A
// count of operations, not a clock, so that a file fails on every machine
// or on none. The budget is ten times what GOROOT/src, kubernetes and
// three.js take: every file of theirs parses within 5 operations a byte,
// their broken files too. In a recovery that goes round, an operation
// can take microseconds: a 100 KB file gives up within about 25 s, unless
// the time limit (the stop flag) stops it first.
#define SNAP_OPS_PER_BYTE 50
#define SNAP_OPS_BASE 50000
#define SNAP_OPS_PER_CHECK 100

typedef struct { const char *src; uint32_t len; uint64_t checks; const int *stop; } snap_input;

static const char *snap_read(void *payload, uint32_t byte, TSPoint pos, uint32_t *n) {
	(void)pos;
	const snap_input *in = payload;
	if (byte >= in->len) {
		*n = 0;
		return "";
	}
	*n = in->len - byte;
	return in->src + byte;
}

static bool snap_over_budget(TSParseState *st) {
	snap_input *in = st->payload;
	if (in->checks == 0 || snap_stopped(in->stop)) return true;
	in->checks--;
	return false;
}

// snap_parse parses src within its budget: NULL when the budget ran out
// (*over set), the stop flag was set (stop may be NULL) or tree-sitter
// failed, the parser then reset.
static TSTree *snap_parse(TSParser *p, const char *src, uint32_t len, const int *stop, uint64_t budget, int *over) {
	snap_ctype_wide();
	if (!budget) budget = ((uint64_t)len * SNAP_OPS_PER_BYTE + SNAP_OPS_BASE) / SNAP_OPS_PER_CHECK;
	snap_input in = {src, len, budget, stop};
	TSInput input = {&in, snap_read, 0, NULL};
	TSTree *t = ts_parser_parse_with_options(p, NULL, input, (TSParseOptions){&in, snap_over_budget});
	if (!t) {
		*over = in.checks == 0;
		ts_parser_reset(p);
	}
	return t;
}

typedef struct { snap_scan *r; const TSQueryCursor *qc; } snap_query_run;

// snap_query_progress is the query cursor's progress callback, which it
// calls every 100 steps: the cursor halts when it returns true, when the
// scan is to stop or the cursor went over its limit of matches in
// progress (matchLimit, in Go).
static bool snap_query_progress(TSQueryCursorState *st) {
	const snap_query_run *run = st->payload;
	return snap_stopped(&run->r->stop) || ts_query_cursor_did_exceed_match_limit(run->qc);
}

// The walk below reads the tree's nodes directly rather than through
// TSTreeCursor: the cursor rebuilds its child iterator on every step
// (alias sequence, visibility of the parent, descendant counts), which
// cost a fifth of the parse on top of it. It needs the layout of three
// structures. TSLanguage's head is the grammar ABI (parser.h of ABI 14
// and 15, which every grammar's parser.c is compiled against); the
// layout of a subtree is tree-sitter's own (lib/src/subtree.h of v0.25,
// the version go-tree-sitter links in). TestWalkMatchesCursor compares
// the two walks node by node over every grammar's samples, so that a
// tree-sitter whose layout moved fails there rather than here.
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "snap's subtree walk reads tree-sitter's little-endian inline subtree layout"
#endif

typedef struct { uint32_t bytes; TSPoint extent; } snap_length;

typedef struct {
	uint32_t abi_version, symbol_count, alias_count, token_count, external_token_count,
		state_count, large_state_count, production_id_count, field_count;
	uint16_t max_alias_sequence_length;
	const void *parse_table, *small_parse_table, *small_parse_table_map, *parse_actions,
		*symbol_names, *field_names, *field_map_slices, *field_map_entries, *symbol_metadata;
	const TSSymbol *public_symbol_map;
	const uint16_t *alias_map;
	const TSSymbol *alias_sequences;
} snap_language;

typedef struct {
	bool is_inline : 1;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool has_changes : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	uint8_t symbol;
	uint16_t parse_state;
	uint8_t padding_columns;
	uint8_t padding_rows : 4;
	uint8_t lookahead_bytes : 4;
	uint8_t padding_bytes;
	uint8_t size_bytes;
} snap_inline;

typedef struct {
	volatile uint32_t ref_count;
	snap_length padding, size;
	uint32_t lookahead_bytes, error_cost, child_count;
	TSSymbol symbol;
	uint16_t parse_state;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool fragile_left : 1;
	bool fragile_right : 1;
	bool has_changes : 1;
	bool has_external_tokens : 1;
	bool has_external_scanner_state_change : 1;
	bool depends_on_column : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	union {
		struct {
			uint32_t visible_child_count, named_child_count, visible_descendant_count;
			int32_t dynamic_precedence;
			uint16_t repeat_depth, production_id;
			struct { TSSymbol symbol; uint16_t parse_state; } first_leaf;
		};
		struct { union { char *long_data; char short_data[24]; }; uint32_t length; } external_scanner_state;
		int32_t lookahead_char;
	};
} snap_heap;

typedef union { snap_inline data; const snap_heap *ptr; } snap_subtree;

_Static_assert(sizeof(snap_inline) == 8 && sizeof(snap_subtree) == 8, "inline subtree layout");

static inline snap_length snap_add(snap_length a, snap_length b) {
	snap_length r = {a.bytes + b.bytes, a.extent};
	if (b.extent.row > 0) {
		r.extent.row += b.extent.row;
		r.extent.column = b.extent.column;
	} else {
		r.extent.column += b.extent.column;
	}
	return r;
}

static inline snap_length snap_padding(snap_subtree t) {
	if (t.data.is_inline) return (snap_length){t.data.padding_bytes, {t.data.padding_rows, t.data.padding_columns}};
	return t.ptr->padding;
}

static inline snap_length snap_size(snap_subtree t) {
	if (t.data.is_inline) return (snap_length){t.data.size_bytes, {0, t.data.size_bytes}};
	return t.ptr->size;
}

// A frame is a node whose children the walk is going through: the next
// child, its start (past its padding) and its index among the children
// that are not extras, which is where the parent's alias sequence says
// whether it is renamed.
typedef struct {
	const snap_subtree *children;
	uint32_t count, i, structural;
	const TSSymbol *aliases;
	snap_length pos;
} snap_frame;

typedef struct {
	const snap_language *lang;
	const TSTree *tree;
	snap_frame *frames;
	uint32_t depth, cap;
	int too_deep; // the tree is deeper than SNAP_MAX_DEPTH: the walk gave up
} snap_walker;

// A tree may be SNAP_MAX_DEPTH nodes deep, hidden ones counted. Code
// nested deeper is refused before any query runs over it: the query
// cursor steps every match in progress at every node, one or more for
// each node the current one is nested in, and extractors read the text
// of every enclosing call again for each, so that the cost of a file
// grows with its size times its depth. Of the 11,697 files in 15
// languages parsed from GOROOT/src, Python's standard library and the
// sources of other languages a Debian machine had, the deepest code is
// 415 deep (a test of the Go coverage tool's nesting), the next 316;
// two files that are not code (a groff table and a vim tutorial named
// .cs) 632 and 805. Compilers refuse far less nesting (clang 256 levels
// of brackets, CPython 200 of parentheses).
#define SNAP_MAX_DEPTH 10000

// snap_enter pushes t's children, which start at pos.
static int snap_enter(snap_walker *w, const snap_subtree *t, snap_length pos) {
	if (w->depth == SNAP_MAX_DEPTH) {
		w->too_deep = 1;
		return -1;
	}
	if (w->depth == w->cap) {
		uint32_t cap = w->cap ? w->cap * 2 : 64;
		snap_frame *f = realloc(w->frames, cap * sizeof *f);
		if (!f) return -1;
		w->frames = f;
		w->cap = cap;
	}
	const snap_heap *h = t->ptr;
	uint16_t prod = h->production_id;
	w->frames[w->depth++] = (snap_frame){
		.children = (const snap_subtree *)h - h->child_count,
		.count = h->child_count,
		.aliases = prod ? &w->lang->alias_sequences[prod * w->lang->max_alias_sequence_length] : NULL,
		.pos = pos,
	};
	return 0;
}

// snap_starts reports whether a pattern of pl starts at a node of symbol s.
static inline int snap_starts(const snap_plan *pl, TSSymbol s) {
	return s < pl->nsymbols && pl->by_symbol[s] < pl->by_symbol[s + 1];
}

// snap_next moves to the next visible node in document order, as
// ts_tree_cursor_goto_first_child, _next_sibling and _parent do: it
// returns 1 with the node and its public symbol, 0 at the end and -1
// when out of memory or past SNAP_MAX_DEPTH. A hidden node is gone
// through, not returned; so is a node no pattern of pl starts at, when pl
// is not NULL.
static int snap_next(snap_walker *w, const snap_plan *pl, TSNode *node, TSSymbol *sym) {
	while (w->depth > 0) {
		snap_frame *f = &w->frames[w->depth - 1];
		if (f->i == f->count) {
			w->depth--;
			continue;
		}
		const snap_subtree *child = &f->children[f->i];
		snap_subtree c = *child;
		snap_length pos = f->pos;
		bool inl = c.data.is_inline;
		bool extra = inl ? c.data.extra : c.ptr->extra;
		TSSymbol alias = 0;
		if (!extra) {
			if (f->aliases) alias = f->aliases[f->structural];
			f->structural++;
		}
		if (++f->i < f->count) {
			f->pos = snap_add(snap_add(pos, snap_size(c)), snap_padding(f->children[f->i]));
		}
		bool visible = alias || (inl ? c.data.visible : c.ptr->visible);
		// f is not used past here: snap_enter may move the frames.
		if (!inl && c.ptr->child_count > 0 && (visible || c.ptr->visible_child_count > 0)) {
			if (snap_enter(w, child, pos)) return -1;
		}
		if (!visible) continue;
		TSSymbol s = alias ? alias : (inl ? c.data.symbol : c.ptr->symbol);
		if (s != SNAP_ERROR_SYMBOL) s = w->lang->public_symbol_map[s];
		if (pl && !snap_starts(pl, s)) continue;
		*sym = s;
		*node = (TSNode){{pos.bytes, pos.extent.row, pos.extent.column, alias}, child, w->tree};
		return 1;
	}
	return 0;
}

// snap_start sets w to walk the nodes under root (root itself is the
// caller's).
static int snap_start(snap_walker *w, const TSLanguage *lang, TSNode root) {
	w->lang = (const snap_language *)lang;
	w->tree = root.tree;
	w->depth = 0;
	const snap_subtree *t = root.id;
	if (t->data.is_inline || t->ptr->child_count == 0) return 0;
	return snap_enter(w, t, (snap_length){root.context[0], {root.context[1], root.context[2]}});
}

// snap_walk records the matches of plan pl over the tree under root,
// node by node in document order. A node that may start a match gets a
// cursor of its own, for its children. Every 4096 such nodes it looks at
// r's stop flag, and gives up when it is set.
static int snap_walk(const snap_plan *pl, const TSLanguage *lang, TSNode root, uint64_t names,
		TSFieldId name_field, snap_scan *r) {
	snap_walker w = {0};
	TSTreeCursor tc = ts_tree_cursor_new(root);
	uint32_t n = 0, steps = 0;
	int rc = snap_start(&w, lang, root);
	TSNode node = root;
	TSSymbol s = ts_node_symbol(root);
	for (int more = rc == 0; more == 1; more = snap_next(&w, pl, &node, &s)) {
		if (++steps % 4096 == 0 && snap_stopped(&r->stop)) {
			r->stopped = 1;
			rc = -1;
			break;
		}
		if (!snap_starts(pl, s)) continue; // the root; snap_next leaves out the rest
		ts_tree_cursor_reset(&tc, node);
		for (uint32_t k = pl->by_symbol[s]; k < pl->by_symbol[s + 1] && rc == 0; k++) {
			rc = snap_match(pl, &pl->patterns[pl->patterns_of[k]], &tc, node, names, name_field, r, &n);
		}
		if (rc) break;
	}
	if (rc == 0 && w.depth > 0) rc = -1; // snap_next ran out of memory, or the tree is too deep
	r->too_deep = w.too_deep;
	ts_tree_cursor_delete(&tc);
	free(w.frames);
	return rc;
}

// snap_deep reports whether the tree under root is deeper than
// SNAP_MAX_DEPTH (or the walk ran out of memory), walking it as far as
// it takes to tell: once, in a fraction of the time the parse took.
static int snap_deep(const TSLanguage *lang, TSNode root) {
	snap_walker w = {0};
	TSNode node = root;
	TSSymbol s;
	int more = snap_start(&w, lang, root) == 0 ? 1 : -1;
	while (more == 1) more = snap_next(&w, NULL, &node, &s);
	free(w.frames);
	return more != 0;
}

// snap_walk_check walks the tree of src both ways, with snap_next and
// with the tree cursor, and returns the number of nodes when they meet
// the same nodes (same subtree, start, alias and symbol) in the same
// order, or -(1 + the index of the first that differs). For tests.
static int64_t snap_walk_check(TSParser *p, const TSLanguage *lang, const char *src, uint32_t len) {
	int over = 0;
	TSTree *t = snap_parse(p, src, len, NULL, 0, &over);
	if (!t) return over ? INT64_MIN + 1 : INT64_MIN;
	TSNode root = ts_tree_root_node(t);
	snap_walker w = {0};
	TSTreeCursor tc = ts_tree_cursor_new(root);
	int64_t out;
	TSNode node = root;
	TSSymbol s = ts_node_symbol(root);
	int more = snap_start(&w, lang, root) == 0; // as snap_next returns
	for (int64_t i = 0;; i++) {
		TSNode want = ts_tree_cursor_current_node(&tc);
		if (more != 1 || memcmp(&node, &want, sizeof node) != 0 || s != ts_node_symbol(want)) {
			out = -(i + 1);
			break;
		}
		int end = 0; // the cursor's next node in document order, if any
		if (!ts_tree_cursor_goto_first_child(&tc)) {
			while (!ts_tree_cursor_goto_next_sibling(&tc)) {
				if (!ts_tree_cursor_goto_parent(&tc)) { end = 1; break; }
			}
		}
		more = snap_next(&w, NULL, &node, &s);
		if (end) {
			out = more == 0 ? i + 1 : -(i + 2);
			break;
		}
	}
	ts_tree_cursor_delete(&tc);
	free(w.frames);
	ts_tree_delete(t);
	return out;
}

// snap_scan_source parses src, runs the query over the tree (walking it
// by plan pl when there is one, with the query cursor otherwise) and
// records every capture of every match, in match order. For captures
// whose bit is set in names, it also records each child in the field
// name_field, as capture SNAP_NAME_CHILD. It then finds the first syntax
// error, if any, and frees the tree. One call per file: no cgo call per
// node. The parse, the walk and the query cursor give up soon after r's
// stop flag is set (r->stopped then says so).
static int snap_scan_source(TSParser *p, const TSLanguage *lang, const TSQuery *q, TSQueryCursor *qc, const snap_plan *pl,
		const char *src, uint32_t len, uint64_t names, TSFieldId name_field, snap_scan *r) {
	r->len = 0;
	r->has_error = 0;
	r->error_at = 0;
	r->over_budget = 0;
	r->stopped = 0;
	r->over_limit = 0;
	r->too_deep = 0;
	TSTree *t = snap_parse(p, src, len, &r->stop, r->budget, &r->over_budget);
	if (!t) {
		r->stopped = snap_stopped(&r->stop);
		return -1;
	}
	TSNode root = ts_tree_root_node(t);
	int rc = 0;
	if (pl) {
		rc = snap_walk(pl, lang, root, names, name_field, r);
	} else if (q && snap_deep(lang, root)) {
		r->too_deep = 1;
		rc = -1;
	} else if (q) {
		TSQueryMatch m;
		uint32_t n = 0;
		snap_query_run run = {r, qc};
		TSQueryCursorOptions opts = {&run, snap_query_progress};
		ts_query_cursor_exec_with_options(qc, q, root, &opts);
		while (rc == 0 && !ts_query_cursor_did_exceed_match_limit(qc) && ts_query_cursor_next_match(qc, &m)) {
			for (uint16_t i = 0; i < m.capture_count && rc == 0; i++) {
				rc = snap_push_capture(r, n, m.captures[i].index, m.captures[i].node, names, name_field);
			}
			n++;
		}
		// The cursor halted, or dropped a match: the matches are not all there.
		if (rc == 0 && ts_query_cursor_did_exceed_match_limit(qc)) {
			r->over_limit = 1;
			rc = -1;
		} else if (rc == 0 && snap_stopped(&r->stop)) {
			r->stopped = 1;
			rc = -1;
		}
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
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
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
	plan      *C.snap_plan // nil: run q on the query cursor
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
	x.nameField = fieldID(x.lang, "name")
	if pl, err := parsePlan(source); err == nil {
		x.plan, _ = x.compilePlan(pl)
	}
	return x, nil
}

// Planned reports whether q runs as a plan (see plan) rather than on the
// query cursor.
func (q *Query) Planned() bool { return q.plan != nil }

// matchLimit bounds the matches a query cursor holds in progress at
// once, each with the captures it made so far (see ErrQueryLimit): of
// the 5,177 files in 14 languages parsed from Python's standard library
// and the sources of other languages a Debian machine had, one had more
// than 256 in progress at once, a groff table named .cs, and none more
// than 1024. Tree-sitter numbers them in 16 bits, and past 65,535 wrote
// out of bounds (a nested Ruby file crashed the index).
const matchLimit = 4096

var cursorOnly atomic.Bool

// UseQueryCursor makes the Scanners made after it run every query on
// tree-sitter's query cursor, planned or not (on), or by plan where there
// is one (off, the default). Tests and benchmarks compare the two.
func UseQueryCursor(on bool) { cursorOnly.Store(on) }

func fieldID(lang *C.TSLanguage, name string) C.TSFieldId {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.ts_language_field_id_for_name(lang, cs, C.uint32_t(len(name)))
}

// compilePlan lays pl out in C memory for snap_walk. Its capture names are
// q's; a node type or field the grammar lacks leaves the query on the
// cursor. The plan lives as long as the process, like the query.
func (q *Query) compilePlan(pl *plan) (*C.snap_plan, error) {
	const symbolTypeRegular, symbolTypeAnonymous = 0, 1
	nsym := int(C.ts_language_symbol_count(q.lang))
	symbols := make(map[string][]C.TSSymbol)   // named, by type
	anonymous := make(map[string][]C.TSSymbol) // by text
	for i := range nsym {
		s := C.TSSymbol(i)
		name := C.GoString(C.ts_language_symbol_name(q.lang, s))
		switch C.ts_language_symbol_type(q.lang, s) {
		case symbolTypeRegular:
			symbols[name] = append(symbols[name], s)
		case symbolTypeAnonymous:
			anonymous[name] = append(anonymous[name], s)
		}
	}
	capture := func(name string) (C.uint32_t, error) {
		if name == "" {
			return C.SNAP_NONE, nil
		}
		for i, n := range q.names {
			if n == name {
				return C.uint32_t(i), nil
			}
		}
		return 0, fmt.Errorf("capture @%s not in the query", name)
	}
	named := func(t string) ([]C.TSSymbol, error) {
		ss := symbols[t]
		if len(ss) == 0 { // ERROR and MISSING are not symbols of the table either
			return nil, fmt.Errorf("node type %q", t)
		}
		return ss, nil
	}

	patterns := make([]C.snap_pattern, len(pl.patterns))
	var children []C.snap_child
	var pool []C.TSSymbol        // the children's symbols
	of := make([][]uint32, nsym) // symbol → patterns
	for i, p := range pl.patterns {
		if len(p.children) > C.SNAP_MAX_CHILDREN {
			return nil, fmt.Errorf("pattern %d has %d children", i, len(p.children))
		}
		c, err := capture(p.capture)
		if err != nil {
			return nil, err
		}
		patterns[i] = C.snap_pattern{capture: c, first: C.uint32_t(len(children)), count: C.uint32_t(len(p.children))}
		for _, t := range p.types {
			ss, err := named(t)
			if err != nil {
				return nil, err
			}
			for _, s := range ss {
				if len(of[s]) == 0 || of[s][len(of[s])-1] != uint32(i) {
					of[s] = append(of[s], uint32(i))
				}
			}
		}
		for _, ch := range p.children {
			sc := C.snap_child{first_sym: C.uint32_t(len(pool)), quant: C.uint8_t(ch.quant)}
			if sc.capture, err = capture(ch.capture); err != nil {
				return nil, err
			}
			if ch.field != "" {
				if sc.field = C.uint16_t(fieldID(q.lang, ch.field)); sc.field == 0 {
					return nil, fmt.Errorf("field %q", ch.field)
				}
			}
			for _, t := range ch.types {
				var ss []C.TSSymbol
				switch {
				case t.anonymous:
					if ss = anonymous[t.name]; len(ss) == 0 {
						return nil, fmt.Errorf("anonymous node %q", t.name)
					}
				case t.name == "_":
					sc.any_named = 1
				default:
					if ss, err = named(t.name); err != nil {
						return nil, err
					}
				}
				pool = append(pool, ss...)
			}
			sc.nsyms = C.uint32_t(len(pool)) - sc.first_sym
			children = append(children, sc)
		}
	}

	var bySymbol []C.uint32_t
	var patternsOf []C.uint32_t
	for _, ps := range of {
		bySymbol = append(bySymbol, C.uint32_t(len(patternsOf)))
		for _, p := range ps {
			patternsOf = append(patternsOf, C.uint32_t(p))
		}
	}
	bySymbol = append(bySymbol, C.uint32_t(len(patternsOf)))

	cp := (*C.snap_plan)(C.calloc(1, C.sizeof_snap_plan))
	cp.nsymbols = C.uint32_t(nsym)
	cp.by_symbol = cArray(bySymbol)
	cp.patterns_of = cArray(patternsOf)
	cp.patterns = cArray(patterns)
	cp.children = cArray(children)
	cp.syms = cArray(pool)
	return cp, nil
}

// cArray copies xs into C memory (never freed: plans live as long as the
// process).
func cArray[T any](xs []T) *T {
	var zero T
	n := max(len(xs), 1) * int(unsafe.Sizeof(zero))
	p := (*T)(C.calloc(1, C.size_t(n)))
	copy(unsafe.Slice(p, max(len(xs), 1)), xs)
	return p
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
	wideCtype()
	if cursorOnly.Load() && q.plan != nil {
		plain := *q
		plain.plan = nil
		q = &plain
	}
	s := &Scanner{q: q, parser: C.ts_parser_new(), cursor: C.ts_query_cursor_new()}
	C.ts_query_cursor_set_match_limit(s.cursor, C.uint32_t(matchLimit))
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
// tree has one. When ctx is done, the parse and the query stop within
// milliseconds, in C, and Scan returns an error wrapping ctx.Err().
func (s *Scanner) Scan(ctx context.Context, src []byte) (caps []Capture, errAt uint32, hasError bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, false, fmt.Errorf("parse: %w", err)
	}
	stop := (*int32)(unsafe.Pointer(&s.res.stop))
	atomic.StoreInt32(stop, 0)
	if ctx.Done() != nil {
		// The flag is set from the goroutine that runs AfterFunc's
		// function, while the C code below reads it; the next Scan
		// clears it only once that function is over.
		set := make(chan struct{})
		unhook := context.AfterFunc(ctx, func() {
			atomic.StoreInt32(stop, 1)
			close(set)
		})
		defer func() {
			if !unhook() {
				<-set
			}
		}()
	}
	var p *C.char
	if len(src) > 0 {
		p = (*C.char)(unsafe.Pointer(&src[0]))
	}
	if rc := C.snap_scan_source(s.parser, s.q.lang, s.q.q, s.cursor, s.q.plan, p, C.uint32_t(len(src)), C.uint64_t(s.q.nameMask), s.q.nameField, &s.res); rc != 0 {
		// A parse stopped while tree-sitter balanced its tree leaves the
		// parser marked as balancing, which ts_parser_reset does not clear
		// (tree-sitter 0.25.0; fixed in 0.25.2): the next parse would fail
		// an assertion and abort the process. The parser is replaced.
		if err := s.renewParser(); err != nil {
			return nil, 0, false, err
		}
		switch {
		case s.res.stopped != 0 && ctx.Err() != nil:
			return nil, 0, false, fmt.Errorf("parse: %w", ctx.Err())
		case s.res.over_budget != 0:
			return nil, 0, false, ErrParseBudget
		case s.res.over_limit != 0:
			return nil, 0, false, ErrQueryLimit
		case s.res.too_deep != 0:
			return nil, 0, false, ErrTooDeep
		}
		return nil, 0, false, errors.New("parse: tree-sitter failed (out of memory)")
	}
	if s.res.len > 0 {
		caps = unsafe.Slice((*Capture)(unsafe.Pointer(s.res.caps)), int(s.res.len))
	}
	return caps, uint32(s.res.error_at), s.res.has_error != 0, nil
}

// renewParser replaces the scanner's parser with a new one.
func (s *Scanner) renewParser() error {
	C.ts_parser_delete(s.parser)
	s.parser = C.ts_parser_new()
	if !C.ts_parser_set_language(s.parser, s.q.lang) {
		return errors.New("set language: incompatible grammar version")
	}
	return nil
}

// setBudget sets the next parses' budget in progress checks (0: by the
// source's length), for tests that stop a parse at each point in turn.
func (s *Scanner) setBudget(checks uint64) { s.res.budget = C.uint64_t(checks) }

// CheckWalk parses src with the grammar lang (as NewQuery takes it) and
// walks its tree both ways: the way the plans do (reading tree-sitter's
// subtrees) and with tree-sitter's own cursor. It returns how many nodes
// the walks met, or an error naming the first node where they part. For
// tests: the walk reads tree-sitter's internal layout, which a version
// of tree-sitter other than the one it was written for may have moved.
func CheckWalk(lang unsafe.Pointer, src []byte) (int, error) {
	UseCAllocator()
	wideCtype()
	p := C.ts_parser_new()
	defer C.ts_parser_delete(p)
	if !C.ts_parser_set_language(p, (*C.TSLanguage)(lang)) {
		return 0, errors.New("set language: incompatible grammar version")
	}
	var cs *C.char
	if len(src) > 0 {
		cs = (*C.char)(unsafe.Pointer(&src[0]))
	}
	n := int64(C.snap_walk_check(p, (*C.TSLanguage)(lang), cs, C.uint32_t(len(src))))
	switch {
	case n == math.MinInt64+1:
		return 0, ErrParseBudget
	case n == math.MinInt64:
		return 0, errors.New("parse: tree-sitter failed")
	case n < 0:
		return 0, fmt.Errorf("the walks part at node %d (in document order)", -n-1)
	}
	return int(n), nil
}

var ctypeOnce sync.Once

// wideCtype makes the table that parses point <ctype.h> at (see
// snap_ctype_wide), once. Without the memory for it, parses keep libc's.
func wideCtype() { ctypeOnce.Do(func() { C.snap_ctype_init() }) }

// ErrParseBudget is Scan's error for a file whose parse ran past its
// budget of tree-sitter operations (50 a byte, see snap_parse):
// the grammar's error recovery went round without end. The indexer
// records the file as a parse error and goes on.
var ErrParseBudget = errors.New("parse: tree-sitter's error recovery went past its budget of operations (50 a byte) on this file")

// ErrQueryLimit is Scan's error for a file where the query had more
// than matchLimit matches in progress at once: code nested thousands
// deep, where the query cursor, which steps every match in progress at
// every node, slows down as much, and where tree-sitter would drop
// matches to make room (the extraction would be wrong, not just short),
// or number them past 65,535 and write out of bounds. The indexer records
// the file as a parse error and goes on.
var ErrQueryLimit = fmt.Errorf("query: over %d matches in progress at once (code nested too deep)", matchLimit)

// ErrTooDeep is Scan's error for a file whose tree is nested deeper than
// real code is (see SNAP_MAX_DEPTH): no query runs over it. The indexer
// records the file as a parse error and goes on.
var ErrTooDeep = errors.New("parse: code nested over 10,000 deep")

// Close frees the scanner.
func (s *Scanner) Close() {
	if s.res.caps != nil {
		C.free(unsafe.Pointer(s.res.caps))
		s.res.caps = nil
	}
	if s.res.cands != nil {
		C.free(unsafe.Pointer(s.res.cands))
		s.res.cands = nil
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
