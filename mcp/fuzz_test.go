package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
)

// The inputs of the MCP server fuzzed here: tool arguments (FuzzToolArgs),
// cursors (FuzzCursor), memory names (FuzzMemoryName), and file paths and
// snap://file/ URIs (FuzzFilePath). Seeds live in testdata/fuzz/FuzzXxx,
// made from real calls on querytest's fixture by TestFuzzSeeds.

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite the seed corpora under testdata/fuzz")

// codes are the error codes a tool may answer with.
var codes = []string{CodeSymbolNotFound, CodeAmbiguousSymbol, CodeInvalidArgument, CodeFileNotFound,
	CodePathOutsideRoot, CodeIndexNotReady, CodePagination, CodeSnapshotNotFound, CodeStoreUnavailable, CodeLimitExceeded, CodeIncomparable}

// checkToolError holds a tool error to the contract: a stable code among
// want (any code when want is empty) and a message.
func checkToolError(t *testing.T, terr *ToolError, want ...string) {
	t.Helper()
	if len(want) == 0 {
		want = codes
	}
	if !slices.Contains(want, terr.Code) || terr.Message == "" {
		t.Fatalf("error %s: %q; want a code among %v and a message", terr.Code, terr.Message, want)
	}
}

func fixtureEngine(tb testing.TB) *query.Engine {
	tb.Helper()
	e, err := query.Build(querytest.Fixture())
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// fuzzRegistry offers every tool over the fixture, with memories in a
// temporary folder, and a context as the registry gives its handlers.
func fuzzRegistry(tb testing.TB) (*Registry, context.Context) {
	tb.Helper()
	h := new(query.Holder)
	h.Store(fixtureEngine(tb))
	r, err := NewRegistry(h)
	if err != nil {
		tb.Fatal(err)
	}
	r.WithMemories(filepath.Join(tb.TempDir(), ".snap", "memories"))
	return r, context.WithValue(context.Background(), registryKey{}, r)
}

// pickTool maps any name to a tool: the tool of that name, else one chosen
// by the name's hash, so that every mutation of a name exercises a tool.
func pickTool(tools []*Tool, name string) *Tool {
	if i := slices.IndexFunc(tools, func(t *Tool) bool { return t.Name == name }); i >= 0 {
		return tools[i]
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return tools[h.Sum32()%uint32(len(tools))]
}

// FuzzToolArgs fuzzes the arguments of every tool. Decoding refuses with
// INVALID_ARGUMENT or fills the typed input, which then encodes and
// decodes to the same input, and satisfies the tool's input schema; a
// call answers JSON, an error with a stable code, and never panics.
func FuzzToolArgs(f *testing.F) {
	r, ctx := fuzzRegistry(f)
	tools := r.Tools()
	resolved := map[string]*jsonschema.Resolved{}
	for _, t := range tools {
		rs, err := t.schema.Resolve(nil)
		if err != nil {
			f.Fatalf("%s: %v", t.Name, err)
		}
		resolved[t.Name] = rs
	}
	f.Add("snap_search", []byte(`{"query":"Serve","limit":2}`))
	f.Fuzz(func(t *testing.T, name string, args []byte) {
		tool := pickTool(tools, name)
		typ := reflect.TypeOf(tool.Input).Elem()
		fields := argFields(typ)
		in := reflect.New(typ)
		if terr := decode(tool.Name, args, tool.schema, fields, in.Interface(), DefaultLimit, false); terr != nil {
			checkToolError(t, terr, CodeInvalidArgument, CodeLimitExceeded)
		} else {
			enc, err := json.Marshal(in.Interface())
			if err != nil {
				t.Fatalf("%s: decoded input does not encode: %v", tool.Name, err)
			}
			again := reflect.New(typ)
			if terr := decode(tool.Name, enc, tool.schema, fields, again.Interface(), DefaultLimit, false); terr != nil {
				t.Fatalf("%s: %s decodes to %s, which does not decode: %v", tool.Name, args, enc, terr)
			}
			if enc2, _ := json.Marshal(again.Interface()); string(enc2) != string(enc) {
				t.Fatalf("%s: input changed in a round trip: %s -> %s", tool.Name, enc, enc2)
			}
		}
		if tool.Toolset == ToolsetSettings {
			return // a call would change the registry the next inputs run on
		}
		out, isError := r.CallJSON(ctx, tool.Name, args)
		if !json.Valid(out) {
			t.Fatalf("%s: answer is not JSON: %.200s", tool.Name, out)
		}
		if isError {
			var ans struct{ Error *ToolError }
			if err := json.Unmarshal(out, &ans); err != nil || ans.Error == nil {
				t.Fatalf("%s: error answer %.200s", tool.Name, out)
			}
			checkToolError(t, ans.Error)
			return
		}
		// A call that succeeds had arguments its schema describes, but
		// for what the conventions also take (see asSchemaSays).
		if err := resolved[tool.Name].Validate(asSchemaSays(tool.schema, args)); err != nil {
			t.Fatalf("%s: answered %s, which its schema refuses: %v", tool.Name, args, err)
		}
	})
}

// asSchemaSays decodes the arguments of a successful call as a client
// following the schema would have sent them: without null arguments (nor
// "" for a choice among values), and with ids given as numbers written as
// strings.
func asSchemaSays(schema *jsonschema.Schema, args []byte) any {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return map[string]any{}
	}
	var conv func(s *jsonschema.Schema, v any) any
	conv = func(s *jsonschema.Schema, v any) any {
		switch v := v.(type) {
		case json.Number:
			if s != nil && s.Type == "string" && s.Pattern == typeSchemas[reflect.TypeFor[ID]()].Pattern {
				return v.String()
			}
			f, _ := v.Float64()
			return f
		case []any:
			for i := range v {
				var items *jsonschema.Schema
				if s != nil {
					items = s.Items
				}
				v[i] = conv(items, v[i])
			}
		case map[string]any:
			for k := range v {
				v[k] = conv(nil, v[k])
			}
		}
		return v
	}
	for k, v := range m {
		if p := schema.Properties[k]; v == nil || v == "" && p != nil && len(p.Enum) > 0 {
			delete(m, k) // "" for a choice is its default, as absent is
			continue
		}
		m[k] = conv(schema.Properties[k], v)
	}
	return m
}

// FuzzCursor fuzzes the cursors clients send back. A cursor the server
// did not issue for this query on this snapshot is refused with
// PAGINATION_ERROR; one it issued leads back to its page.
func FuzzCursor(f *testing.F) {
	e := fixtureEngine(f)
	s := querytest.Fixture()
	s.Manifest.Commit = "0123456789abcdef"
	other, err := query.Build(s)
	if err != nil {
		f.Fatal(err)
	}
	f.Add("", "snap_search", uint64(1), 10)
	f.Fuzz(func(t *testing.T, cursor, tool string, q uint64, offset int) {
		tool = pickTool(catalog, tool).Name // cursors are bound to the tools' names
		p := &page{Cursor: cursor}
		p.bind(tool, q, 0)
		off, limit, terr := p.window(e)
		if terr != nil {
			checkToolError(t, terr, CodePagination)
		} else if off < 0 || limit < 1 || limit > MaxLimit || cursor == "" && off != 0 {
			t.Fatalf("window(%q) = %d, %d", cursor, off, limit)
		}
		if offset < 0 {
			return
		}
		// What next issues, window reads back, for this query only.
		issued := p.next(e, offset)
		back := &page{Cursor: issued}
		back.bind(tool, q, 0)
		if off, _, terr := back.window(e); terr != nil || off != offset {
			t.Fatalf("cursor %q of offset %d reads back as %d, %v", issued, offset, off, terr)
		}
		for _, wrong := range []*page{{Cursor: issued, tool: tool + "x", query: q}, {Cursor: issued, tool: tool, query: q + 1}} {
			if _, _, terr := wrong.window(e); terr == nil || terr.Code != CodePagination {
				t.Fatalf("cursor %q accepted for another query: %v", issued, terr)
			}
		}
		if _, _, terr := back.window(other); terr == nil || terr.Code != CodePagination {
			t.Fatalf("cursor %q accepted on another snapshot: %v", issued, terr)
		}
	})
}

// TestQueryHashIgnoresNull: a cursor stays valid when the query is sent
// again with an argument null instead of absent, or spaced otherwise.
func TestQueryHashIgnoresNull(t *testing.T) {
	hash := func(args string) uint64 {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(args), &m); err != nil {
			t.Fatal(err)
		}
		return queryHash(m)
	}
	want := hash(`{"name":"Serve","kinds":["calls"]}`)
	for _, args := range []string{
		`{"name":"Serve","kinds":["calls"],"file":null}`,
		`{ "kinds" : [ "calls" ], "name" : "Serve", "limit": 3, "cursor": "x" }`,
	} {
		if got := hash(args); got != want {
			t.Errorf("%s hashes apart from the same query", args)
		}
	}
	if hash(`{"name":"Serve","kinds":["calls"],"file":"a.go"}`) == want {
		t.Error("another query hashes the same")
	}
}

