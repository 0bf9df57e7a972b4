package scala_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/scala"
)

// TestIncremental edits a project step by step and checks after each
// edit that an index reusing the previous one's rows is the same, node
// for node and edge for edge, as a full index: resolution reads packages,
// imports and parents across files.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, []indexer.Language{scala.New()}, map[string]string{
		"a/Base.scala": "package a\ntrait Base { def hello(): Int = 1 }\nobject Tools { def go(): Int = 1 }\n",
		"b/Use.scala":  "package b\nimport a._\nclass Use extends Base { def run(): Int = { hello(); Tools.go() } }\n",
	}, []languagetest.Step{
		{Name: "nothing"},
		{Name: "move a def up", Write: map[string]string{
			"a/Base.scala": "package a\ntrait Root { def hello(): Int = 2 }\ntrait Base extends Root\nobject Tools { def go(): Int = 1 }\n",
		}},
		{Name: "move the object to another package", Write: map[string]string{
			"a/Base.scala":  "package a\ntrait Base { def hello(): Int = 1 }\n",
			"c/Tools.scala": "package c\nobject Tools { def go(): Int = 3 }\n",
		}},
		{Name: "import it", NoReuse: true, Write: map[string]string{
			"b/Use.scala": "package b\nimport a._\nimport c.Tools\nclass Use extends Base { def run(): Int = { hello(); Tools.go() } }\n",
		}},
	})
}
