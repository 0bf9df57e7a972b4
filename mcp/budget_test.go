package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
)

// Budgets of tools/list for the default toolsets: what a model reads of
// it before its first question (names, descriptions and input schemas),
// in tokens of 4 bytes, and how many tools it holds.
const (
	maxDefaultListTokens = 2500
	maxDefaultTools      = 12
)

// TestToolsListSizes holds what tools/list costs a model, per toolset,
// in testdata/tools_list_sizes.json: tokens of the names, descriptions
// and input schemas, and with the output schemas. The default toolsets
// stay within maxDefaultListTokens and maxDefaultTools; a tool or an
// argument that grows them shows in the golden's difference.
func TestToolsListSizes(t *testing.T) {
	type size struct {
		Tools        int `json:"tools"`
		Tokens       int `json:"tokens"`                     // names, descriptions, input schemas
		WithOutput   int `json:"tokens_with_output_schemas"` // and output schemas
		WireWithMeta int `json:"wire_tokens"`                // the whole tools/list result
	}
	measure := func(toolsets []string) size {
		t.Helper()
		c, _ := connect(t, mcp.Options{Toolsets: toolsets})
		list, err := c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		wire, _ := json.Marshal(list.Tools)
		s := size{Tools: len(list.Tools), WireWithMeta: len(wire) / 4}
		for _, tool := range list.Tools {
			in := tool.RawInputSchema
			if len(in) == 0 {
				in, _ = json.Marshal(tool.InputSchema)
			}
			out := tool.RawOutputSchema
			if len(out) == 0 {
				out, _ = json.Marshal(tool.OutputSchema)
			}
			// As a model reads it: the JSON of the three, no escaping of
			// < and >.
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.Encode(struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			}{tool.Name, tool.Description, in})
			n := b.Len() - 1
			s.Tokens += n
			s.WithOutput += n + len(`,"outputSchema":`) + len(out)
		}
		s.Tokens /= 4
		s.WithOutput /= 4
		return s
	}
	sizes := map[string]size{"default": measure(mcp.DefaultToolsets), "all": measure(nil)}
	for _, ts := range mcp.Toolsets {
		sizes[ts] = measure([]string{ts})
	}
	def := sizes["default"]
	t.Logf("default toolsets: %d tools, %d tokens (%d with output schemas)", def.Tools, def.Tokens, def.WithOutput)
	if def.Tokens > maxDefaultListTokens || def.Tools > maxDefaultTools {
		t.Errorf("tools/list of the default toolsets: %d tools, %d tokens; the budget is %d tools, %d tokens",
			def.Tools, def.Tokens, maxDefaultTools, maxDefaultListTokens)
	}
	got, _ := json.MarshalIndent(sizes, "", "  ")
	got = append(got, '\n')
	file := filepath.Join("testdata", "tools_list_sizes.json")
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("tools/list sizes changed: run go test ./mcp -update and review\n got %s\nwant %s", got, want)
	}
}

// testsHolder is the fixture with cmd/app/main.go a test file.
func testsHolder(t *testing.T) *query.Holder {
	t.Helper()
	s := querytest.Fixture()
	for i := range s.Files {
		if s.Files[i].Path == "cmd/app/main.go" {
			s.Files[i].IsTest = true
		}
	}
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	h := new(query.Holder)
	h.Store(e)
	return h
}

func call(t *testing.T, r *mcp.Registry, tool, args string) map[string]any {
	t.Helper()
	out, isError := r.CallJSON(context.Background(), tool, json.RawMessage(args))
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil || isError {
		t.Fatalf("%s %s: %s", tool, args, out)
	}
	return m
}

// qnames lists the qname of each item of list.
func qnames(list any) []string {
	var out []string
	items, _ := list.([]any)
	for _, it := range items {
		out = append(out, it.(map[string]any)["qname"].(string))
	}
	return out
}

