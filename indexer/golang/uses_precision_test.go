package golang_test

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/types"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Floors of the comparison of type uses with go/types over the closure
// of precisionRoots: the recall measured, less a margin.
const (
	typeUseRecallFloor = 0.995 // of all uses of package-level named types (99.8% measured)
	topTypeRecallFloor = 0.99  // of each of the most used types (100% measured)
	topTypes           = 8
)

// typeUse is what go/types says of a type name at one place: the
// qualified name of the package-level type it names, or why no edge is
// due there (a builtin, a type parameter, a type local to a function).
type typeUse struct {
	want, none string
}

// compareTypeUses compares the type-use edges (references, instantiates,
// and extends from an interface embedding) with the type names go/types
// records in Info.Uses, by file, line and column (of pkg in pkg.T): every
// edge made must name the type go/types finds there.
func compareTypeUses(t *testing.T, tc *typeChecker, g *indexer.Graph) {
	truth := make(map[site]typeUse)
	compared := make(map[string]bool)
	for _, cp := range tc.pkgs {
		if cp.err != nil {
			continue
		}
		for _, f := range cp.files {
			file := tc.rel(tc.fset.File(f.Pos()).Name())
			compared[file] = true
			add := func(at *ast.Ident, id *ast.Ident) {
				tn, ok := cp.info.Uses[id].(*types.TypeName)
				if !ok {
					return
				}
				p := tc.fset.Position(at.Pos())
				truth[site{file: file, line: p.Line, col: p.Column}] = typeUseOf(tn)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if pkg, ok := x.X.(*ast.Ident); ok {
						if _, ok := cp.info.Uses[pkg].(*types.PkgName); ok {
							add(pkg, x.Sel)
							return false
						}
					}
				case *ast.Ident:
					add(x, x)
				}
				return true
			})
		}
	}

	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	for i := range g.Nodes {
		byID[g.Nodes[i].ID] = &g.Nodes[i]
	}
	type count struct{ truth, agree int }
	perType := make(map[string]*count)
	var wrong, dups []string
	ours := make(map[site]schemas.Edge)
	edges, agree, unresolved := 0, 0, 0
	for _, e := range g.Edges {
		switch e.Kind {
		case schemas.EdgeReferences, schemas.EdgeInstantiates, schemas.EdgeExtends:
		default:
			continue
		}
		if !compared[e.File] {
			continue
		}
		k := site{file: e.File, line: int(e.Line), col: int(e.Col)}
		if _, dup := ours[k]; dup {
			dups = append(dups, fmt.Sprintf("%s:%d:%d %s", k.file, k.line, k.col, e.Target))
		}
		ours[k] = e
		if e.Dst == 0 {
			unresolved++
			continue
		}
		edges++
		got := byID[e.Dst].QualifiedName
		u, ok := truth[k]
		switch {
		case !ok:
			wrong = append(wrong, fmt.Sprintf("%s:%d:%d %s %s: ours %s, go/types sees no type name", k.file, k.line, k.col, e.Kind, e.Target, got))
		case u.want != got:
			wrong = append(wrong, fmt.Sprintf("%s:%d:%d %s %s: ours %s, go/types %s%s", k.file, k.line, k.col, e.Kind, e.Target, got, u.want, u.none))
		default:
			agree++
		}
	}
	missed := make(map[string]int)
	examples := make(map[string]string)
	total := 0
	for k, u := range truth {
		if u.want == "" {
			continue
		}
		total++
		c := perType[u.want]
		if c == nil {
			c = &count{}
			perType[u.want] = c
		}
		c.truth++
		e, has := ours[k]
		if has && e.Dst != 0 && byID[e.Dst].QualifiedName == u.want {
			c.agree++
			continue
		}
		r := "no edge"
		if has && e.Dst == 0 {
			r = reasonClass(e.Reason)
		}
		missed[r]++
		examples[r] = fmt.Sprintf("%s:%d:%d %s", k.file, k.line, k.col, u.want)
		if *showMisses {
			t.Logf("missed type use %s", examples[r])
		}
	}

	t.Logf("type uses: %d edges made (dst ≠ 0), %d agree with go/types, %d wrong: precision %.3f%%; %d unresolved",
		edges, agree, len(wrong), pct(agree, edges), unresolved)
	t.Logf("type uses go/types finds of package-level types: %d; linked by us: %d; recall %.2f%%", total, agree, pct(agree, total))
	for _, r := range slices.SortedFunc(maps.Keys(missed), func(a, b string) int {
		return cmp.Or(cmp.Compare(missed[b], missed[a]), cmp.Compare(a, b))
	}) {
		t.Logf("  missed %6d  %s   e.g. %s", missed[r], r, examples[r])
	}
	names := slices.SortedFunc(maps.Keys(perType), func(a, b string) int {
		return cmp.Or(cmp.Compare(perType[b].truth, perType[a].truth), cmp.Compare(a, b))
	})
	for i, name := range names {
		c := perType[name]
		top := i < topTypes
		if !top && name != "net/http.Request" && name != "go/token.Pos" {
			continue
		}
		t.Logf("  %-28s uses %5d  linked %5d  recall %6.2f%%", name, c.truth, c.agree, pct(c.agree, c.truth))
		if top && float64(c.agree) < topTypeRecallFloor*float64(c.truth) {
			t.Errorf("recall of the uses of %s %.2f%%, below the floor %.0f%%", name, pct(c.agree, c.truth), 100*topTypeRecallFloor)
		}
	}
	if float64(agree) < typeUseRecallFloor*float64(total) {
		t.Errorf("recall of type uses %.2f%%, below the floor %.0f%%", pct(agree, total), 100*typeUseRecallFloor)
	}
	slices.Sort(wrong)
	errorsCapped(t, "wrong type-use edge: ", wrong, 30)
	slices.Sort(dups)
	errorsCapped(t, "two type-use edges at ", dups, 10)
}

// errorsCapped reports the first most of list, each after prefix, and how
// many more there are.
func errorsCapped(t *testing.T, prefix string, list []string, most int) {
	t.Helper()
	for i, s := range list {
		if i == most {
			t.Errorf("… and %d more", len(list)-most)
			return
		}
		t.Errorf("%s%s", prefix, s)
	}
}

// typeUseOf writes the type a TypeName names as the indexer qualifies it,
// or why no edge is due.
func typeUseOf(tn *types.TypeName) typeUse {
	switch {
	case tn.Pkg() == nil, tn.Pkg() == types.Unsafe:
		return typeUse{none: " (builtin)"}
	case tn.Parent() != tn.Pkg().Scope():
		return typeUse{none: " (a type local to a function)"}
	}
	if _, ok := tn.Type().(*types.TypeParam); ok {
		return typeUse{none: " (a type parameter)"}
	}
	return typeUse{want: strings.TrimPrefix(tn.Pkg().Path(), "vendor/") + "." + tn.Name()}
}
