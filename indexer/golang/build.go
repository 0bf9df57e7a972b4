package golang

import (
	"go/build"
	"go/build/constraint"
	"path"
	"strings"
)

// The platform resolution prefers when one function is declared in several
// files for different platforms: the one a plain `go build` on linux/amd64
// compiles. An edge is still only made when exactly one declaration is left.
const (
	defaultOS   = "linux"
	defaultArch = "amd64"
)

var knownOS = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "nacl": true,
	"netbsd": true, "openbsd": true, "plan9": true, "solaris": true, "wasip1": true,
	"windows": true, "zos": true,
}

var knownArch = map[string]bool{
	"386": true, "amd64": true, "arm": true, "arm64": true, "loong64": true, "mips": true,
	"mipsle": true, "mips64": true, "mips64le": true, "ppc64": true, "ppc64le": true,
	"riscv64": true, "s390x": true, "wasm": true, "sparc64": true,
}

// toolTags are the tags the Go release that built snap sets, such as its
// default GOEXPERIMENTs (goexperiment.greenteagc).
var toolTags = func() map[string]bool {
	m := make(map[string]bool)
	for _, t := range build.Default.ToolTags {
		m[t] = true
	}
	return m
}()

// defaultBuild reports whether file is compiled on linux/amd64, by its
// name (foo_windows.go, foo_arm64.go) and its //go:build expression.
func defaultBuild(file, expr string) bool {
	name := strings.TrimSuffix(path.Base(file), ".go")
	name = strings.TrimSuffix(name, "_test")
	parts := strings.Split(name, "_")
	if n := len(parts); n >= 2 {
		last := parts[n-1]
		if knownArch[last] {
			if last != defaultArch {
				return false
			}
			if n >= 3 && knownOS[parts[n-2]] && parts[n-2] != defaultOS {
				return false
			}
		} else if knownOS[last] && last != defaultOS {
			return false
		}
	}
	if expr == "" {
		return true
	}
	x, err := constraint.Parse("//go:build " + expr)
	if err != nil {
		return true
	}
	return x.Eval(func(tag string) bool {
		switch {
		case tag == defaultOS, tag == defaultArch, tag == "unix", tag == "gc", tag == "cgo":
			return true
		case strings.HasPrefix(tag, "go1."):
			return true
		}
		return toolTags[tag]
	})
}