func TestTestsApart(t *testing.T) {
	r := registry(t, testsHolder(t))
	// impact leaves tests out by default, and counts them.
	m := call(t, r, "snap_impact", `{"name":"net/http.ListenAndServe"}`)
	if m["tests"] != 1.0 || m["total"] != 0.0 || !strings.Contains(fmt.Sprint(m["hint"]), "tests include") {
		t.Errorf("impact, tests left out: %v", m)
	}
	m = call(t, r, "snap_impact", `{"name":"net/http.ListenAndServe","tests":"only"}`)
	level := m["levels"].([]any)[0].(map[string]any)
	if got := qnames(level["symbols"]); !slices.Equal(got, []string{"main.main"}) {
		t.Errorf("impact, tests only: %v", m)
	}
	// Calls put non-test code first.
	m = call(t, r, "snap_calls", `{"name":"net/http.(*Server).ListenAndServe"}`)
	all := qnames(m["callers"])
	m = call(t, r, "snap_calls", `{"name":"net/http.(*Server).ListenAndServe","tests":"exclude"}`)
	code := qnames(m["callers"])
	if m["tests"] != nil || !slices.Equal(code, all) {
		t.Errorf("callers of a method no test calls: %v, then %v", all, code)
	}
	m = call(t, r, "snap_calls", `{"name":"net/http.ListenAndServe","tests":"exclude"}`)
	if m["tests"] != 1.0 || m["total"] != 0.0 || m["callers"] != nil {
		t.Errorf("callers, tests left out: %v", m)
	}
	// Search: tests last, or alone.
	m = call(t, r, "snap_search", `{"query":"main","tests":"only"}`)
	for _, h := range m["results"].([]any) {
		if loc := h.(map[string]any)["loc"].(string); !strings.HasPrefix(loc, "cmd/app/main.go:") {
			t.Errorf("search, tests only: %s", loc)
		}
	}
	m = call(t, r, "snap_search", `{"query":"main","limit":100}`)
	locs := m["results"].([]any)
	seenTest := false
	for _, h := range locs {
		test := strings.HasPrefix(h.(map[string]any)["loc"].(string), "cmd/app/main.go:")
		if seenTest && !test {
			t.Errorf("search: non-test code after tests: %v", locs)
		}
		seenTest = seenTest || test
	}
	if !seenTest || m["tests"] == nil {
		t.Errorf("search found no test code: %v", m)
	}
}

// TestBudgetPages checks that an answer cut by max_tokens says how much it
// left out, and that its cursor brings the rest, nothing lost, nothing
// twice.
func TestBudgetPages(t *testing.T) {
	r := registry(t, holder(t))
	whole := call(t, r, "snap_search", `{"query":"s","limit":1000,"max_tokens":100000}`)
	want := qnames(whole["results"])
	if len(want) < 10 {
		t.Fatalf("search s: %d hits, too few to page", len(want))
	}
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		args := `{"query":"s","limit":1000,"max_tokens":300` + cursor + `}`
		out, _ := r.CallJSON(context.Background(), "snap_search", json.RawMessage(args))
		if len(out) > 300*4 {
			t.Errorf("page of %d bytes, over max_tokens 300", len(out))
		}
		var m map[string]any
		json.Unmarshal(out, &m)
		got = append(got, qnames(m["results"])...)
		next, _ := m["next_cursor"].(string)
		if next == "" {
			if m["more"] != nil {
				t.Errorf("last page says more: %v", m)
			}
			break
		}
		if more := m["more"].(float64); int(more) != len(want)-len(got) {
			t.Errorf("more = %v after %d of %d", more, len(got), len(want))
		}
		if pages > len(want) {
			t.Fatal("the pages do not end")
		}
		cursor = `,"cursor":"` + next + `"`
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages hold\n%v\nwant\n%v", got, want)
	}
}

// TestOverviewMembers checks that a symbol too large for the budget comes
// with the members that fit, and that within lists the rest.
func TestOverviewMembers(t *testing.T) {
	r := registry(t, holder(t))
	var m, last map[string]any
	var cut float64
	for cursor := ""; cut == 0; {
		m = call(t, r, "snap_symbols_overview", `{"file":"src/net/http/server.go","max_tokens":150`+cursor+`}`)
		syms := m["symbols"].([]any)
		last = syms[len(syms)-1].(map[string]any)
		cut, _ = last["more"].(float64)
		next, _ := m["next_cursor"].(string)
		if cut == 0 && next == "" {
			t.Fatalf("no member cut: %v", m)
		}
		cursor = `,"cursor":"` + next + `"`
	}
	if !strings.Contains(m["hint"].(string), "within") {
		t.Errorf("hint: %v", m["hint"])
	}
	name := last["name"].(string)
	w := call(t, r, "snap_symbols_overview", `{"file":"src/net/http/server.go","within":"`+name+`","max_tokens":100000}`)
	if n := len(w["symbols"].([]any)); n != len(last["children"].([]any))+int(cut) {
		t.Errorf("within %s: %d members, want %d shown + %v cut", name, n, len(last["children"].([]any)), cut)
	}
}

// TestGraphEdgesCapped checks that a drawing holds at most max_edges edges
// and says how many it left out.
func TestGraphEdgesCapped(t *testing.T) {
	r := registry(t, holder(t))
	whole := call(t, r, "snap_explore", `{"name":"Client.Do","depth":2}`)
	capped := call(t, r, "snap_explore", `{"name":"Client.Do","depth":2,"max_edges":1}`)
	arrows := strings.Count(capped["mermaid"].(string), "-->") + strings.Count(capped["mermaid"].(string), "-.->")
	if capped["edges"] != 1.0 || arrows != 1 || capped["edges_left"] != whole["edges"].(float64)-1 {
		t.Errorf("max_edges 1: %v (whole: %v edges)", capped, whole["edges"])
	}
}

