package scala_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

// lib declares the overloads the cases below call.
const lib = `package lib
class Item
object Tool {
  def g(a: Int): Int = 1
  def g(a: String): Int = 2
  def h(a: Item): Int = 1
  def h(a: String): Int = 2
}
`

// TestOverloadsByTypes checks that argument types choose an overload where
// no implicit conversion can be in play.
func TestOverloadsByTypes(t *testing.T) {
	e := edges(t, map[string]string{
		"lib/Tool.scala": lib,
		"app/Use.scala": `package app
import lib.{Item, Tool}
import scala.collection.mutable._
class Use(n: Int) {
  def run(s: String, i: Item): Unit = {
    Tool.g(s)
    Tool.g(n)
    Tool.h(i)
    Tool.h(new Item)
    Tool.h(null)
  }
}
`,
	})
	languagetest.Expect(t, e, []string{
		"app.Use.run -calls-> lib.Tool.g (import) app/Use.scala:6",
		"app.Use.run -calls-> lib.Tool.h (import) app/Use.scala:8",
		"app.Use.run -calls-> lib.Tool.h (import) app/Use.scala:9",
		"app.Use.run -calls-> ?Tool.h (ambiguous: ambiguous overload) app/Use.scala:10", // null: Item or String
	})
}

// TestOverloadsUnderImplicits checks that an implicit conversion that may
// be in scope keeps the call ambiguous.
func TestOverloadsUnderImplicits(t *testing.T) {
	cases := map[string]map[string]string{
		"local implicit def": {"app/Use.scala": `package app
import lib.Tool
class Use {
  def run(): Unit = {
    implicit def conv(s: String): Int = 1
    Tool.g("x")
  }
}
`},
		"implicit parameter of function type": {"app/Use.scala": `package app
import lib.Tool
class Use {
  def run()(implicit f: String => Int): Unit = {
    Tool.g("x")
  }
}
`},
		"implicit in an enclosing parent": {"app/Use.scala": `package app
import lib.Tool
trait Convs { implicit def conv(s: String): Int = 1 }
class Use extends Convs {
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"implicit class in the package object": {"app/package.scala": `package object app {
  implicit class Rich(s: String) { def twice = s + s }
}
`, "app/Use.scala": `package app
import lib.Tool
class Use {
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"imported project object": {"app/Convs.scala": `package app
object Convs { implicit val conv: String => Int = _.length }
`, "app/Use.scala": `package app
import lib.Tool
import app.Convs._
class Use {
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"wildcard import from outside": {"app/Use.scala": `package app
import lib.Tool
import other.Implicits._
class Use {
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"parent outside the snapshot": {"app/Use.scala": `package app
import lib.Tool
class Use extends other.Base {
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"implicit class parameter": {"app/Use.scala": `package app
import lib.Tool
class Use(x: Int)(implicit f: String => Int) {
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"implicit lambda parameter": {"app/Use.scala": `package app
import lib.Tool
class Use {
  def run(): Unit = {
    List(1).foreach { implicit n => Tool.g("x") }
  }
}
`},
		"anonymous given in a parent": {"app/Convs.scala": `package app
trait Convs {
  given Conversion[String, Int] = _.length
}
`, "app/Use.scala": `package app
import lib.Tool
class Use extends Convs {
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"given import": {"app/Use.scala": `package app
import lib.Tool
import other.Convs.given
class Use {
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"anonymous given in an argument type's companion": {"app/Use.scala": `package app
import lib.{Item, Tool}
class Thing
object Thing {
  given Conversion[Thing, Item] = _ => new Item
}
class Use {
  def run(t: Thing): Unit = {
    Tool.h(t)
  }
}
`},
		"anonymous class of a parent outside": {"app/Use.scala": `package app
import lib.Tool
class Use {
  def run(): Unit = {
    new other.Parsers { Tool.g("x") }
  }
}
`},
		"self type": {"app/Use.scala": `package app
import lib.Tool
trait Use { self: other.Convs =>
  def run(): Unit = {
    Tool.g("x")
  }
}
`},
		"member named as a function": {"app/Use.scala": `package app
import lib.{Item, Tool}
class Use {
  def make(s: String): Item = new Item
  def run(): Unit = {
    Tool.h(make)
  }
}
`},
		"companion of an argument's type": {"app/Use.scala": `package app
import lib.{Item, Tool}
class Thing
object Thing { implicit def toItem(t: Thing): Item = new Item }
class Use {
  def run(t: Thing): Unit = {
    Tool.h(t)
  }
}
`},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			files["lib/Tool.scala"] = lib
			e := edges(t, files)
			languagetest.Expect(t, e, []string{"app.Use.run -calls-> ?Tool."}, "app.Use.run -calls-> lib.Tool.")
		})
	}
}

// TestOverloadsByMemberTypes checks that a member's declared type, a
// builtin's too, chooses, and that a type parameter's name does not.
func TestOverloadsByMemberTypes(t *testing.T) {
	e := edges(t, map[string]string{
		"lib/Tool.scala": lib,
		"app/Use.scala": `package app
import lib.{Item, Tool}
class Use[Item <: lib.Item](held: Item) {
  val count: Int = 1
  def name: String = "n"
  def run(): Unit = {
    Tool.g(count)
    Tool.g(name)
    Tool.h(held)
  }
}
`,
	})
	languagetest.Expect(t, e, []string{
		"app.Use.run -calls-> lib.Tool.g (import) app/Use.scala:7",
		"app.Use.run -calls-> lib.Tool.g (import) app/Use.scala:8",
		"app.Use.run -calls-> ?Tool.h (ambiguous: ambiguous overload) app/Use.scala:9", // held: the type parameter Item
	})
}

// TestInheritedOverloads checks that when no alternative of a template
// applies to the arguments, those of its parent do.
func TestInheritedOverloads(t *testing.T) {
	e := edges(t, map[string]string{
		"a/A.scala": `package a
class Base { def put(x: Int): Int = 1 }
class Derived extends Base { def put(x: String): Int = 2 }
class Use {
  def run(d: Derived): Unit = {
    d.put(1)
    d.put("s")
  }
}
`,
	})
	languagetest.Expect(t, e, []string{
		"a.Use.run -calls-> a.Base.put (receiver) a/A.scala:6",
		"a.Use.run -calls-> a.Derived.put (receiver) a/A.scala:7",
	}, "a.Use.run -calls-> a.Derived.put (receiver) a/A.scala:6")
}

// TestTypeArgumentsKeepOverloadsOpen checks that a type with type
// arguments, whose companions are in implicit scope, chooses nothing.
func TestTypeArgumentsKeepOverloadsOpen(t *testing.T) {
	e := edges(t, map[string]string{
		"lib/Tool.scala": lib,
		"app/Use.scala": `package app
import lib.{Item, Tool}
class Box[T]
class Sub extends Box[Thing]
class Thing
object Thing { implicit def toItem(b: Box[Thing]): Item = new Item }
class Use {
  val held: Box[Thing] = new Box[Thing]
  def run(b: Box[Thing], s: Sub): Unit = {
    Tool.h(b)
    Tool.h(s)
    Tool.h(held)
    Tool.h(new Box[Thing])
  }
}
`,
	})
	languagetest.Expect(t, e, []string{
		"app.Use.run -calls-> ?Tool.h (ambiguous: ambiguous overload) app/Use.scala:10",
		"app.Use.run -calls-> ?Tool.h (ambiguous: ambiguous overload) app/Use.scala:11",
		"app.Use.run -calls-> ?Tool.h (ambiguous: ambiguous overload) app/Use.scala:12",
		"app.Use.run -calls-> ?Tool.h (ambiguous: ambiguous overload) app/Use.scala:13",
	})
}
