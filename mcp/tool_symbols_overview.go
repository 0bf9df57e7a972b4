package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type overviewIn struct {
	File   string   `json:"file" jsonschema:"path or path suffix"`
	Kinds  []string `json:"kinds,omitempty" jsonschema:"list only these kinds (function, method, class, …), flat"`
	Within string   `json:"within,omitempty" jsonschema:"list the members of this symbol of the file (Type, or Type.Inner)"`
	page
	budget
}

// outline is a symbol of a file with what it contains. The file is the
// answer's: a symbol is selected again by its name (Type.method for a
// member) and that file.
type outline struct {
	Name      string     `json:"name"`
	Kind      string     `json:"kind"`
	Line      uint32     `json:"line"`
	End       uint32     `json:"end"`
	Signature string     `json:"signature,omitempty"`
	Children  []*outline `json:"children,omitempty"`
	More      int        `json:"more,omitempty"` // children left out by the budget: within pages over them
}

type overviewOut struct {
	header
	File     string     `json:"file"`
	Language string     `json:"language,omitempty"`
	Status   string     `json:"status,omitempty"`
	Within   string     `json:"within,omitempty"` // the module all the file's symbols sit in, whose members are listed
	Symbols  []*outline `json:"symbols"`
	listed
}

// moduleKinds are the kinds of a node that may hold all of a file's
// symbols (a Python or TypeScript module): the overview lists its members.
var moduleKinds = []string{schemas.KindModule, schemas.KindNamespace, schemas.KindPackage, schemas.KindFile}

var symbolsOverviewTool = newTool(
	"snap_symbols_overview", "File outline", ToolsetSymbols,
	"What a file declares, before reading it: symbols in source order with line span and signature, members "+
		"nested under their type. Pages count top-level symbols.",
	func(_ context.Context, e *query.Engine, in *overviewIn) (*overviewOut, *ToolError) {
		path, err := resolveFile(e, "file", in.File)
		if err != nil {
			return nil, err
		}
		for _, k := range in.Kinds {
			if !slices.Contains(schemas.NodeKinds, k) {
				return nil, toolErr(CodeInvalidArgument, map[string]any{"argument": "kinds", "kinds": schemas.NodeKinds}, "kinds: unknown kind %q", k)
			}
		}
		rows := e.FileSymbols(path)
		byID := make(map[uint64]*outline, len(rows))
		var top []*outline
		for _, r := range rows {
			n := e.Node(r)
			o := &outline{Name: n.Name, Kind: n.Kind, Line: n.StartLine, End: n.EndLine, Signature: signatureOf(e, r)}
			byID[n.ID] = o
			if len(in.Kinds) > 0 {
				if slices.Contains(in.Kinds, n.Kind) {
					top = append(top, o)
				}
			}
		}
		out := &overviewOut{File: path}
		if len(in.Kinds) == 0 {
			for _, r := range rows {
				n := e.Node(r)
				if p, ok := byID[n.ParentID]; ok && n.ParentID != n.ID {
					p.Children = append(p.Children, byID[n.ID])
				} else {
					top = append(top, byID[n.ID])
				}
			}
			// A file whose symbols all sit in one module lists the
			// module's members.
			for len(top) == 1 && len(top[0].Children) > 0 && slices.Contains(moduleKinds, top[0].Kind) {
				out.Within = top[0].Name
				top = top[0].Children
			}
		}
		if in.Within != "" {
			for name := range strings.SplitSeq(in.Within, ".") {
				i := slices.IndexFunc(top, func(o *outline) bool { return o.Name == name })
				if i < 0 {
					return nil, argErr("within", "no symbol %s among the top-level symbols of %s", quote(name), path)
				}
				top = top[i].Children
			}
			out.Within = in.Within
		}
		tokens, err := in.tokens(DefaultMaxTokens)
		if err != nil {
			return nil, err
		}
		if f, ok := e.File(path); ok {
			out.Language = f.Language
			if f.Status != schemas.StatusOK {
				out.Status = f.Status
			}
		}
		if err := overviewPage(e, in, out, top, tokens); err != nil {
			return nil, err
		}
		if len(top) == 0 {
			out.Hint = "no symbols indexed in this file"
			if len(in.Kinds) > 0 {
				out.Hint = "no symbols of those kinds in this file"
			}
			if out.Status != "" {
				out.Hint += " (status " + out.Status + ")"
			}
		}
		return out, nil
	})

// overviewPage makes out list the page of top the call asks for, within
// tokens. The symbol that does not fit whole comes with the members that
// fit, the others left to within.
func overviewPage(e *query.Engine, in *overviewIn, out *overviewOut, top []*outline, tokens int) *ToolError {
	off, limit, terr := in.window(e)
	if terr != nil {
		return terr
	}
	off = min(off, len(top))
	pg := top[off:min(off+limit, len(top))]
	out.Total, out.Symbols = len(top), pg
	k := fitHead(out, len(pg), tokens, func(k int) { out.Symbols = pg[:k] })
	cut := -1
	switch max := room(tokens); {
	case k > 0 && len(encode(out)) > max:
		cut = k - 1 // the one symbol kept is too large itself
	case k < len(pg) && len(pg[k].Children) > 0:
		cut = k
	}
	if cut >= 0 {
		part := *pg[cut]
		out.Symbols = append(pg[:cut:cut], &part)
		part.More = fit(out, &part.Children, tokens)
		if cut == k && len(encode(out)) > room(tokens) {
			out.Symbols = pg[:k] // not even one member fits beside the others
		} else {
			k = cut + 1
			name := part.Name
			if in.Within != "" {
				name = in.Within + "." + name
			}
			out.Hint = fmt.Sprintf("%d members of %s left out: within %s lists them", part.More, part.Name, quote(name))
		}
	}
	if end := off + k; end < len(top) {
		out.More, out.Next = len(top)-end, in.next(e, end)
	}
	return nil
}
