package lua_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/lua"
)

func BenchmarkExtract(b *testing.B) {
	languagetest.BenchmarkExtract(b, lua.New(), languagetest.LoadCorpus(b, lua.New(), "../../testdata/lua/shop", "LUA_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	languagetest.BenchmarkParse(b, lua.New(), languagetest.LoadCorpus(b, lua.New(), "../../testdata/lua/shop", "LUA_CORPUS"))
}
