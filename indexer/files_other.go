//go:build !unix

package indexer

import "os"

// openFlags open a file for reading: elsewhere than on Unix, opening what
// is not a regular file does not wait for a writer.
const openFlags = os.O_RDONLY
