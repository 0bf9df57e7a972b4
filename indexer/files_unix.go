//go:build unix

package indexer

import (
	"os"
	"syscall"
)

// openFlags open a file for reading without waiting: opening a named
// pipe for reading otherwise blocks until a writer comes, in a system
// call that nothing, not even a signal to stop, interrupts. On a regular
// file the flag changes nothing.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
