package lua_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/lua"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/lua/shop", "../../testdata/lua/shop.golden.json", lua.New())
}

// TestCorpus indexes the Lua tree named by $LUA_CORPUS, checks the
// invariants and logs figures: run by hand.
func TestCorpus(t *testing.T) {
	languagetest.Project(t, "LUA_CORPUS", lua.New())
}
