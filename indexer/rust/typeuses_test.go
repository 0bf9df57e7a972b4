package rust

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
)

// TestTypeUses holds Rust to every use of a type it records: one snippet
// per form, its edges to types of the crate, none to generic parameters,
// Self or primitives.
func TestTypeUses(t *testing.T) {
	setting := lt.Setting{
		Files: map[string]string{
			"Cargo.toml": "[package]\nname = \"c\"\nversion = \"0.1.0\"\n",
			"src/lib.rs": `pub struct Item { pub n: u32 }
pub struct Pair(pub u32);
pub struct Boxed<T>(pub T);
pub enum Shape { Dot, Square { side: u32 } }
pub trait Named { fn name(&self) -> u32; }
pub mod u;
`,
		},
		File:   "src/u.rs",
		Before: "use crate::{Item, Pair, Boxed, Shape, Named};\n",
	}
	lt.TypeUses(t, setting, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormAssertion,
		lt.FormTypeArg, lt.FormExtends, lt.FormImplements,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Src: `pub fn m() { let a = Item { n: 1 }; let b = Pair(2); }`,
			Want: []string{
				"c::u::m -instantiates-> c::Item (import) src/u.rs:2",
				"c::u::m -instantiates-> c::Pair (import) src/u.rs:2",
			},
			Wrong: []string{"c::u::m -references-> c::Item"}},
		{Form: lt.FormField, Src: `pub struct U { pub a: Item, b: Option<Pair>, c: u32 }`,
			Want: []string{
				"c::u::U::a -references-> c::Item (import) src/u.rs:2",
				"c::u::U::b -references-> ?Option (unresolved: external crate std) src/u.rs:2",
				"c::u::U::b -references-> c::Pair (import) src/u.rs:2",
			}},
		{Form: lt.FormParam, Src: `pub fn m(i: &Item, n: u32) {}`,
			Want: []string{"c::u::m -references-> c::Item (import) src/u.rs:2"}},
		{Form: lt.FormResult, Src: `pub fn m() -> Option<crate::Item> { None }`,
			Want: []string{"c::u::m -references-> c::Item (scope) src/u.rs:2"}},
		{Form: lt.FormVar, Src: `pub fn m() { let i: Vec<Pair> = Vec::new(); }`,
			Want: []string{"c::u::m -references-> c::Pair (import) src/u.rs:2"}},
		{Form: lt.FormAssertion, Src: `pub fn m(s: u32, i: Item) -> u32 {
  let Item { n } = i;
  match s { _ => n }
}
pub fn k(s: &Shape) -> bool { matches!(s, Shape::Dot) || if let Shape::Square { side } = s { *side > 0 } else { false } }`,
			Want: []string{
				"c::u::m -references-> c::Item (import) src/u.rs:3",
				"c::u::k -references-> c::Shape::Square (import) src/u.rs:6",
			}},
		{Form: lt.FormTypeArg, Src: `pub struct U<T> { f: Boxed<T>, g: Boxed<Item> }
pub type R<E> = Result<Pair, E>;
pub fn m<S: Named>(s: S) -> Boxed<S> where S: Clone { Boxed(s) }`,
			Want: []string{
				"c::u::U::f -references-> c::Boxed (import) src/u.rs:2",
				"c::u::U::g -references-> c::Item (import) src/u.rs:2",
				"c::u -references-> c::Pair (import) src/u.rs:3",
				"c::u::m -references-> c::Named (import) src/u.rs:4",
				"c::u::m -references-> c::Boxed (import) src/u.rs:4",
			},
			// generic parameters are no types.
			Wrong: []string{"c::u::U::f -references-> ?T", "c::u -references-> ?E", "c::u::m -references-> ?S", "c::u::U -references-> ?T"}},
		{Form: lt.FormExtends, Src: `pub trait Sub: Named + Clone {}
pub trait Gen<T>: Named where T: Named {}`,
			Want: []string{
				"c::u::Sub -extends-> c::Named (import) src/u.rs:2",
				"c::u::Gen -references-> c::Named (import) src/u.rs:3",
			},
			// a supertrait is an extends edge, not a use.
			Wrong: []string{"c::u::Sub -references->"}},
		{Form: lt.FormImplements, Src: `pub struct U;
impl Named for U { fn name(&self) -> u32 { 0 } }
impl From<Item> for Pair { fn from(i: Item) -> Self { Pair(i.n) } }`,
			Want: []string{
				"c::u::U -implements-> c::Named (structural) src/u.rs:3",
				"c::u -references-> c::Item (import) src/u.rs:4",
			},
			// the self type and trait of an impl have their own edges.
			Wrong: []string{"c::u -references-> c::u::U", "c::u -references-> c::Named", "c::u -references-> c::Pair"}},
	}, New())
}
