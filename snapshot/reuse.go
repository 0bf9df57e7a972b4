package snapshot

import (
	"bytes"
	"context"
	"fmt"

	"github.com/parquet-go/parquet-go"

	"github.com/graphsnap/snap/schemas"
)

// BaseSources is the sources table of an earlier snapshot, opened so that
// a Writer may copy its row groups as stored. Where a row group ends
// depends on its files alone (schemas/FORMAT.md), so a row group whose
// files are those of a base's row group, each holding what it held then,
// is the same bytes again: copying it skips encoding and compressing it,
// most of a sources table's cost when one file of many changed.
type BaseSources struct {
	file   *parquet.File
	groups map[string]baseGroup // by the path of its first row
}

// baseGroup is a row group of a base's sources table: its index, and the
// path and SHA-256 of each of its rows' files.
type baseGroup struct {
	index int
	paths []string
	sums  []string
}

// OpenBaseSources reads the sources table of the snapshot at prefix, whose
// manifest is m and files table files, checking it as Read would its
// manifest entry (size and SHA-256) and its footer and schema; it reads
// the paths of its rows, not their contents. Without a sources table it
// returns nil, which SourcesFrom accepts.
func OpenBaseSources(ctx context.Context, st Store, prefix string, m *schemas.Manifest, files []schemas.File) (_ *BaseSources, err error) {
	t, ok := findTable(m, sourcesSpec.name)
	if !ok {
		return nil, nil
	}
	data, err := fetchTable(ctx, st, prefix, t)
	if err != nil {
		return nil, err
	}
	want, err := sourcesSpec.schemaOnce()
	if err != nil {
		return nil, err
	}
	cf, err := checkFile(data, want, t.Rows)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", t.Name, err)
	}
	pathCol := -1
	for i, l := range cf.leaves {
		if l.path == "path" {
			pathCol = i
		}
	}
	sums := make(map[string]string, len(files))
	for _, f := range files {
		sums[f.Path] = f.SHA256
	}
	b := &BaseSources{groups: make(map[string]baseGroup, len(cf.md.RowGroups))}
	c := cf.checker()
	defer c.close()
	var scratch []byte
	var at []uint32
	for g := range cf.md.RowGroups {
		var paths []string
		if paths, scratch, at, err = appendStrings(c, &cf.md.RowGroups[g], pathCol, cf.leaves[pathCol], nil, scratch, at); err != nil {
			return nil, fmt.Errorf("table %s: row group %d, column path: %w", t.Name, g, err)
		}
		if len(paths) == 0 {
			continue
		}
		bg := baseGroup{index: g, paths: paths, sums: make([]string, len(paths))}
		for i, p := range paths {
			bg.sums[i] = sums[p]
		}
		b.groups[paths[0]] = bg
	}
	defer recoverDecode(&err) // parquet-go reads bytes from anywhere
	if b.file, err = parquet.OpenFile(bytes.NewReader(data), int64(len(data))); err != nil {
		return nil, fmt.Errorf("table %s: open parquet: %w", t.Name, err)
	}
	if n := len(b.file.RowGroups()); n != len(cf.md.RowGroups) {
		return nil, fmt.Errorf("table %s: %d row groups, footer says %d", t.Name, n, len(cf.md.RowGroups))
	}
	return b, nil
}

// SourcesFrom is Sources that copies, as stored, each row group of base
// (when not nil) whose files are a row group's here and hold what they
// held there: the same paths, in files (this snapshot's files table) with
// the SHA-256 they had in the base's.
func (w *Writer) SourcesFrom(rows []schemas.Source, files []schemas.File, base *BaseSources) {
	if base == nil {
		w.Sources(rows)
		return
	}
	sums := make(map[string]string, len(files))
	for _, f := range files {
		sums[f.Path] = f.SHA256
	}
	putReusing(w, sourcesSpec, rows, true, func(group []schemas.Source) parquet.RowGroup {
		bg, ok := base.groups[group[0].Path]
		if !ok || len(bg.paths) != len(group) {
			return nil
		}
		for i := range group {
			if group[i].Path != bg.paths[i] || bg.sums[i] == "" || sums[group[i].Path] != bg.sums[i] {
				return nil
			}
		}
		return base.file.RowGroups()[bg.index]
	})
}
