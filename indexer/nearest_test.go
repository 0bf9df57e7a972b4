package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
)

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		paths []string
		file  string
		want  string
		tie   bool
	}{
		{nil, "a/b.c", "", false},
		{[]string{"x/h.h", "a/h.h"}, "a/b.c", "a/h.h", false},
		{[]string{"a/x/h.h", "a/y/h.h"}, "a/b.c", "a/x/h.h", true},
		{[]string{"a/x/h.h", "a/y/h.h"}, "a/y/b.c", "a/y/h.h", false},
		{[]string{"ab/h.h"}, "a/b.c", "ab/h.h", false},
	} {
		got, tie := indexer.Nearest(tc.paths, tc.file)
		if got != tc.want || tie != tc.tie {
			t.Errorf("Nearest(%q, %q) = %q, %v; want %q, %v", tc.paths, tc.file, got, tie, tc.want, tc.tie)
		}
	}
	if n := indexer.CommonDirs("a/b/c.go", "a/b/d/e.go"); n != 2 {
		t.Errorf("CommonDirs = %d, want 2", n)
	}
}
