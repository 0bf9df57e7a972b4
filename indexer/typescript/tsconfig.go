package typescript

import (
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/graphsnap/snap/indexer"
)

// A tsconfig.json (or jsconfig.json) maps module specifiers to files with
// compilerOptions.baseUrl and paths. Extraction applies the mapping of the
// nearest config above a file, so the refs hold tree paths and resolution
// needs no config. The configs are context files (ContextFile): when one
// changes, every file is extracted again.

// config is what a tsconfig says about module specifiers.
type config struct {
	baseURL   string // tree path baseUrl names, "" for none
	hasBase   bool
	pathsBase string // the folder paths patterns are relative to
	paths     []pathMapping
}

type pathMapping struct {
	prefix, suffix string // around the one "*" (suffix unused without one)
	wildcard       bool
	subs           []string
}

// configs caches the config governing each folder, for one extractor.
type configs struct {
	tree  *indexer.Tree
	byDir map[string]*config
	files map[string]*rawConfig
}

type rawConfig struct {
	Extends         json.RawMessage `json:"extends"`
	CompilerOptions struct {
		BaseURL *string             `json:"baseUrl"`
		Paths   map[string][]string `json:"paths"`
		OutDir  *string             `json:"outDir"`
		RootDir *string             `json:"rootDir"`
	} `json:"compilerOptions"`
	Include []string `json:"include"`
}

func newConfigs(t *indexer.Tree) *configs {
	return &configs{tree: t, byDir: make(map[string]*config), files: make(map[string]*rawConfig)}
}

// forDir returns the config of the nearest tsconfig.json or jsconfig.json
// in dir or above, nil for none.
func (c *configs) forDir(dir string) *config {
	if c.tree == nil || c.tree.ReadFile == nil {
		return nil
	}
	if cfg, ok := c.byDir[dir]; ok {
		return cfg
	}
	var cfg *config
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		p := path.Join(dir, name)
		if c.tree.Has(p) {
			cfg = c.load(p)
			break
		}
	}
	if cfg == nil && dir != "." && dir != "" {
		cfg = c.forDir(path.Dir(dir))
	}
	c.byDir[dir] = cfg
	return cfg
}

// load reads the config at p and the ones it extends.
func (c *configs) load(p string) *config {
	cfg := &config{}
	pathsFrom := ""
	seen := make(map[string]bool)
	// Walk from p to its farthest base; nearer settings win.
	for p != "" && !seen[p] && len(seen) < 8 {
		seen[p] = true
		raw := c.read(p)
		if raw == nil {
			break
		}
		dir := path.Dir(p)
		if raw.CompilerOptions.BaseURL != nil && !cfg.hasBase {
			cfg.hasBase, cfg.baseURL = true, path.Join(dir, *raw.CompilerOptions.BaseURL)
		}
		if raw.CompilerOptions.Paths != nil && pathsFrom == "" {
			pathsFrom = dir
			for pattern, subs := range raw.CompilerOptions.Paths {
				prefix, suffix, wildcard := strings.Cut(pattern, "*")
				cfg.paths = append(cfg.paths, pathMapping{prefix: prefix, suffix: suffix, wildcard: wildcard, subs: subs})
			}
		}
		p = c.extends(dir, raw.Extends)
	}
	if cfg.paths == nil && !cfg.hasBase {
		return nil
	}
	cfg.pathsBase = pathsFrom
	if cfg.hasBase {
		cfg.pathsBase = cfg.baseURL
	}
	// The longest prefix wins; ties in a fixed order.
	sort.Slice(cfg.paths, func(i, j int) bool {
		a, b := cfg.paths[i], cfg.paths[j]
		if len(a.prefix) != len(b.prefix) {
			return len(a.prefix) > len(b.prefix)
		}
		return a.prefix+"*"+a.suffix < b.prefix+"*"+b.suffix
	})
	return cfg
}

// extends returns the tree path of the first config an extends setting
// names that is a context file of the tree ("" for none): a base named
// otherwise, or in a package, is not followed.
func (c *configs) extends(dir string, raw json.RawMessage) string {
	var names []string
	var one string
	if json.Unmarshal(raw, &one) == nil {
		names = []string{one}
	} else {
		_ = json.Unmarshal(raw, &names)
	}
	for i := len(names) - 1; i >= 0; i-- { // the last one wins
		n := names[i]
		if !strings.HasPrefix(n, "./") && !strings.HasPrefix(n, "../") {
			continue
		}
		p := path.Join(dir, n)
		if !strings.HasSuffix(p, ".json") {
			p += ".json"
		}
		if isConfigFile(p) && c.tree.Has(p) {
			return p
		}
	}
	return ""
}

func (c *configs) read(p string) *rawConfig {
	if raw, ok := c.files[p]; ok {
		return raw
	}
	var raw *rawConfig
	if data, err := c.tree.ReadFile(p); err == nil {
		var r rawConfig
		if json.Unmarshal(jsonc(data), &r) == nil {
			raw = &r
		}
	}
	c.files[p] = raw
	return raw
}

// mapSpec returns the candidates of a bare module specifier under cfg:
// the tree paths its paths mapping and baseUrl give, in the order
// TypeScript tries them, then the specifier itself (a package).
func (cfg *config) mapSpec(spec string) []string {
	var out []string
	for _, m := range cfg.paths {
		var star string
		switch {
		case !m.wildcard && spec == m.prefix:
		case m.wildcard && len(spec) >= len(m.prefix)+len(m.suffix) && strings.HasPrefix(spec, m.prefix) && strings.HasSuffix(spec, m.suffix):
			star = spec[len(m.prefix) : len(spec)-len(m.suffix)]
		default:
			continue
		}
		for _, s := range m.subs {
			if p, ok := treePath(path.Join(cfg.pathsBase, strings.Replace(s, "*", star, 1))); ok {
				out = append(out, p)
			}
		}
		break
	}
	if cfg.hasBase {
		if p, ok := treePath(path.Join(cfg.baseURL, spec)); ok {
			out = append(out, p)
		}
	}
	return append(out, spec)
}

// treePath makes p a candidate path ("/" then the tree path), or reports
// that it leaves the tree.
func treePath(p string) (string, bool) {
	if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return "", false
	}
	return "/" + p, true
}

// jsonc turns JSON with comments and trailing commas into JSON.
func jsonc(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(data))
			out = append(out, data[i:j]...)
			i = j - 1
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/') {
				i++
			}
			i++
		case c == ']' || c == '}':
			k := len(out) - 1
			for k >= 0 && (out[k] == ' ' || out[k] == '\t' || out[k] == '\n' || out[k] == '\r') {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out = append(out[:k], out[k+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
