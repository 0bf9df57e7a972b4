package bash

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Reasons of unresolved edges.
const (
	reasonNotSourced  = "function of a file not sourced here"
	reasonAmbiguous   = "defined more than once"
	reasonDynamicPath = "dynamic path"
	reasonAbsolute    = "absolute path"
	reasonOutside     = "path outside the tree"
	reasonMissingFile = "no such file "
)

// resolve links source commands to files, and command words to the
// functions of the same file or of the files it sources, transitively.
// Command words that name no function of the snapshot make no edge.
func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	files := map[string]uint64{}
	funcs := map[string]map[string][]int32{} // file → name → functions
	defined := map[string]bool{}
	for i := range nodes {
		n := &nodes[i]
		if n.Kind == schemas.KindFile {
			files[n.QualifiedName] = n.ID
			continue
		}
		if n.Language != Name || n.Kind != schemas.KindFunction {
			continue
		}
		if funcs[n.File] == nil {
			funcs[n.File] = map[string][]int32{}
		}
		funcs[n.File][n.Name] = append(funcs[n.File][n.Name], int32(i))
		defined[n.Name] = true
	}
	var edges []schemas.Edge
	sources := map[string][]string{}
	for i := range refs {
		ref := &refs[i]
		if ref.Kind != schemas.EdgeImports {
			continue
		}
		e := edgeOf(ref)
		switch ref.Expr {
		case "?dynamic":
			e.Reason = reasonDynamicPath
		case "?absolute":
			e.Reason = reasonAbsolute
		default:
			cands := strings.TrimPrefix(ref.Expr, "file ")
			e.Reason = reasonMissingFile + cands
			for c := range strings.SplitSeq(cands, "|") {
				if id, ok := files[c]; ok {
					e.Dst, e.Resolution, e.Confidence, e.Reason = id, schemas.ResolvedImport, 1, ""
					sources[ref.File] = append(sources[ref.File], c)
					break
				}
				if c == "?outside" {
					e.Reason = reasonOutside
				}
			}
		}
		edges = append(edges, e)
	}
	closure := map[string][]string{} // file → the files it sources, transitively, in order
	reach := func(file string) []string {
		if c, ok := closure[file]; ok {
			return c
		}
		seen := map[string]bool{file: true}
		var out []string
		queue := []string{file}
		for len(queue) > 0 {
			f := queue[0]
			queue = queue[1:]
			for _, s := range sources[f] {
				if !seen[s] {
					seen[s] = true
					out = append(out, s)
					queue = append(queue, s)
				}
			}
		}
		closure[file] = out
		return out
	}
	for i := range refs {
		ref := &refs[i]
		if ref.Kind != schemas.EdgeCalls || !defined[ref.Expr] {
			continue
		}
		e := edgeOf(ref)
		var found []int32
		how := schemas.ResolvedLocal
		if fs := funcs[ref.File][ref.Expr]; len(fs) > 0 {
			found = fs
		} else {
			how = schemas.ResolvedImport
			for _, f := range reach(ref.File) {
				found = append(found, funcs[f][ref.Expr]...)
			}
		}
		switch len(found) {
		case 0:
			e.Reason = reasonNotSourced
		case 1:
			e.Dst, e.Resolution, e.Confidence = nodes[found[0]].ID, how, 1
		default:
			e.Resolution, e.Reason = schemas.Ambiguous, reasonAmbiguous
		}
		edges = append(edges, e)
	}
	return nil, edges
}

func edgeOf(ref *schemas.Ref) schemas.Edge {
	return indexer.RefEdge(ref, ref.Kind, 0, schemas.Unresolved, 0, "")
}
