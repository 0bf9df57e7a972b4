package ruby_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/ruby"
)

// TestIncremental edits a tree step by step and checks after each edit
// that an index reusing the previous one's rows is the same, edge for
// edge, as a full index: resolution links classes, mixins and requires
// across files, and must do it again from reused rows.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, []indexer.Language{ruby.New()}, map[string]string{
		"lib/a.rb": "module M\n  def m; end\nend\nclass A\n  def self.make; new; end\n  def run; end\nend\n",
		"lib/b.rb": "require 'a'\nclass B < A\n  include M\n  def go\n    m\n    run\n    A.make\n  end\nend\n",
	}, []languagetest.Step{
		{Name: "nothing"},
		{Name: "move run into the module", Write: map[string]string{
			"lib/a.rb": "module M\n  def m; end\n  def run; end\nend\nclass A\n  def self.make; new; end\nend\n",
		}},
		{Name: "drop the module", Write: map[string]string{"lib/a.rb": "class A\n  def self.make; new; end\nend\n"}},
		{Name: "reopen B elsewhere", Write: map[string]string{"lib/c.rb": "class B\n  def m; end\nend\n"}},
	})
}
