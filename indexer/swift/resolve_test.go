package swift_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/swift"
)

// edges indexes files (path → source) and returns the golden lines of its
// edges.
var edges = languagetest.EdgesWith(swift.New())

func TestLabelsSelectOverloads(t *testing.T) {
	e := edges(t, map[string]string{
		"A.swift": `struct Cart {
    func add(_ item: String) {}
    func add(_ item: String, qty: Int) {}
    func add(item: String, price: Double = 0) {}
    func put(_ a: Int) {}
    func put(_ b: String) {}
    init(name: String) {}
    init(id: Int) {}
}
func use(c: Cart) {
    c.add("a")
    c.add("a", qty: 2)
    c.add(item: "a")
    c.add(item: "a", price: 1)
    c.put(1)
    c.add(nope: 1)
    let d = Cart(id: 1)
    d.add("b")
    _ = Cart(name: "x")
}
`,
	})
	languagetest.Expect(t, e, []string{
		"use -calls-> Cart.add (receiver) A.swift:11",
		"use -calls-> Cart.add (receiver) A.swift:12",
		"use -calls-> Cart.add (receiver) A.swift:13",
		"use -calls-> Cart.add (receiver) A.swift:14",
		"use -calls-> Cart.put (receiver) A.swift:15",
		"use -calls-> ?c.add (unresolved: no overload taking (nope:)) A.swift:16",
		"use -instantiates-> Cart (scope) A.swift:17",
		"use -calls-> Cart.init (scope) A.swift:17",
		"use -calls-> Cart.add (receiver) A.swift:18",
		"use -calls-> Cart.init (scope) A.swift:19",
	})
}

func TestProtocolsAndExtensions(t *testing.T) {
	e := edges(t, map[string]string{
		"P.swift": `protocol Shape { func area() -> Double }
extension Shape { func area() -> Double { 0 }; func twice() -> Double { area() * 2 } }
struct Square: Shape { func area() -> Double { 1 } }
extension Square: CustomStringConvertible, Named {
    var description: String { "square" }
    func describe() -> String { name() }
}
protocol Named { func name() -> String }
func measure(s: Shape, q: Square) {
    s.area()
    s.twice()
    q.area()
    q.describe()
}
`,
	})
	languagetest.Expect(t, e, []string{
		"measure -calls-> Shape.area (receiver) P.swift:10",
		"measure -calls-> Shape.twice (receiver) P.swift:11",
		"measure -calls-> Square.area (receiver) P.swift:12",
		"measure -calls-> Square.describe (receiver) P.swift:13",
		"Square.describe -calls-> Named.name (scope) P.swift:6",
		"Shape.twice -calls-> Shape.area (scope) P.swift:2",
		"Square -implements-> Shape (scope)",
		"Square -implements-> Named (scope) P.swift:4",
		"Square -implements-> ?CustomStringConvertible (unresolved: external CustomStringConvertible)",
	},
		// A protocol-typed receiver lands on the requirement, not on the
		// default implementation of the extension.
		"measure -calls-> Shape.area (receiver) P.swift:12",
	)
}

func TestModulesAndScopes(t *testing.T) {
	e := edges(t, map[string]string{
		"Sources/Core/Tool.swift": `public struct Tool { public static func make() -> Tool { Tool() }; public func run() {} }
func helper() {}
private func hidden() {}`,
		"Sources/Other/Tool.swift": `public struct Tool { public static func make() -> Tool { Tool() }; public func run() {} }`,
		"Sources/App/main.swift": `import Core
let t = Tool.make()
t.run()
helper()
`,
		"Sources/Core/Use.swift": `class User: External {
    func go() { helper(); hidden(); local() }
    func local() {}
    func on(x: Int) { if let y = x { y.run() } }
}`,
	})
	languagetest.Expect(t, e, []string{
		"App.t -calls-> Core.Tool.make (import)",
		"Sources/App/main.swift -imports-> Core (import)",
		"Core.User.go -calls-> Core.User.local (scope)",
		"Core.User.go -calls-> Core.helper (scope) Sources/Core/Use.swift:2",
		"Core.User.go -calls-> ?hidden (unresolved: member of external supertype External)",
		"Core.User.on -calls-> ?y.run (unresolved: local of unknown type)",
	},
		"App.t -calls-> Other.Tool.make",
		// helper is internal to Core: App does not see it.
		"Sources/App/main.swift -calls-> Core.helper",
		// hidden is private to Tool.swift.
		"Core.User.go -calls-> Core.hidden",
	)
}
