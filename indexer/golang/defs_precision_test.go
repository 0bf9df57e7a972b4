package golang_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

// definitionF1Floor is the least F1 the definitions may score against
// go/types over the closure of precisionRoots (the measured figure, less a
// margin).
const definitionF1Floor = 0.999

// compareDefinitions compares the graph's declarations in the files
// go/types checked with the ones go/types records in Info.Defs: the
// package-level functions, types, constants and variables, the methods
// of package-level types (interface methods included) and the fields of
// package-level struct types, and fails below definitionF1Floor.
func compareDefinitions(t *testing.T, tc *typeChecker, g *indexer.Graph) {
	truth := make(map[languagetest.Decl]string)
	compared := make(map[string]bool)
	for _, cp := range tc.pkgs {
		if cp.err != nil {
			continue
		}
		for _, f := range cp.files {
			compared[tc.rel(tc.fset.File(f.Pos()).Name())] = true
		}
		owners := fieldOwners(cp.pkg)
		for id, obj := range cp.info.Defs {
			if name, ok := defName(obj, owners); ok {
				p := tc.fset.Position(id.Pos())
				d := languagetest.Decl{File: tc.rel(p.Filename), Line: p.Line, Name: name}
				truth[d] = d.String()
			}
		}
	}

	ours := make(map[languagetest.Decl]string)
	for _, n := range g.Nodes {
		if !compared[n.File] || n.Kind == schemas.KindPackage || n.Kind == schemas.KindFile {
			continue
		}
		d := languagetest.Decl{File: n.File, Line: int(n.StartLine), Name: n.QualifiedName}
		ours[d] = d.String()
	}
	if f1 := languagetest.Definitions(t, "go/types", truth, ours, 0); f1 < definitionF1Floor {
		t.Errorf("definitions F1 %.4f is below %.3f", f1, definitionF1Floor)
	}
}

// defName gives a declared object's qualified name in the indexer's form,
// or false for what the graph does not hold as a node (locals, parameters,
// labels, fields of unnamed or local types, package names).
func defName(obj types.Object, owners map[*types.Var]*types.TypeName) (string, bool) {
	if obj == nil || obj.Pkg() == nil {
		return "", false
	}
	pkg := strings.TrimPrefix(obj.Pkg().Path(), "vendor/")
	switch o := obj.(type) {
	case *types.Func:
		return funcName(o)
	case *types.TypeName, *types.Const:
		if obj.Parent() != obj.Pkg().Scope() {
			return "", false
		}
		return pkg + "." + obj.Name(), true
	case *types.Var:
		if !o.IsField() {
			if obj.Parent() != obj.Pkg().Scope() {
				return "", false
			}
			return pkg + "." + obj.Name(), true
		}
		owner := owners[o]
		if owner == nil {
			return "", false
		}
		return pkg + "." + owner.Name() + "." + obj.Name(), true
	}
	return "", false
}

// fieldOwners maps the fields of a package's package-level named struct
// types to their type. A type defined from another (type B A) shares its
// struct: the owner is the one declared nearest before the field.
func fieldOwners(pkg *types.Package) map[*types.Var]*types.TypeName {
	owners := make(map[*types.Var]*types.TypeName)
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if tn.Pos() <= f.Pos() && (owners[f] == nil || owners[f].Pos() < tn.Pos()) {
				owners[f] = tn
			}
		}
	}
	return owners
}
