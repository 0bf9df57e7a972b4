package ci

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestTreeCommit holds the commit a tree outside git is named by
// (FORMAT.md, manifest.commit): "tree-" and the first 16 hex digits of
// the SHA-256 of each file's path, a zero byte, its SHA-256 and a newline,
// in the files' order. Ids of trees indexed before stay the same.
func TestTreeCommit(t *testing.T) {
	files := []schemas.File{{Path: "a/b.go", SHA256: "00ff"}, {Path: "c.py", SHA256: "abcd"}}
	sum := sha256.Sum256([]byte("a/b.go\x0000ff\nc.py\x00abcd\n"))
	if got, want := TreeCommit(files), "tree-"+hex.EncodeToString(sum[:])[:16]; got != want {
		t.Errorf("TreeCommit = %s, want %s", got, want)
	}
	if TreeCommit(files[:1]) == TreeCommit(files) || TreeCommit(nil) == TreeCommit(files) {
		t.Error("different trees share a commit")
	}
}