// FuzzMemoryName fuzzes memory names: a name the tools take is a plain
// file name in the memories' folder, the name the tools give back.
func FuzzMemoryName(f *testing.F) {
	r, ctx := fuzzRegistry(f)
	dir := r.memories
	f.Add("notes")
	f.Fuzz(func(t *testing.T, name string) {
		p, terr := memoryPath(ctx, "name", name)
		if terr != nil {
			checkToolError(t, terr, CodeInvalidArgument, CodePathOutsideRoot)
			if bare := strings.TrimSuffix(name, ".md"); strings.Contains(bare, "..") || strings.ContainsAny(bare, `/\`) {
				if terr.Code != CodePathOutsideRoot {
					t.Fatalf("memoryPath(%q) = %s, want %s", name, terr.Code, CodePathOutsideRoot)
				}
			}
			return
		}
		if filepath.Dir(p) != dir {
			t.Fatalf("memoryPath(%q) = %q, outside %s", name, p, dir)
		}
		base, ok := strings.CutSuffix(filepath.Base(p), ".md")
		if !ok || !memoryName.MatchString(base) || base != strings.TrimSuffix(name, ".md") {
			t.Fatalf("memoryPath(%q) = %q", name, p)
		}
		if !utf8.ValidString(base) || strings.ContainsAny(base, "/\\\x00") || base == "." || base == ".." {
			t.Fatalf("memoryPath(%q) = %q", name, p)
		}
	})
}

// FuzzFilePath fuzzes the paths read_file and list_dir take and the
// snap://file/ URIs of resources: a path that leaves the repository root
// is refused as such, and what is accepted is a path of the snapshot.
func FuzzFilePath(f *testing.F) {
	e := fixtureEngine(f)
	f.Add("src/net/http/server.go")
	f.Fuzz(func(t *testing.T, p string) {
		got, terr := resolveFile(e, "path", p)
		slashed := strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
		escapes := strings.HasPrefix(slashed, "/") || len(slashed) > 1 && slashed[1] == ':' ||
			path.Clean(slashed) == ".." || strings.HasPrefix(path.Clean(slashed), "../")
		switch {
		case terr != nil:
			checkToolError(t, terr, CodeInvalidArgument, CodePathOutsideRoot, CodeFileNotFound)
			if escapes && terr.Code != CodePathOutsideRoot {
				t.Fatalf("resolveFile(%q) = %s, want %s", p, terr.Code, CodePathOutsideRoot)
			}
		case escapes:
			t.Fatalf("resolveFile(%q) = %q, a path outside the root", p, got)
		case !slices.Contains(e.AllPaths(), got):
			t.Fatalf("resolveFile(%q) = %q, not a path of the snapshot", p, got)
		}

		// The resource of a URI is a path of the snapshot, or an error.
		uri := filePrefix + p
		rp, err := resourcePath(uri)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "resource ") || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("resourcePath(%q): unclear error %q", uri, msg)
			}
		} else if strings.HasPrefix(rp, "/") || rp == ".." || strings.HasPrefix(rp, "../") || strings.Contains(rp, "/../") ||
			strings.HasSuffix(rp, "/..") || strings.ContainsRune(rp, 0) {
			t.Fatalf("resourcePath(%q) = %q, outside the root", uri, rp)
		}
		// Every path of the snapshot has a URI that names it, escaped as a
		// client expands {+path}.
		if known := e.AllPaths(); len(known) > 0 {
			want := known[len(p)%len(known)]
			if got, err := resourcePath(filePrefix + escapePath(want)); err != nil || got != want {
				t.Fatalf("resourcePath of %q = %q, %v", want, got, err)
			}
		}
	})
}

// escapePath escapes p as a client expanding {+path} may: reserved and
// unreserved characters stay, the rest (and '%') is percent-encoded.
func escapePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// TestFuzzSeeds writes the seed corpora from real calls on the fixture:
// the golden calls' arguments, cursors the server issued, names and paths
// with their attacks; -update-fuzz-seeds rewrites them.
func TestFuzzSeeds(t *testing.T) {
	r, ctx := fuzzRegistry(t)
	seeds := map[string]map[string][]any{"FuzzToolArgs": {}, "FuzzCursor": {}, "FuzzMemoryName": {}, "FuzzFilePath": {}}
	calls := map[string][2]string{
		"search":         {"snap_search", `{"query":"Serve","limit":2,"kinds":["method"]}`},
		"find_symbol":    {"snap_find_symbol", `{"name":"Client.Do","body":true}`},
		"callers":        {"snap_calls", `{"name":"Server.Serve","limit":1}`},
		"impact":         {"snap_impact", `{"name":"Client.send","depth":10,"direction":"out"}`},
		"bad_enum":       {"snap_impact", `{"name":"Client.send","direction":"downstream"}`},
		"path":           {"snap_path", `{"from":"main.main","to":"Client.send"}`},
		"read_file":      {"snap_read_file", `{"file":"server.go","start_line":3,"end_line":9}`},
		"read_outside":   {"snap_read_file", `{"file":"../../etc/passwd"}`},
		"list_dir":       {"snap_list_dir", `{"dir":"src/net"}`},
		"context":        {"snap_context", `{"task":"send an HTTP request with the client","tokens":300}`},
		"write_memory":   {"snap_write_memory", `{"name":"plan","content":"# Plan\nfirst"}`},
		"memory_escape":  {"snap_write_memory", `{"name":"../../x","content":"x"}`},
		"edit_memory":    {"snap_edit_memory", `{"name":"plan","find":"(f)irst","replacement":"$1ast","mode":"regex"}`},
		"id_as_string":   {"snap_node", `{"id":"18446744073709551615"}`},
		"wrong_type":     {"snap_calls", `{"name":["x"],"limit":"ten"}`},
		"unknown_arg":    {"snap_stats", `{"bogus":1}`},
		"not_an_object":  {"snap_search", `["query"]`},
		"nulls":          {"snap_search", `{"query":"Serve","limit":null,"cursor":null}`},
		"huge_number":    {"snap_impact", `{"name":"Client.Do","depth":1e309}`},
		"duplicate_keys": {"snap_search", `{"query":"a","query":"Serve"}`},
	}
	for name, c := range calls {
		seeds["FuzzToolArgs"][name] = []any{c[0], []byte(c[1])}
	}
	// Cursors the server issued, with the query they belong to.
	for name, c := range map[string][2]string{"callers": calls["callers"], "search": calls["search"]} {
		out, isError := r.CallJSON(ctx, c[0], json.RawMessage(c[1]))
		var ans struct {
			Next string `json:"next_cursor"`
		}
		if err := json.Unmarshal(out, &ans); err != nil || isError || ans.Next == "" {
			t.Fatalf("%s: no cursor in %s", c[0], out)
		}
		var m map[string]json.RawMessage
		json.Unmarshal([]byte(c[1]), &m)
		seeds["FuzzCursor"][name] = []any{ans.Next, c[0], queryHash(m), 1}
		var args map[string]any
		json.Unmarshal([]byte(c[1]), &args)
		args["cursor"] = ans.Next
		raw, _ := json.Marshal(args)
		seeds["FuzzToolArgs"][name+"_page2"] = []any{c[0], raw}
	}
	seeds["FuzzCursor"]["forged"] = []any{"MXxmcHx0b29sfDB8LTE", "snap_search", uint64(0), -1}
	seeds["FuzzCursor"]["empty"] = []any{"", "snap_calls", uint64(7), 0}
	for _, name := range []string{"plan", "plan.md", "../plan", "a/b", `a\b`, "..", ".hidden", "/etc/passwd", "a\x00b", "C:x", strings.Repeat("n", 101), "ünïcode", "x.md.md"} {
		seeds["FuzzMemoryName"][name] = []any{name}
	}
	for _, p := range []string{"src/net/http/server.go", "server.go", "../../etc/passwd", "/etc/passwd", `..\..\x`, "C:/x", "a\x00b",
		"..%2F..%2Fetc%2Fpasswd", "src/net/../../../x", "./src//net/http/server.go", "%2e%2e/%2e%2e/x", " server.go "} {
		seeds["FuzzFilePath"][p] = []any{p}
	}
	for target, files := range seeds {
		dir := filepath.Join("testdata", "fuzz", target)
		for name, values := range files {
			var b strings.Builder
			b.WriteString("go test fuzz v1\n")
			for _, v := range values {
				switch v := v.(type) {
				case string:
					b.WriteString("string(" + strconv.Quote(v) + ")\n")
				case []byte:
					b.WriteString("[]byte(" + strconv.Quote(string(v)) + ")\n")
				case uint64:
					b.WriteString("uint64(" + strconv.FormatUint(v, 10) + ")\n")
				case int:
					b.WriteString("int(" + strconv.Itoa(v) + ")\n")
				}
			}
			file := filepath.Join(dir, seedName(name))
			if *updateSeeds {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if got, err := os.ReadFile(file); err != nil || string(got) != b.String() {
				t.Errorf("%s is missing or stale (%v): run go test -run TestFuzzSeeds -update-fuzz-seeds ./mcp", file, err)
			}
		}
	}
}

// seedName makes a file name of a seed's name.
func seedName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	h := fnv.New32a()
	h.Write([]byte(s))
	return b.String()[:min(b.Len(), 40)] + "_" + strconv.FormatUint(uint64(h.Sum32()), 16)
}
