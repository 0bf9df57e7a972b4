package scala_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/scala"
)

// edges indexes files (path → source) and returns the golden lines of its
// edges.
var edges = languagetest.EdgesWith(scala.New())

func TestOverloadsAndApply(t *testing.T) {
	e := edges(t, map[string]string{
		"a/A.scala": `package a
case class P(x: Int)
class C(n: Int) { def this() = this(0) }
object Tool {
  def f(a: Int): Int = a
  def f(a: Int, b: Int): Int = a
  def g(a: Int): Int = a
  def g(a: String): Int = 0
  def apply(s: String): Tool.type = this
}
object Use {
  def run(): Unit = {
    Tool.f(1)
    Tool.f(1, 2)
    Tool.g(1)
    Tool("x")
    P(1)
    new C()
    new C(1)
    val p = P(2)
    p.x
  }
}
`,
	})
	languagetest.Expect(t, e, []string{
		"a.Use.run -calls-> a.Tool.f (scope) a/A.scala:13",
		"a.Use.run -calls-> a.Tool.f (scope) a/A.scala:14",
		"a.Use.run -calls-> a.Tool.g (scope) a/A.scala:15", // g(a: Int), by the argument's type
		"a.Use.run -calls-> a.Tool.apply (scope) a/A.scala:16",
		"a.Use.run -instantiates-> a.P (scope) a/A.scala:17",
		"a.Use.run -calls-> a.C.this (scope) a/A.scala:18",
		"a.Use.run -instantiates-> a.C (scope) a/A.scala:19",
	},
		// new C(1) takes the primary constructor: no node, no call.
		"a.Use.run -calls-> a.C.this (scope) a/A.scala:19",
		// p.x is a field, not a call.
		"a.Use.run -calls-> a.P.x",
	)
}

func TestImportsAndPackages(t *testing.T) {
	e := edges(t, map[string]string{
		"x/Lib.scala": `package x
object Lib { def go(): Int = 1 }
class Box { def open(): Int = 1 }
`,
		"y/Other.scala": `package y
object Lib { def go(): Int = 2 }
`,
		"z/Use.scala": `package z
import x.{Lib => L, Box}
object Use {
  def run(b: Box): Int = {
    L.go()
    b.open()
    Lib.go()
  }
}
`,
		"w/Wild.scala": `package w
import x._
import y._
object Wild { def run(): Int = Lib.go() }
`,
	})
	languagetest.Expect(t, e, []string{
		"z.Use.run -calls-> x.Lib.go (import) z/Use.scala:5",
		"z.Use.run -calls-> x.Box.open (receiver) z/Use.scala:6",
		"z.Use.run -calls-> ?Lib.go (unresolved: external Lib) z/Use.scala:7",
		"w.Wild.run -calls-> ?Lib.go (unresolved: ambiguous import of Lib)",
		"z/Use.scala -imports-> x.Lib (import)",
	},
		// Lib is imported only as L; y.Lib is not in view.
		"z.Use.run -calls-> y.Lib.go",
		"w.Wild.run -calls-> x.Lib.go",
		"w.Wild.run -calls-> y.Lib.go",
	)
}

func TestScopesAndInheritance(t *testing.T) {
	e := edges(t, map[string]string{
		"a/A.scala": `package a
trait Base { def hello(): Int = 1 }
class Impl extends Base with Ext {
  def run(x: Int): Int = {
    hello()
    this.hello()
    val run = new Other
    run.go()
    missing()
  }
}
class Other { def go(): Int = 1; def hello(): Int = 2 }
class Lone { def f(o: Other) = { o.hello(); hello() } }
`,
	})
	languagetest.Expect(t, e, []string{
		"a.Impl -implements-> a.Base (scope)",
		"a.Impl -extends-> ?Ext (unresolved: external Ext)",
		"a.Impl.run -calls-> a.Base.hello (scope) a/A.scala:5",
		"a.Impl.run -calls-> a.Base.hello (scope) a/A.scala:6",
		"a.Impl.run -calls-> a.Other.go (receiver) a/A.scala:8",
		"a.Lone.f -calls-> a.Other.hello (receiver) a/A.scala:13",
		"a.Lone.f -calls-> ?hello (unresolved: unknown name hello) a/A.scala:13",
	},
		// Lone has no hello of its own: Other's is not in scope.
		"a.Lone.f -calls-> a.Other.hello (scope)",
		"a.Impl.run -calls-> a.Other.hello",
	)
}
