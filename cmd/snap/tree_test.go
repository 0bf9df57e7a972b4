package main

import (
	"io/fs"
	"path/filepath"
	"testing"
)

// listTree lists the files under dir with their sizes.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, _ := d.Info()
			out = append(out, p+" "+fi.ModTime().String())
		}
		return nil
	})
	return out
}
