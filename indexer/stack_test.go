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
