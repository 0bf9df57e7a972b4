package ci

import (
	"slices"
	"testing"
	"time"
)

func TestIndexOptions(t *testing.T) {
	opts, err := IndexOptions([]string{"index", "-q", "--exclude", "testdata", "--exclude=**/*_gen.go", "--languages", "go,py", "--vendored", "--store", "/tmp/x", "--max-file-size=100", "."})
	if err != nil {
		t.Fatal(err)
	}
	var langs []string
	for _, l := range opts.Languages {
		langs = append(langs, l.Name())
	}
	if !slices.Equal(opts.Exclude, []string{"testdata", "**/*_gen.go"}) || !slices.Equal(langs, []string{"go", "python"}) ||
		!opts.Vendored || opts.SkipGenerated || opts.Derived || opts.MaxFileSize != 100 {
		t.Errorf("options %+v, languages %v", opts, langs)
	}
	if opts, _ := IndexOptions([]string{"index", "--no-generated", "--derived", "."}); !opts.SkipGenerated || !opts.Derived {
		t.Errorf("--no-generated --derived: %+v", opts)
	}
	if opts, _ := IndexOptions([]string{"ci"}); len(opts.Languages) == 0 {
		t.Error("ci: no languages")
	}
	for arg, want := range map[string]time.Duration{"--max-file-time=5s": 5 * time.Second, "--max-file-time=0": -1} {
		if opts, err := IndexOptions([]string{"index", arg}); err != nil || opts.MaxFileTime != want {
			t.Errorf("%s: MaxFileTime %v (%v), want %v", arg, opts.MaxFileTime, err, want)
		}
	}
}
