package csharp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/csharp"
	lt "github.com/graphsnap/snap/indexer/languagetest"
)

// TestTypeUses holds C# to every use of a type it records: one snippet
// per form, its edges to types of the repository, none to type
// parameters or keyword types.
func TestTypeUses(t *testing.T) {
	types := `namespace N {
public class Item {}
public class Box<T> {}
public interface IShape {}
public class Base {}
public class MarkAttribute : System.Attribute {}
public class Oops : System.Exception {}
}`
	setting := lt.Setting{Files: map[string]string{"Types.cs": types}, File: "Use.cs", Before: "namespace N {\n", After: "\n}"}
	lt.TypeUses(t, setting, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Src: `class U { object M() => new Item(); }`,
			Want: []string{"N.U.M -instantiates-> N.Item (scope) Use.cs:2"}},
		{Form: lt.FormField, Src: `class U { Item a, b; Item P { get; set; } }`,
			Want:  []string{"N.U.a -references-> N.Item (scope) Use.cs:2", "N.U.P -references-> N.Item (scope) Use.cs:2"},
			Wrong: []string{"N.U.b -references->"}},
		{Form: lt.FormParam, Src: `class U { void M(ref Item i, int n) {} }`,
			Want: []string{"N.U.M -references-> N.Item (scope) Use.cs:2"}},
		{Form: lt.FormResult, Src: `class U { Item M() => null; }`,
			Want: []string{"N.U.M -references-> N.Item (scope) Use.cs:2"}},
		{Form: lt.FormVar, Src: `class U { void M() {
  Item i = null;
  foreach (Item j in new Item[0]) {}
  var v = 1;
} }`,
			Want: []string{
				"N.U.M -references-> N.Item (scope) Use.cs:3",
				"N.U.M -references-> N.Item (scope) Use.cs:4",
			}},
		{Form: lt.FormConversion, Src: `class U { void M(object o) {
  var a = (Item)o;
  var b = o as Item;
} }`,
			Want: []string{
				"N.U.M -references-> N.Item (scope) Use.cs:3",
				"N.U.M -references-> N.Item (scope) Use.cs:4",
			}},
		{Form: lt.FormAssertion, Src: `class U { const int Item2 = 2; void M(object o) {
  if (o is Item i) {}
  switch (o) { case Base: break; case Item2: break; }
  var t = typeof(IShape);
} }`,
			Want: []string{
				"N.U.M -references-> N.Item (scope) Use.cs:3",
				"N.U.M -references-> N.Base (scope) Use.cs:4",
				"N.U.M -references-> N.IShape (scope) Use.cs:5",
			},
			// a constant pattern naming a constant is no use of a type.
			Wrong: []string{"N.U.M -references-> ?Item2"}},
		{Form: lt.FormTypeArg, Src: `class U<T> { Box<(Item a, T b)> f; void M() { var x = new Box<Base>(); Make<IShape>(); } void Make<S>() where S : IShape {} }`,
			Want: []string{
				"N.U.f -references-> N.Box (scope) Use.cs:2",
				"N.U.f -references-> N.Item (scope) Use.cs:2",
				"N.U.M -instantiates-> N.Box (scope) Use.cs:2",
				"N.U.M -references-> N.Base (scope) Use.cs:2",
				"N.U.M -references-> N.IShape (scope) Use.cs:2",
				"N.U.Make -references-> N.IShape (scope) Use.cs:2",
			},
			// type parameters and tuple element names are no types.
			Wrong: []string{"N.U.f -references-> ?T", "N.U.f -references-> ?a", "N.U.f -references-> ?b", "N.U.Make -references-> ?S"}},
		{Form: lt.FormExtends, Src: `class U : Base {}`,
			Want: []string{"N.U -extends-> N.Base (scope) Use.cs:2"}},
		{Form: lt.FormImplements, Src: `class U : Base, IShape {} class V : Box<Item> {}`,
			Want: []string{
				"N.U -implements-> N.IShape (scope) Use.cs:2",
				"N.V -extends-> N.Box (scope) Use.cs:2",
				"N.V -references-> N.Item (scope) Use.cs:2",
			}},
		{Form: lt.FormAnnotation, Src: `[Mark] class U {}`,
			Want: []string{"N.U -references-> N.MarkAttribute (scope) Use.cs:2"}},
		{Form: lt.FormThrows, Src: `class U { void M() {
  try {} catch (Oops e) {}
  try {} catch (Oops) {}
} }`,
			Want: []string{"N.U.M -references-> N.Oops (scope) Use.cs:3", "N.U.M -references-> N.Oops (scope) Use.cs:4"}},
	}, csharp.New())
}

// TestTypeUsesOutside: a type outside the repository is an unresolved
// use with its reason; keyword types and var make no edge.
func TestTypeUsesOutside(t *testing.T) {
	edges := lt.Edges(t, map[string]string{"A.cs": `using System.Collections.Generic;
namespace N { class U { List<string> M(int n, object o, dynamic d) { var x = 1; return null; } } }`}, csharp.New())
	lt.Expect(t, edges, []string{"N.U.M -references-> ?List (unresolved: external List) A.cs:2"},
		"N.U.M -references-> ?string", "N.U.M -references-> ?int", "N.U.M -references-> ?object",
		"N.U.M -references-> ?dynamic", "N.U.M -references-> ?var", "N.U.M -references-> ?System")
}
