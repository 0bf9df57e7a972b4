package indexer_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// TestScanAfterStopAnywhere stops a parse at every progress check in
// turn — while tokens are read, and while tree-sitter balances the
// finished tree — and parses the whole file again with the same scanner
// each time: a stopped parse must leave nothing behind that the next one
// trips on (a parse stopped while balancing once aborted the process).
func TestScanAfterStopAnywhere(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "src", "strings", "strings.go"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := indexer.NewParser(tsgo.Language())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	stops := 0
	for k := uint64(1); ; k++ {
		indexer.SetBudget(s, k)
		_, _, _, err := s.Scan(ctx, src)
		if err == nil {
			break // k checks are the whole parse
		}
		if !errors.Is(err, indexer.ErrParseBudget) {
			t.Fatalf("a parse stopped at check %d: %v", k, err)
		}
		stops++
		indexer.SetBudget(s, 0)
		if _, _, _, err := s.Scan(ctx, src); err != nil {
			t.Fatalf("the parse after one stopped at check %d: %v", k, err)
		}
	}
	if stops < 10 {
		t.Fatalf("the parse was stopped at %d points only: the file is too small to test", stops)
	}
	t.Logf("stopped at each of %d progress checks, then parsed whole", stops)
}
