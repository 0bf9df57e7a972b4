//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package filestore

import "os"

// flock is a no-op where flock(2) is missing: puts are then serialized
// within one process only.
func flock(f *os.File) error { return nil }
