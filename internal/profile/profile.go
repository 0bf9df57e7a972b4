// Package profile writes the profiles of a run for the performance work:
// CPU, heap and execution trace, each into a file when one is named.
package profile

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// Start starts a CPU profile into the file cpu names, unless it is ""
// (go tool pprof FILE); stop ends and writes it. When mem names a file,
// stop also writes a heap profile there (its alloc_space says what the
// run allocated); when tracefile does, the execution trace goes there (go
// tool trace FILE: which goroutines ran when, and where a core stood
// idle).
func Start(cpu, tracefile, mem string) (stop func(), err error) {
	var stops []func()
	for _, p := range []struct {
		path  string
		start func(io.Writer) error
		stop  func()
	}{
		{cpu, pprof.StartCPUProfile, pprof.StopCPUProfile},
		{tracefile, trace.Start, trace.Stop},
	} {
		path := p.path
		if path == "" {
			continue
		}
		f, err := os.Create(path)
		if err == nil {
			err = p.start(f)
		}
		if err != nil {
			for _, s := range stops {
				s()
			}
			if f != nil {
				f.Close()
			}
			return nil, fmt.Errorf("profile %s: %w", path, err)
		}
		stops = append(stops, func() { p.stop(); f.Close() })
	}
	return func() {
		for _, s := range stops {
			s()
		}
		if mem == "" {
			return
		}
		runtime.GC() // the profile holds what the last collection saw
		if f, err := os.Create(mem); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	}, nil
}
