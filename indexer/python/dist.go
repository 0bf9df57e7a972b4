package python

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// A Python distribution is the folder of a pyproject.toml that names a
// project. Every module under one gets a dist fact: the distribution and
// the ones it depends on, so that a join of several repositories (package
// union) links an import of a module of another repository only where
// the importing project declares that repository's distribution.
// pyproject.toml files are context files.

type distribution struct {
	name     string // normalized as PEP 503 does
	requires string // normalized names it depends on, sorted, space-separated
}

type pyproject struct {
	Project struct {
		Name                 string              `toml:"name"`
		Dependencies         []string            `toml:"dependencies"`
		OptionalDependencies map[string][]string `toml:"optional-dependencies"`
	} `toml:"project"`
	DependencyGroups map[string][]any `toml:"dependency-groups"`
	Tool             struct {
		Poetry struct {
			Name            string         `toml:"name"`
			Dependencies    map[string]any `toml:"dependencies"`
			DevDependencies map[string]any `toml:"dev-dependencies"`
			Group           map[string]struct {
				Dependencies map[string]any `toml:"dependencies"`
			} `toml:"group"`
		} `toml:"poetry"`
	} `toml:"tool"`
}

// distributions caches the distribution governing each folder, for one
// extractor.
type distributions struct {
	tree  *indexer.Tree
	byDir map[string]*distribution
}

func (ds *distributions) forDir(dir string) *distribution {
	if ds.tree == nil || ds.tree.ReadFile == nil {
		return nil
	}
	if ds.byDir == nil {
		ds.byDir = make(map[string]*distribution)
	}
	if d, ok := ds.byDir[dir]; ok {
		return d
	}
	var d *distribution
	if file := path.Join(dir, "pyproject.toml"); ds.tree.Has(file) {
		d = ds.load(file)
	} else if dir != "." && dir != "" {
		d = ds.forDir(path.Dir(dir))
	}
	ds.byDir[dir] = d
	return d
}

func (ds *distributions) load(file string) *distribution {
	data, err := ds.tree.ReadFile(file)
	if err != nil {
		return nil
	}
	var p pyproject
	if toml.Unmarshal(data, &p) != nil {
		return nil
	}
	name := cmp.Or(p.Project.Name, p.Tool.Poetry.Name)
	if name == "" {
		return nil
	}
	var reqs []string
	add := func(spec string) {
		if n := requirementName(spec); n != "" && n != "python" {
			reqs = append(reqs, n)
		}
	}
	for _, r := range p.Project.Dependencies {
		add(r)
	}
	for _, rs := range p.Project.OptionalDependencies {
		for _, r := range rs {
			add(r)
		}
	}
	for _, rs := range p.DependencyGroups {
		for _, r := range rs {
			if s, ok := r.(string); ok {
				add(s)
			}
		}
	}
	poetry := []map[string]any{p.Tool.Poetry.Dependencies, p.Tool.Poetry.DevDependencies}
	for _, g := range p.Tool.Poetry.Group {
		poetry = append(poetry, g.Dependencies)
	}
	for _, m := range poetry {
		for n := range m {
			add(n)
		}
	}
	slices.Sort(reqs)
	return &distribution{name: normalize(name), requires: strings.Join(slices.Compact(reqs), " ")}
}

var (
	requirementRE = regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)
	separatorsRE  = regexp.MustCompile(`[-_.]+`)
)

// requirementName returns the normalized name a PEP 508 requirement
// names ("requests[socks]>=2; python_version>'3'" names requests).
func requirementName(spec string) string {
	m := requirementRE.FindStringSubmatch(spec)
	if m == nil {
		return ""
	}
	return normalize(m[1])
}

// normalize writes a distribution name as PEP 503 does.
func normalize(name string) string {
	return separatorsRE.ReplaceAllString(strings.ToLower(name), "-")
}

// distFact is the dist fact of a module, nil outside a distribution.
func (ds *distributions) distFact(file string, module *schemas.Node) *schemas.Ref {
	d := ds.forDir(path.Dir(file))
	if d == nil {
		return nil
	}
	return &schemas.Ref{File: file, Src: module.ID, Kind: schemas.RefDist, Target: d.name, Expr: d.requires, Line: 1, Col: 1}
}
