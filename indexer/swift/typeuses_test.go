package swift_test

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/swift"
)

// TestTypeUses holds Swift to every use of a type it records: one snippet
// per form, its edges to types of the repository, none to generic
// parameters or the standard library's primitives.
func TestTypeUses(t *testing.T) {
	types := `struct Item {}
struct Box<T> {}
protocol Shape {}
class Base {}
struct Oops: Error {}
@propertyWrapper struct Clamped { var wrappedValue: Int }
`
	setting := lt.Setting{Files: map[string]string{"Types.swift": types}, File: "Use.swift", Before: "\n"}
	lt.TypeUses(t, setting, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Src: `func m() { _ = Item() }`,
			Want: []string{"m -instantiates-> Item (scope) Use.swift:2"}},
		{Form: lt.FormField, Src: `class U { var a: Item; var b: [Item]? = nil; var n: Int = 0; init(a: Item) { self.a = a } }`,
			Want:  []string{"U.a -references-> Item (scope) Use.swift:2", "U.b -references-> Item (scope) Use.swift:2"},
			Wrong: []string{"U.n -references->"}},
		{Form: lt.FormParam, Src: `func m(i: Item, n: Int) {}`,
			Want: []string{"m -references-> Item (scope) Use.swift:2"}},
		{Form: lt.FormResult, Src: `func m() -> Item? { nil }`,
			Want: []string{"m -references-> Item (scope) Use.swift:2"}},
		{Form: lt.FormVar, Src: `func m() {
  let i: Item = Item()
}`,
			Want: []string{"m -references-> Item (scope) Use.swift:3"}},
		{Form: lt.FormConversion, Src: `func m(o: Any) {
  let a = o as? Item
  let b = o as! Base
}`,
			Want: []string{"m -references-> Item (scope) Use.swift:3", "m -references-> Base (scope) Use.swift:4"}},
		{Form: lt.FormAssertion, Src: `func m(o: Any) {
  if o is Item {}
  switch o { case let z as Base: break; case is Shape: break; default: break }
}`,
			Want: []string{
				"m -references-> Item (scope) Use.swift:3",
				"m -references-> Base (scope) Use.swift:4",
				"m -references-> Shape (scope) Use.swift:4",
			}},
		{Form: lt.FormTypeArg, Src: `class U<T> where T: Shape {
  var f: Box<T>? = nil
  var g: [String: Box<Item>] = [:]
  func m<S: Shape>(s: S) -> Box<S>? { nil }
}`,
			Want: []string{
				"U -references-> Shape (scope) Use.swift:2",
				"U.f -references-> Box (scope) Use.swift:3",
				"U.g -references-> Item (scope) Use.swift:4",
				"U.m -references-> Shape (scope) Use.swift:5",
			},
			// generic parameters are no types.
			Wrong: []string{"U.f -references-> ?T", "U -references-> ?T", "U.m -references-> ?S"}},
		{Form: lt.FormExtends, Src: `class U: Base {}`,
			Want:  []string{"U -extends-> Base (scope) Use.swift:2"},
			Wrong: []string{"U -references-> Base"}},
		{Form: lt.FormImplements, Src: `struct U: Shape {}
extension Item: Shape {}`,
			Want:  []string{"U -implements-> Shape (scope) Use.swift:2", "Item -implements-> Shape (scope) Use.swift:3"},
			Wrong: []string{"U -references-> Shape", "Use.swift -references-> Item"}},
		{Form: lt.FormAnnotation, Src: `struct U { @Clamped var a: Int; @available(*, deprecated) func m() {} }`,
			Want:  []string{"U.a -references-> Clamped (scope) Use.swift:2"},
			Wrong: []string{"U.m -references-> ?available"}},
		{Form: lt.FormThrows, Src: `func m() { do { try n() } catch let e as Oops {} catch {} }
func n() throws {}`,
			Want: []string{"m -references-> Oops (scope) Use.swift:2"}},
	}, swift.New())
}
