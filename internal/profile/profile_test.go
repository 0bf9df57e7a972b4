package profile

import (
	"os"
	"path/filepath"
	"testing"
)

// Each profile named is written, and none other.
func TestStart(t *testing.T) {
	dir := t.TempDir()
	cpu, tr, mem := filepath.Join(dir, "cpu"), filepath.Join(dir, "trace"), filepath.Join(dir, "mem")
	stop, err := Start(cpu, tr, mem)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	for _, f := range []string{cpu, tr, mem} {
		if fi, err := os.Stat(f); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v, want a profile", f, err)
		}
	}
	stop, err = Start("", "", "")
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if _, err := Start(filepath.Join(dir, "no", "such", "cpu"), "", ""); err == nil {
		t.Error("a profile in a folder that does not exist: no error")
	}
}
