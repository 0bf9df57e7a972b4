package scala_test

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/scala"
)

// TestTypeUses holds Scala to every use of a type it records: one
// snippet per form, its edges to types of the repository, none to type
// parameters or builtin types.
func TestTypeUses(t *testing.T) {
	types := `package p
class Item
class Box[T]
trait Shape
class Base
case class Pair(a: Int)
class Mark extends scala.annotation.StaticAnnotation
class Oops extends Exception
`
	setting := lt.Setting{Files: map[string]string{"Types.scala": types}, File: "Use.scala", Before: "package p\n"}
	lt.TypeUses(t, setting, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Src: `object U { def m(): Any = new Item() }`,
			Want: []string{"p.U.m -instantiates-> p.Item (scope) Use.scala:2"}},
		{Form: lt.FormField, Src: `class U(val c: Item, d: Base) { val a: Item = null; var b: Option[Base] = None; val n: Int = 0 }`,
			Want: []string{
				"p.U.a -references-> p.Item (scope) Use.scala:2", "p.U.b -references-> p.Base (scope) Use.scala:2",
				"p.U.c -references-> p.Item (scope) Use.scala:2", "p.U.d -references-> p.Base (scope) Use.scala:2",
			},
			Wrong: []string{"p.U.n -references->"}},
		{Form: lt.FormParam, Src: `object U { def m(i: Item, n: Int): Unit = () }`,
			Want: []string{"p.U.m -references-> p.Item (scope) Use.scala:2"}},
		{Form: lt.FormResult, Src: `object U { def m(): Item = null }`,
			Want: []string{"p.U.m -references-> p.Item (scope) Use.scala:2"}},
		{Form: lt.FormVar, Src: `object U { def m(): Unit = {
  val i: Item = null
} }`,
			Want: []string{"p.U.m -references-> p.Item (scope) Use.scala:3"}},
		{Form: lt.FormConversion, Src: `object U { def m(o: Any): Any = o.asInstanceOf[Item] }`,
			Want: []string{"p.U.m -references-> p.Item (scope) Use.scala:2"}},
		{Form: lt.FormAssertion, Src: `object U { def m(o: Any): Int = o match {
  case i: Item => 1
  case Pair(a) => a
  case _ => 0
} }`,
			Want: []string{
				"p.U.m -references-> p.Item (scope) Use.scala:3",
				"p.U.m -references-> p.Pair (scope) Use.scala:4",
			}},
		{Form: lt.FormTypeArg, Src: `class U[T <: Shape] { val f: Box[T] = null; val g: Map[String, Box[Item]] = null; def m[S](s: S): Box[S] = null }`,
			Want: []string{
				"p.U -references-> p.Shape (scope) Use.scala:2",
				"p.U.f -references-> p.Box (scope) Use.scala:2",
				"p.U.g -references-> p.Item (scope) Use.scala:2",
				"p.U.g -references-> ?Map (unresolved: external Map) Use.scala:2",
			},
			// type parameters and builtin types are no uses.
			Wrong: []string{"p.U.f -references-> ?T", "p.U.m -references-> ?S", "p.U.g -references-> ?String"}},
		{Form: lt.FormExtends, Src: `class U extends Base`,
			Want:  []string{"p.U -extends-> p.Base (scope) Use.scala:2"},
			Wrong: []string{"p.U -references-> p.Base"}},
		{Form: lt.FormImplements, Src: `class U extends Base with Shape
class V extends Box[Item]`,
			Want: []string{
				"p.U -implements-> p.Shape (scope) Use.scala:2",
				"p.V -references-> p.Item (scope) Use.scala:3",
			},
			Wrong: []string{"p.U -references-> p.Shape", "p.V -references-> p.Box"}},
		{Form: lt.FormAnnotation, Src: `@Mark class U { @deprecated def m(): Unit = () }`,
			Want:  []string{"p.U -references-> p.Mark (scope) Use.scala:2"},
			Wrong: []string{"p.U.m -references-> ?deprecated"}},
		{Form: lt.FormThrows, Src: `object U { def m(): Unit = try () catch { case e: Oops => () } }`,
			Want: []string{"p.U.m -references-> p.Oops (scope) Use.scala:2"}},
	}, scala.New())
}
