package cpp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestIncremental edits a tree step by step and checks after each edit
// that an index reusing the previous one's rows is the same, node for
// node and edge for edge, as a full index: calls resolve through the
// includes of other files, and a header changes language when C++
// sources come to outnumber C ones.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, []indexer.Language{c.New(), cpp.New()}, map[string]string{
		"lib/a.h": "int f(int x);\n",
		"lib/a.c": "#include \"a.h\"\nint f(int x) { return x; }\n",
		"lib/b.c": "#include \"a.h\"\nint g(void) { return f(1); }\n",
	}, []languagetest.Step{
		{Name: "nothing"},
		{Name: "undeclare f", Write: map[string]string{"lib/a.h": "int h(void);\n"}},
		{Name: "declare it again", Write: map[string]string{"lib/a.h": "int f(int x);\n"}},
		{Name: "C++ takes the header", Write: map[string]string{
			"lib/m.cpp": "#include \"a.h\"\nint m() { return f(2); }\n",
			"lib/n.cpp": "#include \"a.h\"\nint n() { return f(3); }\n",
			"lib/o.cpp": "int o() { return 0; }\n",
		}},
		{Name: "define f twice", Write: map[string]string{"lib/o.cpp": "int f(int x) { return 0; }\n"}},
	})
}
