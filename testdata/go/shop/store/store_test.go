package store

import "testing"

func TestPut(t *testing.T) {
	m := NewMemStore()
	if err := m.Put("a", Item{Price: 2}); err != nil {
		t.Fatal(err)
	}
}
