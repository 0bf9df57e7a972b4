package kotlin

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

func FuzzExtract(f *testing.F) {
	seeds := []string{"class A(val x: Int = (1, fun B.c() = d(\"e\""}
	languagetest.FuzzExtract(f, New(), nil, "src/main/kotlin/a/A.kt", seeds, nil,
		"../../testdata/kotlin/shop/*.kts", "../../testdata/kotlin/shop/src/*/kotlin/com/example/shop/*.kt",
		"../../testdata/kotlin/shop/src/main/kotlin/com/example/shop/*/*.kt")
}
