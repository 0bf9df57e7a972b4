package languagetest

import (
	"os"
	"testing"
)

// NeedTool ends a test whose tool is missing: it skips with msg (what the
// test needs and how to install it), or fails when SNAP_REQUIRE_TOOLS is
// set, as make test sets it, so that CI never skips a judge silently.
func NeedTool(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("SNAP_REQUIRE_TOOLS") != "" {
		t.Fatal(msg + "; SNAP_REQUIRE_TOOLS is set, so this does not skip")
	}
	t.Skip(msg)
}
