package mcp

import (
	"fmt"
	"strings"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

// sym is a symbol as lists show it (see docs/mcp.md, "Answer style"): its
// qualified name, which any tool takes back as name, its kind and where
// it is defined (file:line). Its name is given only when the qualified
// name does not end with it, its id only when another symbol has the same
// qualified name (or when it is the subject of the answer).
type sym struct {
	QName string `json:"qname"`
	Name  string `json:"name,omitempty"`
	Kind  string `json:"kind"`
	Loc   string `json:"loc"`
	ID    string `json:"id,omitempty"`
}

func symOf(e *query.Engine, r int32) sym {
	qname, name := e.NodeQName(r), e.NodeName(r)
	s := sym{QName: qname, Kind: e.NodeKind(r), Loc: loc(e.NodeFile(r), e.Node(r).StartLine)}
	if !strings.HasSuffix(qname, name) {
		s.Name = name
	}
	if ambiguous(e, r) {
		s.ID = idString(e.NodeID(r))
	}
	return s
}

// subjectOf is the symbol an answer is about, with its id.
func subjectOf(e *query.Engine, r int32) sym {
	s := symOf(e, r)
	s.ID = idString(e.NodeID(r))
	return s
}

// ambiguous reports whether the qualified name of r names another symbol
// too, so that it does not select r alone.
func ambiguous(e *query.Engine, r int32) bool {
	rows := e.Find(e.NodeQName(r), "")
	return len(rows) != 1 || rows[0] != r
}

// loc is where a symbol is defined: file:line.
func loc(file string, line uint32) string { return fmt.Sprintf("%s:%d", file, line) }

// siteLoc is where an edge is written: file:line.
func siteLoc(ed schemas.Edge) string { return loc(ed.File, ed.Line) }

// siteLocs are where edges are written, as one list shows them: file:line,
// and file:line:col for the edges that share their line with another of
// the list, where the line alone would not tell them apart.
func siteLocs(e *query.Engine, edges []int32) []string {
	lines := make(map[string]int, len(edges))
	out := make([]string, len(edges))
	for i, ei := range edges {
		out[i] = siteLoc(e.Edge(ei))
		lines[out[i]]++
	}
	for i, ei := range edges {
		if lines[out[i]] > 1 {
			out[i] += fmt.Sprintf(":%d", e.Edge(ei).Col)
		}
	}
	return out
}

// maxSignature bounds a signature as lists show it.
const maxSignature = 120

// signatureOf is r's signature on one line, cut at maxSignature bytes.
func signatureOf(e *query.Engine, r int32) string {
	sig := strings.Join(strings.Fields(e.Node(r).Signature), " ")
	if len(sig) > maxSignature {
		cut := maxSignature
		for cut > 0 && sig[cut]&0xc0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
		sig = sig[:cut] + "…"
	}
	return sig
}

// info is a symbol with everything the snapshot knows of it.
type info struct {
	QName      string   `json:"qname"`
	Name       string   `json:"name,omitempty"`
	Kind       string   `json:"kind"`
	ID         string   `json:"id"`
	Language   string   `json:"language,omitempty"`
	Loc        string   `json:"loc"`
	End        int      `json:"end_line"`
	Signature  string   `json:"signature,omitempty"`
	Doc        string   `json:"doc,omitempty"`
	Visibility string   `json:"visibility,omitempty"`
	Exported   bool     `json:"exported,omitempty"`
	Flags      []string `json:"flags,omitempty"`
	Decorators []string `json:"decorators,omitempty"`
	Parent     *sym     `json:"parent,omitempty"`
	Callers    int      `json:"callers"`
	Callees    int      `json:"callees"`
}

func infoOf(e *query.Engine, r int32) info {
	n := e.Node(r)
	s := subjectOf(e, r)
	in := info{
		QName: s.QName, Name: s.Name, Kind: s.Kind, ID: s.ID, Language: n.Language,
		Loc: s.Loc, End: int(n.EndLine),
		Signature: n.Signature, Doc: n.Doc, Visibility: n.Visibility, Exported: n.Exported,
		Decorators: n.Decorators,
		Callers:    e.Degree(r, query.Calls, query.In) + e.Degree(r, query.Instantiates, query.In),
		Callees:    e.Degree(r, query.Calls, query.Out) + e.Degree(r, query.Instantiates, query.Out),
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{n.IsAsync, "async"}, {n.IsStatic, "static"}, {n.IsAbstract, "abstract"}, {e.IsTest(r), "test"}, {e.IsGenerated(r), "generated"}} {
		if f.on {
			in.Flags = append(in.Flags, f.name)
		}
	}
	if p, ok := e.Parent(r); ok && e.NodeKind(p) != schemas.KindFile { // loc names the file
		s := symOf(e, p)
		in.Parent = &s
	}
	return in
}

// edgeKinds parses kind names, defaulting to def.
func edgeKinds(arg string, names []string, def []query.EdgeKind) ([]query.EdgeKind, []string, *ToolError) {
	if len(names) == 0 {
		names = make([]string, len(def))
		for i, k := range def {
			names[i] = k.String()
		}
		return def, names, nil
	}
	kinds := make([]query.EdgeKind, len(names))
	for i, s := range names {
		k, ok := query.ParseEdgeKind(s)
		if !ok {
			return nil, nil, argErr(arg, "unknown edge kind %q (have %v)", s, schemas.EdgeKinds)
		}
		kinds[i] = k
	}
	return kinds, names, nil
}
