package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
)

func TestInFolder(t *testing.T) {
	for _, tc := range []struct {
		file string
		want bool
	}{
		{"tests/a.rb", true}, {"x/test/y/a.rb", true}, {"test.rb", false}, {"tests", false},
		{"x/tested/a.rb", false}, {"x/y/a.rb", false},
	} {
		if got := indexer.InFolder(tc.file, "test", "tests"); got != tc.want {
			t.Errorf("InFolder(%q) = %v, want %v", tc.file, got, tc.want)
		}
	}
}
