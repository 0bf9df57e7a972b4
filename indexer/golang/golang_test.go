package golang_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/go/shop", "../../testdata/go/shop.golden.json", golang.New())
}
