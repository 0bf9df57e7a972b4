package cpp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestMacroInNamespace(t *testing.T) {
	edges := languagetest.Edges(t, map[string]string{
		"util/h.h":  "namespace a {\nnamespace test {\nstruct T { bool Is(bool); };\n}\n#define CHECK(c) ::a::test::T().Is((c))\n}\n",
		"db/x.cc":   "#include \"util/h.h\"\nnamespace a {\nvoid run() { CHECK(1 == 1); }\n}\n",
		"util/y.cc": "int y() { return 0; }\n",
	}, cpp.New(), c.New())
	languagetest.Expect(t, edges, []string{"a::run -calls-> CHECK (import) db/x.cc:3"})
}
