package srctext

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPos(t *testing.T) {
	src := []byte("ab\n\ncd\nе")
	starts := LineStarts(nil, src)
	if want := []uint32{0, 3, 4, 7}; !slices.Equal(starts, want) {
		t.Fatalf("starts %v, want %v", starts, want)
	}
	for off, want := range map[uint32][2]uint32{0: {1, 1}, 1: {1, 2}, 3: {2, 1}, 5: {3, 2}, 8: {4, 2}} {
		if l, c := Pos(starts, off); l != want[0] || c != want[1] {
			t.Errorf("Pos(%d) = %d:%d, want %d:%d", off, l, c, want[0], want[1])
		}
	}
	if again := LineStarts(starts[:0], []byte("x\ny")); !slices.Equal(again, []uint32{0, 2}) {
		t.Errorf("reused dst: %v", again)
	}
}

func TestCap(t *testing.T) {
	if Cap("short", 10) != "short" {
		t.Error("a short text was cut")
	}
	s := strings.Repeat("é", 50) // 100 bytes
	for _, max := range []int{10, 11, 12, 99} {
		got := Cap(s, max)
		if len(got) > max || !utf8.ValidString(got) || !strings.HasSuffix(got, Ellipsis) {
			t.Errorf("Cap(_, %d) = %q (%d bytes)", max, got, len(got))
		}
	}
}
