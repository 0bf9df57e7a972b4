package languagetest

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

func TestReadSteps(t *testing.T) {
	archive := filepath.Join(t.TempDir(), "steps.txt")
	src := "-- a.sh --\nf() { :; }\n-- lib/b.sh --\n\n-- step: nothing --\n" +
		"-- step (no reuse): move f --\n-- a.sh --\n-- c.sh --\nf() { :; }\n"
	if err := os.WriteFile(archive, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	start, steps := readSteps(t, archive)
	if want := map[string]string{"a.sh": "f() { :; }\n", "lib/b.sh": "\n"}; !maps.Equal(start, want) {
		t.Errorf("start = %q, want %q", start, want)
	}
	if len(steps) != 2 {
		t.Fatalf("%d steps, want 2", len(steps))
	}
	if s := steps[0]; s.name != "nothing" || s.noReuse || len(s.files) != 0 {
		t.Errorf("step 0 = %+v", s)
	}
	if s, want := steps[1], map[string]string{"a.sh": "", "c.sh": "f() { :; }\n"}; s.name != "move f" || !s.noReuse || !maps.Equal(s.files, want) {
		t.Errorf("step 1 = %+v, want files %q", s, want)
	}
}
