package languagetest

import (
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// callable are the node kinds a resolved call may land on.
var callable = []string{
	schemas.KindFunction, schemas.KindMethod, schemas.KindConstructor, schemas.KindClass,
	schemas.KindStruct, schemas.KindType, schemas.KindTypeAlias, schemas.KindVariable, schemas.KindField,
	schemas.KindConstant, schemas.KindEnum,
}

// typeKinds are the node kinds inheritance edges connect.
var typeKinds = []string{
	schemas.KindClass, schemas.KindStruct, schemas.KindInterface, schemas.KindTrait, schemas.KindEnum,
	schemas.KindType, schemas.KindTypeAlias,
}

// Invariants checks what every language's graph must hold, whatever the
// language: the shared table every language passes (Run calls it).
//
//   - node ids are unique and not 0, every node has a kind, a name, a
//     qualified name, a language and a file the files table lists;
//   - positions hold: 1 ≤ start line ≤ end line ≤ the file's lines, and
//     byte ranges lie within the file;
//   - every parent is a node of the same file (or the file, or a package
//     or module node);
//   - every edge starts at a node; a resolved edge ends at one, with a
//     resolution and a confidence in (0, 1]; an unresolved one has a
//     target and a reason;
//   - resolved calls land on callable kinds, extends and implements
//     connect types, imports come from files or modules;
//   - refs name files that were indexed.
func Invariants(t testing.TB, g *indexer.Graph) {
	t.Helper()
	files := make(map[string]schemas.File, len(g.Files))
	for _, f := range g.Files {
		files[f.Path] = f
	}
	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.ID == 0 || byID[n.ID] != nil {
			t.Errorf("node %s: id %d is 0 or repeated", n.QualifiedName, n.ID)
		}
		byID[n.ID] = n
	}
	errs := 0
	bad := func(format string, args ...any) {
		t.Helper()
		if errs++; errs <= 20 {
			t.Errorf(format, args...)
		}
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if !slices.Contains(schemas.NodeKinds, n.Kind) || n.Name == "" || n.QualifiedName == "" || n.Language == "" {
			bad("node %d: kind %q, name %q, qualified name %q, language %q", n.ID, n.Kind, n.Name, n.QualifiedName, n.Language)
		}
		if n.Kind == schemas.KindPackage || n.Kind == schemas.KindModule && n.File == "" {
			continue // packages belong to folders
		}
		f, ok := files[n.File]
		if !ok {
			bad("node %s: file %q is not in the files table", n.QualifiedName, n.File)
			continue
		}
		if n.StartLine < 1 || n.EndLine < n.StartLine || n.EndLine > max(f.Lines, 1) {
			bad("node %s: lines %d-%d, file has %d", n.QualifiedName, n.StartLine, n.EndLine, f.Lines)
		}
		if n.StartByte > n.EndByte || int64(n.EndByte) > f.Size {
			bad("node %s: bytes %d-%d, file has %d", n.QualifiedName, n.StartByte, n.EndByte, f.Size)
		}
		if n.ParentID != 0 {
			p := byID[n.ParentID]
			switch {
			case p == nil:
				bad("node %s: parent %d is not a node", n.QualifiedName, n.ParentID)
			case p.File != n.File && p.Kind != schemas.KindPackage && p.Kind != schemas.KindModule && p.Kind != schemas.KindNamespace:
				bad("node %s (%s): parent %s is in %s", n.QualifiedName, n.File, p.QualifiedName, p.File)
			}
		}
	}
	for _, e := range g.Edges {
		src := byID[e.Src]
		if src == nil || !slices.Contains(schemas.EdgeKinds, e.Kind) {
			bad("edge %s %q at %s:%d: source %d, kind %q", e.Kind, e.Target, e.File, e.Line, e.Src, e.Kind)
			continue
		}
		if e.Dst == 0 {
			if e.Target == "" && e.Kind != schemas.EdgeImports || e.Reason == "" { // `import ""` is written, if wrong
				bad("unresolved %s edge at %s:%d: target %q, reason %q", e.Kind, e.File, e.Line, e.Target, e.Reason)
			}
			continue
		}
		dst := byID[e.Dst]
		if dst == nil {
			bad("edge %s %q at %s:%d: destination %d is not a node", e.Kind, e.Target, e.File, e.Line, e.Dst)
			continue
		}
		if !slices.Contains(schemas.Resolutions, e.Resolution) || e.Confidence <= 0 || e.Confidence > 1 {
			bad("edge %s → %s: resolution %q, confidence %v", src.QualifiedName, dst.QualifiedName, e.Resolution, e.Confidence)
		}
		switch e.Kind {
		case schemas.EdgeCalls:
			if !slices.Contains(callable, dst.Kind) {
				bad("call %s → %s lands on a %s", src.QualifiedName, dst.QualifiedName, dst.Kind)
			}
		case schemas.EdgeExtends, schemas.EdgeImplements:
			if !slices.Contains(typeKinds, src.Kind) || !slices.Contains(typeKinds, dst.Kind) {
				bad("%s %s (%s) → %s (%s) does not connect types", e.Kind, src.QualifiedName, src.Kind, dst.QualifiedName, dst.Kind)
			}
		}
	}
	for _, r := range g.Refs {
		if f, ok := files[r.File]; !ok || f.Status != schemas.StatusOK && f.Status != schemas.StatusParseError {
			bad("ref %s %q: file %q was not indexed", r.Kind, r.Target, r.File)
		}
	}
	if errs > 20 {
		t.Errorf("… and %d more", errs-20)
	}
}
