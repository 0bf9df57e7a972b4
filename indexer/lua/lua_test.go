package lua_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/lua"
)

// TestFixture runs the shared suite over the Lua fixture, and over the
// tree named by $LUA_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/lua/shop", "LUA_CORPUS", lua.New())
}
