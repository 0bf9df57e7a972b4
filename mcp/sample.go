package mcp

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path"
	"slices"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

// Call is one call of a tool: its name and arguments.
type Call struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
}

// SampleCalls returns a typical call of every tool that reads the
// snapshot, with arguments taken from e itself, for benchmarks and load
// tests: the same calls for the same snapshot, whatever its language.
//
// The subject is a function as an agent would ask about: one with
// callers, at the 90th percentile of caller counts (the median function
// has one or none; the most called is a logging helper), and whose
// qualified name designates it alone. The tools that
// need a second symbol take one of its callers, or, for a path, a caller
// of that caller.
func SampleCalls(e *query.Engine) ([]Call, error) {
	type cand struct {
		row     int32
		callers int
	}
	var cands []cand
	for r := range int32(e.NumNodes()) {
		n := e.Node(r)
		if (n.Kind != schemas.KindFunction && n.Kind != schemas.KindMethod) || n.IsTest {
			continue
		}
		if c := e.Degree(r, query.Calls, query.In); c > 0 {
			cands = append(cands, cand{r, c})
		}
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("the snapshot has no called function to sample")
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.callers, b.callers) })
	// The nearest to the 90th percentile, up then down, whose qualified
	// name finds it alone: not one declared once per build, which
	// snap_symbol would rightly call ambiguous.
	at := len(cands) * 9 / 10
	order := make([]int, 0, len(cands))
	for i := at; i < len(cands); i++ {
		order = append(order, i)
	}
	for i := at - 1; i >= 0; i-- {
		order = append(order, i)
	}
	for _, i := range order {
		if len(e.Find(e.NodeQName(cands[i].row), "")) == 1 {
			at = i
			break
		}
	}
	subject := cands[at].row
	n := e.Node(subject)
	callers := e.Callers(subject)
	caller := callers[0].Node
	far := caller // the start of a path two calls long, when there is one
	for _, l := range callers {
		if up := e.Callers(l.Node); len(up) > 0 && up[0].Node != subject {
			caller, far = l.Node, up[0].Node
			break
		}
	}
	id := func(r int32) string { return idString(e.NodeID(r)) }
	name := func(r int32) string { return e.NodeQName(r) }
	dir := path.Dir(n.File)
	if dir == "." {
		dir = ""
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"snap_status", nil},
		{"snap_status", map[string]any{"detail": "stats"}},
		{"snap_status", map[string]any{"detail": "manifest"}},
		{"snap_search", map[string]any{"query": n.Name}},
		{"snap_symbol", map[string]any{"name": n.QualifiedName, "include_body": true}},
		{"snap_symbol", map[string]any{"id": id(subject)}},
		{"snap_symbols_overview", map[string]any{"file": n.File}},
		{"snap_symbols_overview", map[string]any{"file": n.File, "kinds": []string{n.Kind}}},
		{"snap_find_references", map[string]any{"id": id(subject)}},
		{"snap_calls", map[string]any{"id": id(subject)}},
		{"snap_calls", map[string]any{"id": id(caller), "direction": "out"}},
		{"snap_call_details", map[string]any{"from_id": id(caller), "to_id": id(subject)}},
		{"snap_impact", map[string]any{"id": id(subject)}},
		{"snap_path", map[string]any{"from_id": id(far), "to_id": id(subject)}},
		{"snap_explore", map[string]any{"id": id(subject)}},
		{"snap_map", map[string]any{"ids": []string{id(far), id(caller), id(subject)}}},
		{"snap_rank", map[string]any{"ids": []string{id(subject)}}},
		{"snap_dependencies", map[string]any{"id": id(caller)}},
		{"snap_dependents", map[string]any{"id": id(subject)}},
		{"snap_context", map[string]any{"task": "change how " + n.Name + " works"}},
		{"snap_ask", map[string]any{"question": "who calls " + name(subject)}},
		{"snap_verify", map[string]any{"claim": name(caller) + " calls " + name(subject)}},
		{"snap_read_file", map[string]any{"file": n.File, "start_line": n.StartLine, "end_line": n.EndLine}},
		{"snap_list_dir", map[string]any{"dir": dir}},
		{"snap_find_file", map[string]any{"pattern": path.Base(n.File)}},
		{"snap_config", nil},
	}
	if imp, from := sampleImport(e, n.File); imp != "" {
		calls = append(calls, struct {
			tool string
			args map[string]any
		}{"snap_resolve_import", map[string]any{"import": imp, "from": from}})
	}
	out := make([]Call, len(calls))
	for i, c := range calls {
		args := []byte("{}")
		if c.args != nil {
			var err error
			if args, err = json.Marshal(c.args); err != nil {
				return nil, err
			}
		}
		out[i] = Call{c.tool, args}
	}
	return out, nil
}

// sampleImport returns an import as written and the file that has it:
// one of file's that resolves, else any of file's, else the first import
// of the snapshot that resolves.
func sampleImport(e *query.Engine, file string) (string, string) {
	if r, ok := e.FileNode(file); ok {
		var first string
		for _, l := range e.Imports(r) {
			ed := e.Edge(l.Edge)
			if first == "" {
				first = query.ImportText(ed.Target)
			}
			if ed.Dst != 0 {
				return query.ImportText(ed.Target), file
			}
		}
		if first != "" {
			return first, file
		}
	}
	for i := range int32(e.NumEdges()) {
		if _, to := e.EdgeEnds(i); to >= 0 && e.EdgeKind(i) == query.Imports {
			ed := e.Edge(i)
			return query.ImportText(ed.Target), ed.File
		}
	}
	return "", ""
}
