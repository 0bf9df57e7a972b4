package rust_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/rust"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/rust/shop", "../../testdata/rust/shop.golden.json", rust.New())
}

// index indexes files (path → source) and returns the golden lines of its
// edges.
var index = languagetest.EdgesWith(rust.New())

func indexGraph(t *testing.T, files map[string]string) *indexer.Graph {
	t.Helper()
	return languagetest.Index(t, files, rust.New())
}

const cargo = "[package]\nname = \"app\"\n"

func TestModuleTree(t *testing.T) {
	edges := index(t, map[string]string{
		"Cargo.toml":             cargo,
		"src/lib.rs":             "pub mod a;\nmod b;\npub fn top() {}\n",
		"src/a.rs":               "pub mod inner;\npub fn f() { inner::g(); super::top(); crate::b::h(); self::inner::g(); }\n",
		"src/a/inner.rs":         "pub fn g() { super::super::top(); super::f(); }\n",
		"src/b/mod.rs":           "pub fn h() { crate::a::inner::g(); }\n",
		"src/orphan.rs":          "pub fn lost() { crate::top(); super::top(); }\n",
		"src/bin/tool/main.rs":   "mod helper;\nfn main() { helper::run(); app::top(); crate::helper::run(); }\n",
		"src/bin/tool/helper.rs": "pub fn run() {}\n",
	})
	languagetest.Expect(t, edges, []string{
		"app::a::f -calls-> app::a::inner::g (scope)",
		"app::a::f -calls-> app::top (scope)",
		"app::a::f -calls-> app::b::h (scope)",
		"app::a::inner::g -calls-> app::top (scope)",
		"app::a::inner::g -calls-> app::a::f (scope)",
		"app::b::h -calls-> app::a::inner::g (scope)",
		"app::orphan::lost -calls-> app::top (scope)",
		"app::orphan::lost -calls-> ?super::top (unresolved: module not declared)",
		"tool::main -calls-> tool::helper::run (scope) src/bin/tool/main.rs:2",
		"tool::main -calls-> app::top (import)",
	})
}

func TestModuleParents(t *testing.T) {
	g := indexGraph(t, map[string]string{
		"Cargo.toml":          cargo,
		"src/lib.rs":          "pub mod a;\n",
		"src/a.rs":            "mod inner { pub mod deep; }\n",
		"src/a/inner/deep.rs": "pub struct S;\nimpl S { pub fn m(&self) {} }\n",
	})
	parent := make(map[string]string)
	byID := make(map[uint64]string)
	for _, n := range g.Nodes {
		byID[n.ID] = n.QualifiedName
	}
	for _, n := range g.Nodes {
		parent[n.QualifiedName] = byID[n.ParentID]
	}
	for child, want := range map[string]string{
		"app::a":                    "app",
		"app::a::inner":             "app::a",
		"app::a::inner::deep":       "app::a::inner",
		"app::a::inner::deep::S::m": "app::a::inner::deep::S",
	} {
		if got := parent[child]; got != want {
			t.Errorf("parent of %s = %q, want %q", child, got, want)
		}
	}
}

func TestUseTrees(t *testing.T) {
	edges := index(t, map[string]string{
		"Cargo.toml": cargo,
		"src/lib.rs": `
pub mod shapes;
pub mod prelude {
    pub use crate::shapes::{circle::{self, Circle as Round}, Square};
}
use prelude::*;
use shapes::circle::area as circle_area;

pub fn run() {
    Round::new();
    Square::new();
    circle::area();
    circle_area();
    std::mem::drop(1);
}
`,
		"src/shapes/mod.rs":    "pub mod circle;\npub struct Square;\nimpl Square { pub fn new() -> Self { Square } }\n",
		"src/shapes/circle.rs": "pub struct Circle;\nimpl Circle { pub fn new() -> Circle { Circle } }\npub fn area() {}\n",
	})
	languagetest.Expect(t, edges, []string{
		"app::prelude -imports-> app::shapes::circle (import)",
		"app::prelude -imports-> app::shapes::circle::Circle (import)",
		"app::prelude -imports-> app::shapes::Square (import)",
		"app -imports-> app::prelude (import)",
		"app -imports-> app::shapes::circle::area (import)",
		"app::run -calls-> app::shapes::circle::Circle::new (import)",
		"app::run -calls-> app::shapes::Square::new (import)",
		"app::run -calls-> app::shapes::circle::area (import)",
		"app::run -calls-> ?std::mem::drop (unresolved: external crate std)",
	})
}

