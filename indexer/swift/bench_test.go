package swift

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

func corpus(b *testing.B) languagetest.Corpus {
	return languagetest.LoadCorpus(b, New(), "../../testdata/swift/shop", "SWIFT_CORPUS")
}

// BenchmarkExtract extracts the fixture, or the tree named by
// $SWIFT_CORPUS.
func BenchmarkExtract(b *testing.B) { languagetest.BenchmarkExtract(b, New(), corpus(b)) }

// BenchmarkParse is the bare parse of the same files, the yardstick of
// BenchmarkExtract.
func BenchmarkParse(b *testing.B) { languagetest.BenchmarkParse(b, New(), corpus(b)) }
