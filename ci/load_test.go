package ci

import (
	"runtime/debug"
	"sync"
	"testing"
)

func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestPauseGC: loads side by side pause the collector together, and the
// setting they found comes back when the last one resumes, whatever the
// order in which they finish.
func TestPauseGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	first := pauseGC()
	if p := gcPercent(); p != -1 {
		t.Fatalf("paused: GC percent %d, want -1", p)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { pauseGC()() })
	}
	wg.Wait()
	second := pauseGC()
	first()
	first() // twice: counted once
	if p := gcPercent(); p != -1 {
		t.Fatalf("one load still paused: GC percent %d, want -1", p)
	}
	second()
	if p := gcPercent(); p != 150 {
		t.Fatalf("all resumed: GC percent %d, want 150", p)
	}
}