func TestMethodResolution(t *testing.T) {
	edges := index(t, map[string]string{
		"Cargo.toml": cargo,
		"src/lib.rs": `
pub trait Speak { fn speak(&self) -> String; fn twice(&self) -> String { self.speak() } }
pub trait Loud { fn speak(&self) -> String; }
pub struct Dog { pub friend: Option<Box<Dog>>, pub toys: Vec<Toy> }
pub struct Toy;
impl Toy { pub fn squeak(&self) {} }
impl Dog {
    pub fn new() -> Self { Dog { friend: None, toys: Vec::new() } }
    pub fn bark(&self) {}
    pub fn walk(&self) {
        self.bark();
        Self::new().bark();
        let d = Dog::new();
        d.bark();
        let e: Dog = make();
        e.bark();
        if let Some(f) = &self.friend { f.bark(); }
        self.friend.as_ref().unwrap().bark();
        for t in &self.toys { t.squeak(); }
        self.toys[0].squeak();
        let d = Toy;
        d.squeak();
        self.twice();
    }
}
impl Speak for Dog { fn speak(&self) -> String { String::new() } }
pub fn make() -> Dog { Dog::new() }
pub fn generic<T: Speak>(t: &T, u: &dyn Speak) { t.speak(); u.speak(); }
pub struct Cat;
impl Speak for Cat { fn speak(&self) -> String { String::new() } }
impl Loud for Cat { fn speak(&self) -> String { String::new() } }
pub fn cats(c: Cat) { c.speak(); }
pub struct T;
impl T { pub fn default() -> T { T } }
pub fn build<T: Default>() -> T { T::default() }
pub trait Twice: Speak { fn again(&self) -> String { Self::speak(self) } }
`,
	})
	languagetest.Expect(t, edges, []string{
		"app::Dog::walk -calls-> app::Dog::bark (receiver) src/lib.rs:11",
		"app::Dog::walk -calls-> app::Dog::bark (receiver) src/lib.rs:12",
		"app::Dog::walk -calls-> app::Dog::new (receiver) src/lib.rs:12",
		"app::Dog::walk -calls-> app::Dog::bark (receiver) src/lib.rs:14",
		"app::Dog::walk -calls-> app::make (scope) src/lib.rs:15",
		"app::Dog::walk -calls-> app::Dog::bark (receiver) src/lib.rs:16",
		"app::Dog::walk -calls-> app::Dog::bark (receiver) src/lib.rs:17",
		"app::Dog::walk -calls-> app::Dog::bark (receiver) src/lib.rs:18",
		"app::Dog::walk -calls-> app::Toy::squeak (receiver) src/lib.rs:19",
		"app::Dog::walk -calls-> app::Toy::squeak (receiver) src/lib.rs:20",
		"app::Dog::walk -calls-> app::Toy::squeak (receiver) src/lib.rs:22",
		"app::Dog::walk -calls-> app::Speak::twice (receiver) src/lib.rs:23",
		"app::Speak::twice -calls-> ?self.speak (unresolved: dynamic dispatch via app::Speak::speak)",
		"app::generic -calls-> ?t.speak (unresolved: dynamic dispatch via app::Speak::speak)",
		"app::generic -calls-> ?u.speak (unresolved: dynamic dispatch via app::Speak::speak)",
		"app::cats -calls-> ?c.speak (ambiguous: 2 traits provide speak)",
		"app::build -calls-> ?T::default (unresolved: generic parameter)",
		"app::Twice::again -calls-> ?Self::speak (unresolved: dynamic dispatch via app::Speak::speak)",
		"app::Dog -implements-> app::Speak (structural)",
	}, "app::build -calls-> app::T::default")
}

