package mcp

import (
	"fmt"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

// sym is a symbol as lists show it.
type sym struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	QName string `json:"qname"`
	Loc   string `json:"loc"`
}

func symOf(e *query.Engine, r int32) sym {
	n := e.Node(r)
	return sym{ID: idString(n.ID), Kind: n.Kind, Name: n.Name, QName: n.QualifiedName, Loc: loc(n.File, n.StartLine, n.StartCol)}
}

func loc(file string, line, col uint32) string { return fmt.Sprintf("%s:%d:%d", file, line, col) }

func siteLoc(ed schemas.Edge) string { return loc(ed.File, ed.Line, ed.Col) }

// info is a symbol with everything the snapshot knows of it.
type info struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"`
	Name       string   `json:"name"`
	QName      string   `json:"qname"`
	Language   string   `json:"language,omitempty"`
	Loc        string   `json:"loc"`
	End        string   `json:"end"` // line:col
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
	in := info{
		ID: idString(n.ID), Kind: n.Kind, Name: n.Name, QName: n.QualifiedName, Language: n.Language,
		Loc: loc(n.File, n.StartLine, n.StartCol), End: fmt.Sprintf("%d:%d", n.EndLine, n.EndCol),
		Signature: n.Signature, Doc: n.Doc, Visibility: n.Visibility, Exported: n.Exported,
		Decorators: n.Decorators,
		Callers:    e.Degree(r, query.Calls, query.In) + e.Degree(r, query.Instantiates, query.In),
		Callees:    e.Degree(r, query.Calls, query.Out) + e.Degree(r, query.Instantiates, query.Out),
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{n.IsAsync, "async"}, {n.IsStatic, "static"}, {n.IsAbstract, "abstract"}, {n.IsTest, "test"}} {
		if f.on {
			in.Flags = append(in.Flags, f.name)
		}
	}
	if p, ok := e.Parent(r); ok {
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
