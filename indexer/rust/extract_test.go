package rust

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

func newTestExtractor(t testing.TB, tree *indexer.Tree) *extractor {
	t.Helper()
	x, err := New().NewExtractor(tree)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(x.Close)
	return x.(*extractor)
}

func treeOf(files map[string]string) *indexer.Tree {
	t := &indexer.Tree{Paths: make(map[string]bool)}
	for p := range files {
		t.Paths[p] = true
	}
	t.ReadFile = func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	return t
}

func TestLocate(t *testing.T) {
	tree := treeOf(map[string]string{
		"Cargo.toml":                "[workspace]\nmembers = [\"crates/*\"]\n",
		"crates/my-core/Cargo.toml": "[package]\nname = \"my-core\" # the core\nversion = \"0.1.0\"\n[lib]\nname = \"ignored\"\n",
		"loose/Cargo.toml":          "[dependencies]\n",
	})
	x := newTestExtractor(t, tree)
	for file, want := range map[string]string{
		"crates/my-core/src/lib.rs":           "my_core root childDir=crates/my-core/src lib",
		"crates/my-core/src/main.rs":          "my_core root childDir=crates/my-core/src",
		"crates/my-core/src/a.rs":             "my_core::a childDir=crates/my-core/src/a lib",
		"crates/my-core/src/a/mod.rs":         "my_core::a childDir=crates/my-core/src/a lib",
		"crates/my-core/src/a/b.rs":           "my_core::a::b childDir=crates/my-core/src/a/b lib",
		"crates/my-core/src/bin/tool.rs":      "tool root childDir=crates/my-core/src/bin",
		"crates/my-core/src/bin/tool/main.rs": "tool root childDir=crates/my-core/src/bin/tool",
		"crates/my-core/src/bin/tool/x.rs":    "tool::x childDir=crates/my-core/src/bin/tool/x",
		"crates/my-core/tests/it.rs":          "it root childDir=crates/my-core/tests test",
		"crates/my-core/tests/common/mod.rs":  "common root childDir=crates/my-core/tests/common test",
		"crates/my-core/examples/demo.rs":     "demo root childDir=crates/my-core/examples",
		"crates/my-core/build.rs":             "build_script_build root childDir=crates/my-core",
		"crates/my-core/src/tests.rs":         "my_core::tests childDir=crates/my-core/src/tests lib test",
		"loose/src/lib.rs":                    "loose root childDir=loose/src lib",
		"other/thing/src/x-y.rs":              "thing::x_y childDir=other/thing/src/x-y lib",
		"p/f.rs":                              "crate::p::f childDir=p/f lib",
	} {
		l := x.locate(file)
		got := l.qualified()
		if l.root {
			got += " root"
		}
		got += " childDir=" + l.childDir
		if l.lib {
			got += " lib"
		}
		if l.test {
			got += " test"
		}
		if got != want {
			t.Errorf("locate(%s) = %q, want %q", file, got, want)
		}
	}
}

