package kotlin_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/kotlin"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/kotlin/shop", "../../testdata/kotlin/shop.golden.json", kotlin.New())
}
