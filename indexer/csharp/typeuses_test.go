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
	with := func(src string) map[string]string {
		return map[string]string{"Types.cs": types, "Use.cs": "namespace N {\n" + src + "\n}"}
	}
	lt.TypeUses(t, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Files: with(`class U { object M() => new Item(); }`),
			Want: []string{"N.U.M -instantiates-> N.Item (scope) Use.cs:2"}},
		{Form: lt.FormField, Files: with(`class U { Item a, b; Item P { get; set; } }`),
			Want:  []string{"N.U.a -references-> N.Item (scope) Use.cs:2", "N.U.P -references-> N.Item (scope) Use.cs:2"},
			Wrong: []string{"N.U.b -references->"}},
		{Form: lt.FormParam, Files: with(`class U { void M(ref Item i, int n) {} }`),
			Want: []string{"N.U.M -references-> N.Item (scope) Use.cs:2"}},
		{Form: lt.FormResult, Files: with(`class U { Item M() => null; }`),
			Want: []string{"N.U.M -references-> N.Item (scope) Use.cs:2"}},
		{Form: lt.FormVar, Files: with(`class U { void M() {
  Item i = null;
  foreach (Item j in new Item[0]) {}
  var v = 1;
} }`),
			Want: []string{
				"N.U.M -references-> N.Item (scope) Use.cs:3",
				"N.U.M -references-> N.Item (scope) Use.cs:4",
			}},
		{Form: lt.FormConversion, Files: with(`class U { void M(object o) {
  var a = (Item)o;
  var b = o as Item;
} }`),
			Want: []string{
				"N.U.M -references-> N.Item (scope) Use.cs:3",
				"N.U.M -references-> N.Item (scope) Use.cs:4",
			}},
		{Form: lt.FormAssertion, Files: with(`class U { const int Item2 = 2; void M(object o) {
  if (o is Item i) {}
  switch (o) { case Base: break; case Item2: break; }
  var t = typeof(IShape);
} }`),
			Want: []string{
				"N.U.M -references-> N.Item (scope) Use.cs:3",
				"N.U.M -references-> N.Base (scope) Use.cs:4",
				"N.U.M -references-> N.IShape (scope) Use.cs:5",
			},
			// a constant pattern naming a constant is no use of a type.
			Wrong: []string{"N.U.M -references-> ?Item2"}},
		{Form: lt.FormTypeArg, Files: with(`class U<T> { Box<(Item a, T b)> f; void M() { var x = new Box<Base>(); Make<IShape>(); } void Make<S>() where S : IShape {} }`),
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
		{Form: lt.FormExtends, Files: with(`class U : Base {}`),
			Want: []string{"N.U -extends-> N.Base (scope) Use.cs:2"}},
		{Form: lt.FormImplements, Files: with(`class U : Base, IShape {} class V : Box<Item> {}`),
			Want: []string{
				"N.U -implements-> N.IShape (scope) Use.cs:2",
				"N.V -extends-> N.Box (scope) Use.cs:2",
				"N.V -references-> N.Item (scope) Use.cs:2",
			}},
		{Form: lt.FormAnnotation, Files: with(`[Mark] class U {}`),
			Want: []string{"N.U -references-> N.MarkAttribute (scope) Use.cs:2"}},
		{Form: lt.FormThrows, Files: with(`class U { void M() {
  try {} catch (Oops e) {}
  try {} catch (Oops) {}
} }`),
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
