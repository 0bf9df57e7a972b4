package rust

import (
	"bufio"
	"bytes"
	"path"
	"strings"
)

// layout is where a file sits in its crate, by Cargo's conventions: the
// crate named by the nearest Cargo.toml above the file, src/lib.rs and
// src/main.rs as crate roots, src/bin/*, tests/*, examples/* and benches/*
// as crates of their own, and a module's path read from its file's path
// (src/a/b.rs and src/a/b/mod.rs are a::b). It depends on paths and
// Cargo.toml files only, so that a file's rows stay valid while other
// files change. `#[path]` attributes and the `path` keys of Cargo.toml
// targets are not followed.
type layout struct {
	crate    string   // the crate's name, hyphens made underscores
	mods     []string // the module path below the crate root
	root     bool     // the file is a crate root
	manifest string   // folder of the governing Cargo.toml ("." at the top), "" when none
	childDir string   // folder where `mod x;` looks for x.rs and x/mod.rs
	lib      bool     // library code: what it exports is reachable from other crates
	test     bool     // test code by its place (tests/, a module named tests)
}

// qualified is the module's qualified name: crate::a::b.
func (l *layout) qualified() string {
	if len(l.mods) == 0 {
		return l.crate
	}
	return l.crate + "::" + strings.Join(l.mods, "::")
}

// locate returns the layout of file.
func (x *extractor) locate(file string) layout {
	var l layout
	dir := path.Dir(file)
	pkg := ""
	rel := file
	if x.tree != nil {
		for d := dir; ; d = path.Dir(d) {
			manifest := "Cargo.toml"
			if d != "." {
				manifest = d + "/Cargo.toml"
			}
			if x.tree.Has(manifest) {
				l.manifest = d
				pkg = x.packageName(manifest)
				if d != "." {
					rel = strings.TrimPrefix(file, d+"/")
				}
				break
			}
			if d == "." || d == "/" || d == "" {
				break
			}
		}
	}
	parts := strings.Split(rel, "/")
	var sub []string
	crate := pkg
	n := len(parts)
	switch {
	case n == 1 && parts[0] == "build.rs" && l.manifest != "":
		crate = "build_script_build"
	case n >= 3 && parts[0] == "src" && parts[1] == "bin":
		if n == 3 {
			crate = stem(parts[2])
		} else {
			crate, sub = parts[2], parts[3:]
		}
	case n >= 2 && parts[0] == "src":
		sub = parts[1:]
		l.lib = !(n == 2 && parts[1] == "main.rs")
	case n >= 2 && (parts[0] == "tests" || parts[0] == "examples" || parts[0] == "benches"):
		if n == 2 {
			crate = stem(parts[1])
		} else {
			crate, sub = parts[1], parts[2:]
		}
		l.test = parts[0] == "tests"
	default:
		src := -1
		for i := n - 2; i >= 0; i-- {
			if parts[i] == "src" {
				src = i
				break
			}
		}
		sub = parts[src+1:]
		if crate == "" && src > 0 {
			crate = parts[src-1]
		}
		l.lib = !(len(sub) == 1 && sub[0] == "main.rs")
	}
	if crate == "" && l.manifest != "" && l.manifest != "." {
		crate = path.Base(l.manifest)
	}
	if crate == "" {
		crate = "crate"
	}
	l.crate = identifier(crate)
	switch {
	case len(sub) == 0:
		l.root = true
	case len(sub) == 1 && (sub[0] == "lib.rs" || sub[0] == "main.rs"):
		l.root = true
	default:
		last := sub[len(sub)-1]
		mods := make([]string, 0, len(sub))
		for _, s := range sub[:len(sub)-1] {
			mods = append(mods, identifier(s))
		}
		if last != "mod.rs" {
			mods = append(mods, identifier(stem(last)))
		}
		l.mods = mods
		l.root = len(mods) == 0
	}
	if l.root || path.Base(file) == "mod.rs" {
		l.childDir = dir
	} else {
		l.childDir = path.Join(dir, stem(path.Base(file)))
	}
	if len(l.mods) > 0 {
		if last := l.mods[len(l.mods)-1]; last == "tests" || last == "test" {
			l.test = true
		}
	}
	return l
}

// packageName reads the [package] name of a Cargo.toml, once per
// extractor.
func (x *extractor) packageName(manifest string) string {
	if name, ok := x.manifests[manifest]; ok {
		return name
	}
	name := ""
	if data, err := x.tree.ReadFile(manifest); err == nil {
		name = cargoName(data)
	}
	x.manifests[manifest] = name
	return name
}

// cargoName returns the name key of the [package] table of a Cargo.toml.
func cargoName(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	section := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = strings.TrimSpace(strings.Trim(line, "[]"))
			continue
		}
		if section != "package" {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(key) != "name" {
			continue
		}
		value = strings.TrimSpace(value)
		if i := strings.IndexByte(value, '#'); i >= 0 && !strings.HasPrefix(value, `"`) {
			value = strings.TrimSpace(value[:i])
		}
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') {
			if end := strings.IndexByte(value[1:], value[0]); end >= 0 {
				return value[1 : end+1]
			}
		}
		return ""
	}
	return ""
}

func stem(name string) string { return strings.TrimSuffix(name, ".rs") }

// identifier makes a file or crate name a Rust identifier: my-crate is
// my_crate.
func identifier(s string) string {
	if isIdent(s) {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if !isIdentByte(c) {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		b = append([]byte{'_'}, b...)
	}
	return string(b)
}

// modCandidates returns the files `mod name;` may name, declared in a
// module whose children live in dir: dir/name.rs, then dir/name/mod.rs;
// with #[path = "p"], the file p relative to the folder of the declaring
// file, or to dir inside an inline module.
func modCandidates(dir, name, pathAttr, fileDir string, inline bool) []string {
	if pathAttr != "" {
		if inline {
			return []string{path.Join(dir, pathAttr)}
		}
		return []string{path.Join(fileDir, pathAttr)}
	}
	return []string{path.Join(dir, name+".rs"), path.Join(dir, name, "mod.rs")}
}
