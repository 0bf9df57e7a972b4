package swift_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestArgumentTypesSelectOverloads(t *testing.T) {
	e := edges(t, map[string]string{
		"A.swift": `class Animal {}
class Dog: Animal {}
protocol Named {}
struct Box {
    let title: String
    func f(_ x: Int) {}
    func f(_ x: Double) {}
    func f(_ x: String) {}
    func g(_ x: Double) {}
    func g(_ x: String) {}
    func h(_ x: Int?) {}
    func h(_ x: String) {}
    func k(_ x: Animal) {}
    func k(_ x: Dog) {}
    func n(_ x: Named) {}
    func n(_ x: Int) {}
    func o(_ x: Int) {}
    func o(_ x: Int?) {}
    func p(_ x: Any) {}
    func p(_ x: Double) {}
    func q<T>(_ x: T) {}
    func q(_ x: Int) {}
    func c(_ x: () -> Void) {}
    func c(_ x: Int) {}
    init(a: Int) {}
    init(a: String) {}
}
struct Tag: Named {
    func me(b: Box) { b.n(self) }
}
func name() -> String { "" }
func use(b: Box, d: Dog, s: String, i: Int, u: Undeclared) {
    b.f(1)
    b.f(1.5)
    b.f("x")
    b.g(1)
    b.h(nil)
    b.h(s)
    b.k(d)
    b.n(Tag())
    b.n(i)
    b.o(i)
    b.o(1)
    b.p(1)
    b.q(1)
    b.c({})
    b.f(u)
    b.f(1 as Double)
    b.f(s.count)
    b.f(name())
    b.f(b.title)
    _ = Box(a: 1)
}
`,
	})
	languagetest.Expect(t, e, []string{
		"Tag.me -calls-> Box.n (receiver) A.swift:29",
		"use -calls-> Box.f (receiver) A.swift:33",
		"use -calls-> Box.f (receiver) A.swift:34",
		"use -calls-> Box.f (receiver) A.swift:35",
		"use -calls-> Box.g (receiver) A.swift:36",
		"use -calls-> Box.h (receiver) A.swift:37",
		"use -calls-> Box.h (receiver) A.swift:38",
		"use -calls-> ?b.k (ambiguous: ambiguous overload) A.swift:39",
		"use -calls-> Box.n (receiver) A.swift:40",
		"use -calls-> ?b.n (ambiguous: ambiguous overload) A.swift:41",
		"use -calls-> ?b.o (ambiguous: ambiguous overload) A.swift:42",
		"use -calls-> Box.o (receiver) A.swift:43",
		"use -calls-> ?b.p (ambiguous: ambiguous overload) A.swift:44",
		"use -calls-> ?b.q (ambiguous: ambiguous overload) A.swift:45",
		"use -calls-> Box.c (receiver) A.swift:46",
		"use -calls-> ?b.f (ambiguous: ambiguous overload) A.swift:47",
		"use -calls-> Box.f (receiver) A.swift:48",
		"use -calls-> ?b.f (ambiguous: ambiguous overload) A.swift:49",
		"use -calls-> Box.f (receiver) A.swift:50",
		"use -calls-> Box.f (receiver) A.swift:51",
		"use -calls-> Box.init (scope) A.swift:52",
	})
}