// TestQNamesResolve checks that every symbol an answer lists is selected
// again by its qname (and id when it gives one).
func TestQNamesResolve(t *testing.T) {
	r := registry(t, holder(t))
	m := call(t, r, "snap_search", `{"query":"e","limit":1000,"max_tokens":100000}`)
	for _, h := range m["results"].([]any) {
		s := h.(map[string]any)
		args, _ := json.Marshal(map[string]any{"name": s["qname"], "id": s["id"]})
		got := call(t, r, "snap_symbol", string(args))["symbol"].(map[string]any)
		if got["loc"] != s["loc"] || got["qname"] != s["qname"] {
			t.Errorf("%v resolves to %v", s, got)
		}
	}
}

// TestReadFileBudget checks that a file read within max_tokens comes in
// whole lines, and next_start reads on where the answer stopped.
func TestReadFileBudget(t *testing.T) {
	h := holder(t)
	r := registry(t, h)
	src, _ := h.Load().Source("src/net/http/server.go")
	var got strings.Builder
	for start := 1.0; start > 0; {
		m := call(t, r, "snap_read_file", fmt.Sprintf(`{"file":"src/net/http/server.go","start_line":%d,"max_tokens":100}`, int(start)))
		if len(m["content"].(string)) > 400 {
			t.Errorf("%d bytes over max_tokens 100", len(m["content"].(string)))
		}
		got.WriteString(m["content"].(string))
		next, _ := m["next_start"].(float64)
		if next != 0 && next != m["end"].(float64)+1 {
			t.Fatalf("next_start %v after end %v", next, m["end"])
		}
		start = next
	}
	if got.String() != string(src) {
		t.Errorf("the pages do not make the file")
	}
}

// TestInstructionsNameOfferedTools checks that the server's instructions
// send an agent only to tools the default toolsets offer.
func TestInstructionsNameOfferedTools(t *testing.T) {
	c, _ := connect(t, mcp.Options{Toolsets: mcp.DefaultToolsets})
	list, err := c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var offered []string
	for _, tool := range list.Tools {
		offered = append(offered, tool.Name)
	}
	named := regexp.MustCompile(`snap_[a-z_]+`).FindAllString(mcp.Instructions, -1)
	if len(named) == 0 {
		t.Fatalf("the instructions name no tool: %s", mcp.Instructions)
	}
	for _, name := range named {
		if !slices.Contains(offered, name) {
			t.Errorf("the instructions name %s, which the default toolsets do not offer (%v)", name, offered)
		}
	}
}

// TestExploreTestsApart checks that explore leaves test code out when
// asked, counting it, and draws no edge to what it left out.
func TestExploreTestsApart(t *testing.T) {
	r := registry(t, testsHolder(t))
	all := call(t, r, "snap_explore", `{"name":"net/http.ListenAndServe"}`)
	code := call(t, r, "snap_explore", `{"name":"net/http.ListenAndServe","tests":"exclude"}`)
	if !slices.Contains(qnames(all["nodes"]), "main.main") || slices.Contains(qnames(code["nodes"]), "main.main") {
		t.Errorf("main.main, test code: %v, then %v", qnames(all["nodes"]), qnames(code["nodes"]))
	}
	if code["tests"] != 1.0 || code["edges_left"] != nil || code["edges"] != all["edges"].(float64)-1 {
		t.Errorf("tests exclude: %v (include: %v)", code, all)
	}
}

// TestFilesTestsApart holds the file tools to the tests argument: a test
// file is listed last, alone, or not at all, and counted.
func TestFilesTestsApart(t *testing.T) {
	r := registry(t, testsHolder(t))
	const test = "cmd/app/main.go"
	m := call(t, r, "snap_find_file", `{"pattern":"main.go","tests":"exclude"}`)
	if strings.Contains(fmt.Sprint(m["paths"]), test) || m["tests"] != 1.0 {
		t.Errorf("find_file, tests left out: %v", m)
	}
	m = call(t, r, "snap_find_file", `{"pattern":"main.go","tests":"only"}`)
	if fmt.Sprint(m["paths"]) != "["+test+"]" {
		t.Errorf("find_file, tests only: %v", m)
	}
	m = call(t, r, "snap_list_dir", `{"dir":"cmd/app","tests":"exclude"}`)
	if m["tests"] != 1.0 || strings.Contains(fmt.Sprint(m["entries"]), "main.go") {
		t.Errorf("list_dir, tests left out: %v", m)
	}
	m = call(t, r, "snap_list_dir", `{"dir":"cmd/app"}`)
	if !strings.Contains(fmt.Sprint(m["entries"]), "main.go") {
		t.Errorf("list_dir lists no test file by default: %v", m)
	}
	m = call(t, r, "snap_dependents", `{"name":"net/http","tests":"only"}`)
	for _, d := range m["dependents"].([]any) {
		if loc := d.(map[string]any)["loc"].(string); !strings.HasPrefix(loc, test) {
			t.Errorf("dependents, tests only: %v", m)
		}
	}
	if m["tests"] == nil {
		t.Errorf("dependents of net/http count no test: %v", m)
	}
}
