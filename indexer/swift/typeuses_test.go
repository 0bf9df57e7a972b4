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
	with := func(src string) map[string]string {
		return map[string]string{"Types.swift": types, "Use.swift": "\n" + src}
	}
	lt.TypeUses(t, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Files: with(`func m() { _ = Item() }`),
			Want: []string{"m -instantiates-> Item (scope) Use.swift:2"}},
		{Form: lt.FormField, Files: with(`class U { var a: Item; var b: [Item]? = nil; var n: Int = 0; init(a: Item) { self.a = a } }`),
			Want:  []string{"U.a -references-> Item (scope) Use.swift:2", "U.b -references-> Item (scope) Use.swift:2"},
			Wrong: []string{"U.n -references->"}},
		{Form: lt.FormParam, Files: with(`func m(i: Item, n: Int) {}`),
			Want: []string{"m -references-> Item (scope) Use.swift:2"}},
		{Form: lt.FormResult, Files: with(`func m() -> Item? { nil }`),
			Want: []string{"m -references-> Item (scope) Use.swift:2"}},
		{Form: lt.FormVar, Files: with(`func m() {
  let i: Item = Item()
}`),
			Want: []string{"m -references-> Item (scope) Use.swift:3"}},
		{Form: lt.FormConversion, Files: with(`func m(o: Any) {
  let a = o as? Item
  let b = o as! Base
}`),
			Want: []string{"m -references-> Item (scope) Use.swift:3", "m -references-> Base (scope) Use.swift:4"}},
		{Form: lt.FormAssertion, Files: with(`func m(o: Any) {
  if o is Item {}
  switch o { case let z as Base: break; case is Shape: break; default: break }
}`),
			Want: []string{
				"m -references-> Item (scope) Use.swift:3",
				"m -references-> Base (scope) Use.swift:4",
				"m -references-> Shape (scope) Use.swift:4",
			}},
		{Form: lt.FormTypeArg, Files: with(`class U<T> where T: Shape {
  var f: Box<T>? = nil
  var g: [String: Box<Item>] = [:]
  func m<S: Shape>(s: S) -> Box<S>? { nil }
}`),
			Want: []string{
				"U -references-> Shape (scope) Use.swift:2",
				"U.f -references-> Box (scope) Use.swift:3",
				"U.g -references-> Item (scope) Use.swift:4",
				"U.m -references-> Shape (scope) Use.swift:5",
			},
			// generic parameters are no types.
			Wrong: []string{"U.f -references-> ?T", "U -references-> ?T", "U.m -references-> ?S"}},
		{Form: lt.FormExtends, Files: with(`class U: Base {}`),
			Want:  []string{"U -extends-> Base (scope) Use.swift:2"},
			Wrong: []string{"U -references-> Base"}},
		{Form: lt.FormImplements, Files: with(`struct U: Shape {}
extension Item: Shape {}`),
			Want:  []string{"U -implements-> Shape (scope) Use.swift:2", "Item -implements-> Shape (scope) Use.swift:3"},
			Wrong: []string{"U -references-> Shape", "Use.swift -references-> Item"}},
		{Form: lt.FormAnnotation, Files: with(`struct U { @Clamped var a: Int; @available(*, deprecated) func m() {} }`),
			Want:  []string{"U.a -references-> Clamped (scope) Use.swift:2"},
			Wrong: []string{"U.m -references-> ?available"}},
		{Form: lt.FormThrows, Files: with(`func m() { do { try n() } catch let e as Oops {} catch {} }
func n() throws {}`),
			Want: []string{"m -references-> Oops (scope) Use.swift:2"}},
	}, swift.New())
}