func TestShadowing(t *testing.T) {
	edges := index(t, map[string]string{
		"Cargo.toml": cargo,
		"src/lib.rs": `
pub struct A; impl A { pub fn go(&self) {} }
pub struct B; impl B { pub fn go(&self) {} }
pub fn helper() {}
pub fn run(x: A) {
    x.go();
    let x = B;
    x.go();
    {
        let x = A;
        x.go();
    }
    x.go();
    let helper = || 1;
    helper();
}
pub fn other() { helper(); }
`,
	})
	languagetest.Expect(t, edges, []string{
		"app::run -calls-> app::A::go (receiver) src/lib.rs:6",
		"app::run -calls-> app::B::go (receiver) src/lib.rs:8",
		"app::run -calls-> app::A::go (receiver) src/lib.rs:11",
		"app::run -calls-> app::B::go (receiver) src/lib.rs:13",
		"app::run -calls-> ?helper (unresolved: local variable or closure)",
		"app::other -calls-> app::helper (scope)",
	}, "app::run -calls-> app::helper")
}

func TestExternalAndMacros(t *testing.T) {
	edges := index(t, map[string]string{
		"Cargo.toml": cargo,
		"src/lib.rs": `
use serde::Serialize;
use std::collections::HashMap;
macro_rules! twice { ($e:expr) => { $e; $e } }
mod inner {
    macro_rules! hidden { () => {} }
    pub fn g() { hidden!(); }
}
#[macro_use]
mod shared {
    macro_rules! shown { () => {} }
}
pub fn run(m: HashMap<u32, String>) {
    twice!(1);
    hidden!();
    shown!();
    println!("{}", m.len());
    serde_json::to_string(&1);
    Serialize::serialize(&1);
    unknown_thing();
    Some(1);
    tokio::select! {};
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"app::run -calls-> app::twice! (local)",
		"app::run -calls-> app::shared::shown! (local)",
		"app::inner::g -calls-> app::inner::hidden! (local)",
		"app::run -calls-> ?hidden! (unresolved: unknown macro)",
		"app::run -calls-> ?println! (unresolved: external crate std)",
		"app::run -calls-> ?m.len (unresolved: external crate std)",
		"app::run -calls-> ?serde_json::to_string (unresolved: external crate serde_json)",
		"app::run -calls-> ?Serialize::serialize (unresolved: external crate serde)",
		"app::run -calls-> ?unknown_thing (unresolved: unknown name)",
		"app::run -calls-> ?tokio::select! (unresolved: external crate tokio)",
		"app -imports-> ?serde::Serialize (unresolved: external crate serde)",
	}, "app::run -calls-> ?Some")
}

func TestMacroTextualScope(t *testing.T) {
	edges := index(t, map[string]string{
		"Cargo.toml":    cargo,
		"src/lib.rs":    "mod early;\n#[macro_use]\nmod macros;\nmacro_rules! root_mac { () => {} }\nmod late;\ninclude!(\"extra.rs\");\nmod last;\n",
		"src/macros.rs": "macro_rules! m { () => {} }\n",
		"src/extra.rs":  "macro_rules! x { () => {} }\n",
		"src/early.rs":  "fn f() { m!(); root_mac!(); }\n",
		"src/late.rs":   "fn g() { m!(); root_mac!(); x!(); }\n",
		"src/last.rs":   "fn h() { x!(); }\n",
	})
	languagetest.Expect(t, edges, []string{
		"app::early::f -calls-> ?m! (unresolved: unknown macro)",
		"app::early::f -calls-> ?root_mac! (unresolved: unknown macro)",
		"app::late::g -calls-> app::macros::m! (scope)",
		"app::late::g -calls-> app::root_mac! (scope)",
		"app::late::g -calls-> ?x! (unresolved: unknown macro)",
		"app::last::h -calls-> app::extra::x! (scope)",
	})
}
