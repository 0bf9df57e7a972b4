package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
)

type testFrame struct {
	name string
	end  uint32
}

func (fr *testFrame) End() uint32 { return fr.end }

func TestStack(t *testing.T) {
	var s indexer.Stack[*testFrame]
	if s.Top() != nil {
		t.Fatal("Top of an empty stack is not nil")
	}
	s.Push(&testFrame{"file", 100})
	s.Push(&testFrame{"func", 50})
	if fr := s.Push(&testFrame{"block", 20}); s.Top() != fr {
		t.Fatal("Top is not the frame pushed last")
	}
	s.Leave(10)
	if len(s) != 3 {
		t.Fatalf("Leave(10) left %d frames, want 3", len(s))
	}
	s.Leave(50)
	if len(s) != 1 || s.Top().name != "file" {
		t.Fatalf("Leave(50) left %d frames, want the file's alone", len(s))
	}
	s.Pop()
	if len(s) != 0 {
		t.Fatal("Pop left a frame")
	}
}

// regionFrame is a frame of kind 'l' (loop), 't' (try), 'c' (cond) or
// another, made for node (-1 for none).
type regionFrame struct {
	kind byte
	node int32
}

func (fr regionFrame) End() uint32 { return 100 }
func (fr regionFrame) Kind() byte  { return fr.kind }
func (fr regionFrame) Node() int32 { return fr.node }

func TestRegions(t *testing.T) {
	for _, tc := range []struct {
		frames          string // kinds, outermost first; uppercase made a node
		loop, try, cond bool
	}{
		{"", false, false, false},
		{"Fl", true, false, false},
		{"Ftcs", false, true, true},
		{"lFc", false, false, true}, // a loop around the function does not count
		{"lsc", true, false, true},
	} {
		var s indexer.Stack[regionFrame]
		for _, k := range []byte(tc.frames) {
			fr := regionFrame{kind: k, node: -1}
			if k >= 'A' && k <= 'Z' {
				fr.node = 1
			}
			s.Push(fr)
		}
		want := indexer.Region{Loop: tc.loop, Try: tc.try, Cond: tc.cond}
		if got := indexer.Regions(s, 'l', 't', 'c'); got != want {
			t.Errorf("Regions(%q) = %+v, want %+v", tc.frames, got, want)
		}
	}
}

func TestContext(t *testing.T) {
	var s indexer.Stack[regionFrame]
	if got := indexer.Context(s); got != -1 {
		t.Errorf("Context of no frames = %d, want -1", got)
	}
	s.Push(regionFrame{kind: 'F', node: 3})
	s.Push(regionFrame{kind: 'F', node: 5})
	s.Push(regionFrame{kind: 'l', node: -1})
	if got := indexer.Context(s); got != 5 {
		t.Errorf("Context = %d, want 5, the innermost frame with a node", got)
	}
}