func TestCargoName(t *testing.T) {
	for in, want := range map[string]string{
		"[package]\nname = \"a-b\"\n":                   "a-b",
		"[package]\nversion = \"1\"\nname='c'\n":        "c",
		"[dependencies]\nname = \"x\"\n[package]\n":     "",
		"[workspace.package]\nname = \"w\"\n":           "",
		"  [package]  \n  name   =   \"spaced\"  # c\n": "spaced",
	} {
		if got := cargoName([]byte(in)); got != want {
			t.Errorf("cargoName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExprs(t *testing.T) {
	res := languagetest.Extract(t, New(), nil, "src/lib.rs", `
use std::collections::HashMap;
fn f<T: Shape + Clone, U>(a: &mut Foo, b: T, c: Vec<Bar>, u: U, (p, q): (u8, u8)) -> Option<Self> where U: Other {
    let x = Foo::new();
    let y: Baz = make();
    let z = Qux { a: 1 };
    let w = &x;
    let s = "lit";
    x.go();
    y.go();
    z.go();
    w.go();
    s.len();
    a.field.go();
    b.area();
    u.other();
    p.go();
    c[0].go();
    crate::m::f();
    super::g::<u8>();
    <Foo as Trait>::m();
    Vec::<u8>::with_capacity(1);
    self.a.b().await?.c();
    let x = x.next();
    x.go();
    for item in &c { item.go(); }
    if let Some(v) = opt() { v.go(); }
    match opt() { Some(m) => m.go(), other => other.go() }
    let k = |v: Foo, r| { v.go(); r.go() };
    (a.handler)();
    items.iter().map(|it| it.go());
    println!("{}", x.go());
}
`)
	got := make(map[string][]string)
	for _, r := range res.Refs {
		got[r.Kind+" "+r.Target] = append(got[r.Kind+" "+r.Target], r.Expr)
	}
	for ref, want := range map[string]string{
		"imports std::collections::HashMap": "std::collections::HashMap",
		"result Option<Self>":               "{Option<Self>}",
		"calls x.go":                        "Foo::new().go|Foo::new().next().go|Foo::new().next().go",
		"calls y.go":                        "{Baz}.go",
		"calls z.go":                        "{Qux}.go",
		"calls w.go":                        "Foo::new().go",
		"calls s.len":                       "?literal",
		"calls a.field.go":                  "{Foo}.field.go",
		"calls b.area":                      "{impl Shape+Clone}.area",
		"calls u.other":                     "{impl Other}.other",
		"calls p.go":                        "?receiver",
		"calls c[0].go":                     "{Vec<Bar>}[].go",
		"calls crate::m::f":                 "crate::m::f",
		"calls super::g::<u8>":              "super::g",
		"calls <Foo as Trait>::m":           "<{Foo} as {Trait}>::m",
		"calls Vec::<u8>::with_capacity":    "Vec::with_capacity",
		"calls self.a.b":                    "self.a.b",
		"calls self.a.b().await?.c":         "self.a.b()?.c",
		"calls item.go":                     "{Vec<Bar>}[].go",
		"calls v.go":                        "opt()?.go|{Foo}.go",
		"calls m.go":                        "opt()?.go",
		"calls other.go":                    "opt().go",
		"calls r.go":                        "?receiver",
		"calls (a.handler)":                 "?expr",
		"calls it.go":                       "items.iter()[].go",
		"calls make":                        "make",
		"calls println!":                    "println!",
	} {
		g := strings.Join(got[ref], "|")
		if g != want {
			t.Errorf("%s: Expr %q, want %q", ref, g, want)
		}
	}
}

func TestUseTree(t *testing.T) {
	for in, want := range map[string]string{
		"a::b::c":                            "a::b::c",
		"a::b::{self, c as d, e::*}":         "a::b a::b::c>d a::b::e::*",
		"::std::io":                          "::std::io",
		"crate::{x::{y, z::{self as w}}, v}": "crate::x::y crate::x::z>w crate::v",
		"super::*":                           "super::*",
		"self::m as n":                       "self::m>n",
		"r#type::r#match":                    "type::match",
		"{a, b}":                             "a b",
		"a::{}":                              "",
		"std::fmt::{self, Display as _}":     "std::fmt std::fmt::Display>_",
	} {
		var parts []string
		for _, u := range useTree(in) {
			s := u.path
			if u.alias != "" {
				s += ">" + u.alias
			}
			parts = append(parts, s)
		}
		if got := strings.Join(parts, " "); got != want {
			t.Errorf("useTree(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormType(t *testing.T) {
	g := &genScope{}
	g.addGenerics("<'a, T: Shape + 'a, const N: usize, U = u8>")
	g.addWhere("where U: Clone + Send, Self: Sized")
	for in, want := range map[string]string{
		"&'a mut Foo":                      "Foo",
		"Vec<Bar<'a>>":                     "Vec<Bar>",
		"HashMap<u32, crate::m::Order>":    "HashMap<u32,crate::m::Order>",
		"Box<dyn Fn(u8) -> u8 + Send>":     "Box<dyn Fn+Send>",
		"impl Iterator<Item = T>":          "impl Iterator",
		"T":                                "impl Shape",
		"U":                                "impl Clone+Send",
		"T::Assoc":                         "_",
		"[T; N]":                           "[impl Shape]",
		"&[Item]":                          "[Item]",
		"(u8, u8)":                         "_",
		"(Foo)":                            "Foo",
		"fn(u8) -> u8":                     "_",
		"<T as Trait>::Out":                "_",
		"Self":                             "Self",
		"::std::string::String":            "::std::string::String",
		"Result<Vec<u8>, io::Error>":       "Result<Vec<u8>,io::Error>",
		"Option<Box<dyn Shape + 'static>>": "Option<Box<dyn Shape>>",
		"*const u8":                        "u8",
		"_":                                "_",
		"!":                                "_",
	} {
		if got := normType(in, g, 0); got != want {
			t.Errorf("normType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPatternNames(t *testing.T) {
	for in, want := range map[string]string{
		"x":                                   "x",
		"(a, mut b)":                          "a b",
		"Some(ref x)":                         "x",
		"Foo::Bar { a, b: c, .. }":            "a c",
		"[first, .., last]":                   "first last",
		"n @ 1..=5":                           "n",
		"None":                                "",
		"Shape::Circle(r) | Shape::Square(r)": "r r",
		"'a'..='z'":                           "",
		"&(k, v)":                             "k v",
	} {
		names, _ := patternNames(in)
		if got := strings.Join(names, " "); got != want {
			t.Errorf("patternNames(%q) = %q, want %q", in, got, want)
		}
	}
	if names, _ := closureNames("|a, b: Vec<u8>, (c, d)|"); !slices.Equal(names, []string{"a", "b", "c", "d"}) {
		t.Errorf("closureNames = %v", names)
	}
}

func TestDocAndVisibility(t *testing.T) {
	if got := docText([]string{"/// One.\n", "///\n", "///   indented\n"}); got != "One.\n\n  indented" {
		t.Errorf("docText = %q", got)
	}
	if got := docText([]string{"/**\n * Block.\n * More.\n */"}); got != "Block.\nMore." {
		t.Errorf("docText block = %q", got)
	}
	for in, want := range map[string]string{
		"pub fn": schemas.Public, "pub(crate) fn": schemas.Internal, "pub(super) fn": schemas.Internal,
		"pub(in crate::a) fn": schemas.Internal, "pub(self) fn": schemas.Private, "fn": schemas.Private,
		"public_thing": schemas.Private,
	} {
		if got := visibility(in); got != want {
			t.Errorf("visibility(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSymbols(t *testing.T) {
	res := languagetest.Extract(t, New(), nil, "src/lib.rs", `
//! The crate.

/// A shape.
#[derive(Debug)]
pub trait Shape: Named {
    fn area(&self) -> f64;
    fn describe(&self) -> String { String::new() }
    const SIDES: u32;
}

pub struct Sq(pub f64);

impl Sq {
    pub fn new(s: f64) -> Result<Self, ()> { Ok(Sq(s)) }
    pub fn unit() -> Sq { Sq(1.0) }
    pub async unsafe fn side(&self) -> f64 { self.0 }
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn t() {}
}
`)
	got := make(map[string]string)
	for _, n := range res.Nodes {
		flags := n.Kind
		for _, f := range []struct {
			on   bool
			name string
		}{{n.IsStatic, "static"}, {n.IsAbstract, "abstract"}, {n.IsAsync, "async"}, {n.IsTest, "test"}, {n.Exported, "exported"}} {
			if f.on {
				flags += " " + f.name
			}
		}
		got[n.QualifiedName] = flags
	}
	for qn, want := range map[string]string{
		"crate":                  "module exported",
		"crate::Shape":           "trait exported",
		"crate::Shape::area":     "method abstract exported",
		"crate::Shape::describe": "method exported",
		"crate::Shape::SIDES":    "constant abstract exported",
		"crate::Sq::0":           "field exported",
		"crate::Sq::new":         "constructor exported",
		"crate::Sq::unit":        "method static exported",
		"crate::Sq::side":        "method async exported",
		"crate::tests":           "module test",
		"crate::tests::t":        "function async test",
	} {
		if got[qn] != want {
			t.Errorf("%s: %q, want %q", qn, got[qn], want)
		}
	}
}

func FuzzExtract(f *testing.F) {
	seeds := []string{
		"", "\x00", "fn", "impl<T> for {", "mod a;", "use a::{b, c::{", "use ::{*};", "fn f(self: Box<Self>) {}",
		"struct S(pub u8,);", "enum E { A = 1, B(u8), C { x: u8 } }", "macro_rules! m { () => {} }\nfn g() { m!(); }",
		"fn f() { let x = y::<<T as U>::V>(); x.z(); }", "fn f() { a.b.c.d.e.f.g.h(); }",
		"fn f() { println!(\"{}\", |x| x.y(), <A as B>::c()); }", "trait T: for<'a> Fn(&'a u8) {}",
		"impl<'a> dyn Tr + 'a { fn m(&self) {} }", "fn f() { r#\"raw\"#; b'x'; '\\u{1F600}'; 'a }",
		"fn f() { match x { Some(y) if y.z() => {}, _ => {} } }", "#[path = \"../x.rs\"] mod m;",
		"fn f() -> impl Fn() -> impl Fn() { || || () }", "type A<T> = B<T>; fn f() -> A<u8> { g() }",
		"pub(in crate::a) fn f() {}", "extern crate self as me;", "fn f() { let Ok(x) = y() else { return }; x.z(); }",
	}
	languagetest.FuzzExtract(f, New(), nil, "src/lib.rs", seeds, nil, "../../testdata/rust/shop/src/*.rs", "../../testdata/rust/shop/src/*/*.rs")
}

// corpus is the fixture's Rust files, or those under $SNAP_RUST_BENCH (a
// larger tree).
func corpus(b *testing.B) languagetest.Corpus {
	return languagetest.LoadCorpus(b, New(), "../../testdata/rust/shop", "SNAP_RUST_BENCH")
}

func BenchmarkExtract(b *testing.B) { languagetest.BenchmarkExtract(b, New(), corpus(b)) }

// BenchmarkParse is the bare parse of the same files, the yardstick of
// BenchmarkExtract.
func BenchmarkParse(b *testing.B) { languagetest.BenchmarkParse(b, New(), corpus(b)) }
