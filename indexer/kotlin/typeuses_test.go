package kotlin_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/kotlin"
	lt "github.com/graphsnap/snap/indexer/languagetest"
)

// TestTypeUses holds Kotlin to every use of a type it records: one
// snippet per form, its edges to types of the repository, none to type
// parameters or builtin types.
func TestTypeUses(t *testing.T) {
	types := `package p
class Item
class Box<T>
interface IShape
open class Base
annotation class Mark
class Oops : Exception()
`
	setting := lt.Setting{Files: map[string]string{"Types.kt": types}, File: "Use.kt", Before: "package p\n"}
	lt.TypeUses(t, setting, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Src: `fun m() = Item()`,
			Want: []string{"p.m -instantiates-> p.Item (scope) Use.kt:2"}},
		{Form: lt.FormField, Src: `class U(val a: Item, b: Base) { val p: Item? = null }`,
			Want: []string{
				"p.U.a -references-> p.Item (scope) Use.kt:2",
				"p.U -references-> p.Base (scope) Use.kt:2",
				"p.U.p -references-> p.Item (scope) Use.kt:2",
			}},
		{Form: lt.FormParam, Src: `fun m(i: Item, n: Int) {}
fun Base.ext() {}`,
			Want:  []string{"p.m -references-> p.Item (scope) Use.kt:2", "p.Base.ext -references-> p.Base (scope) Use.kt:3"},
			Wrong: []string{"p.m -references-> ?Int"}},
		{Form: lt.FormResult, Src: `fun m(): Item? = null`,
			Want: []string{"p.m -references-> p.Item (scope) Use.kt:2"}},
		{Form: lt.FormVar, Src: `fun m(xs: List<Any>) {
  val i: Item? = null
  for (j: Item in xs) {}
  val f = { k: Base -> k }
}`,
			Want: []string{
				"p.m -references-> p.Item (scope) Use.kt:3",
				"p.m -references-> p.Item (scope) Use.kt:4",
				"p.m -references-> p.Base (scope) Use.kt:5",
			}},
		{Form: lt.FormConversion, Src: `fun m(o: Any) {
  val a = o as Item
  val b = o as? Base
}`,
			Want: []string{
				"p.m -references-> p.Item (scope) Use.kt:3",
				"p.m -references-> p.Base (scope) Use.kt:4",
			}},
		{Form: lt.FormAssertion, Src: `fun m(o: Any) {
  if (o is Item) {}
  when (o) { is Base -> {} !is IShape -> {} else -> {} }
  val k = Oops::class
  val j = o::class
}`,
			Want: []string{
				"p.m -references-> p.Item (scope) Use.kt:3",
				"p.m -references-> p.Base (scope) Use.kt:4",
				"p.m -references-> p.IShape (scope) Use.kt:4",
				"p.m -references-> p.Oops (scope) Use.kt:5",
			},
			// the class of a value is no use of a type.
			Wrong: []string{"p.m -references-> ?o"}},
		{Form: lt.FormTypeArg, Src: `class U<T>(val f: Box<T>) where T : IShape {
  val g: Map<String, Box<Item>> = mapOf()
  fun <S : Base> m(s: S) { make<Base>() }
  fun <R> make() {}
}
interface V<out Q : V<Q>> { fun q(): Q }`,
			Want: []string{
				"p.U.f -references-> p.Box (scope) Use.kt:2",
				"p.U -references-> p.IShape (scope) Use.kt:2",
				"p.U.g -references-> ?Map (unresolved: external) Use.kt:3",
				"p.U.g -references-> p.Box (scope) Use.kt:3",
				"p.U.g -references-> p.Item (scope) Use.kt:3",
				"p.U.m -references-> p.Base (scope) Use.kt:4",
			},
			// type parameters and builtin types are no uses.
			Wrong: []string{"p.U.f -references-> ?T", "p.U -references-> ?T", "p.U.m -references-> ?S", "p.U.g -references-> ?String",
				"p.V -references-> ?Q", "p.V.q -references-> ?Q"}},
		{Form: lt.FormExtends, Src: `class U : Base()`,
			Want:  []string{"p.U -extends-> p.Base (structural) Use.kt:2"},
			Wrong: []string{"p.U -references-> p.Base"}},
		{Form: lt.FormImplements, Src: `class U : Base(), IShape
fun m(): Any = object : IShape {}`,
			Want: []string{
				"p.U -implements-> p.IShape (structural) Use.kt:2",
				"p.m -references-> p.IShape (scope) Use.kt:3",
			},
			Wrong: []string{"p.U -references-> p.IShape"}},
		{Form: lt.FormAnnotation, Src: `@Mark class U { @Deprecated("x") fun m() {} }`,
			Want: []string{"p.U -references-> p.Mark (scope) Use.kt:2"},
			// an annotation outside the repository makes no edge.
			Wrong: []string{"p.U.m -references-> ?Deprecated"}},
		{Form: lt.FormThrows, Src: `fun m() { try {} catch (e: Oops) {} }`,
			Want: []string{"p.m -references-> p.Oops (scope) Use.kt:2"}},
	}, kotlin.New())
}
