package rust_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/rust"
)

// TestIncremental edits a crate step by step and checks after each edit
// that an index reusing the previous one's rows is the same, node for node
// (parents included) and edge for edge, as a full index: resolution moves
// impl items under their types and file modules under their declaring
// modules, and must do it again from reused rows.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, []indexer.Language{rust.New()}, map[string]string{
		"Cargo.toml": "[package]\nname = \"inc\"\n",
		"src/lib.rs": "pub mod a;\npub mod b;\n",
		"src/a.rs":   "pub struct T;\nimpl T { pub fn m(&self) {} }\n",
		"src/b.rs":   "use crate::a::T;\nimpl T { pub fn n(&self) { self.m(); } }\npub fn f(t: T) { t.n(); }\n",
	}, []languagetest.Step{
		{Name: "nothing"},
		{Name: "move the type into the impl's file", Write: map[string]string{
			"src/a.rs": "pub fn g() {}\n",
			"src/b.rs": "pub struct T;\nimpl T { pub fn n(&self) { self.m(); } }\nimpl T { pub fn m(&self) {} }\n",
		}},
		{Name: "and away again", Write: map[string]string{"src/a.rs": "pub struct T;\n"}},
		{Name: "undeclare a module", Write: map[string]string{"src/lib.rs": "pub mod b;\n"}},
		{Name: "declare it again", Write: map[string]string{"src/lib.rs": "pub mod a;\npub mod b;\n"}},
		{Name: "rename the crate", NoReuse: true, Write: map[string]string{"Cargo.toml": "[package]\nname = \"renamed\"\n"}},
	})
}
