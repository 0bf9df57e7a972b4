package indexer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// Build output is not source: a folder a build writes from the tree's
// own sources (a package's dist/ with its cjs, esm, types and umd copies)
// would give every symbol several copies, the callers of each spread
// among them. Such files are recorded as skipped_derived and not parsed,
// unless Options.Derived asks for them. What says a file was built:
//
//   - a tsconfig's (or jsconfig's) compilerOptions.outDir or
//     declarationDir: the folder, relative to that config;
//   - a package.json's main, module, types, typings, browser, unpkg,
//     jsdelivr, bin or exports naming a file in a folder of the package
//     that holds source maps (*.map): the folder (the first one below the
//     package);
//   - a source map: a script whose last line is a sourceMappingURL to a
//     map in the tree (or an inline one) listing a source that is another
//     file of the tree.
//
// A folder named so but holding the config itself, or outside the tree,
// is not taken: "outDir": "." says nothing of what is source.

// buildOutput is what a run knows of the tree's build output: its
// folders, and a reader of the configs and maps that say so.
type buildOutput struct {
	folders []string
	read    func(p string) []byte
}

// maxConfigSize bounds a tsconfig, package.json or source map read to
// find build output; a larger one is not read.
const maxConfigSize = 1 << 20

// maxConfigs bounds how many configs a tree has read for build output.
const maxConfigs = 2000

// derivedFolders returns the folders of the tree that hold build output,
// each ending in "/", found from its tsconfigs and package.jsons.
func derivedFolders(readSmall func(string) []byte, paths []string) []string {
	var out []string
	read := 0
	config := func(p string) []byte {
		if read >= maxConfigs {
			return nil
		}
		read++
		return readSmall(p)
	}
	maps := map[string]bool{} // folders holding a source map, and their ancestors
	for _, p := range paths {
		if strings.HasSuffix(p, ".map") {
			for d := path.Dir(p); d != "."; d = path.Dir(d) {
				if maps[d] {
					break
				}
				maps[d] = true
			}
		}
	}
	add := func(base, rel string) {
		dir, ok := within(base, rel)
		if !ok || dir == base || strings.HasPrefix(base+"/", dir+"/") {
			return
		}
		out = append(out, dir+"/")
	}
	for _, p := range paths {
		name := path.Base(p)
		base := path.Dir(p)
		switch {
		case strings.HasPrefix(name, "tsconfig") && strings.HasSuffix(name, ".json") || name == "jsconfig.json":
			var c struct {
				CompilerOptions struct {
					OutDir         string `json:"outDir"`
					DeclarationDir string `json:"declarationDir"`
				} `json:"compilerOptions"`
			}
			if jsonc(config(p), &c) {
				for _, d := range []string{c.CompilerOptions.OutDir, c.CompilerOptions.DeclarationDir} {
					if d != "" {
						add(base, d)
					}
				}
			}
		case name == "package.json" && !vendored(p):
			var pkg map[string]any
			if !jsonc(config(p), &pkg) {
				continue
			}
			for _, field := range []string{"main", "module", "types", "typings", "browser", "unpkg", "jsdelivr", "bin", "exports"} {
				for _, v := range strings1(pkg[field], 0) {
					dir, ok := within(base, v)
					if !ok {
						continue
					}
					// The first folder below the package the entry is in;
					// none for an entry at or above the package's own.
					rel := dir
					if base != "." {
						var below bool
						if rel, below = strings.CutPrefix(dir, base+"/"); !below {
							continue
						}
					}
					if rel == "." {
						continue
					}
					first, _, _ := strings.Cut(rel, "/")
					if top := path.Join(base, first); maps[top] {
						add(base, first)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// strings1 lists the strings in a package.json field's value: a string,
// or the values of an object or array (exports' conditions), to a depth.
func strings1(v any, depth int) []string {
	if depth > 8 {
		return nil
	}
	switch v := v.(type) {
	case string:
		return []string{v}
	case map[string]any:
		var out []string
		for _, x := range v {
			out = append(out, strings1(x, depth+1)...)
		}
		return out
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, strings1(x, depth+1)...)
		}
		return out
	}
	return nil
}

// within joins rel to the folder base and says whether it stays inside
// the tree. For a file it is the file's folder that counts: the result
// is the folder rel names, or the folder of the file it names.
func within(base, rel string) (string, bool) {
	rel = strings.TrimSpace(rel)
	if rel == "" || path.IsAbs(rel) || strings.Contains(rel, "*") || strings.Contains(rel, "://") {
		return "", false
	}
	p := path.Join(base, rel)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	if path.Ext(p) != "" {
		p = path.Dir(p)
	}
	return p, true
}

// underAny reports whether the path p lies in one of the folders (each
// ending in "/"): there are few, one or two a package.
func underAny(folders []string, p string) bool {
	for _, f := range folders {
		if strings.HasPrefix(p, f) {
			return true
		}
	}
	return false
}

// mappedFrom reports whether the script at p (its content src) carries a
// source map naming another file of the tree as its source.
func mappedFrom(t *Tree, readSmall func(string) []byte, p string, src []byte) bool {
	switch path.Ext(p) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts":
	default:
		return false
	}
	tail := bytes.TrimRight(src[max(0, len(src)-4096):], " \t\r\n")
	i := bytes.LastIndexByte(tail, '\n')
	last := string(tail[i+1:])
	_, url, ok := strings.Cut(last, "sourceMappingURL=")
	if !ok || !(strings.HasPrefix(last, "//# ") || strings.HasPrefix(last, "//@ ") || strings.HasPrefix(last, "/*# ")) {
		return false
	}
	url = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(url), "*/"))
	var m struct {
		SourceRoot string   `json:"sourceRoot"`
		Sources    []string `json:"sources"`
	}
	mapDir := path.Dir(p)
	if data, ok := strings.CutPrefix(url, "data:"); ok {
		_, enc, ok := strings.Cut(data, ";base64,")
		raw, err := base64.StdEncoding.DecodeString(enc)
		if !ok || err != nil || json.Unmarshal(raw, &m) != nil {
			return false
		}
	} else {
		mp, ok := within(path.Dir(p), url)
		if !ok || path.Ext(url) != ".map" {
			return false
		}
		mp = path.Join(mp, path.Base(url))
		if !t.Paths[mp] || json.Unmarshal(readSmall(mp), &m) != nil {
			return false
		}
		mapDir = path.Dir(mp)
	}
	for _, s := range m.Sources[:min(len(m.Sources), 10000)] {
		s = strings.TrimPrefix(s, "webpack://")
		if q, ok := within(mapDir, path.Join(m.SourceRoot, s)); ok {
			if f := path.Join(q, path.Base(s)); f != p && t.Paths[f] {
				return true
			}
		}
	}
	return false
}

// smallReader returns a reader of the tree's files that gives nil for a
// file over maxConfigSize bytes, unread, or one it cannot read.
func smallReader(o opener) func(p string) []byte {
	return func(p string) []byte {
		fh, fi, err := openRead(o, filepath.FromSlash(p))
		if err != nil {
			return nil
		}
		defer fh.Close()
		if !fi.Mode().IsRegular() || fi.Size() > maxConfigSize {
			return nil
		}
		b, err := readAll(fh, fi.Size())
		if err != nil {
			return nil
		}
		return b
	}
}

// jsonc decodes JSON with comments and trailing commas into v.
func jsonc(b []byte, v any) bool {
	if b == nil {
		return false
	}
	std, err := hujson.Standardize(bytes.Clone(b))
	return err == nil && json.Unmarshal(std, v) == nil
}
