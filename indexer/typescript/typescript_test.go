package typescript_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/typescript/shop", "../../testdata/typescript/shop.golden.json", typescript.All()...)
}

// index indexes files (path → source) and returns the golden lines of its
// edges.
var index = languagetest.EdgesWith(typescript.All()...)

// TestGoldenLegacy is JavaScript written before classes, in the style of
// express: methods assigned to objects and prototypes.
func TestGoldenLegacy(t *testing.T) {
	languagetest.Run(t, "../../testdata/typescript/legacy", "../../testdata/typescript/legacy.golden.json", typescript.All()...)
}
