package cpp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	lt "github.com/graphsnap/snap/indexer/languagetest"
)

// TestTypeUses holds C++ to every use of a type it records: one snippet
// per form, its edges to types of the repository, none to template
// parameters, builtin types or the names a declaration declares.
func TestTypeUses(t *testing.T) {
	types := `#pragma once
namespace n {
class Item { public: Item(); Item(int a); };
template <typename T> class Box {};
class Base {};
struct Oops {};
typedef int count;
}
`
	setting := lt.Setting{Files: map[string]string{"types.hpp": types}, File: "use.cpp", Before: "#include \"types.hpp\"\nnamespace n {\n", After: "\n}\n"}
	lt.TypeUses(t, setting, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormTypeArg, lt.FormExtends, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Src: `void m() {
  Item a(1);
  Item b{};
  auto c = Item(2);
  auto d = new Item();
  count e(3);
}`,
			Want: []string{
				"n::m -instantiates-> n::Item (import) use.cpp:4",
				"n::m -instantiates-> n::Item (import) use.cpp:5",
				"n::m -instantiates-> n::Item (import) use.cpp:6",
				"n::m -instantiates-> n::Item (import) use.cpp:7",
				// a type that is no class constructs nothing.
				"n::m -references-> n::count (import) use.cpp:8",
			},
			Wrong: []string{"n::m -instantiates-> n::count"}},
		{Form: lt.FormField, Src: `class U { Item a, b; Item *p; };`,
			Want:  []string{"n::U::a -references-> n::Item (import) use.cpp:3"},
			Wrong: []string{"n::U::b -references->"}},
		{Form: lt.FormParam, Src: `void m(const Item &i, int k) {}`,
			Want: []string{"n::m -references-> n::Item (import) use.cpp:3"}},
		{Form: lt.FormResult, Src: `Item *m() { return nullptr; }`,
			Want: []string{"n::m -references-> n::Item (import) use.cpp:3"}},
		{Form: lt.FormVar, Src: `void m() {
  Item *i = nullptr;
  for (Base &b : list) {}
}`,
			Want: []string{
				"n::m -references-> n::Item (import) use.cpp:4",
				"n::m -references-> n::Base (import) use.cpp:5",
			}},
		{Form: lt.FormConversion, Src: `void m(void *o) {
  auto a = (Item *)o;
  auto b = static_cast<Base *>(o);
}`,
			Want: []string{
				"n::m -references-> n::Item (import) use.cpp:4",
				"n::m -references-> n::Base (import) use.cpp:5",
			}},
		{Form: lt.FormTypeArg, Src: `template <typename T> class U {
  Box<Item> f;
  Box<T> g;
  n::Box<std::string> h;
};
using Items = Box<Base>;`,
			Want: []string{
				"n::U::f -references-> n::Box (import) use.cpp:4",
				"n::U::f -references-> n::Item (import) use.cpp:4",
				"n::U::h -references-> n::Box (import) use.cpp:6",
				"n::U::h -references-> ?std::string (unresolved: external (std)) use.cpp:6",
				"n::Items -references-> n::Box (import) use.cpp:8",
				"n::Items -references-> n::Base (import) use.cpp:8",
			},
			// template parameters are no types.
			Wrong: []string{"n::U::g -references-> ?T"}},
		{Form: lt.FormExtends, Src: `class U : public Base {};
class V : public Box<Item> {};`,
			Want: []string{
				"n::U -extends-> n::Base (import) use.cpp:3",
				"n::V -extends-> n::Box (import) use.cpp:4",
				"n::V -references-> n::Item (import) use.cpp:4",
			},
			Wrong: []string{"n::U -references-> n::Base", "n::V -references-> n::Box"}},
		{Form: lt.FormThrows, Src: `void m() { try {} catch (const Oops &e) {} }`,
			Want: []string{"n::m -references-> n::Oops (import) use.cpp:3"}},
	}, cpp.New(), c.New())
}

// TestDeclaredNamesAreNoUses: the name a definition, a forward
// declaration, a typedef or an alias declares is no use of a type.
func TestDeclaredNamesAreNoUses(t *testing.T) {
	edges := lt.Edges(t, map[string]string{"a.cpp": `class Fwd;
struct S { struct S *next; };
typedef struct S S_t;
using A = S;
template <typename T> struct Tm {};
`}, cpp.New(), c.New())
	lt.Expect(t, edges, []string{
		"S::next -references-> S (local) a.cpp:2",
		"S_t -references-> S (local) a.cpp:3",
		"A -references-> S (local) a.cpp:4",
	}, "a.cpp -references-> ?Fwd", "a.cpp -references-> Fwd", "S -references->", "Tm -references->",
		"S_t -references-> S_t", "A -references-> A", "a.cpp -references-> ?T")
}
