package ci

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenStore: "" is the checkout's .snap/, a folder is local, and
// what the caller must fix (an unknown scheme, a .snap that is a link) is
// a ConfigError that says what to do.
func TestOpenStore(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	st, err := OpenStore(ctx, "", root)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, ".snap"); st.Dir != want || st.Label != want || !st.Local() {
		t.Errorf("OpenStore(\"\") = dir %q, label %q; want %q, local", st.Dir, st.Label, want)
	}
	var ce ConfigError
	if _, err := OpenStore(ctx, "ftp://host/x", root); !errors.As(err, &ce) || !strings.Contains(err.Error(), `"ftp" is not supported`) {
		t.Errorf("an unknown scheme: %v, want a ConfigError", err)
	}
	elsewhere, linked := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(linked, ".snap")); err != nil {
		t.Fatal(err)
	}
	_, err = OpenStore(ctx, "", linked)
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "is a symbolic link (to "+elsewhere+")") {
		t.Errorf("a linked .snap: %v, want a ConfigError naming the link's target", err)
	}
}
